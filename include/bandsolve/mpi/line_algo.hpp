#pragma once
// The kinds of lines the distributed solves take, named by the single-process algorithm tags:
//   algo::thomas    a line has two ends: a[0] of the first rank and c[n-1] of the last are ignored;
//   algo::periodic  a line closes into a ring: a[0] of the first rank multiplies the last rank's
//                   last unknown and c[n-1] of the last rank the first rank's first unknown.
// For periodic lines every rank's part is interior (both neighbours are parts of the same ring),
// and the reduced system of each line is itself periodic.
#include <bandsolve/core/algo.hpp>
#include <bandsolve/mpi/collective_checks.hpp>
#include <bandsolve/mpi/partition_kernel.hpp>

#include <string>
#include <type_traits>

namespace bandsolve::mpi::detail {

template <class Algo>
inline constexpr bool is_line_algo_v =
    std::is_same_v<Algo, algo::thomas> || std::is_same_v<Algo, algo::periodic>;

template <class Algo>
inline constexpr bool is_periodic_v = std::is_same_v<Algo, algo::periodic>;

// The public name of a call, e.g. "bandsolve::mpi::solve" or "bandsolve::mpi::solve(periodic)".
template <class Algo>
std::string line_fn(const char* name) {
  return std::string(name) + (is_periodic_v<Algo> ? "(periodic)" : "");
}

// This rank's part of every line under partition p.
template <class Algo>
local_part part_of(const partition& p) {
  const auto me = static_cast<std::size_t>(p.rank);
  local_part part;
  part.m = p.rows[me];
  part.offset = p.offsets[me];
  part.first = !is_periodic_v<Algo> && p.rank == 0;
  part.last = !is_periodic_v<Algo> && p.rank == p.size - 1;
  return part;
}

}  // namespace bandsolve::mpi::detail
