#pragma once
// Batched block Thomas along any axis of a 2-D, 3-D or 4-D grid, without transposing it.
//
//   bandsolve::solve_along(exec, bandsolve::algo::block_thomas{}, axis, a, b, c, d, info);
//       Every line of the grid along `axis` (all other grid indices fixed) is one system
//       A_i x_{i-1} + B_i x_i + C_i x_{i+1} = d_i of n = d.extent(axis) block rows of m x m
//       blocks (m = 2..8); x overwrites d. The other grid axes are the batch.
//   bandsolve::solve_along_add(exec, bandsolve::algo::block_thomas{}, axis, a, b, c, d, u, info);
//       u += x, d only read (the last sweep of an ADI step); u: d's extents, any layout.
//
// d: a View of rank R + 1 (R = 2, 3 or 4 grid axes, then the m unknowns of a grid point), in
// LayoutRight, LayoutLeft or LayoutStride; LayoutLeft puts each unknown's field apart
// (structure of arrays), LayoutRight a point's unknowns together (array of structures).
// a, b, c: each either a full array of rank R + 2 (d's grid extents, then the block's row and
// column: a(i, j, k, r, c)), one matrix per line, or a rank-3 View (n, m, m) shared by every
// line (the host backends factor it once per call and solve every line with its factors; the
// device backend factors it on each line). Any layouts, each its own strides; padding of
// strided subviews is never read nor written. Scalars: float, double, Kokkos::complex of
// either; over real coefficients d may be Kokkos::complex of their type. info: rank-1
// View<int>, one entry per line, numbered by the batch indices in axis order, last fastest (as
// solve_along(thomas) numbers lines); codes as solve(block_thomas): 0, or the 1-based block
// row of the first singular diagonal block.
// algo::block_thomas{algo::block_thomas::pivoting::partial} pivots inside the diagonal blocks.
// Work is enqueued on exec (one launch for all lines) and never fenced here.
// Backends: the execution space's own (host: packs of neighbouring lines along the batch axis
// of smallest stride, one SIMD lane each, as solve(block_thomas) groups systems), or a trailing
// backend::device{} (the default on Kokkos::Cuda): a thread per line, consecutive threads on
// neighbouring lines, with the device one-shot solve's row scratch. Shared coefficients on the
// host: their factors in a buffer kept between calls (backend/scratch.hpp), n (3m^2 + m) values
// per lane of a work item.
#include <bandsolve/backend/scratch.hpp>
#include <bandsolve/block/block_thomas.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/layout/add_through_copy.hpp>
#include <bandsolve/layout/axis.hpp>
#include <bandsolve/layout/axis_checks.hpp>

#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>

namespace bandsolve {

namespace detail {

// One operand (a, b, c or d) of the lines along an axis: the grid strides of its data (all 0
// for coefficients shared by every line), the stride between block rows along the solve axis,
// and the strides of a block's row and column (column 0 for d). `lines` numbers the lines as a
// device kernel runs them (packs of one line, see block_device_group below).
template <class U>
struct block_axis_operand {
  using value_type = U;
  U* data = nullptr;
  nd_strides grid;
  index_t row = 0, r_stride = 0, c_stride = 0;
  line_packs lines;

  // The group of a pack of `lines`-shaped packs (host: up to L lines; device: one).
  KOKKOS_INLINE_FUNCTION block_group<U> group(const line_packs& g, const line_pack& k) const {
    return block_group<U>{data + g.offset(grid, k), grid.s[g.lane_axis], row, r_stride,
                          c_stride};
  }
};

// The device one-shot solve (block_thomas_device.hpp) reads system s of each operand through
// block_device_group: for an along-axis operand, system s is the line of the s-th pack of one.
template <bool Packed, class T, class U>
KOKKOS_INLINE_FUNCTION block_group<T> block_device_group(const block_axis_operand<U>& v,
                                                         index_t s) {
  return v.group(v.lines, v.lines.pack(s));
}

// info as the device one-shot solve writes it (info(s) for its system s): the entry of that
// pack's line in solve_along's numbering.
template <class InfoView>
struct block_axis_info {
  InfoView info;
  line_packs lines;
  KOKKOS_INLINE_FUNCTION int& operator()(index_t s) const {
    return info(lines.first_system(lines.pack(s)));
  }
};

// The strides of an operand over a grid of GridRank axes: d (rank GridRank + 1, Rhs), a full
// coefficient array (rank GridRank + 2) or a shared rank-3 coefficient View (n, m, m), whose
// grid strides are all 0. `lines` is set by the caller.
template <int GridRank, bool Rhs, class T, class View>
block_axis_operand<T> make_block_axis_operand(const View& v, int axis) {
  constexpr int R = static_cast<int>(View::rank);
  const auto st = [&](int k) { return static_cast<index_t>(v.stride(k)); };
  block_axis_operand<T> op;
  op.data = v.data();
  if constexpr (!Rhs && R == 3) {
    op.row = st(0);
    op.r_stride = st(1);
    op.c_stride = st(2);
  } else {
    for (int k = 0; k < GridRank; ++k) op.grid.s[k] = st(k);
    op.row = st(axis);
    op.r_stride = st(GridRank);
    if constexpr (!Rhs) op.c_stride = st(GridRank + 1);
  }
  return op;
}

// WrittenRhs: d receives the solution (solve_along; not factorize_along's shape-giving d).
template <class ExecutionSpace, bool WrittenRhs, class DView, class... Coefficients>
constexpr void block_axis_static_checks() {
  constexpr int R = static_cast<int>(DView::rank) - 1;
  using T = typename std::tuple_element_t<0, std::tuple<Coefficients...>>::non_const_value_type;
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve::solve_along(block_thomas): the first argument must be a Kokkos "
                "execution space instance");
  static_assert(Kokkos::is_view<DView>::value && (Kokkos::is_view<Coefficients>::value && ...),
                "bandsolve::solve_along(block_thomas): a, b, c and d must be Kokkos::Views");
  static_assert(R >= 2 && R <= max_axis_rank,
                "bandsolve::solve_along(block_thomas): d must be a View of rank 3 to 5 (a 2-D to "
                "4-D grid, then the m unknowns of a grid point)");
  static_assert(((Coefficients::rank == R + 2 || Coefficients::rank == 3) && ...),
                "bandsolve::solve_along(block_thomas): a, b and c must be Views of d's rank + 1 "
                "(the grid, then the block's row and column) or rank-3 Views (n, m, m) shared by "
                "every line");
  static_assert(is_supported_scalar_v<T> &&
                    (std::is_same_v<typename Coefficients::non_const_value_type, T> && ...),
                "bandsolve::solve_along(block_thomas): a, b and c must have one scalar type: "
                "float, double, Kokkos::complex<float> or Kokkos::complex<double>");
  static_assert(!WrittenRhs || (is_rhs_of_v<T, typename DView::value_type> &&
                                 !std::is_const_v<typename DView::value_type>),
                "bandsolve::solve_along(block_thomas): d must be a non-const View (it receives "
                "the solution) of the coefficients' scalar type, or of Kokkos::complex of it "
                "over real coefficients");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename DView::memory_space>::accessible &&
          (Kokkos::SpaceAccessibility<ExecutionSpace,
                                      typename Coefficients::memory_space>::accessible &&
           ...),
      "bandsolve::solve_along(block_thomas): the Views must be accessible from the execution "
      "space");
}

// A coefficient against d: full arrays have d's grid extents and m x m blocks, shared ones
// (n, m, m). (Overlap with d is checked where d is written.)
template <class View, class DView>
void block_axis_check_coefficient(const std::string& fn, const char* name, const View& v,
                                  const DView& d, int axis, const char* d_name = "d") {
  constexpr int R = static_cast<int>(DView::rank) - 1;
  const std::size_t m = d.extent(R);
  const auto mismatch = [&](int k, int dk, std::size_t expected, const char* why) {
    throw_invalid_argument(fn, name, ".extent(", k, ") = ", extent_at(v, k), " but ", d_name,
                           ".extent(", dk, ") = ", expected, why);
  };
  const char* blocks = " (blocks of m x m for the m unknowns of a point)";
  if constexpr (static_cast<int>(View::rank) == R + 2) {
    for (int k = 0; k < R; ++k)
      if (extent_at(v, k) != extent_at(d, k)) mismatch(k, k, extent_at(d, k), "");
    for (int k = R; k < R + 2; ++k)
      if (extent_at(v, k) != m) mismatch(k, R, m, blocks);
  } else {
    if (v.extent(0) != extent_at(d, axis))
      mismatch(0, axis, extent_at(d, axis),
               " (shared coefficients need one block per row of the solve axis)");
    for (int k = 1; k < 3; ++k)
      if (extent_at(v, k) != m) mismatch(k, R, m, blocks);
  }
}

// Bytes of a host work item's scratch: C* (block_thomas_item_scratch), then for u += x the
// pack's d* rows (n * M * L values of D) from a 64-byte boundary.
template <int M, int L, class T, class D, bool Add>
constexpr std::size_t block_axis_item_scratch(index_t n, bool factored) {
  const std::size_t cstar = factored ? 0 : (block_thomas_item_scratch<T>(n, M, L) + 63) / 64 * 64;
  return cstar + (Add ? static_cast<std::size_t>(n) * M * L * sizeof(D) : 0);
}

// The host solve of packs of lines: x overwrites d (Add false; u is d), or u += x with d only
// read (Add true: d* rows in the work item's scratch, x added on the way back).
template <int M, int L, bool Add, class ExecutionSpace, class T, class DIn, class D,
          class InfoView>
void block_axis_host_launch(const ExecutionSpace& exec, bool pivoting, const line_packs& g,
                            const block_axis_operand<const T>& a,
                            const block_axis_operand<const T>& b,
                            const block_axis_operand<const T>& c,
                            const block_axis_operand<DIn>& d, const block_axis_operand<D>& u,
                            const InfoView& info) {
  const index_t n = g.n;
  const std::size_t dstar_at = block_axis_item_scratch<M, L, T, D, false>(n, false);
  for_each_pack(
      exec, "bandsolve::solve_along(block_thomas)", g.npacks,
      block_axis_item_scratch<M, L, T, D, Add>(n, false),
      KOKKOS_LAMBDA(const index_t p, void* work) {
        // Every captured variable named before the branches (nvcc's extended lambdas cannot
        // capture a variable first inside `if constexpr`).
        const line_pack k = g.pack(p);
        int info_l[static_cast<std::size_t>(L)] = {};
        const index_t rows = n;
        const bool pivot = pivoting;
        const auto ak = a.group(g, k), bk = b.group(g, k), ck = c.group(g, k);
        const auto dk = d.group(g, k);
        const auto uk = u.group(g, k);
        T* const cstar = static_cast<T*>(work);
        D* const dstar = reinterpret_cast<D*>(static_cast<char*>(work) + dstar_at);
        if constexpr (Add)
          block_thomas_solve_group_add<M, L, T>(rows, k.lanes, pivot, ak, bk, ck, dk, uk, cstar,
                                                dstar, info_l);
        else
          block_thomas_solve_group<M, L, T>(rows, 1, k.lanes, pivot, ak, bk, ck, uk, cstar,
                                            info_l);
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < k.lanes; ++l) info(s0 + l * g.lane_system_stride) = info_l[l];
      });
}

// Coefficients shared by every line on the host backends: the one matrix is factored once per
// call into every lane of one work item's factors (a group of one line whose other lanes read
// it too), kept in a scratch buffer of their own, and each pack of lines runs the factored
// solve against them: d alone crosses memory, the factors stay in cache (n (3m^2 + m) L values).
struct block_axis_shared_factors_tag {};

template <int M, int L, bool Add, class ExecutionSpace, class T, class DIn, class D,
          class InfoView>
void block_axis_shared_host_launch(const ExecutionSpace& exec, bool pivoting,
                                   const line_packs& g, const block_axis_operand<const T>& a,
                                   const block_axis_operand<const T>& b,
                                   const block_axis_operand<const T>& c,
                                   const block_axis_operand<DIn>& d,
                                   const block_axis_operand<D>& u, const InfoView& info) {
  using memory_space = typename ExecutionSpace::memory_space;
  const index_t n = g.n;
  const std::size_t factor_bytes =
      static_cast<std::size_t>(n) * block_factor_words<M> * L * sizeof(T);
  std::unique_lock<std::mutex> kept;  // holds the buffer until both kernels have run
  const auto buffer = scratch_buffer<memory_space, block_axis_shared_factors_tag>(
      exec, "bandsolve::solve_along(block_thomas)", factor_bytes + sizeof(int), kept);
  T* const f = reinterpret_cast<T*>(buffer.data());
  int* const code = reinterpret_cast<int*>(buffer.data() + factor_bytes);
  const line_pack first{0, 0, 0, 1};
  for_each_pack(
      exec, "bandsolve::solve_along(block_thomas) shared factors", 1, 0,
      KOKKOS_LAMBDA(const index_t, void*) {
        int info_l[static_cast<std::size_t>(L)] = {};
        block_thomas_factor_group<M, L, T>(n, 1, pivoting, a.group(g, first), b.group(g, first),
                                           c.group(g, first), f, info_l);
        *code = info_l[0];
      });
  for_each_pack(
      exec, "bandsolve::solve_along(block_thomas) shared", g.npacks,
      block_axis_item_scratch<M, L, T, D, Add>(n, true),
      KOKKOS_LAMBDA(const index_t p, void* work) {
        const line_pack k = g.pack(p);  // captures named before the branches, as above
        const index_t rows = n;
        const bool pivot = pivoting;
        const T* const factors = f;
        const auto dk = d.group(g, k);
        const auto uk = u.group(g, k);
        if constexpr (Add)
          block_thomas_factored_solve_group_add<M, L, T>(rows, k.lanes, pivot, factors, dk, uk,
                                                         static_cast<D*>(work));
        else
          block_thomas_factored_solve_group<M, L, T>(rows, 1, k.lanes, pivot, factors, uk);
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < k.lanes; ++l) info(s0 + l * g.lane_system_stride) = *code;
      });
}

// info: a rank-1 View<int> that the execution space can reach.
template <class ExecutionSpace, class InfoView>
constexpr void block_axis_info_static_checks() {
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1 &&
                    std::is_same_v<typename InfoView::value_type, int>,
                "bandsolve::solve_along(block_thomas): info must be a rank-1 Kokkos::View<int*>");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename InfoView::memory_space>::accessible,
      "bandsolve::solve_along(block_thomas): info must be accessible from the execution space");
}

// The run-time checks of solve_along and solve_along_add: out (d, or u) is the View written,
// which must not overlap the others. Returns the number of lines.
template <class AView, class BView, class CView, class DView, class OutView, class InfoView>
std::size_t block_axis_checks(const std::string& fn, int axis, const AView& a, const BView& b,
                              const CView& c, const DView& d, const char* out_name,
                              const OutView& out, const InfoView& info) {
  constexpr int R = static_cast<int>(DView::rank) - 1;
  if (axis < 0 || axis >= R)
    throw_invalid_argument(fn, "axis = ", axis, " but d has ", R, " grid axes (0 to ", R - 1,
                           "; its last axis holds the m unknowns of a point)");
  const std::size_t nlines = check_along_lines(fn, axis, leading_grid(d), info);
  block_size_dispatch(fn, d.extent(R), [](auto) {});
  block_axis_check_coefficient(fn, "a", a, d, axis);
  block_axis_check_coefficient(fn, "b", b, d, axis);
  block_axis_check_coefficient(fn, "c", c, d, axis);
  check_no_overlap(fn, out_name, out, "a", a);
  check_no_overlap(fn, out_name, out, "b", b);
  check_no_overlap(fn, out_name, out, "c", c);
  check_no_overlap(fn, out_name, out, "info", info);
  return nlines;
}

// The solve of checked arguments, lines of n >= 1 block rows: x overwrites d (Add false; u is
// d), or u += x with d only read (Add true; host backends only).
template <class Backend, bool Add, class ExecutionSpace, class AView, class BView, class CView,
          class DView, class UView, class InfoView>
void block_axis_solve(const ExecutionSpace& exec, const std::string& fn,
                      algo::block_thomas algorithm, int axis, const AView& a, const BView& b,
                      const CView& c, const DView& d, const UView& u, const InfoView& info) {
  using T = typename BView::non_const_value_type;
  // d as the kernels read it: only read where u += x.
  using D = std::conditional_t<Add, const typename DView::non_const_value_type,
                               typename DView::value_type>;
  constexpr int R = static_cast<int>(DView::rank) - 1;
  const auto grid = leading_grid(d);
  const std::size_t m = d.extent(R);
  const bool pivoting = algorithm.pivot == algo::block_thomas::pivoting::partial;
  auto ao = make_block_axis_operand<R, false, const T>(a, axis);
  auto bo = make_block_axis_operand<R, false, const T>(b, axis);
  auto co = make_block_axis_operand<R, false, const T>(c, axis);
  auto dop = make_block_axis_operand<R, true, D>(d, axis);
  const auto uop = make_block_axis_operand<R, true, typename UView::value_type>(u, axis);
  const nd_strides arrays[5] = {ao.grid, bo.grid, co.grid, dop.grid, uop.grid};
  const int lane_axis = lane_axis_of(grid, axis);
  const auto packs_of = [&](int width) {
    line_packs g = make_line_packs(grid, axis, lane_axis, width);
    merge_contiguous_outer_axes(g, arrays, 5);
    return g;
  };
  if constexpr (std::is_same_v<Backend, backend::device>) {
    static_assert(!Add, "the device backend adds through a copy (add_through_copy)");
    const line_packs lines = packs_of(1);
    ao.lines = bo.lines = co.lines = lines;
    dop.lines = lines;
    const block_axis_info<InfoView> info_of_line{info, lines};
    const auto n = static_cast<index_t>(d.extent(axis));
    block_size_dispatch(fn, m, [&](auto block_size) {
      using kernel =
          block_device_one_shot<decltype(block_size)::value, false, T, decltype(ao),
                                decltype(bo), decltype(co), decltype(dop),
                                block_axis_info<InfoView>>;
      device::for_each_tile(exec, "bandsolve::solve_along(block_thomas, device)",
                            device::tile_count(lines.npacks), 0, kernel::row_bytes(n),
                            kernel{ao, bo, co, dop, info_of_line, n, lines.npacks, 1, pivoting});
    });
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve_along(block_thomas): a host backend runs only on its own "
                  "execution space");
    block_size_dispatch(fn, m, [&](auto block_size) {
      constexpr int full = block_lanes_v<T, 0>;
      const line_packs whole = packs_of(full);
      with_block_lanes<T, 0>(whole.lane_extent, [&](auto lanes) {
        constexpr int L = decltype(lanes)::value;
        constexpr int M = decltype(block_size)::value;
        const line_packs g = L == full ? whole : packs_of(L);
        if constexpr (AView::rank == 3 && BView::rank == 3 && CView::rank == 3)
          block_axis_shared_host_launch<M, L, Add>(exec, pivoting, g, ao, bo, co, dop, uop,
                                                   info);
        else
          block_axis_host_launch<M, L, Add>(exec, pivoting, g, ao, bo, co, dop, uop, info);
      });
    });
  }
}

}  // namespace detail

template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView, class Backend = backend::default_for_t<ExecutionSpace>>
std::enable_if_t<backend::is_backend_v<Backend>> solve_along(
    const ExecutionSpace& exec, algo::block_thomas algorithm, int axis, const AView& a,
    const BView& b, const CView& c, const DView& d, const InfoView& info, Backend = {}) {
  detail::block_axis_static_checks<ExecutionSpace, true, DView, AView, BView, CView>();
  detail::block_axis_info_static_checks<ExecutionSpace, InfoView>();
  const std::string fn = "bandsolve::solve_along(block_thomas)";
  const std::size_t nlines = detail::block_axis_checks(fn, axis, a, b, c, d, "d", d, info);
  if (nlines == 0) return;
  if (d.extent(static_cast<std::size_t>(axis)) == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  detail::block_axis_solve<Backend, false>(exec, fn, algorithm, axis, a, b, c, d, d, info);
}

// u += x; d is only read (a View of const allowed), u has d's extents in a layout of its own.
// Host backends: d* rows in each work item's scratch, x added into u on the way back; device
// backend: d copied into a kept scratch array, solved there and added into u
// (layout/add_through_copy.hpp), fenced before return.
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class UView,
          class InfoView, class Backend = backend::default_for_t<ExecutionSpace>>
std::enable_if_t<backend::is_backend_v<Backend>> solve_along_add(
    const ExecutionSpace& exec, algo::block_thomas algorithm, int axis, const AView& a,
    const BView& b, const CView& c, const DView& d, const UView& u, const InfoView& info,
    Backend = {}) {
  detail::block_axis_static_checks<ExecutionSpace, false, DView, AView, BView, CView>();
  detail::block_axis_info_static_checks<ExecutionSpace, InfoView>();
  using T = typename BView::non_const_value_type;
  static_assert(is_rhs_of_v<T, typename DView::non_const_value_type>,
                "bandsolve::solve_along_add(block_thomas): d must be a View of the coefficients' "
                "scalar type, or of Kokkos::complex of it over real coefficients");
  detail::along_add_target_static_checks<ExecutionSpace, DView, UView>();
  const std::string fn = "bandsolve::solve_along_add(block_thomas)";
  const std::size_t nlines = detail::block_axis_checks(fn, axis, a, b, c, d, "u", u, info);
  detail::check_along_add_target(fn, d, u);
  if (nlines == 0) return;
  if (d.extent(static_cast<std::size_t>(axis)) == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>)
    detail::add_through_copy(exec, fn.c_str(), d, u, [&](const auto& x) {
      detail::block_axis_solve<Backend, false>(exec, fn, algorithm, axis, a, b, c, x, x, info);
    });
  else
    detail::block_axis_solve<Backend, true>(exec, fn, algorithm, axis, a, b, c, d, u, info);
}

}  // namespace bandsolve
