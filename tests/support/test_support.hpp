#pragma once
// Helpers shared by BandSolve's tests.
#include <Kokkos_Core.hpp>
#include <catch2/catch_all.hpp>
