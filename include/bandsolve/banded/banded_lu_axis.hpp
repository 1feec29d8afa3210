#pragma once
// Batched banded LU along any axis of a 2-D, 3-D or 4-D array, without transposing it.
//
//   bandsolve::solve_along(exec, bandsolve::algo::banded_lu{kl, ku}, axis, ab, d, info);
//       Every line of d along `axis` (all other indices fixed) is one system A x = d of
//       n = d.extent(axis) rows with kl subdiagonals and ku superdiagonals (pentadiagonal lines
//       of compact schemes: kl = ku = 2); x overwrites d. The other axes are the batch.
//   bandsolve::solve_along_add(exec, bandsolve::algo::banded_lu{kl, ku}, axis, ab, d, u, info);
//       u += x, d only read (the last sweep of an ADI step); u: d's extents, any layout.
//
// d: a View of rank 2 to 4 in LayoutRight, LayoutLeft or LayoutStride (padding of strided
// subviews is never read nor written). ab: the lines' matrices in LAPACK band storage, either
// a full array of rank d.rank + 1 (d's extents, then ldab >= 2kl + ku + 1 band rows:
// ab(i, j, k, r) is band row r of the column at that point, A(p, q) of a line at band row
// kl + ku + p - q of column q, as ?gbsv's AB; the first kl rows need no values), one matrix per
// line, or a rank-2 View (n, ldab) shared by every line. ab is read only. Scalars: float,
// double, Kokkos::complex of either, or a real band with d Kokkos::complex of its precision.
// algo::banded_lu{kl, ku} pivots as ?gbtrf; algo::banded_lu{kl, ku, false} does not.
// info: rank-1 View<int>, one entry per line, numbered by the batch indices in axis order, last
// fastest (as solve_along(thomas) numbers lines), with solve(banded_lu)'s codes.
// Work is enqueued on exec and never fenced here.
// Backends: the execution space's own (host: packs of neighbouring lines along the batch axis
// of smallest stride, one SIMD lane each, kl = ku = 1, 2 and 4 compiled, work rows in scratch
// as solve(banded_lu)'s; a shared band is factored once per call and every line runs the
// factored solve, its factors in a buffer kept between calls), or a trailing backend::device{}
// (the default on Kokkos::Cuda): the device kernels of solve(banded_lu), a thread per line,
// one launch (one per index of the first batch axis for 4-D arrays).
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/scratch.hpp>
#include <bandsolve/banded/banded_lu.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/layout/add_through_copy.hpp>
#include <bandsolve/layout/axis.hpp>
#include <bandsolve/layout/axis_checks.hpp>

#include <mutex>
#include <string>
#include <type_traits>

namespace bandsolve {

namespace detail {

// One operand (ab or d) of the lines along an axis: the strides of its data over d's axes (all 0
// for a shared band), the stride along the solve axis (ab: between columns; d: between rows)
// and, for ab, between band rows.
template <class U>
struct band_axis_operand {
  U* data = nullptr;
  nd_strides grid;
  index_t along = 0, band_row = 0;

  template <bool Unit>
  KOKKOS_INLINE_FUNCTION band_lanes<U, Unit> band(const line_packs& g, const line_pack& k) const {
    return band_lanes<U, Unit>{data + g.offset(grid, k), grid.s[g.lane_axis], along, band_row};
  }
  template <bool Unit>
  KOKKOS_INLINE_FUNCTION rhs_lanes<U, Unit> rhs(const line_packs& g, const line_pack& k) const {
    return rhs_lanes<U, Unit>{data + g.offset(grid, k), grid.s[g.lane_axis], along, 0};
  }
};

// ab (Band: of rank Rank + 1, or a shared (n, ldab)) or d (rank Rank) of a solve along `axis`.
template <int Rank, bool Band, class T, class View>
band_axis_operand<T> make_band_axis_operand(const View& v, int axis) {
  constexpr int R = static_cast<int>(View::rank);
  band_axis_operand<T> op;
  op.data = v.data();
  if constexpr (Band && R == 2) {  // a shared band (n, ldab)
    op.along = static_cast<index_t>(v.stride(0));
    op.band_row = static_cast<index_t>(v.stride(1));
  } else {
    for (int k = 0; k < Rank; ++k) op.grid.s[k] = static_cast<index_t>(v.stride(k));
    op.along = static_cast<index_t>(v.stride(axis));
    if constexpr (R == Rank + 1) op.band_row = static_cast<index_t>(v.stride(Rank));
  }
  return op;
}

// Full packs of L lines as one; a last pack of fewer lines line by line (as launch_banded_solve
// does, for the same reason: no lane loop with a run-time count past the last line).
template <int L, bool Pivot, bool Unit, class Dims, class ExecutionSpace, class T, class R,
          class InfoView>
void banded_axis_host_launch(const ExecutionSpace& exec, const Dims dims, const line_packs& g,
                             const band_axis_operand<const T>& ab,
                             const band_axis_operand<R>& d, const InfoView& info) {
  using work_type = band_work<T, L, Dims>;
  const index_t n = g.n;
  for_each_pack(
      exec, "bandsolve::solve_along(banded_lu)", g.npacks, work_type::bytes(dims, n),
      KOKKOS_LAMBDA(const index_t p, void* scratch) {
        const line_pack k = g.pack(p);
        T* rows = static_cast<T*>(scratch);
        const index_t ldw = 2 * dims.kl() + dims.ku() + 1;
        if (k.lanes == L) {
          const work_type w{rows, rows + (n + dims.kl()) * ldw * L, dims};
          int info_l[static_cast<std::size_t>(L)];
          banded_solve_pack<L, true, Pivot>(w, n, L, ab.template band<Unit>(g, k),
                                            d.template rhs<Unit>(g, k), 1, info_l);
          const index_t s0 = g.first_system(k);
          for (int l = 0; l < L; ++l) info(s0 + l * g.lane_system_stride) = info_l[l];
          return;
        }
        if constexpr (L > 1) {
          const band_work<T, 1, Dims> w{rows, rows + (n + dims.kl()) * ldw, dims};
          for (int l = 0; l < k.lanes; ++l) {
            const line_pack one{k.first_lane + l, k.o0, k.o1, 1};
            int info_s[1];
            banded_solve_pack<1, true, Pivot>(w, n, 1, ab.template band<true>(g, one),
                                              d.template rhs<true>(g, one), 1, info_s);
            info(g.first_system(one)) = info_s[0];
          }
        }
      });
}

// Where the factors of the lines along an axis lie (a shared band's in solve_along, every
// line's in factorize_along): LU in LAPACK band storage (col_stride, row_stride), 1-based pivot
// rows (pivot_row_stride), the lanes of a pack lane_stride apart (1: interleaved lane by lane;
// 0: one factorization that every lane reads), pack p's at p times the pack strides.
template <class U>
struct band_axis_factors {
  U* lu = nullptr;
  int* pivots = nullptr;
  index_t lane_stride = 0, col_stride = 0, row_stride = 0, lu_pack_stride = 0;
  index_t pivot_row_stride = 0, pivot_pack_stride = 0;

  template <bool Unit>
  KOKKOS_INLINE_FUNCTION band_lanes<U, Unit> band(index_t p, int lane) const {
    return band_lanes<U, Unit>{lu + p * lu_pack_stride + lane * lane_stride, lane_stride,
                               col_stride, row_stride};
  }
  template <bool Unit>
  KOKKOS_INLINE_FUNCTION pivot_lanes<Unit> pivot(index_t p, int lane) const {
    return pivot_lanes<Unit>{pivots + p * pivot_pack_stride + lane * lane_stride, lane_stride,
                             pivot_row_stride};
  }
  band_axis_factors<const std::remove_const_t<U>> read_only() const {
    return {lu, pivots, lane_stride, col_stride, row_stride, lu_pack_stride,
            pivot_row_stride, pivot_pack_stride};
  }
};

// One factorization (ldw = 2kl + ku + 1 band rows of n columns, n pivots) read by every lane.
template <class U>
band_axis_factors<U> shared_band_factors(U* lu, int* pivots, index_t ldw) {
  return {lu, pivots, 0, ldw, 1, 0, 1, 0};
}

// Line 0 of g factored into f's pack 0, lane 0 (a band shared by every line); its code at *code.
template <bool Pivot, class Dims, class ExecutionSpace, class T>
void banded_axis_factor_one_host(const ExecutionSpace& exec, const char* label, const Dims dims,
                                 const line_packs& g, const band_axis_operand<const T>& ab,
                                 const band_axis_factors<T>& f, int* code) {
  using work_type = band_work<T, 1, Dims>;
  const index_t n = g.n, ldw = 2 * dims.kl() + dims.ku() + 1;
  const line_pack first{0, 0, 0, 1};
  for_each_pack(exec, label, 1, work_type::bytes(dims, n),
                KOKKOS_LAMBDA(const index_t, void* scratch) {
                  T* rows = static_cast<T*>(scratch);
                  const work_type w{rows, rows + (n + dims.kl()) * ldw, dims};
                  int info_s[1];
                  banded_factor_pack<1, true, Pivot>(w, n, 1, ab.template band<true>(g, first),
                                                     f.template band<true>(0, 0),
                                                     f.template pivot<true>(0, 0), info_s);
                  *code = info_s[0];
                });
}

// Every pack of g solved against its factors in f (FactorUnit: a pack's lanes interleaved in f;
// else one shared factorization, lane stride 0). With a code, every line's info gets *code.
// Where d's lines of a pack are not neighbours (lines along the unit-stride axis), a full pack's
// rows are gathered into scratch (n rows of L lanes), solved there and written back: the
// sweeps' strided lanes would otherwise be gathered element by element at every step.
template <int L, bool Pivot, bool Unit, bool FactorUnit, class Dims, class ExecutionSpace,
          class T, class R, class InfoView>
void banded_axis_factored_solve_host(const ExecutionSpace& exec, const char* label,
                                     const Dims dims, const line_packs& g,
                                     const band_axis_factors<const T>& f,
                                     const band_axis_operand<R>& d, const InfoView& info,
                                     const int* code) {
  const index_t n = g.n;
  const std::size_t scratch_bytes =
      !Unit && L > 1 ? static_cast<std::size_t>(n * L) * sizeof(R) : 0;
  for_each_pack(
      exec, label, g.npacks, scratch_bytes, KOKKOS_LAMBDA(const index_t p, void* scratch) {
        (void)n, (void)dims, (void)f, (void)d;  // named first, for nvcc
        const line_pack k = g.pack(p);
        if (k.lanes == L) {
          const auto band = f.template band<FactorUnit>(p, 0);
          const auto pivots = f.template pivot<FactorUnit>(p, 0);
          const auto rhs = d.template rhs<Unit>(g, k);
          if constexpr (!Unit && L > 1) {  // gathered
            R* rows = static_cast<R*>(scratch);
            for (int l = 0; l < L; ++l) {
              const R* line = rhs.base + rhs.lane(l);
              for (index_t i = 0; i < n; ++i) rows[i * L + l] = line[i * rhs.row_stride];
            }
            banded_factored_solve_pack<L, true, Pivot, T>(dims, n, L, band, pivots,
                                                          rhs_lanes<R, true>{rows, 1, L, 0}, 1);
            for (int l = 0; l < L; ++l) {
              R* line = rhs.base + rhs.lane(l);
              for (index_t i = 0; i < n; ++i) line[i * rhs.row_stride] = rows[i * L + l];
            }
          } else {
            banded_factored_solve_pack<L, true, Pivot, T>(dims, n, L, band, pivots, rhs, 1);
          }
        } else if constexpr (L > 1) {
          for (int l = 0; l < k.lanes; ++l) {
            const line_pack one{k.first_lane + l, k.o0, k.o1, 1};
            banded_factored_solve_pack<1, true, Pivot, T>(dims, n, 1, f.template band<true>(p, l),
                                                          f.template pivot<true>(p, l),
                                                          d.template rhs<true>(g, one), 1);
          }
        }
        if (code == nullptr) return;
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < k.lanes; ++l) info(s0 + l * g.lane_system_stride) = *code;
      });
}

// A band shared by every line: factored once per call (as ?gbtrf) into a buffer of its own kept
// between calls (n ldw values of LU, n pivots, the code), then every pack of lines runs the
// factored solve against it, its lanes all reading the one factorization (lane stride 0).
struct banded_axis_shared_factors_tag {};

template <int L, bool Pivot, bool Unit, class Dims, class ExecutionSpace, class T, class R,
          class InfoView>
void banded_axis_shared_host_launch(const ExecutionSpace& exec, const Dims dims,
                                    const line_packs& g, const band_axis_operand<const T>& ab,
                                    const band_axis_operand<R>& d, const InfoView& info) {
  using memory_space = typename ExecutionSpace::memory_space;
  const index_t n = g.n, ldw = 2 * dims.kl() + dims.ku() + 1;
  const std::size_t lu_bytes = static_cast<std::size_t>(n * ldw) * sizeof(T);
  const std::size_t pivot_bytes = static_cast<std::size_t>(n + 1) * sizeof(int);
  std::unique_lock<std::mutex> kept;  // holds the buffer until both kernels have run
  const auto buffer = scratch_buffer<memory_space, banded_axis_shared_factors_tag>(
      exec, "bandsolve::solve_along(banded_lu)", lu_bytes + pivot_bytes, kept);
  T* const lu = reinterpret_cast<T*>(buffer.data());
  int* const pivots = reinterpret_cast<int*>(buffer.data() + lu_bytes);
  int* const code = pivots + n;
  const auto f = shared_band_factors(lu, pivots, ldw);
  banded_axis_factor_one_host<Pivot>(exec, "bandsolve::solve_along(banded_lu) shared factors",
                                     dims, g, ab, f, code);
  banded_axis_factored_solve_host<L, Pivot, Unit, false>(
      exec, "bandsolve::solve_along(banded_lu) shared", dims, g, f.read_only(), d, info, code);
}

// The device kernels address system s of a launch as data + (s / width) pack_stride +
// (s % width) lane_stride (device::systems): the last batch axis is the lane, the one before it
// the pack, and a first batch axis of a 4-D array is a launch each (`outer` offsets).
struct band_axis_device_lines {
  int outer_axis = -1, pack_axis = -1, lane_axis = -1;
  index_t outer_extent = 1, width = 1, per_launch = 0;
};

template <int Rank>
band_axis_device_lines device_lines_of(const index_t* extents, int axis) {
  band_axis_device_lines lines;
  int batch[3] = {-1, -1, -1}, count = 0;
  for (int k = 0; k < Rank; ++k)
    if (k != axis) batch[count++] = k;
  lines.lane_axis = batch[count - 1];
  if (count >= 2) lines.pack_axis = batch[count - 2];
  if (count == 3) lines.outer_axis = batch[0];
  lines.width = extents[lines.lane_axis];
  lines.outer_extent = lines.outer_axis >= 0 ? extents[lines.outer_axis] : 1;
  lines.per_launch = lines.width * (lines.pack_axis >= 0 ? extents[lines.pack_axis] : 1);
  return lines;
}

template <class U>
device::systems<U> band_axis_device_systems(const band_axis_operand<U>& op,
                                            const band_axis_device_lines& lines, index_t outer) {
  const index_t outer_offset = lines.outer_axis >= 0 ? outer * op.grid.s[lines.outer_axis] : 0;
  const index_t pack_stride = lines.pack_axis >= 0 ? op.grid.s[lines.pack_axis] : 0;
  device::systems<U> sys{op.data + outer_offset, pack_stride, op.along,
                         static_cast<int>(lines.width)};
  sys.lane_stride = op.grid.s[lines.lane_axis];
  return sys;
}

// The compile-time checks of solve_along and solve_along_add (Written: d receives x).
template <bool Written, class ExecutionSpace, class ABView, class DView, class InfoView>
constexpr void banded_axis_static_checks() {
  using T = typename ABView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  constexpr int Rank = static_cast<int>(DView::rank);
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve::solve_along(banded_lu): the first argument must be a Kokkos "
                "execution space instance");
  static_assert(Kokkos::is_view<ABView>::value && Kokkos::is_view<DView>::value &&
                    Kokkos::is_view<InfoView>::value,
                "bandsolve::solve_along(banded_lu): ab, d and info must be Kokkos::Views");
  static_assert(Rank >= 2 && Rank <= max_axis_rank,
                "bandsolve::solve_along(banded_lu): d must be a View of rank 2, 3 or 4");
  static_assert(ABView::rank == Rank + 1 || ABView::rank == 2,
                "bandsolve::solve_along(banded_lu): ab must be a View of d's rank + 1 (d's "
                "extents, then the band rows) or a rank-2 View (n, ldab) shared by every line");
  static_assert(is_supported_scalar_v<T>,
                "bandsolve::solve_along(banded_lu): the scalar type of ab must be float, double, "
                "Kokkos::complex<float> or Kokkos::complex<double>");
  static_assert(is_rhs_of_v<T, D> &&
                    (!Written || !std::is_const_v<typename DView::value_type>),
                "bandsolve::solve_along(banded_lu): d must be a non-const View (it receives the "
                "solution; solve_along_add only reads it) of ab's scalar type, or of "
                "Kokkos::complex of it for a real band");
  static_assert(InfoView::rank == 1 && std::is_same_v<typename InfoView::value_type, int>,
                "bandsolve::solve_along(banded_lu): info must be a rank-1 Kokkos::View<int*>");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename ABView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename DView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename InfoView::memory_space>::accessible,
      "bandsolve::solve_along(banded_lu): the Views must be accessible from the execution space");
}

// The run-time checks of solve_along and solve_along_add: out (d, or u) is the View written,
// which must not overlap ab or info. Returns the number of lines.
template <class ABView, class DView, class OutView, class InfoView>
std::size_t banded_axis_checks(const std::string& fn, const algo::banded_lu& alg, int axis,
                               const ABView& ab, const DView& d, const char* out_name,
                               const OutView& out, const InfoView& info) {
  constexpr int Rank = static_cast<int>(DView::rank);
  const std::size_t nlines = check_along_lines(fn, axis, d, info);
  constexpr int band_axis = static_cast<int>(ABView::rank) - 1;
  check_bandwidths(fn, alg, static_cast<index_t>(ab.extent(band_axis)));
  if constexpr (static_cast<int>(ABView::rank) == Rank + 1) {
    for (int k = 0; k < Rank; ++k)
      if (extent_at(ab, k) != extent_at(d, k))
        throw_invalid_argument(fn, "ab.extent(", k, ") = ", extent_at(ab, k), " but d.extent(", k,
                               ") = ", extent_at(d, k));
  } else if (ab.extent(0) != d.extent(axis)) {
    throw_invalid_argument(fn, "ab.extent(0) = ", ab.extent(0), " but d.extent(", axis,
                           ") = ", d.extent(axis),
                           " (a shared band needs one column per row of the solve axis)");
  }
  check_no_overlap(fn, out_name, out, "ab", ab);
  check_no_overlap(fn, out_name, out, "info", info);
  return nlines;
}

// x overwrites d: the solve of checked arguments, lines of n >= 1 rows.
template <class Backend, class ExecutionSpace, class ABView, class DView, class InfoView>
void banded_axis_solve(const ExecutionSpace& exec, const algo::banded_lu& alg, int axis,
                       const ABView& ab, const DView& d, const InfoView& info) {
  using T = typename ABView::non_const_value_type;
  using D = typename DView::value_type;
  constexpr int Rank = static_cast<int>(DView::rank);
  const auto n = static_cast<index_t>(extent_at(d, axis));
  const auto abo = make_band_axis_operand<Rank, true, const T>(ab, axis);
  const auto dop = make_band_axis_operand<Rank, false, D>(d, axis);
  if constexpr (std::is_same_v<Backend, backend::device>) {
    index_t extents[max_axis_rank] = {};
    for (int k = 0; k < Rank; ++k) extents[k] = static_cast<index_t>(d.extent(k));
    const auto lines = device_lines_of<Rank>(extents, axis);
    for (index_t o = 0; o < lines.outer_extent; ++o) {
      const auto first = static_cast<std::size_t>(o * lines.per_launch);
      const auto info_o = Kokkos::subview(
          info, Kokkos::make_pair(first, first + static_cast<std::size_t>(lines.per_launch)));
      banded_device_solve(
          exec, alg.pivoting, runtime_band_dims{alg.kl, alg.ku},
          band_systems<const T>{band_axis_device_systems(abo, lines, o), abo.along,
                                abo.band_row},
          rhs_systems<D>{band_axis_device_systems(dop, lines, o), dop.along, 0},
          info_o, lines.per_launch, n, 1);
    }
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve_along(banded_lu): a host backend runs only on its own "
                  "execution space");
    constexpr bool shared = ABView::rank == 2;
    const int lane_axis = lane_axis_of(d, axis);
    const nd_strides arrays[2] = {abo.grid, dop.grid};
    const auto packs_of = [&](int width) {
      line_packs g = make_line_packs(d, axis, lane_axis, width);
      merge_contiguous_outer_axes(g, arrays, 2);
      return g;
    };
    constexpr int full = cache_line_lanes_v<T>;
    const line_packs whole = packs_of(full);
    // Unit lanes: d's lines (and a full band's) neighbours in memory along the lane axis.
    const bool unit = dop.grid.s[whole.lane_axis] == 1 &&
                      (shared || abo.grid.s[whole.lane_axis] == 1);
    dispatch_band_dims(alg, [&](auto dims) {
      const auto run = [&](auto lanes, auto pivot, auto lane_contiguous) {
        constexpr int L = decltype(lanes)::value;
        constexpr bool P = decltype(pivot)::value, U = decltype(lane_contiguous)::value;
        const line_packs g = L == full ? whole : packs_of(L);
        if constexpr (shared)
          banded_axis_shared_host_launch<L, P, U>(exec, dims, g, abo, dop, info);
        else
          banded_axis_host_launch<L, P, U>(exec, dims, g, abo, dop, info);
      };
      const auto with_pivoting = [&](auto lanes, auto lane_contiguous) {
        if (alg.pivoting) run(lanes, std::true_type{}, lane_contiguous);
        else run(lanes, std::false_type{}, lane_contiguous);
      };
      if (whole.lane_extent < full) {
        with_pivoting(std::integral_constant<int, 1>{}, std::true_type{});
      } else if (unit) {
        with_pivoting(std::integral_constant<int, full>{}, std::true_type{});
      } else {
        with_pivoting(std::integral_constant<int, full>{}, std::false_type{});
      }
    });
  }
}

}  // namespace detail

template <class ExecutionSpace, class ABView, class DView, class InfoView,
          class Backend = backend::default_for_t<ExecutionSpace>>
std::enable_if_t<backend::is_backend_v<Backend>> solve_along(const ExecutionSpace& exec,
                                                             const algo::banded_lu& alg,
                                                             int axis, const ABView& ab,
                                                             const DView& d, const InfoView& info,
                                                             Backend = {}) {
  detail::banded_axis_static_checks<true, ExecutionSpace, ABView, DView, InfoView>();
  const std::string fn = "bandsolve::solve_along(banded_lu)";
  const std::size_t nlines = detail::banded_axis_checks(fn, alg, axis, ab, d, "d", d, info);
  if (nlines == 0) return;
  if (d.extent(static_cast<std::size_t>(axis)) == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  detail::banded_axis_solve<Backend>(exec, alg, axis, ab, d, info);
}

// u += x; d is only read (a View of const allowed), u has d's extents in a layout of its own.
// d is copied into a kept scratch array, solved there and added into u
// (layout/add_through_copy.hpp); fenced before return.
template <class ExecutionSpace, class ABView, class DView, class UView, class InfoView,
          class Backend = backend::default_for_t<ExecutionSpace>>
std::enable_if_t<backend::is_backend_v<Backend>> solve_along_add(
    const ExecutionSpace& exec, const algo::banded_lu& alg, int axis, const ABView& ab,
    const DView& d, const UView& u, const InfoView& info, Backend = {}) {
  detail::banded_axis_static_checks<false, ExecutionSpace, ABView, DView, InfoView>();
  detail::along_add_target_static_checks<ExecutionSpace, DView, UView>();
  const std::string fn = "bandsolve::solve_along_add(banded_lu)";
  const std::size_t nlines = detail::banded_axis_checks(fn, alg, axis, ab, d, "u", u, info);
  detail::check_along_add_target(fn, d, u);
  if (nlines == 0) return;
  if (d.extent(static_cast<std::size_t>(axis)) == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  detail::add_through_copy(exec, fn.c_str(), d, u, [&](const auto& x) {
    detail::banded_axis_solve<Backend>(exec, alg, axis, ab, x, info);
  });
}

}  // namespace bandsolve
