#pragma once
// Batched PCR and CR on the device backend (backend/device/): a team per system, its threads
// across the rows, the system in team scratch, and the reduction of reduction_kernel.hpp with one
// lane (reduce_tile<Algo, 1>, the routine the host path runs when it works inside a system).
// Runs on Kokkos::Cuda and, for tests, on host execution spaces (solve(..., backend::device{}));
// called from pcr.hpp after its argument checks, with the host path's info codes (agreed_info).
//
// A team is one warp (device::tile_systems = 32 threads; one thread on host spaces), launched
// with device::for_each_tile, one "tile" per system. Scratch per system: the threads' first bad
// rows (32 x 8 bytes, level 0) and k n sizeof(T) bytes of rows, k = 6 for PCR (a, c, d twice:
// ping-pong), 4 for CR (in place); the rows go to team scratch level 0 while the whole stays
// under device_level0_max (12 KiB: PCR double n <= 250), else level 1 (up to
// device_row_scratch_max, 16 MiB), else one buffer per call with a slice per system
// (backend/device/launch.hpp, row_scratch_place; row_scratch_bytes gives the bytes held).
// Nothing else is allocated. Not yet tuned on a GPU: one warp per system, a thread's rows
// contiguous (as on the host), no packing of several short systems per team.
#include <bandsolve/backend/device/launch.hpp>
#include <bandsolve/backend/device/work_shape.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/tridiag/team_batch.hpp>

#include <type_traits>

namespace bandsolve::detail {

template <class Algo>
inline constexpr bool is_reduction_algo_v =
    std::is_same_v<Algo, algo::pcr> || std::is_same_v<Algo, algo::cr>;

// Arrays of scratch (n x lanes values each) per work item.
template <class Algo>
constexpr index_t reduction_arrays() {
  if constexpr (std::is_same_v<Algo, algo::pcr>) return 6;  // a, c, d twice (ping-pong)
  else if constexpr (std::is_same_v<Algo, algo::cr>) return 4;  // a, b, c, d (in place)
  else static_assert(is_reduction_algo_v<Algo>, "bandsolve: reduction_arrays takes pcr or cr");
}

// Normalises, reduces and leaves x in the returned array (all team threads call it). Shared by
// the host and device paths.
template <class Algo, int L, class Member, class T>
KOKKOS_INLINE_FUNCTION T* reduce_tile(const Member& team, index_t n, T* ta, T* tb, T* tc, T* td,
                                      T* spare, bad_code* bad) {
  normalise_rows<L>(team, n, ta, tb, tc, td, bad);
  team.team_barrier();
  if constexpr (std::is_same_v<Algo, algo::pcr>) {
    // tb is free after normalising: it and the spare arrays are the ping-pong partners.
    return pcr_steps<L>(team, n, ta, tc, td, tb, spare, spare + n * L, bad, 1);
  } else {
    cr_steps<L>(team, n, ta, tc, td, bad, 1);
    return td;
  }
}

// One system per team: load it into row scratch (a[0] and c[n-1] read as zero), reduce, store x,
// then thread 0 merges the threads' first bad rows into info(s).
template <class Algo, class AView, class BView, class CView, class DView, class InfoView>
struct reduction_device_solve {
  using T = typename DView::non_const_value_type;
  AView a;
  BView b;
  CView c;
  DView d;
  InfoView info;
  index_t n;

  // Level 0 bytes (a bad row per thread) and row scratch bytes of one system.
  template <class ExecutionSpace>
  static std::size_t codes_bytes() {
    return static_cast<std::size_t>(device::team_threads<ExecutionSpace>()) * sizeof(bad_code);
  }
  static std::size_t row_bytes(index_t nrows) {
    return static_cast<std::size_t>(reduction_arrays<Algo>()) * static_cast<std::size_t>(nrows) *
           sizeof(T);
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t s, void* codes,
                                         void* rows) const {
    bad_code* const thread_bad = static_cast<bad_code*>(codes);
    T* const ta = static_cast<T*>(rows);
    T *const tb = ta + n, *const tc = tb + n, *const td = tc + n;
    const system_rows<const T> sa = system_of(a, s), sb = system_of(b, s), sc = system_of(c, s);
    const system_rows<T> xs = system_of(d, s);
    const index_t last = n - 1;
    // Consecutive threads take consecutive rows (coalesced where rows are contiguous).
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const index_t i) {
      ta[i] = i == 0 ? T(0) : sa[i];
      tb[i] = sb[i];
      tc[i] = i == last ? T(0) : sc[i];
      td[i] = xs[i];
    });
    team.team_barrier();
    bad_code bad[1] = {0};
    const T* const x = reduce_tile<Algo, 1>(team, n, ta, tb, tc, td, td + n, bad);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const index_t i) { xs[i] = x[i]; });
    thread_bad[team.team_rank()] = bad[0];
    team.team_barrier();
    if (team.team_rank() == 0) {
      bad_code first = 0;
      for (int u = 0; u < team.team_size(); ++u) first = merge_bad(first, thread_bad[u]);
      info(s) = agreed_info(info_of(first), n, a, b, c, s);
    }
  }
};

// solve(exec, Algo{}, a, b, c, d, info, backend::device{}) after the argument checks: nsys > 0
// systems of n > 0 rows. Enqueued on exec, not fenced.
template <class Algo, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void reduction_device_launch(const ExecutionSpace& exec, const AView& a, const BView& b,
                             const CView& c, const DView& d, const InfoView& info, index_t nsys,
                             index_t n) {
  using kernel = reduction_device_solve<Algo, AView, BView, CView, DView, InfoView>;
  const char* label = std::is_same_v<Algo, algo::pcr> ? "bandsolve::solve(pcr, device)"
                                                      : "bandsolve::solve(cr, device)";
  device::for_each_tile(exec, label, nsys, kernel::template codes_bytes<ExecutionSpace>(),
                        kernel::row_bytes(n), kernel{a, b, c, d, info, n});
}

}  // namespace bandsolve::detail
