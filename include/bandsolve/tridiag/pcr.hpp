#pragma once
// Batched parallel cyclic reduction (PCR) and cyclic reduction (CR): the API and the host path.
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
// Same Views as Thomas: row, column, interleaved<W> or strided; float, double or their
// Kokkos::complex (a, b, c and d of one type); for interleaved packs the number of systems is
// info.extent(0) (padding lanes are left untouched). Work is enqueued on exec and never fenced
// here. No pivoting: for diagonally dominant systems.
//
// Each system is copied into scratch, divided by its diagonal and reduced there; x is copied
// back. Batches that fill threads x SIMD lanes run SIMD across systems (packs of 8 doubles / 16
// floats); smaller ones run one team per system with threads and SIMD lanes across its rows.
// PCR needs 6n values of scratch per system, CR 4n; both do more arithmetic than Thomas
// (PCR ~14 flops per row and step, log2 n steps) and pay off only inside a system.
// Scratch bound (solve_scratch_bytes<T>(algo::pcr{}, n, nsys, threads) gives it exactly): with
// k = 6 (PCR) or 4 (CR), at most min(nsys, threads) x (k n sizeof(T) + 64 threads + 128) bytes
// for batches below threads x L systems, and min(packs, threads) x (k n L sizeof(T) + 128) for
// larger ones, where per-item scratch is allocated per call; below 1 MiB per item and with more
// items than threads it is Kokkos's per-thread team scratch, threads x (item + 64) (twice that in
// Kokkos 3's OpenMP backend). One long system: k n sizeof(T) plus
// a few hundred bytes, never more (an allocation failure throws bandsolve::allocation_error
// naming the function and the size before any kernel runs). That bound is the host backends';
// the device backend's scratch is in pcr_device.hpp's top comment.
//
// Backends: the execution space's own (backend::default_for_t: serial, openmp_simd, device on
// Kokkos::Cuda), or a trailing backend::device{} argument to solve, which runs the device kernels
// (pcr_device.hpp: a team per system) on any execution space; the tests run them on the host
// spaces that way. Both take the same arguments, checks and info codes.
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/tridiag/pcr_device.hpp>
#include <bandsolve/tridiag/team_batch.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {

namespace detail {

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

// The host launch of solve_by_reduction: nsys > 0 systems of n > 0 rows (arguments checked).
template <class Algo, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void reduction_host_launch(const ExecutionSpace& exec, const AView& a, const BView& b,
                           const CView& c, const DView& d, const InfoView& info, index_t nsys,
                           index_t n) {
  using T = typename DView::non_const_value_type;
  constexpr int L = vector_lanes_v<T>;
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  const char* label = std::is_same_v<Algo, algo::pcr> ? "bandsolve::solve(pcr)"
                                                      : "bandsolve::solve(cr)";
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  const int threads = concurrency_of(exec);
  if (inside_system_pays(nsys, threads, L)) {
    // One team per system: threads split the rows, SIMD across rows.
    // Per-thread first bad pivots, then the arrays (64-byte aligned).
    const std::size_t codes = (static_cast<std::size_t>(threads) * sizeof(bad_code) + 63) / 64 * 64;
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
                   system_rows<const T> sa[lane_count], sb[lane_count];
                   system_rows<const T> sc[lane_count], sd[lane_count];
                   system_rows<T> xs[lane_count];
                   for (int l = 0; l < nl; ++l) {
                     sa[l] = system_of(a, p * L + l);
                     sb[l] = system_of(b, p * L + l);
                     sc[l] = system_of(c, p * L + l);
                     xs[l] = system_of(d, p * L + l);
                     sd[l] = {xs[l].p, xs[l].stride};
                   }
                   load_lane_tile<L>(team, n, nl, sa, sb, sc, sd, ta, tb, tc, td, L, 0);
                   bad_code bad[lane_count] = {};
                   const T* x = reduce_tile<Algo, L>(team, n, ta, tb, tc, td, td + n * L, bad);
                   store_lane_tile<L>(team, n, nl, x, xs);
                   for (int l = 0; l < nl; ++l)
                     info(p * L + l) = agreed_info(info_of(bad[l]), n, a, b, c, p * L + l);
                 });
  }
}

// solve(exec, Algo{}, a, b, c, d, info, Backend{}): the argument checks, then the device
// kernels (pcr_device.hpp) or the host launch above.
template <class Algo, class Backend, class ExecutionSpace, class AView, class BView, class CView,
          class DView, class InfoView>
void solve_by_reduction(const ExecutionSpace& exec, const AView& a, const BView& b,
                        const CView& c, const DView& d, const InfoView& info) {
  team_solve_static_checks<Algo, ExecutionSpace, AView, BView, CView, DView, InfoView>();
  const std::string fn = std::string("bandsolve::solve(") + Algo::name + ")";
  const index_t nsys = check_team_solve(fn, a, b, c, d, info);
  const index_t n = static_cast<index_t>(rows(d));
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    reduction_device_launch<Algo>(exec, a, b, c, d, info, nsys, n);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve(pcr, cr): a host backend runs only on its own execution "
                  "space");
    reduction_host_launch<Algo>(exec, a, b, c, d, info, nsys, n);
  }
}

// Scratch bytes that solve(exec, Algo{}, ...) with Algo = pcr or cr holds on a host backend for
// nsys systems of n rows of T on `concurrency` threads (the bound in this header's top comment).
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

// Backend: the execution space's own (backend::default_for_t: serial, openmp_simd, device on
// Kokkos::Cuda), or backend::device to run the device kernels (pcr_device.hpp) on any execution
// space, host spaces included.
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView,
          class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve(const ExecutionSpace& exec, algo::pcr,
                                                       const AView& a, const BView& b,
                                                       const CView& c, const DView& d,
                                                       const InfoView& info, Backend) {
  detail::solve_by_reduction<algo::pcr, Backend>(exec, a, b, c, d, info);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView,
          class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve(const ExecutionSpace& exec, algo::cr,
                                                       const AView& a, const BView& b,
                                                       const CView& c, const DView& d,
                                                       const InfoView& info, Backend) {
  detail::solve_by_reduction<algo::cr, Backend>(exec, a, b, c, d, info);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, algo::pcr, const AView& a, const BView& b, const CView& c,
           const DView& d, const InfoView& info) {
  solve(exec, algo::pcr{}, a, b, c, d, info, backend::default_for_t<ExecutionSpace>{});
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, algo::cr, const AView& a, const BView& b, const CView& c,
           const DView& d, const InfoView& info) {
  solve(exec, algo::cr{}, a, b, c, d, info, backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
