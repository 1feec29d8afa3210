#pragma once
// Factored symmetric positive definite (Hermitian) lines along an axis of a 2-D to 4-D array:
// LDL^T once, solves many (an implicit diffusion operator kept across time steps).
//
//   auto f = factorize_along(exec, algo::symmetric{}, axis, diag, offdiag[, backend]);
//   auto f = factorize_along(exec, algo::symmetric{}, axis, diag, offdiag, d[, backend]);
//   f.solve(exec, d);   // any number of times: x overwrites d
//   f.solve_add(exec, d, u);  // u += x, d only read (the last sweep of an ADI step)
//   f.refactor(exec, diag2, offdiag2);  // new coefficients of the same kind, into f's storage
//   f.info();           // the factorization's codes, one per line (solve_along's numbering)
//
// diag and offdiag as for solve_along(symmetric) (symmetric_axis.hpp): full arrays of the grid's
// extents (any layouts, each its own strides) or rank-1 Views of length n shared by every line;
// diag float or double, offdiag of its type or Kokkos::complex of it (Hermitian lines). The first
// form takes the grid from diag, the second from d, a View shaped like the right-hand sides to
// come (its values are not read). A solve takes d of the factored extents in any layout, of
// offdiag's type or, over real lines, Kokkos::complex of it.
// Storage: r = 1/pivot (real) and c' = e r per row and line, 2 values per unknown (?pttrf's),
// read with d by every solve: 4 words of memory traffic per unknown, as the one-shot solve
// (which reads diag and offdiag), against the factored Thomas lines' 5. Shared coefficients: one
// line's factors in Thomas's form (r, l, c': its shared sweeps), and a solve moves d alone.
// Host backends: the packs of factorize_along(thomas) (neighbouring lines along the batch axis of
// smallest stride, a SIMD lane each, grouped at factorization), the solve streaming a pack's
// factors with d's lines, lane-contiguous or through transposed tiles. Device backend (trailing
// backend::device{}, the default on Kokkos::Cuda): copies of diag and offdiag (2 values per
// unknown as the factors) and the codes at factorization; each solve runs solve_along's device
// symmetric sweep on the copies (as many words as the factors would move). Codes: 0, or the
// 1-based row of the first pivot that is not positive and finite (solve_along(symmetric)'s). Work
// is enqueued on exec, not fenced; a solve does not look at info().
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/layout/axis_factorization.hpp>
#include <bandsolve/tridiag/lane_kernel_axis.hpp>
#include <bandsolve/tridiag/symmetric_axis.hpp>
#include <bandsolve/tridiag/symmetric_register_sweep.hpp>
#include <bandsolve/tridiag/thomas_axis_factor.hpp>

#include <array>
#include <string>
#include <type_traits>
#include <utility>

namespace bandsolve {

template <class Scalar, class ExecutionSpace, class Backend>
class symmetric_axis_factorization;

namespace detail {

// Host backends: the factors of the packs of g, pack p's r (real) at r + p n W and c' at
// cp + p n W, rows of W lanes; lanes: diag and offdiag have unit stride along the lane axis.
template <class ExecutionSpace, class R, class E, class DiagView, class OffView, class InfoView>
void symmetric_axis_factor_host(const ExecutionSpace& exec, const line_packs& g, bool lanes,
                                const DiagView& b, const OffView& e, R* r, E* cp,
                                const InfoView& info) {
  using P = thomas_axis_factor_packing<E, backend::default_for_t<ExecutionSpace>>;
  constexpr int W = P::W, TR = P::TR;
  constexpr auto lane_count = static_cast<std::size_t>(W);  // an array bound
  const nd_strides sb = strides_of(b), se = strides_of(e);
  const index_t n = g.n;
  for_each_pack(
      exec, "bandsolve::factorize_along(symmetric)", g.npacks, 0,
      KOKKOS_LAMBDA(const index_t p, void*) {
        const line_pack k = g.pack(p);
        const int nl = k.lanes;
        const index_t ki = g.axis, kl = g.lane_axis;
        R* const rp = r + p * n * W;
        E* const cpp = cp + p * n * W;
        int info_l[lane_count] = {};
        if (lanes) {
          const lane_rows<const R> rb{b.data() + g.offset(sb, k), sb.s[ki]};
          const lane_rows<const E> re{e.data() + g.offset(se, k), se.s[ki]};
          if (nl == W) sym_factor_lanes<W, 1, true>(n, W, 1, rb, re, rp, cpp, info_l);
          else sym_factor_lanes<W, 1, false>(n, nl, 1, rb, re, rp, cpp, info_l);
        } else {
          const gathered_lanes<const R> gb{b.data() + g.offset(sb, k), sb.s[kl], sb.s[ki]};
          const gathered_lanes<const E> ge{e.data() + g.offset(se, k), se.s[kl], se.s[ki]};
          sym_factor_gather<TR, W>(n, nl, gb, ge, rp, cpp, info_l);
        }
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < nl; ++l) info(s0 + l * g.lane_system_stride) = info_l[l];
      });
}

// A solve with the stored factors of the packs of g: d's pack in place where d has unit stride
// along the lane axis, else gathered in tiles through a pack's rows of scratch.
template <class ExecutionSpace, class R, class E, class DView>
void symmetric_axis_factored_solve_host(const ExecutionSpace& exec, const line_packs& g,
                                        const R* r, const E* cp, const DView& d) {
  using D = typename DView::value_type;
  using P = thomas_axis_factor_packing<E, backend::default_for_t<ExecutionSpace>>;
  constexpr int W = P::W, TR = P::TR;
  const nd_strides sd = strides_of(d);
  const index_t n = g.n;
  const bool lanes = unit_lane_stride(d, g.lane_axis);
  const std::size_t scratch = lanes ? 0 : static_cast<std::size_t>(n) * W * sizeof(D);
  for_each_pack(
      exec, "bandsolve::symmetric_axis_factorization::solve", g.npacks, scratch,
      KOKKOS_LAMBDA(const index_t p, void* work) {
        const line_pack k = g.pack(p);
        const int nl = k.lanes;
        const R* const rp = r + p * n * W;
        const E* const cpp = cp + p * n * W;
        D* const base = d.data() + g.offset(sd, k);
        if (lanes) {
          const lane_rows<D> rd{base, sd.s[g.axis]};
          if (nl == W)
            sym_factored_solve_lanes<W, 1, true>(n, W, 1, rp, cpp, rd, no_prefetch{});
          else
            sym_factored_solve_lanes<W, 1, false>(n, nl, 1, rp, cpp, rd, no_prefetch{});
        } else {
          const gathered_lanes<D> gd{base, sd.s[g.lane_axis], sd.s[g.axis]};
          // Whole packs of doubles with unit row stride through the register sweeps, else the
          // gathered sweeps.
          if (!sym_factored_pack_in_registers<W>(n, nl, rp, cpp, gd, static_cast<D*>(work)))
            sym_factored_solve_gather<TR, W>(n, nl, rp, cpp, gd, static_cast<D*>(work),
                                             no_prefetch{});
        }
      });
}

// u += x with the stored factors of the packs of g, d only read: the forward sweep from d's rows
// into a pack's rows of scratch (d's lines staged there first through transposed tiles where d's
// lane axis is not unit-stride), then the backward sweep adding each x_i into u's rows (or x
// added through tiles where u's lane axis is not unit-stride): r, c', d and u read, u written,
// 5 words per unknown.
template <class ExecutionSpace, class R, class E, class DView, class UView>
void symmetric_axis_factored_add_host(const ExecutionSpace& exec, const line_packs& g,
                                      const R* r, const E* cp, const DView& d, const UView& u) {
  using D = typename DView::non_const_value_type;
  using P = thomas_axis_factor_packing<E, backend::default_for_t<ExecutionSpace>>;
  constexpr int W = P::W, TR = P::TR;
  const nd_strides sd = strides_of(d), su = strides_of(u);
  const index_t n = g.n;
  const bool d_lanes = unit_lane_stride(d, g.lane_axis);
  const bool u_lanes = unit_lane_stride(u, g.lane_axis);
  for_each_pack(
      exec, "bandsolve::symmetric_axis_factorization::solve_add", g.npacks,
      static_cast<std::size_t>(n) * W * sizeof(D), KOKKOS_LAMBDA(const index_t p, void* work) {
        const line_pack k = g.pack(p);
        const int nl = k.lanes;
        const index_t ki = g.axis, kl = g.lane_axis;
        const R* const rp = r + p * n * W;
        const E* const cpp = cp + p * n * W;
        D* const x = static_cast<D*>(work);
        const lane_rows<D> xr{x, W};
        lane_rows<const D> in{x, W};  // d's rows, or their staged copy in x
        if (d_lanes)
          in = lane_rows<const D>{d.data() + g.offset(sd, k), sd.s[ki]};
        else
          stage_lanes<W>(gathered_lanes<const D>{d.data() + g.offset(sd, k), sd.s[kl], sd.s[ki]},
                         lane_offsets<W>(nl, sd.s[kl]), n, x);
        if (nl == W) sym_factored_forward_lanes<W, 1, true>(n, W, 1, rp, cpp, in, xr);
        else sym_factored_forward_lanes<W, 1, false>(n, nl, 1, rp, cpp, in, xr);
        if (u_lanes) {
          const lane_rows<D> ru{u.data() + g.offset(su, k), su.s[ki]};
          if (nl == W) backward_add_lanes<W, true, false>(n, W, cpp, x, ru);
          else backward_add_lanes<W, false, false>(n, nl, cpp, x, ru);
        } else {
          thomas_backward<W, 1, true>(W, 1, n, cpp, xr, no_prefetch{});
          add_scatter_gather<TR, W>(
              n, nl, x, gathered_lanes<D>{u.data() + g.offset(su, k), su.s[kl], su.s[ki]});
        }
      });
}

// Device backend: the lines' codes from their LDL^T pivots, a thread per line (b and e: a
// line's first row and row strides).
template <class R, class E>
KOKKOS_INLINE_FUNCTION int spd_line_code(index_t n, const R* b, index_t ib, const E* e,
                                         index_t ie) {
  int code = 0;
  E r = E(0), lo = E(0), cp = E(0);
  for (index_t i = 0; i < n && code == 0; ++i)
    code = factor_spd_row<R, E>(i, b[i * ib], i == 0 ? E(0) : e[(i - 1) * ie],
                                i + 1 < n ? e[i * ie] : E(0), cp, r, lo, cp, code);
  return code;
}

template <class ExecutionSpace, class DiagView, class OffView, class InfoView>
void symmetric_axis_codes_device(const ExecutionSpace& exec, const line_packs& g,
                                 const DiagView& b, const OffView& e, const InfoView& info) {
  using R = typename DiagView::non_const_value_type;
  using E = typename OffView::non_const_value_type;
  using policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<index_t>>;
  const char* label = "bandsolve::factorize_along(symmetric, device)";
  const index_t n = g.n;
  if constexpr (DiagView::rank == 1) {
    const auto ib = static_cast<index_t>(b.stride(0)), ie = static_cast<index_t>(e.stride(0));
    Kokkos::parallel_for(
        label, policy(exec, 0, 1), KOKKOS_LAMBDA(const index_t) {
          info(0) = spd_line_code<R, E>(n, b.data(), ib, e.data(), ie);
        });
    Kokkos::parallel_for(
        label, policy(exec, 1, g.nsys), KOKKOS_LAMBDA(const index_t s) { info(s) = info(0); });
  } else {
    const nd_strides sb = strides_of(b), se = strides_of(e);
    Kokkos::parallel_for(
        label, policy(exec, 0, g.npacks), KOKKOS_LAMBDA(const index_t p) {
          const line_pack k = g.pack(p);
          info(g.first_system(k)) =
              spd_line_code<R, E>(n, b.data() + g.offset(sb, k), sb.s[g.axis],
                                  e.data() + g.offset(se, k), se.s[g.axis]);
        });
  }
}

struct symmetric_axis_factorization_access {
  template <class F, class... Args>
  static F make(Args&&... args) {
    return F(std::forward<Args>(args)...);
  }
};

}  // namespace detail

// The factors of the symmetric lines along one axis (factorize_along(exec, algo::symmetric{},
// ...)); Scalar: offdiag's type. Backend: the backend that factored them and runs the solves.
template <class Scalar, class ExecutionSpace, class Backend>
class symmetric_axis_factorization
    : public detail::axis_lines_factorization<typename ExecutionSpace::memory_space> {
  using base = detail::axis_lines_factorization<typename ExecutionSpace::memory_space>;
  using base::axis_, base::extents_, base::info_, base::lines_, base::shared_;

 public:
  using scalar_type = Scalar;
  using real_type = real_type_t<Scalar>;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;

  symmetric_axis_factorization() = default;

  std::size_t storage_bytes() const {
    return pivots_.span() * sizeof(real_type) + factors_.span() * sizeof(Scalar);
  }

  // Factors new coefficients into this factorization's storage: diag (real) and offdiag of the
  // kind that was factored (arrays of the factored extents, each in any layout, or rank-1 Views
  // of the n values shared by every line). The lines keep their grouping and packs. No
  // allocation; the factors and info codes of factorize_along; enqueued on exec, not fenced.
  // Copies of the factorization share its storage.
  template <class DiagView, class OffView>
  void refactor(const ExecutionSpace& exec, const DiagView& diag, const OffView& offdiag);

  // d: the factored extents, any layout, of the factored scalar type or Kokkos::complex of a
  // real one; x overwrites d. Enqueued on exec, not fenced.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::axis_factored_solve_static_checks<Scalar, ExecutionSpace, DView>();
    const std::string fn = "bandsolve::symmetric_axis_factorization::solve";
    if (!this->solve_needed(fn, d, "factored array")) return;
    if constexpr (std::is_same_v<Backend, backend::device>)
      device_solve<false>(exec, fn, d, d);
    else if (shared_)
      detail::thomas_axis_shared_solve_host(exec, axis_, lines_.n, factors_.data(), d);
    else
      detail::symmetric_axis_factored_solve_host(exec, lines_, pivots_.data(), factors_.data(),
                                                 d);
  }

  // u += x, d only read (it may be a View of const): the last sweep of an ADI step. d and u: the
  // factored extents, each in any layout, of one scalar type as for solve. Enqueued on exec, not
  // fenced.
  template <class DView, class UView>
  void solve_add(const ExecutionSpace& exec, const DView& d, const UView& u) const {
    detail::axis_factored_add_static_checks<Scalar, ExecutionSpace, DView, UView>();
    const std::string fn = "bandsolve::symmetric_axis_factorization::solve_add";
    const bool needed = this->solve_needed(fn, d, "factored array");
    detail::check_same_extents(fn, "u", u, "d", d);
    detail::check_no_overlap(fn, "u", u, "d", d);
    if (!needed) return;
    if constexpr (std::is_same_v<Backend, backend::device>)
      device_solve<true>(exec, fn, d, u);
    else if (shared_)
      detail::thomas_axis_shared_add_host(exec, axis_, lines_.n, factors_.data(), d, u);
    else
      detail::symmetric_axis_factored_add_host(exec, lines_, pivots_.data(), factors_.data(), d,
                                               u);
  }

 private:
  // The one-shot device sweep (solve_along, or solve_along_add where Add) on the stored copies;
  // its info codes go to a kept buffer.
  template <bool Add, class DView, class UView>
  void device_solve(const ExecutionSpace& exec, const std::string& fn, const DView& d,
                    const UView& u) const {
    constexpr int rank = static_cast<int>(DView::rank);
    const auto copy_of = [&](auto* data, auto rank_tag) {
      constexpr int copy_rank = decltype(rank_tag)::value;
      return detail::stored_array<copy_rank, memory_space>(data, this->n(), 0, extents_, axis_,
                                                           false);
    };
    const auto run = [&](auto rank_tag) {
      detail::symmetric_along<backend::device, Add>(exec, fn.c_str(), axis_,
                                                    copy_of(pivots_.data(), rank_tag),
                                                    copy_of(factors_.data(), rank_tag), d, u,
                                                    solve_info_);
    };
    if (shared_) run(std::integral_constant<int, 1>{});
    else run(std::integral_constant<int, rank>{});
  }

  friend struct detail::symmetric_axis_factorization_access;

  symmetric_axis_factorization(const Kokkos::View<real_type*, memory_space>& pivots,
                               const Kokkos::View<Scalar*, memory_space>& factors,
                               const Kokkos::View<int*, memory_space>& info,
                               const Kokkos::View<int*, memory_space>& solve_info,
                               const detail::line_packs& lines,
                               std::array<std::size_t, 4> extents, int rank, int axis,
                               bool shared)
      : base(info, lines, extents, rank, axis, shared), pivots_(pivots), factors_(factors),
        solve_info_(solve_info) {}

  // Host backends, full coefficients: 1/pivot and c' in the packs' rows; shared ones: r, l, c'
  // of one line in factors_ (Thomas's form), pivots_ empty. Device backend: copies of diag and
  // offdiag (the array's values in LayoutRight order, or the n shared ones).
  Kokkos::View<real_type*, memory_space> pivots_;
  Kokkos::View<Scalar*, memory_space> factors_;
  Kokkos::View<int*, memory_space> solve_info_;  // device backend: the solves' codes (unread)
};

namespace detail {

// The checks of factorize_along(symmetric) against `grid` (grid_name: "d", or "diag"), which
// gives the extents.
template <class Backend, class ExecutionSpace, class GridView, class DiagView, class OffView>
void symmetric_axis_factor_checks(const std::string& fn, int axis, const GridView& grid,
                                  const char* grid_name, const DiagView& b, const OffView& e) {
  using E = typename OffView::non_const_value_type;
  using memory_space = typename ExecutionSpace::memory_space;
  constexpr int rank = static_cast<int>(GridView::rank);
  // The right-hand sides' type for the static checks: d's, or offdiag's scalar on the grid.
  using rhs_view = std::conditional_t<std::is_same_v<GridView, DiagView>,
                                      typename grid_array_of<E, rank, memory_space>::type,
                                      GridView>;
  symmetric_along_static_checks<ExecutionSpace, DiagView, OffView, rhs_view, rhs_view,
                                Kokkos::View<int*, memory_space>>();
  static_assert(std::is_same_v<Backend, backend::device> ||
                    std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                "bandsolve::factorize_along(symmetric): a host backend runs only on its own "
                "execution space");
  check_factor_axis(fn, axis, grid, grid_name);
  check_factor_coefficient(fn, "diag", b, axis, grid, grid_name);
  check_factor_coefficient(fn, "offdiag", e, axis, grid, grid_name);
}

// The factors of the lines of `lines` (diag b and offdiag e: full arrays of the grid's extents,
// any layouts, or rank 1: n values shared by every line) into pivots and factors (the device
// backend: copies of b and e) and their info codes: factorize_along's and refactor's work.
// Enqueued on exec.
template <class Backend, class ExecutionSpace, class DiagView, class OffView, class PivotView,
          class FactorView, class InfoView>
void symmetric_axis_factor_into(const ExecutionSpace& exec, const line_packs& lines,
                                const std::array<std::size_t, 4>& extents, int axis,
                                const DiagView& b, const OffView& e, const PivotView& pivots,
                                const FactorView& factors, const InfoView& info) {
  using memory_space = typename ExecutionSpace::memory_space;
  using R = typename PivotView::value_type;
  using E = typename FactorView::value_type;
  constexpr bool shared = DiagView::rank == 1;
  if (lines.nsys == 0) return;
  if (lines.n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  const auto n = static_cast<std::size_t>(lines.n);
  if constexpr (std::is_same_v<Backend, backend::device>) {
    constexpr int copy_rank = static_cast<int>(DiagView::rank);
    // (k = 0: the array starts at the pointer; a rank-1 copy has n values.)
    Kokkos::deep_copy(exec, stored_array<copy_rank, memory_space>(pivots.data(), n, 0, extents,
                                                                  axis, false),
                      b);
    Kokkos::deep_copy(exec, stored_array<copy_rank, memory_space>(factors.data(), n, 0, extents,
                                                                  axis, false),
                      e);
    symmetric_axis_codes_device(exec, lines, b, e, info);
  } else if constexpr (shared) {
    const index_t ni = lines.n;
    E* const out = factors.data();
    const char* label = "bandsolve::factorize_along(symmetric)";
    for_each_pack(exec, label, 1, 0, [=](const index_t, void*) {
      info(0) = factor_shared_spd<R, E>(ni, b, e, out, out + ni, out + 2 * ni);
    });
    for_each_pack(exec, label, lines.nsys - 1, 0,
                  [=](const index_t s, void*) { info(s + 1) = info(0); });
  } else {
    const int lane = lines.lane_axis;
    const bool lanes = unit_lane_stride(b, lane) && unit_lane_stride(e, lane);
    symmetric_axis_factor_host(exec, lines, lanes, b, e, pivots.data(), factors.data(), info);
  }
}

// factorize_along(symmetric) with the grid's extents and line grouping from `grid`; arguments
// checked.
template <class Backend, class ExecutionSpace, class GridView, class DiagView, class OffView>
auto symmetric_axis_factorize(const ExecutionSpace& exec, int axis, const GridView& grid,
                              const DiagView& b, const OffView& e) {
  using R = typename DiagView::non_const_value_type;
  using E = typename OffView::non_const_value_type;
  using F = symmetric_axis_factorization<E, ExecutionSpace, Backend>;
  using memory_space = typename F::memory_space;
  constexpr int rank = static_cast<int>(GridView::rank);
  constexpr bool shared = DiagView::rank == 1;
  constexpr bool device = std::is_same_v<Backend, backend::device>;
  constexpr int W = thomas_axis_factor_packing<E, Backend>::W;
  const line_packs lines = make_line_packs(grid, axis, lane_axis_of(grid, axis), W);
  std::array<std::size_t, 4> extents{};
  for (int k = 0; k < rank; ++k) extents[static_cast<std::size_t>(k)] = extent_at(grid, k);
  const auto n = static_cast<std::size_t>(lines.n);
  const auto nsys = static_cast<std::size_t>(lines.nsys);
  // Values per array: the device's copies (n shared, or the grid's), else the packs' rows; the
  // host's shared factors are 3n values of E.
  const std::size_t per_array = nsys == 0 ? 0
                                : shared  ? n
                                : device  ? n * nsys
                                          : n * static_cast<std::size_t>(lines.npacks) * W;
  const std::string label = "bandsolve::factorize_along(symmetric)";
  const auto pivots = allocate_zeroed<Kokkos::View<R*, memory_space>>(
      exec, label + " pivots", shared && !device ? 0 : per_array);
  const auto factors = allocate_zeroed<Kokkos::View<E*, memory_space>>(
      exec, label + " factors", shared && !device ? 3 * per_array : per_array);
  const Kokkos::View<int*, memory_space> info(Kokkos::view_alloc(exec, label + " info"), nsys);
  const Kokkos::View<int*, memory_space> solve_info(
      Kokkos::view_alloc(exec, label + " solve info"), device ? nsys : 0);
  symmetric_axis_factor_into<Backend>(exec, lines, extents, axis, b, e, pivots, factors, info);
  return symmetric_axis_factorization_access::make<F>(pivots, factors, info, solve_info, lines,
                                                      extents, rank, axis, shared);
}

}  // namespace detail

template <class Scalar, class ExecutionSpace, class Backend>
template <class DiagView, class OffView>
void symmetric_axis_factorization<Scalar, ExecutionSpace, Backend>::refactor(
    const ExecutionSpace& exec, const DiagView& diag, const OffView& offdiag) {
  detail::axis_refactor_static_checks<real_type, ExecutionSpace, DiagView>();
  detail::axis_refactor_static_checks<Scalar, ExecutionSpace, OffView>();
  static_assert(static_cast<int>(DiagView::rank) == static_cast<int>(OffView::rank),
                "bandsolve::symmetric_axis_factorization::refactor: diag and offdiag must have "
                "one rank");
  const std::string fn = "bandsolve::symmetric_axis_factorization::refactor";
  this->check_refactor_coefficient(fn, "diag", diag);
  this->check_refactor_coefficient(fn, "offdiag", offdiag);
  detail::symmetric_axis_factor_into<Backend>(exec, lines_, extents_, axis_, diag, offdiag,
                                              pivots_, factors_, info_);
}

// With d: the extents and the grouping of the lines from d (full or shared coefficients).
template <class ExecutionSpace, class DiagView, class OffView, class DView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<Kokkos::is_view<DView>::value && backend::is_backend_v<Backend>,
                           int> = 0>
auto factorize_along(const ExecutionSpace& exec, algo::symmetric, int axis, const DiagView& diag,
                     const OffView& offdiag, const DView& d, Backend = {}) {
  const std::string fn = "bandsolve::factorize_along(symmetric)";
  detail::symmetric_axis_factor_checks<Backend, ExecutionSpace>(fn, axis, d, "d", diag, offdiag);
  return detail::symmetric_axis_factorize<Backend>(exec, axis, d, diag, offdiag);
}

// Without d: the extents and the grouping of the lines from diag (full arrays).
template <class ExecutionSpace, class DiagView, class OffView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
auto factorize_along(const ExecutionSpace& exec, algo::symmetric, int axis, const DiagView& diag,
                     const OffView& offdiag, Backend = {}) {
  static_assert(DiagView::rank != 1,
                "bandsolve::factorize_along(symmetric): with coefficients shared by every line, "
                "pass d (a View shaped like the right-hand sides to come) after offdiag");
  const std::string fn = "bandsolve::factorize_along(symmetric)";
  detail::symmetric_axis_factor_checks<Backend, ExecutionSpace>(fn, axis, diag, "diag", diag,
                                                                offdiag);
  return detail::symmetric_axis_factorize<Backend>(exec, axis, diag, diag, offdiag);
}

}  // namespace bandsolve
