#pragma once
// Batched parallel cyclic reduction (PCR) and cyclic reduction (CR): host API.
//
//   bandsolve::solve(exec, bandsolve::algo::pcr{}, a, b, c, d, info);
//   bandsolve::solve(exec, bandsolve::algo::cr{},  a, b, c, d, info);
//       Solves a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i] for every system of the batch; x
//       overwrites d; a, b, c are untouched; a[0] and c[n-1] are ignored. info(s) = 0, or the
//       1-based row of system s that Thomas names: the first row whose LU pivot (without
//       pivoting) is zero, tiny or not finite. Systems whose reduction met no bad pivot report 0
//       (NaN or Inf in a, b, c and singular systems always meet one; a regular system with a
//       zero LU pivot may be solved in this elimination order); for the others the LU pivots are
//       rescanned, and a breakdown of the reduction order alone (LU pivots all good) reports the
//       smallest bad row of the first sweep that met one.
//
// Same Views as Thomas: row, column, interleaved<W> or strided, float or double; for interleaved
// packs the number of systems is info.extent(0) (padding lanes are left untouched). Work is
// enqueued on exec and never fenced here. No pivoting: for diagonally dominant systems.
//
// Each system is copied into scratch, divided by its diagonal and reduced there; x is copied
// back. Batches that fill threads x SIMD lanes run SIMD across systems (packs of 8 doubles / 16
// floats); smaller ones run one team per system with threads and SIMD lanes across its rows.
// PCR needs 6n values of scratch per system, CR 4n; both do more arithmetic than Thomas
// (PCR ~14 flops per row and step, log2 n steps) and pay off only inside a system.
// Scratch bound (solve_scratch_bytes<T>(algo::pcr{}, n, nsys, threads) gives it exactly): with
// k = 6 (PCR) or 4 (CR), at most min(nsys, threads) x (k n sizeof(T) + 64 threads + 128) bytes
// for batches below threads x L systems, and min(packs, threads) x (k n L sizeof(T) + 128) for
// larger ones, where per-item scratch is allocated per call; below 1 MiB per item it is
// Kokkos's per-thread team scratch, threads x (item + 64). One long system: k n sizeof(T) plus
// a few hundred bytes, never more (an allocation failure throws bandsolve::allocation_error
// naming the function and the size before any kernel runs).
#include <bandsolve/core/algo.hpp>
#include <bandsolve/tridiag/team_batch.hpp>

namespace bandsolve {

namespace detail {

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

// Normalises, reduces and leaves x in the returned array (all team threads call it).
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

// Scratch bytes per launch item of solve_by_reduction: a team per system (inside) holds the
// threads' first bad rows and `arrays` arrays of n values; a pack holds them for L systems.
template <class Algo, class T>
std::size_t reduction_item_bytes(index_t n, bool inside, int threads) {
  constexpr int L = vector_lanes_v<T>;
  const std::size_t codes =
      (static_cast<std::size_t>(threads) * sizeof(bad_code) + 63) / 64 * 64;
  const std::size_t values = static_cast<std::size_t>(reduction_arrays<Algo>()) *
                             static_cast<std::size_t>(n) * sizeof(T);
  return inside ? codes + values : values * L;
}

template <class Algo, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void solve_by_reduction(const ExecutionSpace& exec, const AView& a, const BView& b,
                        const CView& c, const DView& d, const InfoView& info) {
  team_solve_static_checks<ExecutionSpace, AView, BView, CView, DView, InfoView>();
  using T = typename DView::non_const_value_type;
  constexpr int L = vector_lanes_v<T>;
  const std::string fn = std::string("bandsolve::solve(") + Algo::name + ")";
  const index_t nsys = check_team_solve(fn, a, b, c, d, info);
  const index_t n = static_cast<index_t>(rows(d));
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  const char* label = std::is_same_v<Algo, algo::pcr> ? "bandsolve::solve(pcr)"
                                                      : "bandsolve::solve(cr)";
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  const int threads = concurrency_of(exec);
  if (inside_system_pays(nsys, threads, L)) {
    // One team per system: threads split the rows, SIMD across rows.
    // Per-thread first bad pivots, then the arrays (64-byte aligned).
    const std::size_t codes = (threads * sizeof(bad_code) + 63) / 64 * 64;
    launch_teams(exec, label, nsys, threads, reduction_item_bytes<Algo, T>(n, true, threads),
                 KOKKOS_LAMBDA(const member_type& team, const index_t s, void* work) {
                   bad_code* const thread_bad = static_cast<bad_code*>(work);
                   T* const ta = reinterpret_cast<T*>(static_cast<char*>(work) + codes);
                   T *tb = ta + n, *tc = tb + n, *td = tc + n;
                   const system_rows<const T> sa[1] = {system_of(a, s)};
                   const system_rows<const T> sb[1] = {system_of(b, s)};
                   const system_rows<const T> sc[1] = {system_of(c, s)};
                   const auto xs = system_of(d, s);
                   const system_rows<const T> sd[1] = {{xs.p, xs.stride}};
                   load_lane_tile<1>(team, n, 1, sa, sb, sc, sd, ta, tb, tc, td, 1, 0);
                   team.team_barrier();
                   bad_code bad[1] = {0};
                   const T* x = reduce_tile<Algo, 1>(team, n, ta, tb, tc, td, td + n, bad);
                   const system_rows<T> out[1] = {xs};
                   store_lane_tile<1>(team, n, 1, x, out);
                   thread_bad[team.team_rank()] = bad[0];
                   team.team_barrier();
                   if (team.team_rank() == 0) {
                     bad_code first = 0;
                     for (int u = 0; u < team.team_size(); ++u)
                       first = merge_bad(first, thread_bad[u]);
                     info(s) = agreed_info(info_of(first), n, a, b, c, s);
                   }
                 });
  } else {
    // One pack of L systems per work item, SIMD across the systems.
    const index_t npacks = (nsys + L - 1) / L;
    launch_teams(exec, label, npacks, 1, reduction_item_bytes<Algo, T>(n, false, threads),
                 KOKKOS_LAMBDA(const member_type& team, const index_t p, void* work) {
                   const int nl = static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
                   T* const ta = static_cast<T*>(work);
                   T *tb = ta + n * L, *tc = tb + n * L, *td = tc + n * L;
                   system_rows<const T> sa[L], sb[L], sc[L], sd[L];
                   system_rows<T> xs[L];
                   for (int l = 0; l < nl; ++l) {
                     sa[l] = system_of(a, p * L + l);
                     sb[l] = system_of(b, p * L + l);
                     sc[l] = system_of(c, p * L + l);
                     xs[l] = system_of(d, p * L + l);
                     sd[l] = {xs[l].p, xs[l].stride};
                   }
                   load_lane_tile<L>(team, n, nl, sa, sb, sc, sd, ta, tb, tc, td, L, 0);
                   bad_code bad[L] = {};
                   const T* x = reduce_tile<Algo, L>(team, n, ta, tb, tc, td, td + n * L, bad);
                   store_lane_tile<L>(team, n, nl, x, xs);
                   for (int l = 0; l < nl; ++l)
                     info(p * L + l) = agreed_info(info_of(bad[l]), n, a, b, c, p * L + l);
                 });
  }
}

// Scratch bytes that solve(exec, Algo{}, ...) with Algo = pcr or cr holds for nsys systems of
// n rows of T on `concurrency` threads (the bound in this header's top comment).
template <class Algo, class T>
std::size_t reduction_scratch_bytes(std::size_t n, std::size_t nsys, int concurrency) {
  constexpr int L = vector_lanes_v<T>;
  if (n == 0 || nsys == 0) return 0;
  const int threads = concurrency > 0 ? concurrency : 1;
  const index_t ns = static_cast<index_t>(nsys);
  if (inside_system_pays(ns, threads, L))
    return team_scratch_bytes(ns, threads,
                              reduction_item_bytes<Algo, T>(static_cast<index_t>(n), true, threads),
                              threads);
  return team_scratch_bytes((ns + L - 1) / L, 1,
                            reduction_item_bytes<Algo, T>(static_cast<index_t>(n), false, threads),
                            threads);
}

}  // namespace detail

template <class T>
std::size_t solve_scratch_bytes(algo::pcr, std::size_t n, std::size_t nsys, int concurrency) {
  return detail::reduction_scratch_bytes<algo::pcr, T>(n, nsys, concurrency);
}

template <class T>
std::size_t solve_scratch_bytes(algo::cr, std::size_t n, std::size_t nsys, int concurrency) {
  return detail::reduction_scratch_bytes<algo::cr, T>(n, nsys, concurrency);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, algo::pcr, const AView& a, const BView& b, const CView& c,
           const DView& d, const InfoView& info) {
  detail::solve_by_reduction<algo::pcr>(exec, a, b, c, d, info);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, algo::cr, const AView& a, const BView& b, const CView& c,
           const DView& d, const InfoView& info) {
  detail::solve_by_reduction<algo::cr>(exec, a, b, c, d, info);
}

}  // namespace bandsolve
