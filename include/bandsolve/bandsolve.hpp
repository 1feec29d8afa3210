#pragma once
// BandSolve: batched solvers for tridiagonal and banded systems on Kokkos. Umbrella header.
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/block/block_thomas.hpp>
#include <bandsolve/banded/banded_lu.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/errors.hpp>
#include <bandsolve/core/info.hpp>
#include <bandsolve/core/scalar_traits.hpp>
#include <bandsolve/layout/layout.hpp>
#include <bandsolve/toeplitz/batched.hpp>
#include <bandsolve/toeplitz/divide_and_conquer.hpp>
#include <bandsolve/toeplitz/shared_offdiag.hpp>
#include <bandsolve/tridiag/periodic.hpp>
#include <bandsolve/tridiag/pivoting.hpp>
#include <bandsolve/tridiag/thomas.hpp>
#include <bandsolve/tridiag/thomas_axis.hpp>
#include <bandsolve/version.hpp>
