#pragma once
// BandSolve's MPI component (target BandSolve::mpi): solves of systems whose rows are split over
// the ranks of a communicator. Not part of bandsolve.hpp: it needs MPI's C API (mpi.h).
#include <bandsolve/mpi/block_factorize.hpp>
#include <bandsolve/mpi/block_factorize_along.hpp>
#include <bandsolve/mpi/block_solve.hpp>
#include <bandsolve/mpi/block_solve_along.hpp>
#include <bandsolve/mpi/factorize.hpp>
#include <bandsolve/mpi/factorize_along.hpp>
#include <bandsolve/mpi/options.hpp>
#include <bandsolve/mpi/solve.hpp>
#include <bandsolve/mpi/solve_along.hpp>
