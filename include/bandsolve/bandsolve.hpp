#pragma once
// BandSolve: batched solvers for tridiagonal and banded systems on Kokkos. Umbrella header.
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/errors.hpp>
#include <bandsolve/core/info.hpp>
#include <bandsolve/layout/layout.hpp>
#include <bandsolve/tridiag/thomas.hpp>
#include <bandsolve/tridiag/pcr.hpp>
#include <bandsolve/tridiag/thomas_pcr.hpp>
#include <bandsolve/tridiag/automatic.hpp>
#include <bandsolve/version.hpp>
