#pragma once
// Batched Thomas-PCR hybrid: host API.
//
//   bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, a, b, c, d, info);
//       Solves a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i] for every system of the batch; x
//       overwrites d; a, b, c are untouched; a[0] and c[n-1] are ignored. info(s) = 0, or the
//       row Thomas names: the 1-based first row whose LU pivot (without pivoting) is zero, tiny
//       or not finite, rescanned for the systems whose sweeps met a bad pivot (see pcr.hpp).
//
//   auto f = bandsolve::factorize(exec, bandsolve::algo::thomas_pcr{}, a, b, c[, nsys]);
//   f.solve(exec, d);      // the partition method with stored factors (thomas_pcr_factor.hpp)
//
// Same Views as Thomas (row, column, interleaved<W>, strided; float, double or their
// Kokkos::complex, one type for a, b, c and d; interleaved padding lanes untouched); any n >= 0. Enqueued on exec, never fenced here. No pivoting.
//
// Systems side by side in memory (column, interleaved<W>, strided views of unit system stride;
// rows not contiguous) with n >= 2 x 128 rows take the partition path (partition_lanes.hpp):
// chunks along n shared by the threads, SIMD lanes across the systems, one team for the batch;
// scratch about 3/64 of the data (the reduced systems) plus a 32 KiB tile per thread, from the
// kept buffer of backend/scratch.hpp. Float systems with contiguous rows whose coupling decays
// take the truncated spikes of spike_rows.hpp (builds with the register sweeps; fewer than 16
// systems cut into segments that fill the lanes).
// Otherwise:
// Batches too small to fill threads x SIMD lanes run one team per system: the system is cut
// into chunks of 128 rows, SIMD lanes take 8 (double) or 16 (float) chunks at a time (on CPUs
// through in-register transposes when rows are contiguous), threads take groups of chunks, and
// the chunks' end rows are solved by PCR, by one thread's two-way Thomas sweep on teams of a few
// threads, or by the hybrid one level down (see thomas_pcr_kernel.hpp, which also offers the
// per-system form to call inside your own kernels). Larger batches of long systems (n >= 2 L
// chunks) with contiguous rows run the same per system, one thread each; other larger batches
// run SIMD across systems, each system one chunk: a modified Thomas with a 2x2 reduced system.
// Scratch: a system solved by a team holds thomas_pcr_workspace<T>(n, team size) values (about
// n/8 for n = 2^20 on 2 threads); packs of L whole systems hold 4 n L values each. At most
// min(items, threads) items hold scratch at once (tridiag/team_batch.hpp, team_scratch_bytes).
#include <bandsolve/core/algo.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/tridiag/partition_lanes.hpp>
#include <bandsolve/tridiag/spike_rows.hpp>
#include <bandsolve/tridiag/team_batch.hpp>
#include <bandsolve/tridiag/thomas_device.hpp>
#include <bandsolve/tridiag/thomas_pcr_factor.hpp>
#include <bandsolve/tridiag/thomas_pcr_kernel.hpp>

namespace bandsolve {

namespace detail {
// Full batches of long systems with contiguous rows (row layout, unit-row-stride views) go one
// system per work item (a team of one thread sweeping the system's chunks as SIMD lanes, through
// the in-register transposes) rather than across systems (packs of L whole systems through a
// tile of 4 n L values, streamed several times): from 2 SIMD groups of chunks per system. Per
// unknown, nsys x n = 2^22, double, 2 threads, one system per item against packs: n = 2^18
// 1.52-1.67 against 2.91 ns, 2^16 1.62-1.73 / 2.30, 2^14 1.52-1.64 / 2.29, 4096 1.68-1.71 /
// 2.58, 2048 1.84-1.93 / 1.95-2.35, but 1024 2.00-2.13 / 1.87-1.90 and 512 6.5 / 1.85.
template <class T>
constexpr bool one_system_per_item(index_t n) {
  return n >= 2 * static_cast<index_t>(thomas_pcr_shape<T>::lanes) *
                  thomas_pcr_shape<T>::chunk_rows;
}

// The host backends' solve (arguments checked, nsys and n > 0).
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void thomas_pcr_host_solve(const ExecutionSpace& exec, const AView& a, const BView& b,
                           const CView& c, const DView& d, const InfoView& info, index_t nsys,
                           index_t n) {
  using T = typename DView::non_const_value_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  constexpr int L = detail::vector_lanes_v<T>;
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  if (detail::partition_host_solve(exec, "bandsolve::solve(thomas_pcr)", a, b, c, d, info, nsys,
                                   n))
    return;
  if (detail::spike_rows_host_solve(exec, "bandsolve::solve(thomas_pcr)", a, b, c, d, info, nsys,
                                    n))
    return;
  const int threads = detail::concurrency_of(exec);
  const bool few = detail::inside_system_pays(nsys, threads, L);
  const bool contiguous_rows = detail::system_of(a, 0).stride == 1 &&
                               detail::system_of(b, 0).stride == 1 &&
                               detail::system_of(c, 0).stride == 1 &&
                               detail::system_of(d, 0).stride == 1;
  if (few || (contiguous_rows && detail::one_system_per_item<T>(n))) {
    const int team_size = few ? threads : 1;
    const index_t work = thomas_pcr_workspace<T>(n, team_size);
    detail::launch_teams(
        exec, "bandsolve::solve(thomas_pcr)", nsys, team_size,
        static_cast<std::size_t>(work) * sizeof(T),
        KOKKOS_LAMBDA(const member_type& team, const index_t s, void* scratch) {
          const auto xs = detail::system_of(d, s);
          const int code = thomas_pcr_solve(team, n, detail::system_of(a, s),
                                            detail::system_of(b, s), detail::system_of(c, s),
                                            xs, static_cast<T*>(scratch));
          if (team.team_rank() == 0) info(s) = detail::agreed_info(code, n, a, b, c, s);
        });
  } else {
    const index_t npacks = (nsys + L - 1) / L;
    detail::launch_teams(
        exec, "bandsolve::solve(thomas_pcr)", npacks, 1,
        static_cast<std::size_t>(4 * n * L) * sizeof(T),
        KOKKOS_LAMBDA(const member_type& team, const index_t p, void* scratch) {
          const int nl = static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
          T* const ta = static_cast<T*>(scratch);
          T *tb = ta + n * L, *tc = tb + n * L, *td = tc + n * L;
          system_rows<const T> sa[lane_count], sb[lane_count], sc[lane_count], sd[lane_count];
          system_rows<T> xs[lane_count];
          for (int l = 0; l < nl; ++l) {
            sa[l] = detail::system_of(a, p * L + l);
            sb[l] = detail::system_of(b, p * L + l);
            sc[l] = detail::system_of(c, p * L + l);
            xs[l] = detail::system_of(d, p * L + l);
            sd[l] = {xs[l].p, xs[l].stride};
          }
          detail::load_lane_tile<L>(team, n, nl, sa, sb, sc, sd, ta, tb, tc, td, L, 0);
          detail::fast_screen<L, T> screen;
          detail::hybrid_whole_systems<L>(n, ta, tb, tc, td, screen);
          if (screen.clean(nl)) {
            for (int l = 0; l < nl; ++l) info(p * L + l) = 0;
          } else {  // rare: redo with the exact screen to name the rows
            detail::exact_screen<L> exact;
            detail::load_lane_tile<L>(team, n, nl, sa, sb, sc, sd, ta, tb, tc, td, L, 0);
            detail::hybrid_whole_systems<L>(n, ta, tb, tc, td, exact);
            for (int l = 0; l < nl; ++l)
              info(p * L + l) =
                  detail::agreed_info(detail::info_of(exact.bad[l]), n, a, b, c, p * L + l);
          }
          detail::store_lane_tile<L>(team, n, nl, td, xs);
        });
  }
}

// The device backend: Thomas's device solve (a thread per system; for few long systems the
// chunk method over many teams of thomas_long_device.hpp, this hybrid's method on a GPU), then
// the info codes agreed with Thomas's LU pivots as on the host.
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void thomas_pcr_device_solve(const ExecutionSpace& exec, const AView& a, const BView& b,
                             const CView& c, const DView& d, const InfoView& info, index_t nsys,
                             index_t n) {
  thomas_device_solve(exec, a, b, c, d, info, n, nsys);
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "bandsolve::solve(thomas_pcr, device): info",
      range(exec, 0, static_cast<typename range::member_type>(nsys)),
      KOKKOS_LAMBDA(const index_t s) { info(s) = agreed_info(info(s), n, a, b, c, s); });
}

}  // namespace detail

// Backend: the execution space's own (backend::default_for_t), or backend::device to run the
// device path (detail::thomas_pcr_device_solve) on any execution space, host spaces included.
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView,
          class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve(const ExecutionSpace& exec,
                                                       algo::thomas_pcr, const AView& a,
                                                       const BView& b, const CView& c,
                                                       const DView& d, const InfoView& info,
                                                       Backend) {
  detail::team_solve_static_checks<algo::thomas_pcr, ExecutionSpace, AView, BView, CView, DView,
                                   InfoView>();
  const std::string fn = "bandsolve::solve(thomas_pcr)";
  const index_t nsys = detail::check_team_solve(fn, a, b, c, d, info);
  const index_t n = static_cast<index_t>(rows(d));
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    detail::thomas_pcr_device_solve(exec, a, b, c, d, info, nsys, n);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve(thomas_pcr): a host backend runs only on its own execution "
                  "space");
    detail::thomas_pcr_host_solve(exec, a, b, c, d, info, nsys, n);
  }
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, algo::thomas_pcr alg, const AView& a, const BView& b,
           const CView& c, const DView& d, const InfoView& info) {
  solve(exec, alg, a, b, c, d, info, backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
