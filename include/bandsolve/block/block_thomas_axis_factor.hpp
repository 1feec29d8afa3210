#pragma once
// Factored block lines along an axis: factor once, solve many (time steps with blocks that do
// not change).
//
//   auto f = bandsolve::factorize_along(exec, alg, axis, a, b, c[, backend::device{}]);
//   auto f = bandsolve::factorize_along(exec, alg, axis, a, b, c, d[, backend::device{}]);
//   f.solve(exec, d);     // any number of times: x overwrites d
//   f.solve_add(exec, d, u);  // u += x, d only read (the last sweep of an ADI step)
//   f.refactor(exec, a2, b2, c2);  // new blocks of the same kind and extents, into f's storage
//   f.info();             // the factorization's codes, one per line (solve_along's numbering)
//
// alg: algo::block_thomas{} or {algo::block_thomas::pivoting::partial}. a, b, c as for
// solve_along(block_thomas) (block_thomas_axis.hpp): full arrays of rank R + 2 or rank-3 Views
// (n, m, m) shared by every line. The first form takes the grid's extents from a full array; the
// second from d, a View shaped like the right-hand sides to come (its values are not read), which
// coefficients that are all shared need. The lines are grouped once, at factorization, from the
// strides of a full coefficient array (of d for shared ones): packs of neighbouring lines along
// the axis of smallest stride. A solve takes d of the factored grid extents and block size in
// any layout and addresses it through its own strides.
// Storage: per line and block row the factors of block Thomas (A_i, the LU factors of S_i with
// their interchanges, C*_i: 3m^2 + m values); coefficients all shared: one line's, once.
// Host backends: the factors of a pack of lines interleaved lane by lane (packs of
// block_lanes_v lines, one SIMD lane each; a shared factorization in every lane of one pack),
// the solve streams them with d. Device backend (trailing backend::device{}, the default on
// Kokkos::Cuda): a thread per line, factors line by line. f.solve: enqueued on exec, not
// fenced, no scratch; f.solve_add: see its comment. A solve does not look at info(): lines
// whose code is not 0 get inf/NaN.
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/block/block_thomas_axis.hpp>
#include <bandsolve/core/view_extents.hpp>

#include <array>
#include <string>
#include <type_traits>
#include <utility>

namespace bandsolve {

template <class Scalar, class ExecutionSpace, class Backend>
class block_axis_factorization;

namespace detail {

template <class T, class Backend>
inline constexpr int block_axis_factor_lanes =
    std::is_same_v<Backend, backend::device> ? 1 : block_lanes_v<T, 0>;

// Line packs of a solve along `axis` of `grid` (rank R, no folding: the packs must suit every d
// of these extents), `lanes` lines each.
template <class GridView>
line_packs block_axis_factor_packs(const GridView& grid, int axis, int lanes) {
  return make_line_packs(grid, axis, lane_axis_of(grid, axis), lanes);
}

template <int M, class Backend, class ExecutionSpace, class T, class InfoView>
void block_axis_factor_launch(const ExecutionSpace& exec, bool pivoting, bool shared,
                              const line_packs& g, const block_axis_operand<const T>& a,
                              const block_axis_operand<const T>& b,
                              const block_axis_operand<const T>& c, T* f,
                              const InfoView& info) {
  constexpr int L = block_axis_factor_lanes<T, Backend>;
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  const index_t n = g.n, stride = n * block_factor_words<M> * L, nlines = g.nsys;
  const char* label = "bandsolve::factorize_along(block_thomas)";
  const line_pack first{0, 0, 0, 1};
  // One factorization for every line: lane 0 of a group of one line, the other lanes reading it
  // too; its code goes to every line.
  const auto factor_shared = KOKKOS_LAMBDA(const index_t) {
    int info_l[lane_count] = {};
    block_thomas_factor_group<M, L, T>(n, 1, pivoting, a.group(g, first), b.group(g, first),
                                       c.group(g, first), f, info_l);
    info(0) = info_l[0];
  };
  const auto spread_code = KOKKOS_LAMBDA(const index_t s) { info(s + 1) = info(0); };
  // Pack p of lines into its own factors; info in solve_along's numbering.
  const auto factor_pack = KOKKOS_LAMBDA(const index_t p) {
    const line_pack k = g.pack(p);
    int info_l[lane_count] = {};
    block_thomas_factor_group<M, L, T>(n, k.lanes, pivoting, a.group(g, k), b.group(g, k),
                                       c.group(g, k), f + p * stride, info_l);
    const index_t s0 = g.first_system(k);
    for (int l = 0; l < k.lanes; ++l) info(s0 + l * g.lane_system_stride) = info_l[l];
  };
  if constexpr (std::is_same_v<Backend, backend::device>) {
    using policy = Kokkos::RangePolicy<ExecutionSpace>;
    using index = typename policy::member_type;
    if (shared) {
      Kokkos::parallel_for(label, policy(exec, 0, 1), factor_shared);
      Kokkos::parallel_for(label, policy(exec, 0, static_cast<index>(nlines - 1)), spread_code);
    } else {
      Kokkos::parallel_for(label, policy(exec, 0, static_cast<index>(g.npacks)), factor_pack);
    }
  } else if (shared) {
    for_each_pack(exec, label, 1, 0, [=](const index_t p, void*) { factor_shared(p); });
    for_each_pack(exec, label, nlines - 1, 0, [=](const index_t s, void*) { spread_code(s); });
  } else {
    for_each_pack(exec, label, g.npacks, 0, [=](const index_t p, void*) { factor_pack(p); });
  }
}

// The factored solve of every pack: x overwrites d (Add false; u is d), or u += x with d only
// read (Add true, host backends: d* rows in the work item's scratch, x added on the way back).
template <int M, class Backend, bool Add, class ExecutionSpace, class T, class DIn, class D>
void block_axis_factored_solve_launch(const ExecutionSpace& exec, bool pivoting, bool shared,
                                      const line_packs& g, const T* f,
                                      const block_axis_operand<DIn>& d,
                                      const block_axis_operand<D>& u) {
  constexpr int L = block_axis_factor_lanes<T, Backend>;
  const index_t n = g.n, stride = shared ? 0 : n * block_factor_words<M> * L;
  const char* label = "bandsolve::block_axis_factorization::solve";
  using policy = Kokkos::RangePolicy<ExecutionSpace>;
  if constexpr (std::is_same_v<Backend, backend::device>) {
    static_assert(!Add, "the device backend adds through a copy (add_through_copy)");
    Kokkos::parallel_for(
        label, policy(exec, 0, static_cast<typename policy::member_type>(g.npacks)),
        KOKKOS_LAMBDA(const index_t p) {
          const line_pack k = g.pack(p);
          block_thomas_factored_solve_group<M, L, T>(n, 1, k.lanes, pivoting, f + p * stride,
                                                     u.group(g, k));
        });
  } else {
    const std::size_t scratch = Add ? static_cast<std::size_t>(n) * M * L * sizeof(D) : 0;
    for_each_pack(exec, label, g.npacks, scratch, [=](const index_t p, void* work) {
      const line_pack k = g.pack(p);
      if constexpr (Add)
        block_thomas_factored_solve_group_add<M, L, T>(n, k.lanes, pivoting, f + p * stride,
                                                       d.group(g, k), u.group(g, k),
                                                       static_cast<D*>(work));
      else
        block_thomas_factored_solve_group<M, L, T>(n, 1, k.lanes, pivoting, f + p * stride,
                                                   u.group(g, k));
    });
  }
}

// A block coefficient given to refactor against what was factored: a grid of `rank` axes with
// these extents (n block rows along the solve axis), blocks of m x m; a full array of rank
// rank + 2 or a rank-3 (n, m, m) View shared by every line, only the latter where the factored
// blocks were all shared (shared).
template <class View>
void check_block_refactor_coefficient(const std::string& fn, const char* name, const View& v,
                                      int rank, const std::array<std::size_t, 4>& extents,
                                      std::size_t n, std::size_t m, bool shared) {
  constexpr int R = static_cast<int>(View::rank);
  if (R != 3 && shared)
    throw_invalid_argument(fn, name, " has rank ", R,
                           " but the factored blocks were shared by every line (rank 3)");
  if (R != 3 && R != rank + 2)
    throw_invalid_argument(fn, name, " has rank ", R, " but the factored grid has ", rank,
                           " axes (rank ", rank + 2, ", or 3 where shared)");
  const int grid_axes = R == 3 ? 1 : rank;  // a shared View's first axis: the rows
  for (int k = 0; k < R; ++k) {
    const std::size_t extent = extent_at(v, k);
    if (k >= grid_axes) {
      if (extent != m)
        throw_invalid_argument(fn, name, ".extent(", k, ") = ", extent,
                               " but the factored blocks are ", m, " x ", m);
    } else if (R == 3) {
      if (extent != n)
        throw_invalid_argument(fn, name, ".extent(0) = ", extent, " but the factored lines have ",
                               n, " block rows");
    } else if (extent != extents[static_cast<std::size_t>(k)]) {
      throw_invalid_argument(fn, name, ".extent(", k, ") = ", extent,
                             " but the factored grid has ", extents[static_cast<std::size_t>(k)]);
    }
  }
}

struct block_axis_factorization_access {
  template <class F, class... Args>
  static F make(Args&&... args) {
    return F(std::forward<Args>(args)...);
  }
};

}  // namespace detail

// The factors of the block lines along one axis of a grid (factorize_along). Backend: the
// backend that factored them and runs the solves.
template <class Scalar, class ExecutionSpace, class Backend>
class block_axis_factorization {
 public:
  using scalar_type = Scalar;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;

  block_axis_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(lines_.nsys); }  // lines
  std::size_t n() const { return static_cast<std::size_t>(n_); }
  std::size_t m() const { return static_cast<std::size_t>(m_); }
  int axis() const { return axis_; }
  bool pivoting() const { return pivoting_; }
  // Whether a, b and c were all shared by every line (one line's factors are stored).
  bool shared() const { return shared_; }
  Kokkos::View<const int*, memory_space> info() const { return info_; }
  std::size_t storage_bytes() const { return factors_.span() * sizeof(Scalar); }

  // d: the factored grid's extents and block size (rank R + 1), any layout, of the factored
  // scalar type or Kokkos::complex of it over real blocks. Enqueued on exec, not fenced.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    static_rhs_checks<DView>();
    static_assert(!std::is_const_v<typename DView::value_type>,
                  "bandsolve::block_axis_factorization::solve: d must be a non-const View (x "
                  "overwrites it; solve_add reads d and adds x into u)");
    if (rhs_needed("bandsolve::block_axis_factorization::solve", d))
      solve_checked<false>(exec, d, d);
  }

  // u += x, d only read (it may be a View of const): the last sweep of an ADI step. u: d's
  // extents and scalar type, any layout. Host backends: d* rows in each work item's scratch
  // (n m values per lane), x added into u on the way back; enqueued, not fenced. Device backend:
  // d copied into a kept scratch array, solved there and added into u
  // (layout/add_through_copy.hpp), fenced before return.
  template <class DView, class UView>
  void solve_add(const ExecutionSpace& exec, const DView& d, const UView& u) const {
    static_rhs_checks<DView>();
    detail::along_add_target_static_checks<ExecutionSpace, DView, UView>();
    const std::string fn = "bandsolve::block_axis_factorization::solve_add";
    const bool needed = rhs_needed(fn, d);
    detail::check_along_add_target(fn, d, u);
    if (!needed) return;
    if constexpr (std::is_same_v<Backend, backend::device>)
      detail::add_through_copy(exec, fn.c_str(), d, u,
                               [&](const auto& x) { solve_checked<false>(exec, x, x); });
    else
      solve_checked<true>(exec, d, u);
  }

  // Factors new blocks into this factorization's storage (no allocation), its codes into info():
  // a, b, c of the factored grid and block size in any layout (the lines keep the grouping of the
  // factorization) or rank-3 (n, m, m) Views shared by every line, all three shared where the
  // factored ones were and not all three where they were not; the pivoting factored with.
  // Enqueued on exec, not fenced.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c) {
    const std::string fn = "bandsolve::block_axis_factorization::refactor";
    static_refactor_checks<AView>();
    static_refactor_checks<BView>();
    static_refactor_checks<CView>();
    if (!initialized_)
      detail::throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
    constexpr bool all_shared = AView::rank == 3 && BView::rank == 3 && CView::rank == 3;
    if (all_shared && !shared_)
      detail::throw_invalid_argument(fn, "a, b and c are all shared by every line (rank 3) but "
                                         "the factorization holds every line's factors");
    check_refactor_coefficient(fn, "a", a);
    check_refactor_coefficient(fn, "b", b);
    check_refactor_coefficient(fn, "c", c);
    if (lines_.nsys == 0) return;
    if (n_ == 0) {
      Kokkos::deep_copy(exec, info_, 0);
      return;
    }
    const auto operand = [&](const auto& v) {
      constexpr int rank = static_cast<int>(std::remove_reference_t<decltype(v)>::rank);
      return detail::make_block_axis_operand<rank - 2, false, const Scalar>(v, axis_);
    };
    detail::block_size_dispatch(fn, static_cast<std::size_t>(m_), [&](auto block_size) {
      detail::block_axis_factor_launch<decltype(block_size)::value, Backend>(
          exec, pivoting_, shared_, lines_, operand(a), operand(b), operand(c), factors_.data(),
          info_);
    });
  }

 private:
  // refactor's compile-time checks of one coefficient View.
  template <class View>
  static constexpr void static_refactor_checks() {
    static_assert(Kokkos::is_view<View>::value,
                  "bandsolve::block_axis_factorization::refactor: a, b and c must be "
                  "Kokkos::Views");
    static_assert(std::is_same_v<typename View::non_const_value_type, Scalar>,
                  "bandsolve::block_axis_factorization::refactor: a, b and c must hold the "
                  "factored scalar type");
    static_assert(View::rank == 3 || (View::rank >= 4 && View::rank <= detail::max_axis_rank + 2),
                  "bandsolve::block_axis_factorization::refactor: a, b and c must be Views of the "
                  "grid's rank + 2 or rank-3 Views (n, m, m) shared by every line");
    static_assert(
        Kokkos::SpaceAccessibility<ExecutionSpace, typename View::memory_space>::accessible,
        "bandsolve::block_axis_factorization::refactor: a, b and c must be accessible from the "
        "execution space");
  }

  // refactor's run-time checks of one coefficient against the factored grid and blocks.
  template <class View>
  void check_refactor_coefficient(const std::string& fn, const char* name, const View& v) const {
    detail::check_block_refactor_coefficient(fn, name, v, rank_, extents_,
                                             static_cast<std::size_t>(n_),
                                             static_cast<std::size_t>(m_), shared_);
  }

  // The compile-time checks of d, solve's and solve_add's.
  template <class DView>
  static constexpr void static_rhs_checks() {
    using D = typename DView::non_const_value_type;
    constexpr int R = static_cast<int>(DView::rank) - 1;
    static_assert(Kokkos::is_view<DView>::value && R >= 2 && R <= detail::max_axis_rank,
                  "bandsolve::block_axis_factorization::solve: d must be a View of rank 3 to 5 "
                  "(a 2-D to 4-D grid, then the m unknowns of a grid point)");
    static_assert(is_rhs_of_v<Scalar, D>,
                  "bandsolve::block_axis_factorization::solve: d must be a View of the factored "
                  "scalar type, or of Kokkos::complex of it over real blocks");
    static_assert(
        Kokkos::SpaceAccessibility<ExecutionSpace, typename DView::memory_space>::accessible,
        "bandsolve::block_axis_factorization::solve: d must be accessible from the execution "
        "space");
  }

  // The run-time checks of d against the factored grid; whether there is anything to solve.
  template <class DView>
  bool rhs_needed(const std::string& fn, const DView& d) const {
    constexpr int R = static_cast<int>(DView::rank) - 1;
    if (!initialized_)
      detail::throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
    if (R != rank_)
      detail::throw_invalid_argument(fn, "d has ", R, " grid axes (rank ", R + 1,
                                     ") but the factorization has ", rank_);
    for (int k = 0; k < R; ++k)
      if (detail::extent_at(d, k) != extents_[static_cast<std::size_t>(k)])
        detail::throw_invalid_argument(fn, "d.extent(", k, ") = ", detail::extent_at(d, k),
                                       " but the factored grid has ",
                                       extents_[static_cast<std::size_t>(k)]);
    if (d.extent(R) != static_cast<std::size_t>(m_))
      detail::throw_invalid_argument(fn, "d.extent(", R, ") = ", d.extent(R),
                                     " but the factored blocks are ", m_, " x ", m_);
    return lines_.nsys != 0 && n_ != 0;
  }

  // x overwrites d (Add false; u is d) or u += x (Add true), checked.
  template <bool Add, class DView, class UView>
  void solve_checked(const ExecutionSpace& exec, const DView& d, const UView& u) const {
    constexpr int R = static_cast<int>(DView::rank) - 1;
    using D = std::conditional_t<Add, const typename DView::non_const_value_type,
                                 typename DView::value_type>;  // only read where u += x
    const auto dop = detail::make_block_axis_operand<R, true, D>(d, axis_);
    const auto uop = detail::make_block_axis_operand<R, true, typename UView::value_type>(u, axis_);
    detail::block_size_dispatch("bandsolve::block_axis_factorization::solve",
                                static_cast<std::size_t>(m_), [&](auto block_size) {
      detail::block_axis_factored_solve_launch<decltype(block_size)::value, Backend, Add>(
          exec, pivoting_, shared_, lines_, factors_.data(), dop, uop);
    });
  }

  friend struct detail::block_axis_factorization_access;

  block_axis_factorization(const Kokkos::View<Scalar*, memory_space>& factors,
                           const Kokkos::View<int*, memory_space>& info,
                           const detail::line_packs& lines, std::array<std::size_t, 4> extents,
                           int rank, int axis, index_t n, index_t m, bool pivoting, bool shared)
      : factors_(factors), info_(info), lines_(lines), extents_(extents), rank_(rank),
        axis_(axis), n_(n), m_(m), pivoting_(pivoting), shared_(shared), initialized_(true) {}

  Kokkos::View<Scalar*, memory_space> factors_;
  Kokkos::View<int*, memory_space> info_;
  detail::line_packs lines_;
  std::array<std::size_t, 4> extents_{};
  int rank_ = 0, axis_ = 0;
  index_t n_ = 0, m_ = 0;
  bool pivoting_ = false, shared_ = false, initialized_ = false;
};

namespace detail {

// factorize_along with d's extents from `grid` (a View of the grid's rank whose strides group
// the lines); d_rank: the grid rank + 1; m from the coefficients.
template <class Backend, class ExecutionSpace, class GridView, class AView, class BView,
          class CView>
auto block_axis_factorize(const ExecutionSpace& exec, algo::block_thomas alg, int axis,
                          const GridView& grid, const AView& a, const BView& b, const CView& c,
                          std::size_t m) {
  using T = typename BView::non_const_value_type;
  using F = block_axis_factorization<T, ExecutionSpace, Backend>;
  using memory_space = typename F::memory_space;
  constexpr int R = static_cast<int>(GridView::rank);
  const std::string fn = "bandsolve::factorize_along(block_thomas)";
  constexpr bool shared = AView::rank == 3 && BView::rank == 3 && CView::rank == 3;
  constexpr int L = block_axis_factor_lanes<T, Backend>;
  const line_packs lines = block_axis_factor_packs(grid, axis, L);
  const auto n = static_cast<index_t>(extent_at(grid, axis));
  const auto mi = static_cast<index_t>(m);
  std::array<std::size_t, 4> extents{};
  for (int k = 0; k < R; ++k) extents[static_cast<std::size_t>(k)] = extent_at(grid, k);
  const std::size_t words =
      static_cast<std::size_t>(n) * static_cast<std::size_t>(3 * mi * mi + mi);
  const std::size_t factor_values =
      shared ? words * L : words * static_cast<std::size_t>(lines.npacks) * L;
  const auto factors = allocate_zeroed<Kokkos::View<T*, memory_space>>(
      exec, "bandsolve::factorize_along(block_thomas) factors",
      lines.nsys == 0 ? 0 : factor_values);
  const Kokkos::View<int*, memory_space> info(
      Kokkos::view_alloc(exec, std::string("bandsolve::factorize_along(block_thomas) info")),
      static_cast<std::size_t>(lines.nsys));
  const bool pivoting = alg.pivot == algo::block_thomas::pivoting::partial;
  auto f = block_axis_factorization_access::make<F>(factors, info, lines, extents, R, axis, n,
                                                    mi, pivoting, shared);
  if (lines.nsys == 0) return f;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return f;
  }
  block_size_dispatch(fn, m, [&](auto block_size) {
    block_axis_factor_launch<decltype(block_size)::value, Backend>(
        exec, pivoting, shared, lines, make_block_axis_operand<R, false, const T>(a, axis),
        make_block_axis_operand<R, false, const T>(b, axis),
        make_block_axis_operand<R, false, const T>(c, axis), factors.data(), info);
  });
  return f;
}

// The checks of factorize_along: the coefficients against the grid of `like` (d's rank R + 1
// View, or a full coefficient array's rank R + 2 one), which gives the grid and m.
// like_name: "d", or the full coefficient array like was taken from.
template <class ExecutionSpace, class LikeView, class AView, class BView, class CView>
void block_axis_factor_checks(const std::string& fn, int axis, const LikeView& like,
                              const char* like_name, const AView& a, const BView& b,
                              const CView& c) {
  block_axis_static_checks<ExecutionSpace, false, LikeView, AView, BView, CView>();
  constexpr int R = static_cast<int>(LikeView::rank) - 1;
  if (axis < 0 || axis >= R)
    throw_invalid_argument(fn, "axis = ", axis, " but ", like_name, " has ", R,
                           " grid axes (0 to ", R - 1, ")");
  check_rows_fit_int(fn, extent_at(like, axis));
  block_size_dispatch(fn, like.extent(R), [](auto) {});
  block_axis_check_coefficient(fn, "a", a, like, axis, like_name);
  block_axis_check_coefficient(fn, "b", b, like, axis, like_name);
  block_axis_check_coefficient(fn, "c", c, like, axis, like_name);
}

// The first full array of b, a, c as d would be shaped (rank R + 1: its block rows' first
// column), for the grid's extents and strides; its name.
template <class AView, class BView>
constexpr const char* block_axis_full_like_name() {
  return BView::rank != 3 ? "b" : AView::rank != 3 ? "a" : "c";
}

template <class AView, class BView, class CView>
auto block_axis_full_like(const AView& a, const BView& b, const CView& c) {
  const auto column = [](const auto& v) {
    constexpr int rank = static_cast<int>(std::remove_reference_t<decltype(v)>::rank);
    const auto all = Kokkos::ALL;
    if constexpr (rank == 4) return Kokkos::subview(v, all, all, all, 0);
    else if constexpr (rank == 5) return Kokkos::subview(v, all, all, all, all, 0);
    else return Kokkos::subview(v, all, all, all, all, all, 0);
  };
  if constexpr (BView::rank != 3) return column(b);
  else if constexpr (AView::rank != 3) return column(a);
  else return column(c);
}

}  // namespace detail

// With d: the grid's extents and line grouping from d (every coefficient form).
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<Kokkos::is_view<DView>::value && backend::is_backend_v<Backend>,
                           int> = 0>
auto factorize_along(const ExecutionSpace& exec, algo::block_thomas alg, int axis,
                     const AView& a, const BView& b, const CView& c, const DView& d,
                     Backend = {}) {
  static_assert(std::is_same_v<Backend, backend::device> ||
                    std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                "bandsolve::factorize_along(block_thomas): a host backend runs only on its own "
                "execution space");
  const std::string fn = "bandsolve::factorize_along(block_thomas)";
  detail::block_axis_factor_checks<ExecutionSpace>(fn, axis, d, "d", a, b, c);
  constexpr int R = static_cast<int>(DView::rank) - 1;
  return detail::block_axis_factorize<Backend>(exec, alg, axis, detail::leading_grid(d), a, b,
                                               c, d.extent(R));
}

// Without d: the grid's extents and line grouping from the first full array of a, b, c.
template <class ExecutionSpace, class AView, class BView, class CView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
auto factorize_along(const ExecutionSpace& exec, algo::block_thomas alg, int axis,
                     const AView& a, const BView& b, const CView& c, Backend backend_tag = {}) {
  static_assert(AView::rank != 3 || BView::rank != 3 || CView::rank != 3,
                "bandsolve::factorize_along(block_thomas): with a, b and c all shared, pass d "
                "(a View shaped like the right-hand sides to come) after c");
  static_assert(std::is_same_v<Backend, backend::device> ||
                    std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                "bandsolve::factorize_along(block_thomas): a host backend runs only on its own "
                "execution space");
  (void)backend_tag;
  const std::string fn = "bandsolve::factorize_along(block_thomas)";
  const auto like = detail::block_axis_full_like(a, b, c);
  detail::block_axis_factor_checks<ExecutionSpace>(
      fn, axis, like, detail::block_axis_full_like_name<AView, BView>(), a, b, c);
  using Like = decltype(like);
  constexpr int R = static_cast<int>(Like::rank) - 1;
  return detail::block_axis_factorize<Backend>(exec, alg, axis, detail::leading_grid(like), a,
                                               b, c, like.extent(R));
}

}  // namespace bandsolve
