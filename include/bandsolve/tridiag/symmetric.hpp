#pragma once
// Batched symmetric (Hermitian) positive definite tridiagonal systems, LDL^T without pivoting
// (LAPACK ?ptsv / ?pttrf / ?pttrs): host API.
//
//   bandsolve::solve(exec, bandsolve::algo::symmetric{}, diag, offdiag, d, info);
//       Solves conj(e[i-1]) x[i-1] + b[i] x[i] + e[i] x[i+1] = d[i] for every system, b = diag,
//       e = offdiag: x overwrites d; diag and offdiag are untouched.
//   auto f = bandsolve::factorize(exec, bandsolve::algo::symmetric{}, diag, offdiag);
//   f.solve(exec, d);      // any number of times; f.info() holds the factorization's codes
//   f.refactor(exec, diag2, offdiag2);  // new matrices of the same shape, into f's storage
//   bandsolve::solve_along(exec, bandsolve::algo::symmetric{}, axis, diag, offdiag, d, info);
//       Every line of a 2-4 D array along `axis` (symmetric_axis.hpp; host backends).
//
// offdiag has diag's shape (as a, b, c of the Thomas API: every array of a batch is laid out
// alike, so one index reaches row i of every array); element n-1 of each system is not read.
// diag is real (float or double); offdiag is of diag's type, or Kokkos::complex of it for
// Hermitian matrices (as ?zptsv); d is of offdiag's type, or Kokkos::complex over real
// coefficients (the real and imaginary parts solved at once). Layouts as Thomas (layout/):
// row, column, interleaved<W> (View<T**[W]>: the number of systems is info.extent(0)) and
// strided (View<T**, LayoutStride>); diag, offdiag and d use one layout.
// info(s) = 0, or the 1-based row of the first pivot that is not positive and finite (the leading
// minor of that order is not positive: the matrix is not positive definite, or is singular to
// working precision); d then holds no solution for that system. Work is enqueued on exec and
// never fenced here; fence before reading d or info on the host.
//
// Backends: the execution space's own (backend::default_for_t: serial, openmp_simd, device on
// Kokkos::Cuda), or a trailing backend::device{} argument to solve and factorize, which runs the
// device kernels (symmetric_device.hpp, with their scratch and factor storage) on any execution
// space; same checks, results and info codes.
//
// Traffic: a one-shot solve reads diag, offdiag, d and writes x, 4 values per unknown (32 bytes
// in double, against Thomas's 40); a factored solve reads r = 1/pivot, c' and d and writes x
// (32 bytes); long real rows with unit stride (row layout, strided rows; from
// detail::thomas_scan_min_rows rows, or fewer systems than a pack) are factored one system per
// pack and solved as linear scans (symmetric_scan_sweep.hpp): 7 values per unknown, every array
// streamed front to back instead of one system swept row by row. Scratch of the one-shot solve
// is that of solve(thomas) for the same packing (solve_scratch_bytes(algo::symmetric{}, ...)
// gives it exactly): c' of two work items in flight (lane-contiguous rows), c' and d' of one
// gathered pack (row layout), or 2 n values per system for batches smaller than a pack. The
// factorization stores 2 n values per system slot of its packs (column batches of fewer systems
// than threads x a pack: packs of one cache line; symmetric_factorization::storage_bytes).
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/tridiag/batch_checks.hpp>
#include <bandsolve/tridiag/symmetric_axis.hpp>
#include <bandsolve/tridiag/symmetric_device.hpp>
#include <bandsolve/tridiag/symmetric_kernel.hpp>
#include <bandsolve/tridiag/symmetric_register_sweep.hpp>
#include <bandsolve/tridiag/symmetric_scan_sweep.hpp>
#include <bandsolve/tridiag/thomas.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {

namespace detail {

// The factorization's packs: the host backend's register_factor_packing (8 systems for
// row-layout doubles where the register sweeps run: sym_factored_pack_in_registers). Against packs
// of 32 through the gathered sweeps, the factored solve went from 1.08-1.14x to 1.28-1.38x
// Thomas's (n = 256, 65536 systems, 2 threads); packs of 16 measured 1.16-1.18x.
template <class Layout, class C>
using symmetric_factor_packing = register_factor_packing<Layout, C>;

// The widest column runs the one-shot solve takes (column_run_packing): the 2 KiB runs of
// Thomas's rule, not its 8 KiB ones. Symmetric column batches, 2^24 unknowns, 2 threads of the
// 2-vCPU Intel Xeon, ms per solve, packs / both runs / 2 KiB runs only (two alternations):
// doubles n = 256 32.2-34.1 / 35.7-35.8 / 33.2-33.5, 4096 44.7-47.6 / 41.9-43.7 / 39.2-43.0;
// floats n = 1024 17.8-18.6 / 22.2-22.4 / 17.9-19.1, 4096 22.1-22.5 / 20.2-21.8 / 20.7-21.5.
inline constexpr int symmetric_max_run_bytes = column_short_run_bytes;

// The one-shot launch with Thomas's packing P (thomas_solve_dispatch on the off-diagonal type, up
// to symmetric_max_run_bytes): lane-contiguous rows in chains of two items in flight, or gathered
// packs one at a time (register sweeps first where they apply).
template <class Layout, class P, bool Lanes, class ExecutionSpace, class DiagView, class OffView,
          class DView, class InfoView>
void symmetric_one_shot_launch(const ExecutionSpace& exec, const DiagView& b, const OffView& e,
                               const DView& d, const InfoView& info, index_t n, index_t nsys) {
  using R = typename DiagView::non_const_value_type;
  using C = typename OffView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  constexpr int L = P::L;
  const index_t npacks = (nsys + L - 1) / L;
  const index_t chain = Lanes ? one_shot_chain_length<P>(npacks, exec.concurrency()) : 1;
  const index_t nchains = (npacks + chain - 1) / chain;
  const std::size_t scratch = thomas_item_scratch<P, Lanes, C, D>(n, chain);
  for_each_pack(
      exec, "bandsolve::solve(symmetric)", nchains, scratch,
      KOKKOS_LAMBDA(const index_t chain_index, void* work) {
        (void)b, (void)e, (void)d, (void)n;  // see thomas_one_shot_launch (nvcc)
        constexpr int W = P::W, G = P::G;
        C* cp = static_cast<C*>(work);
        const index_t p_begin = chain_index * chain;
        const index_t p_end = p_begin + chain < npacks ? p_begin + chain : npacks;
        const auto systems_in = [&](index_t p) {
          return static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
        };
        const auto write_info = [&](index_t p, const int* codes) {
          const int nl = systems_in(p);
          for (int l = 0; l < nl; ++l) info(p * L + l) = codes[l];
        };
        if constexpr (Lanes) {
          const auto rows_of = [&](index_t p) {
            return sym_lane_item<R, C, D>{pack_rows<Layout, P, DiagView, const R>(b, p),
                                          pack_rows<Layout, P, OffView, const C>(e, p),
                                          pack_rows<Layout, P>(d, p)};
          };
          const index_t last = npacks - 1;
          const int last_groups = groups_in<Layout, P>(d, last);
          const int last_lanes = is_interleaved_v<Layout> ? W : systems_in(last);
          const bool last_is_partial = last_groups < G || last_lanes < W;
          const index_t full_end = p_end == npacks && last_is_partial ? last : p_end;
          sym_solve_lanes_chain<W, G, typename P::ahead>(n, p_begin, full_end, rows_of, cp,
                                                         write_info);
          if (full_end < p_end) {
            const auto item = rows_of(last);
            int info_l[carried_lanes(L)] = {};
            const next_pack_prefetch<4> no_prefetch;
            if (last_lanes == W)
              sym_solve_lanes<W, G, true>(n, W, last_groups, item, cp, info_l, no_prefetch);
            else
              sym_solve_lanes<W, G, false>(n, last_lanes, last_groups, item, cp, info_l,
                                           no_prefetch);
            write_info(last, info_l);
          }
        } else if constexpr (!is_interleaved_v<Layout>) {
          for (index_t p = p_begin; p < p_end; ++p) {
            int info_l[carried_lanes(L)] = {};
            next_pack_prefetch<4> prefetch;
            add_next_pack<Layout, P>(prefetch, b, p, npacks, n);
            add_next_pack<Layout, P>(prefetch, e, p, npacks, n);
            add_next_pack<Layout, P>(prefetch, d, p, npacks, n);
            const auto cb = pack_gather<L, DiagView, const R>(b, p);
            const auto ce = pack_gather<L, OffView, const C>(e, p);
            const auto cd = pack_gather<L>(d, p);
            const gathered_lanes<const D> cd_in{cd.base, cd.system_stride, cd.row_stride};
            if (!sym_solve_pack_in_registers<L>(n, systems_in(p), cb, ce, cd_in, cd, cp,
                                                prefetch))
              sym_solve_gather<P::TR, L>(n, systems_in(p), cb, ce, cd, cp,
                                         reinterpret_cast<D*>(cp + n * L), info_l, prefetch);
            write_info(p, info_l);
          }
        }
      });
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// One-shot solve.

// Backend: the execution space's own (backend::default_for_t), or backend::device to run the
// device kernels (symmetric_device.hpp) on any execution space, host spaces included.
template <class ExecutionSpace, class DiagView, class OffView, class DView, class InfoView,
          class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve(const ExecutionSpace& exec,
                                                       algo::symmetric, const DiagView& diag,
                                                       const OffView& offdiag, const DView& d,
                                                       const InfoView& info, Backend) {
  detail::symmetric_static_checks<ExecutionSpace, DiagView, OffView, DView>();
  static_assert(std::is_same_v<typename DView::value_type, typename DView::non_const_value_type>,
                "bandsolve::solve(symmetric): d receives the solution and cannot be a View of "
                "const");
  detail::info_static_checks<ExecutionSpace, InfoView>();
  using Layout = layout_of_t<DView>;
  using C = typename OffView::non_const_value_type;
  const std::string fn = "bandsolve::solve(symmetric)";

  detail::check_same_shape(fn, "diag", diag, "d", d);
  detail::check_same_shape(fn, "offdiag", offdiag, "d", d);
  detail::check_no_overlap(fn, "d", d, "diag", diag);
  detail::check_no_overlap(fn, "d", d, "offdiag", offdiag);
  detail::check_no_overlap(fn, "d", d, "info", info);
  const index_t n = static_cast<index_t>(rows(d));
  detail::check_rows_fit_int(fn, rows(d));
  const index_t nsys = static_cast<index_t>(detail::systems_from_info<Layout>(fn, info, d));
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    detail::symmetric_device_solve(exec, diag, offdiag, d, info, n, nsys);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve(symmetric): a host backend runs only on its own execution "
                  "space");
    const bool lanes = detail::uses_lane_rows<Layout>(d) &&
                       detail::uses_lane_rows<Layout>(diag) &&
                       detail::uses_lane_rows<Layout>(offdiag);
    using D = typename DView::non_const_value_type;
    detail::thomas_solve_dispatch<Layout, C, D, detail::symmetric_max_run_bytes>(
        nsys, n, lanes, exec.concurrency(), [&](auto packing, auto lane_rows) {
          detail::symmetric_one_shot_launch<Layout, decltype(packing), decltype(lane_rows)::value>(
              exec, diag, offdiag, d, info, n, nsys);
        });
  }
}

template <class ExecutionSpace, class DiagView, class OffView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, algo::symmetric, const DiagView& diag,
           const OffView& offdiag, const DView& d, const InfoView& info) {
  solve(exec, algo::symmetric{}, diag, offdiag, d, info,
        backend::default_for_t<ExecutionSpace>{});
}

// Scratch bytes that solve(exec, algo::symmetric{}, diag, offdiag, d, info) holds for nsys
// systems of n rows in Layout (off-diagonal C, right-hand sides D) on `concurrency` threads: that
// of solve(thomas) with coefficients of type C, but for the column runs it does not take.
template <class Layout, class C, class D = C>
std::size_t solve_scratch_bytes(algo::symmetric, std::size_t n, std::size_t nsys, int concurrency,
                                bool lane_rows = !std::is_same_v<Layout, layout::row>) {
  return detail::thomas_one_shot_scratch_bytes<Layout, C, D, detail::symmetric_max_run_bytes>(
      n, nsys, concurrency, lane_rows);
}

// ---------------------------------------------------------------------------------------------
// Factorization reused across right-hand sides.

namespace detail {
struct symmetric_factorization_access {
  template <class F, class RView, class CView, class InfoView>
  static F make(RView r, CView cp, InfoView info, index_t nsys, index_t n) {
    return F(r, cp, info, nsys, n);
  }
};

template <class Layout, class P, class ExecutionSpace, class DView, class RView, class CView>
void symmetric_factored_solve_launch(const ExecutionSpace& exec, const DView& d, bool lanes,
                                     const RView& r, const CView& cp, index_t n, index_t nsys) {
  using D = typename DView::value_type;
  using R = typename RView::value_type;
  using C = typename CView::value_type;
  constexpr int L = P::L, W = P::W, G = P::G;
  const std::size_t scratch = lanes ? 0 : static_cast<std::size_t>(n) * L * sizeof(D);
  const index_t npacks = (nsys + L - 1) / L;
  using factor_layout = layout::interleaved<L>;
  using factor_packing = single_pack<L>;
  if (lanes && L > 1) {
    // Lane-contiguous d: chains of consecutive packs, two in flight (sym_factored_solve_chain);
    // a last pack with fewer lanes or groups is solved on its own.
    const index_t chain = chain_length(npacks, exec.concurrency());
    const index_t nchains = (npacks + chain - 1) / chain;
    for_each_pack(
        exec, "bandsolve::symmetric_factorization::solve", nchains, 0,
        KOKKOS_LAMBDA(const index_t chain_index, void*) {
          (void)d, (void)r, (void)cp, (void)n;  // see thomas_one_shot_launch (nvcc)
          const index_t p_begin = chain_index * chain;
          const index_t p_end = p_begin + chain < npacks ? p_begin + chain : npacks;
          const auto item = [&](index_t p) {
            return sym_factored_item<R, C, D>{&r(p, 0, 0), &cp(p, 0, 0),
                                              pack_rows<Layout, P>(d, p)};
          };
          const index_t last = npacks - 1;
          const int last_groups = groups_in<Layout, P>(d, last);
          const int last_lanes = static_cast<int>(is_interleaved_v<Layout> ? W : nsys - last * L);
          const bool last_is_partial = last_groups < G || last_lanes < W;
          const index_t full_end = p_end == npacks && last_is_partial ? last : p_end;
          sym_factored_solve_chain<W, G>(n, p_begin, full_end, item);
          if (full_end < p_end) {
            const auto it = item(last);
            const next_pack_prefetch<4> no_prefetch;
            if (last_lanes == W)
              sym_factored_solve_lanes<W, G, true>(n, W, last_groups, it.r, it.cp, it.d,
                                                   no_prefetch);
            else
              sym_factored_solve_lanes<W, G, false>(n, last_lanes, last_groups, it.r, it.cp, it.d,
                                                    no_prefetch);
          }
        });
    return;
  }
  for_each_pack(
      exec, "bandsolve::symmetric_factorization::solve", npacks, scratch,
      KOKKOS_LAMBDA(const index_t p, void* work) {
        const int nl = static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
        const R* rp = &r(p, 0, 0);
        const C* cpp = &cp(p, 0, 0);
        prefetch_both<next_pack_prefetch<4>, next_pack_prefetch<4>> prefetch;
        add_next_pack<factor_layout, factor_packing>(prefetch.first, r, p, npacks, n);
        add_next_pack<factor_layout, factor_packing>(prefetch.first, cp, p, npacks, n);
        add_next_pack<Layout, P>(prefetch.second, d, p, npacks, n);
        if (lanes) {
          const auto rd = pack_rows<Layout, P>(d, p);
          const int ng = groups_in<Layout, P>(d, p);
          if (is_interleaved_v<Layout> || nl == W)
            sym_factored_solve_lanes<W, G, true>(n, W, ng, rp, cpp, rd, prefetch);
          else
            sym_factored_solve_lanes<W, G, false>(n, nl, ng, rp, cpp, rd, prefetch);
        } else {
          if constexpr (!is_interleaved_v<Layout> && L > 1) {
            const auto gd = pack_gather<L>(d, p);
            if (!sym_factored_pack_in_registers<L>(n, nl, rp, cpp, gd, static_cast<D*>(work)))
              sym_factored_solve_gather<P::TR, L>(n, nl, rp, cpp, gd, static_cast<D*>(work),
                                                  prefetch);
          }
        }
      });
}
}  // namespace detail

// The LDL^H factors of a batch of symmetric (Hermitian) tridiagonal matrices, stored in packs of L
// systems (whatever the input layout): r = 1/pivot (real) and c' = e/pivot.
template <class Scalar, class Layout, class ExecutionSpace>
class symmetric_factorization {
 public:
  using scalar_type = Scalar;  // the off-diagonal's type
  using real_type = real_type_t<Scalar>;
  using layout_type = Layout;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  static constexpr int pack_width = detail::symmetric_factor_packing<Layout, Scalar>::L;
  using r_view = Kokkos::View<real_type***, Kokkos::LayoutRight, memory_space>;
  using factor_view = Kokkos::View<Scalar***, Kokkos::LayoutRight, memory_space>;

  // Gathered floats of long rows may be stored in packs of long_pack_width (one tile), and
  // doubles as Thomas's factorization stores them where this factorization's pack is wider (8
  // row doubles where the register sweeps are built: a tile already).
  static constexpr int long_pack_width = detail::long_row_one_shot_packing<Scalar>::L;
  static constexpr bool has_long_double_packs =
      detail::has_long_double_factor_packs_v<Layout, Scalar> && long_pack_width < pack_width;
  static constexpr bool has_long_packs =
      detail::has_long_factor_packs_v<Layout, Scalar> || has_long_double_packs;
  // Column and interleaved factors may be stored in narrow packs of one cache line of lanes
  // (narrow_factor_packing).
  static constexpr bool has_narrow_packs =
      detail::has_narrow_factor_packs_v<Layout, Scalar, pack_width>;
  static constexpr int narrow_pack_width = detail::narrow_factor_packing<Layout, Scalar>::L;
  // Column factors may be stored in packs of 32 lanes (column_mid_packing).
  static constexpr bool has_mid_packs = detail::has_mid_factor_packs_v<Layout, Scalar, pack_width>;
  static constexpr int mid_pack_width = detail::column_mid_packing<Scalar>::L;
  // Systems per factor pack that factorize stores for nsys systems of n rows on `threads` threads
  // (lanes: the rows of the diagonal and off-diagonal are lane-contiguous; unit_rows: their rows
  // have unit stride), as Thomas's factorization chooses them (detail::stored_pack_width) with
  // this factorization's own pack.
  static index_t factor_pack_width(std::size_t nsys, index_t n, bool lanes,
                                   bool unit_rows = std::is_same_v<Layout, layout::row>,
                                   int threads = 1) {
    return detail::stored_pack_width<Layout, Scalar, pack_width, has_long_double_packs>(
        nsys, n, lanes, unit_rows, threads);
  }

  symmetric_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(nsys_); }
  std::size_t n() const { return static_cast<std::size_t>(n_); }
  // Per-system info codes of the factorization (0 = ok, i > 0 = pivot i not positive/finite).
  Kokkos::View<const int*, memory_space> info() const { return info_; }
  // Bytes of the stored factors (r and c').
  std::size_t storage_bytes() const {
    return r_.span() * sizeof(real_type) + cp_.span() * sizeof(Scalar);
  }

  // Factors new matrices of the shape that was factored (the same rows and systems, Views of
  // Layout, diag real and offdiag of Scalar) into this factorization's packs, with the kernel of
  // the stored pack width: no allocation, no fresh pages. Same factors and info codes as
  // factorize; enqueued on exec, not fenced. Copies of a factorization share its storage and see
  // the new factors.
  template <class DiagView, class OffView>
  void refactor(const ExecutionSpace& exec, const DiagView& diag, const OffView& offdiag);

  // Solves for the right-hand sides in d (same layout and shape as the factored matrices), in
  // place. d holds Scalar, or Kokkos::complex<Scalar> when Scalar is real. Enqueued on exec, not
  // fenced. Systems whose info is not 0 get no solution.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::factored_solve_static_checks<algo::symmetric, ExecutionSpace, Layout, Scalar, DView>();
    const std::string fn = "bandsolve::symmetric_factorization::solve";
    detail::check_factored_solve<Layout>(fn, initialized_, d, n_, nsys_);
    if (nsys_ == 0 || n_ == 0) return;
    const index_t width = static_cast<index_t>(r_.extent(2));  // factor_pack_width's
    if constexpr (has_long_packs) {
      if (width == long_pack_width) {  // gathered, whatever d's strides
        detail::symmetric_factored_solve_launch<Layout,
                                                detail::long_row_one_shot_packing<Scalar>>(
            exec, d, false, r_, cp_, n_, nsys_);
        return;
      }
    }
    if constexpr (has_narrow_packs) {
      if (width == narrow_pack_width) {
        detail::symmetric_factored_solve_launch<Layout,
                                                detail::narrow_factor_packing<Layout, Scalar>>(
            exec, d, detail::uses_lane_rows<Layout>(d), r_, cp_, n_, nsys_);
        return;
      }
    }
    if constexpr (has_mid_packs) {
      if (width == mid_pack_width) {
        detail::symmetric_factored_solve_launch<Layout, detail::column_mid_packing<Scalar>>(
            exec, d, detail::uses_lane_rows<Layout>(d), r_, cp_, n_, nsys_);
        return;
      }
    }
    if (width == 1 && detail::thomas_scan_solves<Layout, Scalar, DView>())
      detail::symmetric_scan_solve_launch(exec, d, r_, cp_, n_, nsys_);
    else if (width == 1)
      detail::symmetric_factored_solve_launch<Layout, detail::one_system_packing>(
          exec, d, true, r_, cp_, n_, nsys_);
    else
      detail::symmetric_factored_solve_launch<Layout,
                                              detail::symmetric_factor_packing<Layout, Scalar>>(
          exec, d, detail::uses_lane_rows<Layout>(d), r_, cp_, n_, nsys_);
  }

 private:
  friend struct detail::symmetric_factorization_access;

  symmetric_factorization(const r_view& r, const factor_view& cp,
                          const Kokkos::View<int*, memory_space>& info, index_t nsys, index_t n)
      : r_(r), cp_(cp), info_(info), nsys_(nsys), n_(n), initialized_(true) {}

  r_view r_;
  factor_view cp_;
  Kokkos::View<int*, memory_space> info_;
  index_t nsys_ = 0, n_ = 0;
  bool initialized_ = false;
};

namespace detail {
// factorize(symmetric)'s kernel (a function of its own: nvcc allows no extended lambda inside a
// function with a deduced return type).
template <class Layout, class P, class ExecutionSpace, class DiagView, class OffView,
          class RView, class CView, class InfoView>
void symmetric_factor_kernel(const ExecutionSpace& exec, const DiagView& b, const OffView& e,
                             index_t n, index_t ns, index_t npacks, bool lanes, const RView& r,
                             const CView& cp, const InfoView& info) {
  using R = typename RView::value_type;
  using C = typename CView::value_type;
  constexpr int L = P::L, W = P::W, G = P::G;
  for_each_pack(
      exec, "bandsolve::factorize(symmetric)", npacks, 0, KOKKOS_LAMBDA(const index_t p, void*) {
        const int nl = static_cast<int>(ns - p * L < L ? ns - p * L : L);
        R* rp = &r(p, 0, 0);
        C* cpp = &cp(p, 0, 0);
        int info_l[carried_lanes(L)] = {};
        if (lanes) {
          const auto cb = pack_rows<Layout, P, DiagView, const R>(b, p);
          const auto ce = pack_rows<Layout, P, OffView, const C>(e, p);
          const int ng = groups_in<Layout, P>(b, p);
          if (is_interleaved_v<Layout> || nl == W)
            sym_factor_lanes<W, G, true>(n, W, ng, cb, ce, rp, cpp, info_l);
          else
            sym_factor_lanes<W, G, false>(n, nl, ng, cb, ce, rp, cpp, info_l);
        } else {
          if constexpr (!is_interleaved_v<Layout> && L > 1)
            sym_factor_gather<P::TR, L>(n, nl, pack_gather<L, DiagView, const R>(b, p),
                                        pack_gather<L, OffView, const C>(e, p), rp, cpp, info_l);
        }
        for (int l = 0; l < nl; ++l) info(p * L + l) = info_l[l];
      });
}

// The factors of diag and offdiag (ns systems of n rows, arguments checked) into r, cp and info
// with the kernel of the packs that r holds (r.extent(2) systems each, as factor_pack_width chose
// them for factorize): factorize's and refactor's work. lanes: the rows of diag and offdiag are
// lane-contiguous. Enqueued on exec.
template <class F, class Layout, class ExecutionSpace, class DiagView, class OffView, class RView,
          class CView, class InfoView>
void symmetric_factor_into(const ExecutionSpace& exec, const DiagView& diag,
                           const OffView& offdiag, index_t n, index_t ns, bool lanes,
                           const RView& r, const CView& cp, const InfoView& info) {
  using C = typename F::scalar_type;
  if (ns == 0 || n == 0) return;
  const index_t width = static_cast<index_t>(r.extent(2));
  const index_t npacks = static_cast<index_t>(r.extent(0));
  if (width == 1) {
    symmetric_factor_kernel<Layout, one_system_packing>(exec, diag, offdiag, n, ns, npacks, true,
                                                        r, cp, info);
    return;
  }
  if constexpr (F::has_long_packs) {
    if (width == F::long_pack_width) {
      symmetric_factor_kernel<Layout, long_row_one_shot_packing<C>>(exec, diag, offdiag, n, ns,
                                                                   npacks, false, r, cp, info);
      return;
    }
  }
  if constexpr (F::has_narrow_packs) {
    if (width == F::narrow_pack_width) {
      symmetric_factor_kernel<Layout, narrow_factor_packing<Layout, C>>(
          exec, diag, offdiag, n, ns, npacks, lanes, r, cp, info);
      return;
    }
  }
  if constexpr (F::has_mid_packs) {
    if (width == F::mid_pack_width) {
      symmetric_factor_kernel<Layout, column_mid_packing<C>>(exec, diag, offdiag, n, ns, npacks,
                                                             lanes, r, cp, info);
      return;
    }
  }
  symmetric_factor_kernel<Layout, symmetric_factor_packing<Layout, C>>(
      exec, diag, offdiag, n, ns, npacks, lanes, r, cp, info);
}
}  // namespace detail

template <class Scalar, class Layout, class ExecutionSpace>
template <class DiagView, class OffView>
void symmetric_factorization<Scalar, Layout, ExecutionSpace>::refactor(const ExecutionSpace& exec,
                                                                       const DiagView& diag,
                                                                       const OffView& offdiag) {
  detail::symmetric_check_refactor<ExecutionSpace, Layout, Scalar>(
      "bandsolve::symmetric_factorization::refactor", initialized_, diag, offdiag, n_, nsys_);
  const bool lanes =
      detail::uses_lane_rows<Layout>(diag) && detail::uses_lane_rows<Layout>(offdiag);
  detail::symmetric_factor_into<symmetric_factorization, Layout>(exec, diag, offdiag, n_, nsys_,
                                                                 lanes, r_, cp_, info_);
}

// Factorizes the matrices (diag, offdiag) of nsys systems; nsys defaults to every slot of the
// Views (for interleaved packs, give the real number of systems). Allocates the factors (2 n
// values per system slot); enqueued on exec, not fenced. Backend as for solve: on the device
// backend the result is a symmetric_device_factorization (symmetric_device.hpp).
template <class ExecutionSpace, class DiagView, class OffView, class Backend>
auto factorize(const ExecutionSpace& exec, algo::symmetric, const DiagView& diag,
               const OffView& offdiag, std::size_t nsys, Backend) {
  static_assert(backend::is_backend_v<Backend>,
                "bandsolve::factorize(symmetric): the last argument must be a backend tag "
                "(backend::device, or the execution space's own)");
  detail::symmetric_static_checks<ExecutionSpace, DiagView, OffView, OffView>();
  using Layout = layout_of_t<DiagView>;
  using C = typename OffView::non_const_value_type;
  using result_type = symmetric_factorization<C, Layout, ExecutionSpace>;
  using P = detail::symmetric_factor_packing<Layout, C>;
  constexpr int user_width = detail::is_interleaved_v<Layout> ? P::W : 1;
  const std::string fn = "bandsolve::factorize(symmetric)";
  detail::check_same_shape(fn, "offdiag", offdiag, "diag", diag);
  detail::check_rows_fit_int(fn, rows(diag));
  const std::size_t slots = capacity(diag);
  if (nsys == static_cast<std::size_t>(-1)) nsys = slots;
  if (detail::is_interleaved_v<Layout> ? (nsys + user_width - 1) / user_width != diag.extent(0)
                                       : nsys != slots)
    detail::throw_invalid_argument(fn, "nsys = ", nsys, " does not match the ", slots,
                                   " system slots of diag (", Layout::name, " layout)");

  if constexpr (std::is_same_v<Backend, backend::device>) {
    return detail::symmetric_device_factorize(exec, diag, offdiag, static_cast<index_t>(nsys));
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::factorize(symmetric): a host backend runs only on its own "
                  "execution space");
    const index_t n = static_cast<index_t>(rows(diag)), ns = static_cast<index_t>(nsys);
    const bool lanes =
        detail::uses_lane_rows<Layout>(diag) && detail::uses_lane_rows<Layout>(offdiag);
    bool unit_rows = true;
    if constexpr (std::is_same_v<Layout, layout::strided>)
      unit_rows = diag.stride(1) == 1 && offdiag.stride(1) == 1;
    const index_t width = result_type::factor_pack_width(nsys, n, lanes, unit_rows,
                                                         detail::concurrency_of(exec));
    const index_t npacks = (ns + width - 1) / width;
    const auto ep = static_cast<std::size_t>(npacks), en = static_cast<std::size_t>(n),
               ew = static_cast<std::size_t>(width);  // the views' extents
    const auto r = detail::allocate_zeroed<typename result_type::r_view>(
        exec, "bandsolve::symmetric r", ep, en, ew);
    const auto cp = detail::allocate_zeroed<typename result_type::factor_view>(
        exec, "bandsolve::symmetric c'", ep, en, ew);
    const Kokkos::View<int*, typename result_type::memory_space> info(
        Kokkos::view_alloc(exec, std::string("bandsolve::symmetric info")), nsys);
    detail::symmetric_factor_into<result_type, Layout>(exec, diag, offdiag, n, ns, lanes, r, cp,
                                                       info);
    return detail::symmetric_factorization_access::make<result_type>(r, cp, info, ns, n);
  }
}

template <class ExecutionSpace, class DiagView, class OffView, class Backend,
          std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
auto factorize(const ExecutionSpace& exec, algo::symmetric, const DiagView& diag,
               const OffView& offdiag, Backend) {
  return factorize(exec, algo::symmetric{}, diag, offdiag, static_cast<std::size_t>(-1),
                   Backend{});
}

template <class ExecutionSpace, class DiagView, class OffView>
auto factorize(const ExecutionSpace& exec, algo::symmetric, const DiagView& diag,
               const OffView& offdiag, std::size_t nsys = static_cast<std::size_t>(-1)) {
  return factorize(exec, algo::symmetric{}, diag, offdiag, nsys,
                   backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
