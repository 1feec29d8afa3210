#pragma once
// What every rank computes of whole lines by itself: the values of their rows from a hash of
// (line, global row, which value), and the reference solve of the whole lines (the single-process
// Thomas or periodic solve on Kokkos::Serial), against which the distributed solves are checked.
#include <bandsolve/tridiag/periodic.hpp>
#include <bandsolve/tridiag/thomas.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace bstest_mpi {

// A value in [-1, 1) from a 64-bit key (splitmix64's finalizer).
inline double hashed_value(std::uint64_t key) {
  std::uint64_t z = key + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
}

// Solves the whole lines (batches in any layout, x over d) with lines with ends or periodic
// lines; returns the info codes.
template <class AView, class BView, class CView, class DView>
std::vector<int> solve_whole_lines(bool periodic, const AView& a, const BView& b, const CView& c,
                                   const DView& d) {
  const std::size_t nsys = d.extent(0);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
  if (periodic)
    bandsolve::solve(Kokkos::Serial(), bandsolve::algo::periodic{}, a, b, c, d, info);
  else
    bandsolve::solve(Kokkos::Serial(), bandsolve::algo::thomas{}, a, b, c, d, info);
  Kokkos::fence();
  return std::vector<int>(info.data(), info.data() + nsys);
}

}  // namespace bstest_mpi
