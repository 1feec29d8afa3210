#pragma once
// Factored band lines along an axis: factor once, solve many (compact finite-difference schemes
// and time steps whose banded operator does not change).
//
//   auto f = bandsolve::factorize_along(exec, algo::banded_lu{kl, ku}, axis, ab[, backend]);
//   auto f = bandsolve::factorize_along(exec, algo::banded_lu{kl, ku}, axis, ab, d[, backend]);
//   f.solve(exec, d);     // any number of times: x overwrites d
//   f.solve_add(exec, d, u);  // u += x, d only read (the last sweep of an ADI step)
//   f.refactor(exec, ab2);  // a new band of the same kind and extents, into f's storage
//   f.info();             // the factorization's codes, one per line (solve_along's numbering)
//
// ab as for solve_along(banded_lu) (banded_lu_axis.hpp): a full array of rank R + 1 (the grid's
// extents, then ldab >= 2kl + ku + 1 band rows in LAPACK band storage) or a rank-2 View (n, ldab)
// shared by every line. The first form takes the grid from a full ab; the second from d, a View
// shaped like the right-hand sides to come (its values are not read), which a shared band needs.
// A solve takes d of the factored extents in any layout (LayoutRight, LayoutLeft, LayoutStride),
// of ab's scalar type or Kokkos::complex of a real one, and addresses it through its own strides.
// Storage: per line the LU factors of ?gbtrf (2kl + ku + 1 values per unknown) and the pivot
// rows (one int per unknown); a shared band: one line's, once.
// Host backends: the lines grouped once, at factorization, from the strides of ab (of d for a
// shared band) into packs of neighbouring lines along the batch axis of smallest stride, a SIMD
// lane each (one line per pack where that axis is shorter than a pack), the factors of a pack
// interleaved lane by lane; a solve streams them with d's pack, kl = ku = 1, 2 and 4 compiled.
// Device backend (trailing backend::device{}, the default on Kokkos::Cuda): a thread per line,
// the lines' factors interleaved line by line (neighbouring threads on neighbouring addresses).
// Enqueued on exec, not fenced; a solve does not look at info(): lines whose code is not 0 get
// inf/NaN.
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/banded/banded_lu.hpp>
#include <bandsolve/banded/banded_lu_axis.hpp>
#include <bandsolve/core/info.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/layout/axis.hpp>
#include <bandsolve/layout/axis_checks.hpp>
#include <bandsolve/layout/axis_factorization.hpp>

#include <array>
#include <string>
#include <type_traits>
#include <utility>

namespace bandsolve {

template <class Scalar, class ExecutionSpace, class Backend>
class banded_axis_factorization;

namespace detail {

// The factors of packs of `lanes` lines, interleaved lane by lane: pack p's band rows of column j
// at (p n + j) ldw lanes, its pivots at (p n + j) lanes.
template <class U>
band_axis_factors<U> packed_band_factors(U* lu, int* pivots, index_t n, index_t ldw,
                                         index_t lanes) {
  return {lu, pivots, 1, ldw * lanes, lanes, n * ldw * lanes, lanes, n * lanes};
}

// Every pack of g factored into f (L lanes a pack, f's lanes interleaved); codes in info in
// solve_along's numbering. A last pack of fewer lines is factored line by line, as
// solve_along(banded_lu) solves it.
template <int L, bool Pivot, bool Unit, class ExecutionSpace, class T, class InfoView>
void banded_axis_factor_host(const ExecutionSpace& exec, const runtime_band_dims dims,
                             const line_packs& g, const band_axis_operand<const T>& ab,
                             const band_axis_factors<T>& f, const InfoView& info) {
  using work_type = band_work<T, L, runtime_band_dims>;
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  const index_t n = g.n, ldw = 2 * dims.kl() + dims.ku() + 1;
  for_each_pack(
      exec, "bandsolve::factorize_along(banded_lu)", g.npacks, work_type::bytes(dims, n),
      KOKKOS_LAMBDA(const index_t p, void* scratch) {
        const line_pack k = g.pack(p);
        T* rows = static_cast<T*>(scratch);
        const index_t s0 = g.first_system(k);
        if (k.lanes == L) {
          const work_type w{rows, rows + (n + dims.kl()) * ldw * L, dims};
          int info_l[lane_count];
          banded_factor_pack<L, true, Pivot>(w, n, L, ab.template band<Unit>(g, k),
                                             f.template band<Unit>(p, 0),
                                             f.template pivot<true>(p, 0), info_l);
          for (int l = 0; l < L; ++l) info(s0 + l * g.lane_system_stride) = info_l[l];
          return;
        }
        if constexpr (L > 1) {
          const band_work<T, 1, runtime_band_dims> w{rows, rows + (n + dims.kl()) * ldw, dims};
          for (int l = 0; l < k.lanes; ++l) {
            const line_pack one{k.first_lane + l, k.o0, k.o1, 1};
            int info_s[1];
            banded_factor_pack<1, true, Pivot>(w, n, 1, ab.template band<true>(g, one),
                                               f.template band<true>(p, l),
                                               f.template pivot<true>(p, l), info_s);
            info(s0 + l * g.lane_system_stride) = info_s[0];
          }
        }
      });
}

// The device lines of solve_along(banded_lu) (a launch per index of a 4-D array's first batch
// axis) and their factors: line s of launch o at (o per_launch + s) + (j ldw + r) nlines, its
// pivot rows at (o per_launch + s) + j nlines; a shared band's one factorization read by all.
template <class U>
band_systems<U> device_band_factors(U* lu, const band_axis_device_lines& lines, index_t outer,
                                    index_t nlines, index_t ldw, bool shared) {
  const auto width = static_cast<int>(lines.width);
  if (shared) return {device::systems<U>{lu, 0, ldw, width, 0}, ldw, 1};
  return {device::systems<U>{lu + outer * lines.per_launch, lines.width, ldw * nlines, width, 1},
          ldw * nlines, nlines};
}
inline pivot_systems device_pivot_factors(int* pivots, const band_axis_device_lines& lines,
                                          index_t outer, index_t nlines, bool shared) {
  const auto width = static_cast<int>(lines.width);
  if (shared) return {device::systems<int>{pivots, 0, 1, width, 0}, 1};
  return {device::systems<int>{pivots + outer * lines.per_launch, lines.width, nlines, width, 1},
          nlines};
}

template <int Rank>
band_axis_device_lines band_axis_device_lines_of(const std::array<std::size_t, 4>& extents,
                                                 int axis) {
  index_t e[max_axis_rank] = {};
  for (int k = 0; k < Rank; ++k) e[k] = static_cast<index_t>(extents[static_cast<std::size_t>(k)]);
  return device_lines_of<Rank>(e, axis);
}

struct banded_axis_factorization_access {
  template <class F, class... Args>
  static F make(Args&&... args) {
    return F(std::forward<Args>(args)...);
  }
};

}  // namespace detail

// The factors of the band lines along one axis of a grid (factorize_along). Backend: the backend
// that factored them and runs the solves.
template <class Scalar, class ExecutionSpace, class Backend>
class banded_axis_factorization {
 public:
  using scalar_type = Scalar;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;

  banded_axis_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(lines_.nsys); }  // lines
  std::size_t n() const { return static_cast<std::size_t>(n_); }
  int kl() const { return kl_; }
  int ku() const { return ku_; }
  int axis() const { return axis_; }
  bool pivoting() const { return pivoting_; }
  // Whether the band was shared by every line (one line's factors are stored).
  bool shared() const { return shared_; }
  Kokkos::View<const int*, memory_space> info() const { return info_; }
  std::size_t storage_bytes() const {
    return lu_.span() * sizeof(Scalar) + pivots_.span() * sizeof(int);
  }

  // d: the factored grid's extents, any layout, of the factored scalar type or Kokkos::complex
  // of it over a real band. Enqueued on exec, not fenced.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::axis_factored_solve_static_checks<Scalar, ExecutionSpace, DView>();
    const std::string fn = "bandsolve::banded_axis_factorization::solve";
    detail::check_factored_extents(fn, initialized_, rank_, extents_, d, "factored grid");
    if (lines_.nsys != 0 && n_ != 0) solve_checked(exec, d);
  }

  // u += x, d only read (it may be a View of const): the last sweep of an ADI step. u: d's
  // extents and scalar type, any layout. d is copied into a kept scratch array, solved there and
  // added into u (layout/add_through_copy.hpp); fenced before return.
  template <class DView, class UView>
  void solve_add(const ExecutionSpace& exec, const DView& d, const UView& u) const {
    detail::axis_factored_add_static_checks<Scalar, ExecutionSpace, DView, UView>();
    const std::string fn = "bandsolve::banded_axis_factorization::solve_add";
    detail::check_factored_extents(fn, initialized_, rank_, extents_, d, "factored grid");
    detail::check_along_add_target(fn, d, u);
    if (lines_.nsys != 0 && n_ != 0)
      detail::add_through_copy(exec, fn.c_str(), d, u,
                               [&](const auto& x) { solve_checked(exec, x); });
  }

  // Factors a new band into this factorization's storage (no allocation), its codes into info():
  // ab of the factored grid in any layout (the lines keep the grouping of the factorization), or
  // a rank-2 (n, ldab) View where the factored band was shared by every line; ldab >= 2kl + ku
  // + 1 for the factored kl, ku, pivoting as factored. Enqueued on exec, not fenced.
  template <class ABView>
  void refactor(const ExecutionSpace& exec, const ABView& ab);

 private:
  // x overwrites d (checked, lines of n >= 1 rows).
  template <class DView>
  void solve_checked(const ExecutionSpace& exec, const DView& d) const {
    using D = typename DView::value_type;
    constexpr int R = static_cast<int>(DView::rank);
    const auto dop = detail::make_band_axis_operand<R, false, D>(d, axis_);
    const index_t ldw = 2 * kl_ + ku_ + 1;
    const char* label = "bandsolve::banded_axis_factorization::solve";
    if constexpr (std::is_same_v<Backend, backend::device>) {
      const auto lines = detail::band_axis_device_lines_of<R>(extents_, axis_);
      for (index_t o = 0; o < lines.outer_extent; ++o)
        detail::banded_device_factored_solve_launch(
            exec, pivoting_, detail::runtime_band_dims{kl_, ku_},
            detail::device_band_factors<const Scalar>(lu_.data(), lines, o, lines_.nsys, ldw,
                                                      shared_),
            detail::device_pivot_factors(pivots_.data(), lines, o, lines_.nsys, shared_),
            detail::rhs_systems<D>{detail::band_axis_device_systems(dop, lines, o), dop.along, 0},
            lines.per_launch, n_, 1);
    } else {
      constexpr int full = detail::cache_line_lanes_v<Scalar>;
      const bool unit = dop.grid.s[lines_.lane_axis] == 1;
      const auto factors =
          shared_ ? detail::shared_band_factors<const Scalar>(lu_.data(), pivots_.data(), ldw)
                  : detail::packed_band_factors<const Scalar>(lu_.data(), pivots_.data(), n_,
                                                              ldw, lines_.width);
      // An unmanaged empty View, not a default one (copying that crashes on a Kokkos 4.6.99
      // snapshot; docs/development.md).
      const Kokkos::View<int*, memory_space> no_info(static_cast<int*>(nullptr), 0);
      detail::dispatch_band_dims(algo::banded_lu{kl_, ku_, pivoting_}, [&](auto dims) {
        const auto run = [&](auto lanes, auto pivot, auto lane_contiguous, auto factor_unit) {
          detail::banded_axis_factored_solve_host<decltype(lanes)::value, decltype(pivot)::value,
                                                  decltype(lane_contiguous)::value,
                                                  decltype(factor_unit)::value>(
              exec, label, dims, lines_, factors, dop, no_info, nullptr);
        };
        const auto with_lanes = [&](auto pivot, auto lane_contiguous) {
          const auto packs_of = [&](auto lanes) {
            if (shared_) run(lanes, pivot, lane_contiguous, std::false_type{});
            else run(lanes, pivot, lane_contiguous, std::true_type{});
          };
          if (lines_.width == full) packs_of(std::integral_constant<int, full>{});
          else run(std::integral_constant<int, 1>{}, pivot, std::true_type{}, std::true_type{});
        };
        const auto with_unit = [&](auto pivot) {
          if (unit) with_lanes(pivot, std::true_type{});
          else with_lanes(pivot, std::false_type{});
        };
        if (pivoting_) with_unit(std::true_type{});
        else with_unit(std::false_type{});
      });
    }
  }

  friend struct detail::banded_axis_factorization_access;

  banded_axis_factorization(const Kokkos::View<Scalar*, memory_space>& lu,
                            const Kokkos::View<int*, memory_space>& pivots,
                            const Kokkos::View<int*, memory_space>& info,
                            const detail::line_packs& lines, std::array<std::size_t, 4> extents,
                            int rank, int axis, index_t n, const algo::banded_lu& alg,
                            bool shared)
      : lu_(lu), pivots_(pivots), info_(info), lines_(lines), extents_(extents), rank_(rank),
        axis_(axis), n_(n), kl_(alg.kl), ku_(alg.ku), pivoting_(alg.pivoting), shared_(shared),
        initialized_(true) {}

  Kokkos::View<Scalar*, memory_space> lu_;
  Kokkos::View<int*, memory_space> pivots_, info_;
  detail::line_packs lines_;
  std::array<std::size_t, 4> extents_{};
  int rank_ = 0, axis_ = 0;
  index_t n_ = 0;
  int kl_ = 0, ku_ = 0;
  bool pivoting_ = false, shared_ = false, initialized_ = false;
};

namespace detail {

// The factors of the lines of `lines` (grid rank R, extents, axis) from ab (a full array of rank
// R + 1 or a shared (n, ldab) View, in any layout) into lu and pivots, the codes into info:
// factorize_along's and refactor's work. Enqueued on exec.
template <class Backend, int R, class ExecutionSpace, class ABView, class T, class MemorySpace>
void banded_axis_factor_into(const ExecutionSpace& exec, const algo::banded_lu& alg,
                             const line_packs& lines, const std::array<std::size_t, 4>& extents,
                             int axis, const ABView& ab, const Kokkos::View<T*, MemorySpace>& lu,
                             const Kokkos::View<int*, MemorySpace>& pivots,
                             const Kokkos::View<int*, MemorySpace>& info) {
  if (lines.nsys == 0) return;
  const index_t n = lines.n;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  constexpr bool shared = ABView::rank == 2;
  constexpr bool device = std::is_same_v<Backend, backend::device>;
  constexpr int full = cache_line_lanes_v<T>;
  const int lanes = lines.width;
  const index_t ldw = 2 * alg.kl + alg.ku + 1;
  const std::string label = "bandsolve::factorize_along(banded_lu)";
  const auto abo = make_band_axis_operand<R, true, const T>(ab, axis);
  const runtime_band_dims dims{alg.kl, alg.ku};
  if constexpr (device) {
    const auto device_lines = band_axis_device_lines_of<R>(extents, axis);
    const index_t launches = shared ? 1 : device_lines.outer_extent;
    for (index_t o = 0; o < launches; ++o) {
      const auto first = static_cast<std::size_t>(o * device_lines.per_launch);
      const index_t count = shared ? 1 : device_lines.per_launch;
      const auto info_o = Kokkos::subview(
          info, std::make_pair(first, first + static_cast<std::size_t>(count)));
      banded_device_factor_launch(
          exec, alg.pivoting, dims,
          band_systems<const T>{band_axis_device_systems(abo, device_lines, o), abo.along,
                                abo.band_row},
          device_band_factors(lu.data(), device_lines, o, lines.nsys, ldw, shared),
          device_pivot_factors(pivots.data(), device_lines, o, lines.nsys, shared), info_o,
          count, n);
    }
    if (shared) spread_first_code(exec, info);
  } else {
    if constexpr (shared) {
      const auto factors = shared_band_factors(lu.data(), pivots.data(), ldw);
      const auto factor = [&](auto pivot) {
        banded_axis_factor_one_host<decltype(pivot)::value>(exec, label.c_str(), dims, lines,
                                                            abo, factors, info.data());
      };
      if (alg.pivoting) factor(std::true_type{});
      else factor(std::false_type{});
      spread_first_code(exec, info);
    } else {
      const auto factors = packed_band_factors(lu.data(), pivots.data(), n, ldw, lanes);
      const bool unit = abo.grid.s[lines.lane_axis] == 1;
      const auto run = [&](auto lanes_c, auto pivot, auto lane_contiguous) {
        banded_axis_factor_host<decltype(lanes_c)::value, decltype(pivot)::value,
                                decltype(lane_contiguous)::value>(exec, dims, lines, abo,
                                                                  factors, info);
      };
      const auto with_pivoting = [&](auto lanes_c, auto lane_contiguous) {
        if (alg.pivoting) run(lanes_c, std::true_type{}, lane_contiguous);
        else run(lanes_c, std::false_type{}, lane_contiguous);
      };
      if (lanes == 1) with_pivoting(std::integral_constant<int, 1>{}, std::true_type{});
      else if (unit) with_pivoting(std::integral_constant<int, full>{}, std::true_type{});
      else with_pivoting(std::integral_constant<int, full>{}, std::false_type{});
    }
  }
}

// factorize_along on the grid of `grid` (a View of the grid's rank whose strides group the
// lines), after the checks.
template <class Backend, class ExecutionSpace, class GridView, class ABView>
auto banded_axis_factorize(const ExecutionSpace& exec, const algo::banded_lu& alg, int axis,
                           const GridView& grid, const ABView& ab) {
  using T = typename ABView::non_const_value_type;
  using F = banded_axis_factorization<T, ExecutionSpace, Backend>;
  using memory_space = typename F::memory_space;
  constexpr int R = static_cast<int>(GridView::rank);
  constexpr bool shared = ABView::rank == 2;
  constexpr bool device = std::is_same_v<Backend, backend::device>;
  constexpr int full = cache_line_lanes_v<T>;
  const int lane_axis = lane_axis_of(grid, axis);
  // One line a pack where the lane axis is shorter than a pack (and on the device backend).
  const int lanes = !device && static_cast<index_t>(extent_at(grid, lane_axis)) >= full ? full : 1;
  const line_packs lines = make_line_packs(grid, axis, lane_axis, lanes);
  const auto n = static_cast<index_t>(extent_at(grid, axis));
  const index_t ldw = 2 * alg.kl + alg.ku + 1;
  std::array<std::size_t, 4> extents{};
  for (int k = 0; k < R; ++k) extents[static_cast<std::size_t>(k)] = extent_at(grid, k);
  const index_t stored_lines = lines.nsys == 0 ? 0 : shared ? 1 : lines.npacks * lanes;
  const auto values = static_cast<std::size_t>(stored_lines * n);
  const std::string label = "bandsolve::factorize_along(banded_lu)";
  const auto lu = allocate_zeroed<Kokkos::View<T*, memory_space>>(
      exec, label + " LU", values * static_cast<std::size_t>(ldw));
  const auto pivots =
      allocate_zeroed<Kokkos::View<int*, memory_space>>(exec, label + " pivots", values);
  const Kokkos::View<int*, memory_space> info(Kokkos::view_alloc(exec, label + " info"),
                                              static_cast<std::size_t>(lines.nsys));
  auto f = banded_axis_factorization_access::make<F>(lu, pivots, info, lines, extents, R, axis,
                                                     n, alg, shared);
  banded_axis_factor_into<Backend, R>(exec, alg, lines, extents, axis, ab, lu, pivots, info);
  return f;
}

// The checks of factorize_along against the grid of `like` (d, or the grid of a full ab);
// like_name: "d" or "ab".
template <class ExecutionSpace, class LikeView, class ABView>
void banded_axis_factor_checks(const std::string& fn, const algo::banded_lu& alg, int axis,
                               const LikeView& like, const char* like_name, const ABView& ab) {
  using T = typename ABView::non_const_value_type;
  constexpr int R = static_cast<int>(LikeView::rank);
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve::factorize_along(banded_lu): the first argument must be a Kokkos "
                "execution space instance");
  static_assert(Kokkos::is_view<ABView>::value,
                "bandsolve::factorize_along(banded_lu): ab must be a Kokkos::View");
  static_assert(R >= 2 && R <= max_axis_rank,
                "bandsolve::factorize_along(banded_lu): the grid (d) must have rank 2, 3 or 4");
  static_assert(ABView::rank == R + 1 || ABView::rank == 2,
                "bandsolve::factorize_along(banded_lu): ab must be a View of d's rank + 1 (d's "
                "extents, then the band rows) or a rank-2 View (n, ldab) shared by every line");
  static_assert(is_supported_scalar_v<T>,
                "bandsolve::factorize_along(banded_lu): the scalar type of ab must be float, "
                "double, Kokkos::complex<float> or Kokkos::complex<double>");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename ABView::memory_space>::accessible,
      "bandsolve::factorize_along(banded_lu): ab must be accessible from the execution space");
  if (axis < 0 || axis >= R)
    throw_invalid_argument(fn, "axis = ", axis, " but ", like_name, " has rank ", R);
  check_rows_fit_int(fn, like.extent(static_cast<std::size_t>(axis)));
  constexpr int band_axis = static_cast<int>(ABView::rank) - 1;
  check_bandwidths(fn, alg, static_cast<index_t>(ab.extent(band_axis)));
  if constexpr (static_cast<int>(ABView::rank) == R + 1) {
    for (int k = 0; k < R; ++k)
      if (extent_at(ab, k) != extent_at(like, k))
        throw_invalid_argument(fn, "ab.extent(", k, ") = ", extent_at(ab, k), " but ", like_name,
                               ".extent(", k, ") = ", extent_at(like, k));
  } else if (ab.extent(0) != like.extent(static_cast<std::size_t>(axis))) {
    throw_invalid_argument(fn, "ab.extent(0) = ", ab.extent(0), " but ", like_name, ".extent(",
                           axis, ") = ", like.extent(static_cast<std::size_t>(axis)),
                           " (a shared band needs one column per row of the solve axis)");
  }
}

}  // namespace detail

template <class Scalar, class ExecutionSpace, class Backend>
template <class ABView>
void banded_axis_factorization<Scalar, ExecutionSpace, Backend>::refactor(
    const ExecutionSpace& exec, const ABView& ab) {
  detail::axis_refactor_static_checks<Scalar, ExecutionSpace, ABView>();
  constexpr int rank = static_cast<int>(ABView::rank);
  static_assert(rank >= 2 && rank <= detail::max_axis_rank + 1,
                "bandsolve::banded_axis_factorization::refactor: ab must be a View of the grid's "
                "rank + 1 or a rank-2 View (n, ldab) shared by every line");
  const std::string fn = "bandsolve::banded_axis_factorization::refactor";
  if (!initialized_)
    detail::throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
  if (shared_ != (rank == 2))
    detail::throw_invalid_argument(fn, "ab has rank ", rank, " but the factored band was ",
                                   shared_ ? "shared by every line (rank 2)" : "an array of rank ",
                                   shared_ ? "" : std::to_string(rank_ + 1));
  if (rank != 2 && rank != rank_ + 1)
    detail::throw_invalid_argument(fn, "ab has rank ", rank, " but the factored band was an ",
                                   "array of rank ", rank_ + 1);
  const algo::banded_lu alg{kl_, ku_, pivoting_};
  detail::check_bandwidths(fn, alg, static_cast<index_t>(ab.extent(rank - 1)));
  if (rank == 2 && ab.extent(0) != static_cast<std::size_t>(n_))
    detail::throw_invalid_argument(fn, "ab.extent(0) = ", ab.extent(0),
                                   " but the factored lines have ", n_, " rows");
  for (int k = 0; rank != 2 && k < rank_; ++k)
    if (detail::extent_at(ab, k) != extents_[static_cast<std::size_t>(k)])
      detail::throw_invalid_argument(fn, "ab.extent(", k, ") = ", detail::extent_at(ab, k),
                                     " but the factored grid has ",
                                     extents_[static_cast<std::size_t>(k)]);
  detail::with_grid_rank(rank_, [&](auto grid_rank) {
    constexpr int R = decltype(grid_rank)::value;
    if constexpr (rank == 2 || rank == R + 1)
      detail::banded_axis_factor_into<Backend, R>(exec, alg, lines_, extents_, axis_, ab, lu_,
                                                  pivots_, info_);
  });
}

// With d: the grid's extents and line grouping from d (a full or a shared band).
template <class ExecutionSpace, class ABView, class DView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<Kokkos::is_view<DView>::value && backend::is_backend_v<Backend>,
                           int> = 0>
auto factorize_along(const ExecutionSpace& exec, const algo::banded_lu& alg, int axis,
                     const ABView& ab, const DView& d, Backend = {}) {
  static_assert(std::is_same_v<Backend, backend::device> ||
                    std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                "bandsolve::factorize_along(banded_lu): a host backend runs only on its own "
                "execution space");
  const std::string fn = "bandsolve::factorize_along(banded_lu)";
  detail::banded_axis_factor_checks<ExecutionSpace>(fn, alg, axis, d, "d", ab);
  return detail::banded_axis_factorize<Backend>(exec, alg, axis, d, ab);
}

// Without d: the grid's extents and line grouping from a full ab (its band row 0).
template <class ExecutionSpace, class ABView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
auto factorize_along(const ExecutionSpace& exec, const algo::banded_lu& alg, int axis,
                     const ABView& ab, Backend backend_tag = {}) {
  static_assert(Kokkos::is_view<ABView>::value && ABView::rank >= 3,
                "bandsolve::factorize_along(banded_lu): with a band shared by every line (a "
                "rank-2 ab), pass d (a View shaped like the right-hand sides to come) after ab");
  static_assert(std::is_same_v<Backend, backend::device> ||
                    std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                "bandsolve::factorize_along(banded_lu): a host backend runs only on its own "
                "execution space");
  (void)backend_tag;
  const std::string fn = "bandsolve::factorize_along(banded_lu)";
  const auto grid = detail::leading_grid(ab);
  detail::banded_axis_factor_checks<ExecutionSpace>(fn, alg, axis, grid, "ab", ab);
  return detail::banded_axis_factorize<Backend>(exec, alg, axis, grid, ab);
}

}  // namespace bandsolve
