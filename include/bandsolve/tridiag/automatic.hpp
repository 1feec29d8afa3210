#pragma once
// algo::automatic: picks the tridiagonal algorithm for a batch.
//
//   bandsolve::solve(exec, bandsolve::algo::automatic{}, a, b, c, d, info);
//   bandsolve::choose_tridiag<Layout, T>(nsys, n, threads)  // what it would pick
//   bandsolve::solve(exec, bandsolve::algo::automatic{/*symmetric=*/true}, a, b, c, d, info);
//       The caller says the matrices are symmetric positive definite (a[i] = c[i-1]): where the
//       rule picks Thomas on real coefficients, algo::symmetric solves (b, c) instead (a is not
//       read), a fifth less traffic, with its info contract (pivots not positive are reported).
//   bandsolve::solve(exec, bandsolve::algo::automatic{}, diag, offdiag, d, info);
//       A symmetric (Hermitian) batch in the form of algo::symmetric: solved by it.
//
// Scalars: float, double and their Kokkos::complex, by the rule below; real coefficients with
// complex d (the Fourier modes of a real operator) always go to Thomas (or symmetric), which
// solve both parts in one pass: the hybrid takes one scalar type.
//
// The rule (CPU backends, serial and openmp_simd; `threads` = exec.concurrency()):
//   1. Thomas, when its work items fill every thread: nsys >= threads * L_thomas, where
//      L_thomas is the number of systems in one Thomas work item for the layout
//      (detail::sweep_packing: 32 doubles / 64 floats for row and strided, twice that for
//      column blocks; for interleaved<W> the one-shot solve's items of up to two packs,
//      detail::one_shot_sweep_packing). Thomas reads every value once and
//      does the least arithmetic: nothing beats it on a full batch, except batches of long
//      systems: n >= detail::long_row_rows in row layout, n >= detail::long_column_rows in
//      column and strided layouts (below), where Thomas's work items outgrow the caches.
//   2. Otherwise Thomas when the batch holds at most detail::inline_solve_unknowns (4096)
//      unknowns: it runs them on the calling thread, faster than any parallel launch.
//   3. Otherwise the Thomas-PCR hybrid, when n >= 256 (at least two 128-row chunks): with fewer
//      systems than that, Thomas leaves threads or SIMD lanes idle, while the hybrid runs SIMD
//      across packs of 8 (16) systems, or one long system per thread with its chunks as SIMD
//      lanes, or, below threads x 8 (16) systems, a team per system, so even one system uses
//      every thread and lane. Column, interleaved and strided views whose systems lie side by
//      side take its partition path (partition_lanes.hpp): chunks along n, SIMD across systems.
//   4. Otherwise Thomas (short systems: any algorithm takes microseconds; Thomas has the least
//      overhead).
// Crossovers measured for few long systems (nsys = 2^24 / n, 2 threads of an AMD EPYC with
// AVX-512, fraction of the same-run STREAM, medians of 3 on a busy machine; bench_pcr.cpp,
// long/): column double Thomas / hybrid 0.31 / 0.22 at n = 2^14, 0.45 / 0.19 at 2^16, 0.18 /
// 0.26 at 2^18 (Thomas's column items fault in their scratch there), 0.14 / 0.28-0.32 at 2^22;
// strided alike (0.28 / 0.25, 0.36 / 0.19, 0.21 / 0.25, 0.08 / 0.16): hence
// long_column_rows = 2^17. Row double 0.31 / 0.28 at 2^14, 0.26 / 0.42 at 2^16, 0.31 / 0.37
// at 2^18 (float 0.21 / 0.23, 0.21 / 0.36, 0.18 / 0.36; medians of 2): long_row_rows = 2^15.
// Interleaved<8> and <4>: Thomas 0.73-1.06 while its packs fill the
// threads (up to n = 2^18) against 0.27-0.31, and 0.08-0.12 against 0.16-0.28 at n = 2^22 with
// 4 systems (one pack), where rule 1 already hands it to the hybrid. The interleaved crossover
// sits where the one-shot solve's items (two packs) fill the threads: 2 threads of a 2-vCPU
// Intel Xeon, 2^24 unknowns, ns per unknown Thomas / hybrid: interleaved<16> floats 32 systems
// 2.29-2.31 / 1.12-1.14, 64 systems 1.03-1.06 / 1.78-1.89; interleaved<8> doubles 16 systems
// 4.46-4.51 / 2.39-2.43, 32 systems 2.27-2.29 / 2.49-2.55; interleaved<4> doubles 8 systems
// 4.54-4.63 / 2.37-2.39, 16 systems 2.32-2.35 / 2.39-2.41; interleaved<4> floats 8 systems
// 2.20-2.24 / 1.40-1.52, 16 systems 1.07-1.11 / 1.53-1.61.
// On the device backend (Kokkos::Cuda) the rule is the device's own: the hybrid's device path
// (Thomas's chunk method over many teams) for few long systems (detail::device::long_system_pays:
// n >= 4096 and 8 nsys at most the threads the space runs at once), else Thomas (or symmetric),
// a thread per system.
// PCR and CR are never picked on these backends: in the benchmark sweep (bench_pcr.cpp,
// pcr_sweep, nsys x n = 2^22 at nsys = 1 .. 4096) PCR was slower than both others at every
// nsys (log2 n sweeps over 6 arrays). The layout enters through L_thomas only. Behind the
// thresholds: for row doubles on 2 threads the hybrid is faster at nsys = 1, 4 and 16, Thomas at
// 256 and 4096, and the two tie at 64 (docs/performance.md).
#include <bandsolve/tridiag/pcr.hpp>
#include <bandsolve/tridiag/symmetric.hpp>
#include <bandsolve/tridiag/thomas.hpp>
#include <bandsolve/tridiag/thomas_pcr.hpp>

namespace bandsolve {

enum class tridiag_choice { thomas, thomas_pcr };

inline const char* name_of(tridiag_choice choice) {
  return choice == tridiag_choice::thomas ? algo::thomas::name : algo::thomas_pcr::name;
}

namespace detail {
// Rows from which column and strided batches go to the hybrid's partition path even when they
// fill Thomas's work items, and row batches (real, complex) to its one-system-per-item path (see
// the rule above). Variables so that tests can lower them.
inline std::size_t long_column_rows = std::size_t(1) << 17;
inline std::size_t long_row_rows = std::size_t(1) << 15;
}  // namespace detail

// The choice algo::automatic makes for nsys systems of n rows in Layout, scalar T, on an
// execution space with `threads` threads.
template <class Layout, class T>
tridiag_choice choose_tridiag(std::size_t nsys, std::size_t n, int threads) {
  constexpr std::size_t thomas_lanes = detail::is_interleaved_v<Layout>
                                           ? detail::one_shot_sweep_packing<Layout, T>::L
                                           : detail::sweep_packing<Layout, T>::L;
  constexpr bool side_by_side =
      std::is_same_v<Layout, layout::column> || std::is_same_v<Layout, layout::strided>;
  const std::size_t t = threads > 0 ? static_cast<std::size_t>(threads) : 1;
  const bool hybrid_splits = n >= 2 * static_cast<std::size_t>(thomas_pcr_shape<T>::chunk_rows) &&
                             nsys * n > static_cast<std::size_t>(detail::inline_solve_unknowns);
  // Complex rows: Thomas, except where it leaves threads idle and for long systems, as for real
  // rows (n >= detail::long_row_rows, where Thomas's packs take one tile of systems and the two
  // tie). Complex doubles, 2 threads, 2^21 unknowns, ns per unknown Thomas / hybrid: 2048 rows
  // 3.5-3.7 / 4.6-4.7, 8192 rows 4.5-5.3 / 4.4-4.6, 2^15 4.6 / 4.5-4.7, 2^17 4.6-5.1 / 4.6,
  // 4 systems of 2^19 9.3 / 4.8-4.9, one system of 2^21 22.6-22.9 / 5.1-5.3
  // (bench/results/epyc-zen5-2vcpu/complex_row_parts_after_run{1,2}.json).
  // Complex column, interleaved and strided batches take the real rule (the partition path runs
  // on the values' parts): column, ns per unknown Thomas / hybrid, 4 to 16 systems 11.5-17.7 /
  // 2.9-4.1, 32: 3.9-4.1 / 3.0-4.0, 64: 3.0-3.3 / 2.9-4.1, 128: 2.9-3.4 / 3.1-4.6; interleaved<8>
  // 16 systems 3.3-4.0 / 3.0-3.9, 64: 2.5-2.7 / 2.9-3.8 (complex_side_by_side_after_run{1,2}.json).
  if constexpr (is_complex_v<T> && std::is_same_v<Layout, layout::row>)
    return hybrid_splits && (nsys < t || n >= detail::long_row_rows) ? tridiag_choice::thomas_pcr
                                                                    : tridiag_choice::thomas;
  const bool long_systems = std::is_same_v<Layout, layout::row>
                                ? n >= detail::long_row_rows
                                : side_by_side && n >= detail::long_column_rows;
  if (nsys >= t * thomas_lanes && !long_systems) return tridiag_choice::thomas;
  // A few thousand unknowns: Thomas runs them on the calling thread (tiny_launch.hpp) in a few
  // microseconds, where the hybrid's parallel launch alone costs more (one system of 256 doubles:
  // 3.5 us against 75 us).
  if (nsys * n <= static_cast<std::size_t>(detail::inline_solve_unknowns))
    return tridiag_choice::thomas;
  return hybrid_splits ? tridiag_choice::thomas_pcr : tridiag_choice::thomas;
}

namespace detail {
// algo::automatic on coefficients and d of one scalar type (real or complex).
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void automatic_solve(const ExecutionSpace& exec, algo::automatic alg, const AView& a,
                     const BView& b, const CView& c, const DView& d, const InfoView& info) {
  team_solve_static_checks<algo::automatic, ExecutionSpace, AView, BView, CView, DView, InfoView>();
  using T = typename DView::non_const_value_type;
  using Layout = layout_of_t<DView>;
  bool hybrid;
  if constexpr (std::is_same_v<backend::default_for_t<ExecutionSpace>, backend::device>)
    hybrid = detail::device::long_system_pays(exec, static_cast<index_t>(rows(d)),
                                              static_cast<index_t>(info.extent(0)));
  else
    hybrid = choose_tridiag<Layout, T>(info.extent(0), rows(d), detail::concurrency_of(exec)) ==
             tridiag_choice::thomas_pcr;
  // Strided views of full batches go to the hybrid only when their systems lie side by side
  // (its partition path) or their rows are contiguous (one system per item); others stay with
  // Thomas.
  if constexpr (std::is_same_v<Layout, layout::strided>)
    if (hybrid &&
        info.extent(0) >= static_cast<std::size_t>(detail::concurrency_of(exec)) *
                              static_cast<std::size_t>(detail::sweep_packing<Layout, T>::L) &&
        !(detail::lanes_adjacent(a) && detail::lanes_adjacent(b) && detail::lanes_adjacent(c) &&
          detail::lanes_adjacent(d)) &&
        (is_complex_v<T> ||  // complex contiguous rows: as row layout (choose_tridiag)
         !(a.stride(1) == 1 && b.stride(1) == 1 && c.stride(1) == 1 && d.stride(1) == 1)))
      hybrid = false;
  if (hybrid) {
    bandsolve::solve(exec, algo::thomas_pcr{}, a, b, c, d, info);
    return;
  }
  if constexpr (!is_complex_v<typename BView::non_const_value_type>) {
    if (alg.symmetric) {
      bandsolve::solve(exec, algo::symmetric{}, b, c, d, info);
      return;
    }
  }
  bandsolve::solve(exec, algo::thomas{}, a, b, c, d, info);
}
}  // namespace detail

// Solves with the algorithm choose_tridiag picks (same arguments and guarantees as the others).
// Real coefficients with complex d go to Thomas (or symmetric), which take them as they are: the
// hybrid works in one scalar type.
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, algo::automatic alg, const AView& a, const BView& b,
           const CView& c, const DView& d, const InfoView& info) {
  using T = typename DView::non_const_value_type;
  if constexpr (is_complex_over_real_v<typename BView::non_const_value_type, T>) {
    if (alg.symmetric)
      solve(exec, algo::symmetric{}, b, c, d, info);
    else
      solve(exec, algo::thomas{}, a, b, c, d, info);
  } else {
    detail::automatic_solve(exec, alg, a, b, c, d, info);
  }
}

// A batch given as algo::symmetric takes it (diag, offdiag, d, info as there).
template <class ExecutionSpace, class DiagView, class OffView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, algo::automatic, const DiagView& diag,
           const OffView& offdiag, const DView& d, const InfoView& info) {
  solve(exec, algo::symmetric{}, diag, offdiag, d, info);
}

}  // namespace bandsolve
