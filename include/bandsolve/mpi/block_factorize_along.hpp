#pragma once
// Distributed factorization of the block lines along one axis of a 2-D to 4-D grid whose solve
// axis is split over the ranks of an MPI communicator (arrays as for mpi::solve_along with
// algo::block_thomas, block_solve_along.hpp): factor once, solve many.
//
//   auto f = bandsolve::mpi::factorize_along(exec, comm, algo::block_thomas{...}, axis, a, b, c
//                                            [, d][, opts]);
//   f.info();          // agreed codes (host View), one per line in solve_along's numbering
//   f.solve(exec, d);  // any number of times, collective over comm; x overwrites d
//   f.refactor(exec, a2, b2, c2);  // collective; new blocks of the same extents, f's storage
//
// d (rank R + 1, this rank's part of the grid) gives the grid's extents where a, b and c are all
// shared (rank-3 Views (n_r, m, m)); its values are not read. Without d the grid comes from the
// first full array of b, a, c. With several ranks the block partition passes read the lines
// where they lie in the grid (block_grid_lines.hpp, as the one-shot solve does) and factor them
// with mpi::factorize(block_thomas)'s passes (block_factorize.hpp: each rank keeps its parts'
// factors, the solving ranks the reduced systems'); a solve runs the right-hand side's passes on d
// in place (at most 4m words per line per rank) and refactor writes the new factors into the
// same storage (block_factorization::refactor), copies of a factorization seeing them. The lines
// are numbered in the order of the factored grid's memory where every rank proposes the same
// (line_order.hpp); info() gives the codes in solve_along's numbering. One rank:
// the lines are copied into a row batch (lines, n_r, m, m) and factored by the single-process
// block factorization; a solve copies d into a row batch kept by the factorization (for complex
// d over real blocks twice as large, allocated at the first such solve) and x back, so solves of
// one such factorization and of its copies run one at a time. The arguments of factorize,
// refactor and every solve are checked on every rank and agreed before any exchange. Fences exec.
#include <bandsolve/block/block_thomas_axis.hpp>
#include <bandsolve/block/block_thomas_axis_factor.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/layout/axis_factorization.hpp>
#include <bandsolve/mpi/block_factorize.hpp>
#include <bandsolve/mpi/block_grid_lines.hpp>
#include <bandsolve/mpi/block_solve_along.hpp>
#include <bandsolve/mpi/collective_checks.hpp>
#include <bandsolve/mpi/line_order.hpp>
#include <bandsolve/mpi/options.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <array>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace bandsolve::mpi {

template <class T, class ExecutionSpace>
class block_along_factorization;

namespace detail {

struct block_along_factorization_access {
  template <class F, class... Args>
  static F make(Args&&... args) {
    return F(std::forward<Args>(args)...);
  }
};

}  // namespace detail

// The factors of block lines along one axis split over the ranks (factorize_along).
template <class T, class ExecutionSpace>
class block_along_factorization {
 public:
  using scalar_type = T;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using batch_factorization = block_factorization<T, 0, ExecutionSpace>;

  block_along_factorization() = default;

  std::size_t nsys() const { return f_.nsys(); }  // lines
  std::size_t rows() const { return f_.rows(); }  // block rows this rank holds of every line
  std::size_t m() const { return f_.m(); }
  int axis() const { return axis_; }
  MPI_Comm comm() const { return comm_; }
  // Per-line info codes, the same on every rank (solve_along's numbering).
  Kokkos::View<const int*, Kokkos::HostSpace> info() const {
    return renumber_ ? Kokkos::View<const int*, Kokkos::HostSpace>(info_) : f_.info();
  }

  // Collective over comm. d: this rank's part of the factored grid (its extents and m), any
  // layout, of type T or Kokkos::complex<T> for real T (the same on every rank). Fences exec.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    using D = typename DView::non_const_value_type;
    constexpr int R = static_cast<int>(DView::rank) - 1;
    static_assert(Kokkos::is_view<DView>::value && R >= 2 && R <= bandsolve::detail::max_axis_rank,
                  "bandsolve::mpi::block_along_factorization::solve: d must be a View of rank 3 "
                  "to 5 (a 2-D to 4-D grid, then the m unknowns of a point)");
    static_assert(is_rhs_of_v<T, D> && !std::is_const_v<typename DView::value_type>,
                  "bandsolve::mpi::block_along_factorization::solve: d must be a non-const View "
                  "of the factored scalar type, or of Kokkos::complex of it over real blocks");
    static_assert(
        Kokkos::SpaceAccessibility<ExecutionSpace, typename DView::memory_space>::accessible,
        "bandsolve::mpi::block_along_factorization::solve: d must be accessible from the "
        "execution space");
    const std::string fn = "bandsolve::mpi::block_along_factorization::solve";
    if (!initialized_)
      bandsolve::detail::throw_invalid_argument(
          fn, "this factorization is empty (default-constructed)");
    detail::agree_on_arguments(fn, comm_, detail::block_scalar_code<T, D>(), [&] {
      if (R != rank_)
        bandsolve::detail::throw_invalid_argument(fn, "d has ", R, " grid axes (rank ", R + 1,
                                                  ") but the factorization has ", rank_);
      for (int k = 0; k < R; ++k)
        if (bandsolve::detail::extent_at(d, k) != extents_[static_cast<std::size_t>(k)])
          bandsolve::detail::throw_invalid_argument(
              fn, "d.extent(", k, ") = ", bandsolve::detail::extent_at(d, k),
              " but the factored grid has ", extents_[static_cast<std::size_t>(k)]);
      if (d.extent(R) != m())
        bandsolve::detail::throw_invalid_argument(fn, "d.extent(", R, ") = ", d.extent(R),
                                                  " but the factored blocks are ", m(), " x ",
                                                  m());
      return std::pair<std::size_t, std::size_t>(nsys(), rows());
    });
    if (nsys() == 0) return;
    if (in_place_) {
      f_.solve_parts(exec, detail::grid_block_rhs<R>(d, axis_, order_), 1);
      exec.fence();
      return;
    }
    const auto g = detail::along_block_points_of<R>(d, axis_);
    constexpr std::size_t words = sizeof(D) / sizeof(T);  // 2: complex d over real blocks
    const std::size_t values = nsys() * rows() * m() * words;
    if (batch_.extent(0) < values)
      batch_ = Kokkos::View<T*, memory_space>(
          Kokkos::view_alloc(exec, Kokkos::WithoutInitializing,
                             std::string("bandsolve::mpi::block_along_factorization d")),
          values);
    const detail::along_block_rhs<D, memory_space> packed(reinterpret_cast<D*>(batch_.data()),
                                                          nsys(), rows(), m());
    detail::move_along_rhs<true, R>(exec, packed, d, g);
    f_.solve(exec, packed);
    detail::move_along_rhs<false, R>(exec, packed, d, g);
    exec.fence();
  }

  // Collective over comm. New blocks of the factored extents (this rank's part: full arrays of
  // the grid's rank + 2 or rank-3 (n_r, m, m) Views shared by every line, any layouts, any mix),
  // factored with the algorithm and options of the first factorization into its storage; info()
  // then holds their codes. A shape unlike the factored one on any rank makes every rank throw
  // the same std::invalid_argument, the factorization unchanged. Fences exec.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c) {
    refactor_static_checks<AView>();
    refactor_static_checks<BView>();
    refactor_static_checks<CView>();
    const std::string fn = "bandsolve::mpi::block_along_factorization::refactor";
    if (!initialized_)
      bandsolve::detail::throw_invalid_argument(
          fn, "this factorization is empty (default-constructed)");
    detail::agree_on_arguments(fn, comm_, detail::scalar_code<T>(), [&] {
      const auto check = [&](const char* name, const auto& v) {
        bandsolve::detail::check_block_refactor_coefficient(fn, name, v, rank_, extents_, rows(),
                                                            m(), false);
      };
      check("a", a);
      check("b", b);
      check("c", c);
      return std::pair<std::size_t, std::size_t>(nsys(), rows());
    });
    if (nsys() == 0) return;
    bandsolve::detail::with_grid_rank(rank_, [&](auto grid_rank) {
      constexpr int R = decltype(grid_rank)::value;
      constexpr int ra = static_cast<int>(AView::rank), rb = static_cast<int>(BView::rank),
                    rc = static_cast<int>(CView::rank);
      if constexpr ((ra == 3 || ra == R + 2) && (rb == 3 || rb == R + 2) &&
                    (rc == 3 || rc == R + 2)) {
        if (in_place_) {
          f_.refactor_parts(exec, detail::grid_block_coefficient<R>(a, axis_, order_),
                            detail::grid_block_coefficient<R>(b, axis_, order_),
                            detail::grid_block_coefficient<R>(c, axis_, order_));
          renumber_info();
          return;
        }
        const detail::along_block_points<R> g = points<R>();
        const auto batch = [&](const char* label) {
          return detail::along_block_batch<T, memory_space>(
              Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(label)), nsys(),
              rows(), m(), m());
        };
        const auto pa = batch("bandsolve::mpi::block_along_factorization::refactor a");
        const auto pb = batch("bandsolve::mpi::block_along_factorization::refactor b");
        const auto pc = batch("bandsolve::mpi::block_along_factorization::refactor c");
        detail::pack_along_blocks<R>(exec, pa, a, g);
        detail::pack_along_blocks<R>(exec, pb, b, g);
        detail::pack_along_blocks<R>(exec, pc, c, g);
        f_.refactor(exec, pa, pb, pc);
      }
    });
  }

 private:
  // refactor's compile-time checks of one coefficient View.
  template <class View>
  static constexpr void refactor_static_checks() {
    static_assert(Kokkos::is_view<View>::value &&
                      std::is_same_v<typename View::non_const_value_type, T>,
                  "bandsolve::mpi::block_along_factorization::refactor: a, b and c must be Views "
                  "of the factored scalar type");
    static_assert(View::rank == 3 ||
                      (View::rank >= 4 && View::rank <= bandsolve::detail::max_axis_rank + 2),
                  "bandsolve::mpi::block_along_factorization::refactor: a, b and c must be Views "
                  "of the grid's rank + 2 or rank-3 Views (n_r, m, m) shared by every line");
    static_assert(
        Kokkos::SpaceAccessibility<ExecutionSpace, typename View::memory_space>::accessible,
        "bandsolve::mpi::block_along_factorization::refactor: a, b and c must be accessible from "
        "the execution space");
  }

  // The grid points of the factored lines (a grid of R = rank_ axes).
  template <int R>
  detail::along_block_points<R> points() const {
    detail::along_block_points<R> g;
    g.axis = axis_;
    for (int k = 0; k < R; ++k)
      g.extent[k] = static_cast<index_t>(extents_[static_cast<std::size_t>(k)]);
    return g;
  }

  friend struct detail::block_along_factorization_access;

  // in_place: several ranks, the lines numbered in order (renumber: from that order to
  // solve_along's numbering, where they differ).
  block_along_factorization(batch_factorization f, MPI_Comm comm,
                            std::array<std::size_t, 4> extents, int rank, int axis,
                            const Kokkos::View<T*, memory_space>& batch, bool in_place,
                            detail::line_order order,
                            std::optional<detail::line_renumbering> renumber)
      : f_(std::move(f)), comm_(comm), extents_(extents), rank_(rank), axis_(axis),
        batch_(batch), in_place_(in_place), order_(order), renumber_(renumber),
        info_("bandsolve::mpi::block_along_factorization info", renumber ? f_.nsys() : 0),
        initialized_(true) {
    renumber_info();
  }

  // The batch factorization's codes (in the lines' order) into info_ in solve_along's numbering
  // (lines numbered otherwise only).
  void renumber_info() {
    if (!renumber_) return;
    const auto codes = f_.info();
    for (std::size_t j = 0; j < codes.extent(0); ++j)
      info_((*renumber_)(static_cast<index_t>(j))) = codes(j);
  }

  batch_factorization f_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::array<std::size_t, 4> extents_{};
  int rank_ = 0, axis_ = 0;
  // One rank: the row batch of d that a solve copies into (empty with several ranks, whose
  // passes read the grid where it lies: in_place_).
  mutable Kokkos::View<T*, memory_space> batch_;
  bool in_place_ = false;
  detail::line_order order_;
  std::optional<detail::line_renumbering> renumber_;
  Kokkos::View<int*, Kokkos::HostSpace> info_;  // with renumber_: info() in caller order
  bool initialized_ = false;
};

namespace detail {

// factorize_along on the grid of `like` (d, or the first full coefficient array's first column:
// rank R + 1), checked and agreed here.
template <class ExecutionSpace, class LikeView, class AView, class BView, class CView>
auto block_factorize_along(const ExecutionSpace& exec, MPI_Comm comm, algo::block_thomas alg,
                           int axis, const LikeView& like, const char* like_name, const AView& a,
                           const BView& b, const CView& c, const options& opts) {
  using T = typename BView::non_const_value_type;
  using F = block_along_factorization<T, ExecutionSpace>;
  using memory_space = typename ExecutionSpace::memory_space;
  constexpr int R = static_cast<int>(LikeView::rank) - 1;
  const std::string fn = "bandsolve::mpi::factorize_along(block_thomas)";
  const along_shape shape = block_along_shape(like, axis);
  const partition p = agree_on_arguments(
      fn, comm, scalar_code<T>(),
      [&] {
        bandsolve::detail::block_axis_factor_checks<ExecutionSpace>(fn, axis, like, like_name, a,
                                                                   b, c);
        std::size_t nlines = 1;
        for (int k = 0; k < R; ++k)
          if (k != axis) nlines *= bandsolve::detail::extent_at(like, k);
        return std::pair<std::size_t, std::size_t>(nlines,
                                                    bandsolve::detail::extent_at(like, axis));
      },
      &opts, &shape, bandsolve::detail::concurrency_of(exec));
  const std::size_t m = like.extent(static_cast<std::size_t>(R));
  agree_on_block_counts(fn, comm, p, m, 1,
                        [](long long bm, long long) { return 2 * bm * bm + 2 * bm; });
  std::array<std::size_t, 4> extents{};
  for (int k = 0; k < R; ++k)
    extents[static_cast<std::size_t>(k)] = bandsolve::detail::extent_at(like, k);
  if (p.size > 1) {  // the lines read where they lie
    const line_order order = line_order::from_code(p.line_order);
    auto f = block_factorize_parts<T>(exec, comm, alg, p, static_cast<int>(m),
                                      grid_block_coefficient<R>(a, axis, order),
                                      grid_block_coefficient<R>(b, axis, order),
                                      grid_block_coefficient<R>(c, axis, order), opts);
    exec.fence();
    std::optional<line_renumbering> renumber;
    if (!order.natural()) renumber.emplace(axis, grid_of(like), order);
    return block_along_factorization_access::make<F>(
        std::move(f), comm, extents, R, axis,
        Kokkos::View<T*, memory_space>("bandsolve::mpi::block_along_factorization d", 0), true,
        order, renumber);
  }
  // One rank: a row batch of the lines, factored by the single-process block factorization.
  const std::size_t n = bandsolve::detail::extent_at(like, axis);
  const auto g = along_block_points_of<R>(like, axis);
  const auto batch = [&](const char* label) {
    return along_block_batch<T, memory_space>(
        Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(label)), p.nsys, n, m,
        m);
  };
  const auto pa = batch("bandsolve::mpi::factorize_along(block_thomas) a");
  const auto pb = batch("bandsolve::mpi::factorize_along(block_thomas) b");
  const auto pc = batch("bandsolve::mpi::factorize_along(block_thomas) c");
  pack_along_blocks<R>(exec, pa, a, g);
  pack_along_blocks<R>(exec, pb, b, g);
  pack_along_blocks<R>(exec, pc, c, g);
  auto f = bandsolve::mpi::factorize(exec, comm, alg, pa, pb, pc, p.nsys, opts);
  const Kokkos::View<T*, memory_space> kept(
      Kokkos::view_alloc(exec, Kokkos::WithoutInitializing,
                         std::string("bandsolve::mpi::block_along_factorization d")),
      p.nsys * n * m);
  exec.fence();
  return block_along_factorization_access::make<F>(std::move(f), comm, extents, R, axis, kept,
                                                  false, line_order{}, std::nullopt);
}

}  // namespace detail

// With d: the grid's extents from d (every coefficient form, shared blocks included).
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          std::enable_if_t<Kokkos::is_view<DView>::value, int> = 0>
auto factorize_along(const ExecutionSpace& exec, MPI_Comm comm, algo::block_thomas alg, int axis,
                     const AView& a, const BView& b, const CView& c, const DView& d,
                     const options& opts = {}) {
  return detail::block_factorize_along(exec, comm, alg, axis, d, "d", a, b, c, opts);
}

// Without d: the grid's extents from the first full array of b, a, c.
template <class ExecutionSpace, class AView, class BView, class CView>
auto factorize_along(const ExecutionSpace& exec, MPI_Comm comm, algo::block_thomas alg, int axis,
                     const AView& a, const BView& b, const CView& c, const options& opts = {}) {
  static_assert(AView::rank != 3 || BView::rank != 3 || CView::rank != 3,
                "bandsolve::mpi::factorize_along(block_thomas): with a, b and c all shared, pass "
                "d (a View shaped like the right-hand sides to come) after c");
  const auto like = bandsolve::detail::block_axis_full_like(a, b, c);
  return detail::block_factorize_along(
      exec, comm, alg, axis, like, bandsolve::detail::block_axis_full_like_name<AView, BView>(),
      a, b, c, opts);
}

}  // namespace bandsolve::mpi
