#pragma once
// A View's extent and stride along an axis given as an int (the headers' axis numbers): Kokkos
// 3.4 takes any integer there, Kokkos 4.x's View (mdspan-based) a size_t, so that a plain int
// converts with a sign warning under -Wsign-conversion. Axes are never negative.
#include <Kokkos_Core.hpp>

#include <cstddef>

namespace bandsolve::detail {

template <class View>
KOKKOS_INLINE_FUNCTION std::size_t extent_at(const View& v, int axis) {
  return static_cast<std::size_t>(v.extent(static_cast<std::size_t>(axis)));
}

template <class View>
KOKKOS_INLINE_FUNCTION std::size_t stride_at(const View& v, int axis) {
  return static_cast<std::size_t>(v.stride(static_cast<std::size_t>(axis)));
}

// A team scratch size to ask for, in set_scratch_size and in get_shmem alike: `bytes` rounded up
// to a multiple of 8. Kokkos's scratch space hands out multiples of 8 bytes (get_shmem rounds the
// request up) and returns nullptr past the end of what was asked; Kokkos::Threads holds exactly
// what was asked (OpenMP's pool had slack), so a request of 76 bytes failed there.
template <class Integer>
KOKKOS_INLINE_FUNCTION constexpr Integer team_scratch_request(Integer bytes) {
  return static_cast<Integer>((bytes + 7) / 8 * 8);
}

// Kokkos::PerTeam of a byte count (any integer type, never negative), in the integer type the
// installed Kokkos takes: int in Kokkos 3, size_t in Kokkos 4.
template <class Integer>
auto per_team_bytes(Integer bytes) {
  using count = decltype(Kokkos::PerTeam(0).value);
  return Kokkos::PerTeam(static_cast<count>(bytes));
}

}  // namespace bandsolve::detail
