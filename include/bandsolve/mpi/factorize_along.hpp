#pragma once
// Distributed factorization of the lines along one axis of a 2-D to 4-D array split along that
// axis (the factored form of solve_along.hpp): factor once, solve many.
//
//   auto f = bandsolve::mpi::factorize_along(exec, comm, axis, a, b, c[, opts]);  // with ends
//   auto f = bandsolve::mpi::factorize_along(exec, comm, algo::periodic{}, axis, a, b, c[, opts]);
//   auto f = bandsolve::mpi::factorize_along(exec, comm[, algo], axis, a, b, c, d[, opts]);
//   f.info();            // agreed info codes (host View), numbered as solve_along numbers lines
//   f.solve(exec, d);    // any number of times, collective over comm; x overwrites d
//   f.refactor(exec, a2, b2, c2[, d]);  // new coefficients of the same kind and extents
//
// a, b, c: this rank's part of full coefficient arrays (rank 2 to 4, LayoutRight, LayoutLeft or
// LayoutStride, real or complex, the same extents), rank r holding rows offset_r .. of every line
// along `axis` as for solve_along; every other extent the same on every rank (agreed before any
// exchange). Or rank-1 Views of this rank's rows shared by every line, followed by d, a View of
// the array's extents (the d of the solves to come; its values are not read): every line then
// has the same factors, computed and stored once (4 values per row; full arrays: per row and
// line), so that a solve reads d and the one line's factors. d of a solve: an array of the
// factored extents in any of those layouts (it may differ from the coefficients'). The lines are
// numbered in the order of the coefficients' memory (line_order.hpp; of d's for shared
// coefficients) and cut into runs as solve_along cuts them (solve_along.hpp); the factors of every
// line are stored by that number, so a solve takes d's batch axes in the same order and cuts it
// into its own runs. Words sent and info codes: those of
// mpi::factorize on the same lines (a solve at most 4 words per line per rank). On Kokkos::Cuda,
// or with a trailing backend::device{} after the options, the device passes
// (partition_device.hpp).
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/layout/column.hpp>
#include <bandsolve/layout/row.hpp>
#include <bandsolve/mpi/collective_checks.hpp>
#include <bandsolve/mpi/factorize.hpp>
#include <bandsolve/mpi/host_execution.hpp>
#include <bandsolve/mpi/line_order.hpp>
#include <bandsolve/mpi/line_algo.hpp>
#include <bandsolve/mpi/options.hpp>
#include <bandsolve/mpi/partition_kernel.hpp>
#include <bandsolve/mpi/solve_along.hpp>
#include <bandsolve/tridiag/thomas_axis.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <array>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bandsolve::mpi {

namespace detail {
// What refactor passes to partitioned_factorize_along of the factorization it replaces: the
// shape the new coefficients must have on this rank, the lines' numbering, the parts' factors
// whose storage the new ones take.
template <class PartFactors>
struct along_previous {
  std::array<std::size_t, 4> extents;
  int rank;
  line_order order;
  bool shared;
  const PartFactors* factors;
};
}  // namespace detail

// The factors of the lines along one axis. Collective over the communicator it was made on.
template <class T, class ExecutionSpace, class Algo = algo::thomas>
class along_factorization {
 public:
  using scalar_type = T;
  using execution_space = ExecutionSpace;
  using lines_factorization = factorization<T, ExecutionSpace, Algo>;

  along_factorization() = default;
  // f: the lines numbered in `order` (line_order.hpp); info: f's codes in solve_along's numbering.
  // f: the lines numbered in `order` (line_order.hpp); renumbered: f's codes in solve_along's
  // numbering where that order is not solve_along's (else empty); shared: the coefficients were
  // rank-1 Views shared by every line.
  along_factorization(lines_factorization f, int axis, int rank,
                      std::array<std::size_t, 4> extents, detail::line_order order,
                      Kokkos::View<int*, Kokkos::HostSpace> renumbered, bool shared)
      : f_(std::move(f)),
        renumbered_(std::move(renumbered)),
        axis_(axis),
        rank_(rank),
        extents_(extents),
        order_(order),
        shared_(shared),
        initialized_(true) {}

  std::size_t nsys() const { return f_.nsys(); }
  // Rows this rank holds of every line (d.extent(axis)).
  std::size_t rows() const { return f_.rows(); }
  int axis() const { return axis_; }
  exchange scheme() const { return f_.scheme(); }
  bool on_device_backend() const { return f_.on_device_backend(); }
  // Rows at each end of this rank's parts that a solve's finish corrects (factorization's).
  std::ptrdiff_t finish_tip_rows() const { return f_.finish_tip_rows(); }
  // Lines per pack of the stored factors (64 doubles or 128 floats where the coefficients' runs
  // were columns or shared, so that column runs of d take the column passes) and batches of
  // lines the reduced systems were factored in (more than one: one row run on every rank).
  std::size_t factor_pack_lines() const { return f_.factor_pack_lines(); }
  std::size_t batches() const { return f_.batches(); }
  // Bytes of the factors this rank keeps (one line's for coefficients shared by every line).
  std::size_t storage_bytes() const { return f_.storage_bytes(); }
  // Per-line info codes, the same on every rank, lines numbered as solve_along numbers them.
  Kokkos::View<const int*, Kokkos::HostSpace> info() const {
    if (order_.natural()) return f_.info();
    return renumbered_;
  }

  // Collective over the factorization's communicator. Factors new coefficients of the kind and
  // extents that were factored on every rank (full arrays, each in any of the layouts
  // factorize_along takes), with the options of the first factorization, into this
  // factorization's storage of the parts' factors where the runs of lines store alike (the same
  // layouts: no allocation, no fresh pages there); the reduced systems are factored anew. The
  // lines keep the numbering they were factored in. Arguments are checked collectively; on a
  // throw the factorization is unchanged. Copies of the factorization share it.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c) {
    static_assert(BView::rank > 1,
                  "bandsolve::mpi::along_factorization::refactor: with coefficients shared by "
                  "every line, pass d (a View of the factored extents) after c");
    refactor_from(exec, a, b, c, b);
  }
  // Coefficients shared by every line (rank-1 a, b, c of this rank's rows), d: a View of the
  // factored extents (the d of the solves to come; its values are not read).
  template <class AView, class BView, class CView, class DView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c,
                const DView& d) {
    static_assert(BView::rank == 1,
                  "bandsolve::mpi::along_factorization::refactor: d follows rank-1 coefficients "
                  "shared by every line only");
    refactor_from(exec, a, b, c, d);
  }

  // d: this rank's part of the array, the factored extents, any of the layouts factorize_along
  // takes, of the factored scalar type or, for real lines, Kokkos::complex of it. Fences exec.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& user_d) const {
    using D = typename DView::value_type;
    static_assert(Kokkos::is_view<DView>::value && DView::rank >= 2 && DView::rank <= 4,
                  "bandsolve::mpi::along_factorization::solve: d must be a View of rank 2, 3 "
                  "or 4");
    static_assert(is_rhs_of_v<T, D>,
                  "bandsolve::mpi::along_factorization::solve: d must be a non-const View of the "
                  "factored scalar type, or of Kokkos::complex of it for real lines");
    static_assert(
        Kokkos::SpaceAccessibility<ExecutionSpace, typename DView::memory_space>::accessible,
        "bandsolve::mpi::along_factorization::solve: d must be accessible from the execution "
        "space");
    agree_on_rhs(user_d);
    if (f_.nsys() == 0) return;
    // d with its batch axes in the order the lines were factored in (line_order.hpp).
    const auto d = detail::permuted(user_d, order_);
    const detail::along_runs r = detail::runs_of(axis_, d);
    const index_t n = static_cast<index_t>(bandsolve::detail::extent_at(d, axis_));
    // On the host passes, runs that are row batches take the row layout's passes (staged row
    // packs, as in solve_along); column runs take the column passes when the factors are stored
    // in their packs (the coefficients' runs were columns too: the column passes read the
    // strided packs' storage one line at a time). Other runs, and the device passes, take the
    // strided ones.
    if constexpr (detail::runs_on_host_v<ExecutionSpace>) {
      if (!f_.on_device_backend()) {
        if (detail::run_is_row(d, axis_, r, n))
          return solve_runs<Kokkos::LayoutRight>(exec, d, r, n);
        constexpr auto column_lanes = static_cast<std::size_t>(
            detail::part_lanes_v<layout::column, D>);
        if (detail::run_is_column(d, axis_, r) && factor_pack_lines() % column_lanes == 0)
          return solve_runs<Kokkos::LayoutLeft>(exec, d, r, n);
      }
    }
    solve_runs<Kokkos::LayoutStride>(exec, d, r, n);
  }

 private:
  // The factored solve of d's runs as batch Views in Layout (run_batch), or strided ones
  // (run_lines) for LayoutStride: on the host passes of a factorization in batches, batch by
  // batch (lines_factorization::solve_host_batches: each batch's lines in the runs that hold
  // them), else every run reduced, one exchange, every run finished.
  template <class Layout, class DView>
  void solve_runs(const ExecutionSpace& exec, const DView& d, const detail::along_runs& r,
                  index_t n) const {
    using memory_space = typename DView::memory_space;
    using D = typename DView::value_type;
    std::vector<Kokkos::View<D**, Layout, memory_space>> runs;
    runs.reserve(static_cast<std::size_t>(r.runs));
    for (index_t q = 0; q < r.runs; ++q) {
      if constexpr (std::is_same_v<Layout, Kokkos::LayoutStride>)
        runs.push_back(detail::run_lines<D, memory_space>(d, axis_, r, q, n));
      else
        runs.push_back(detail::run_batch<Layout, D, memory_space>(d, axis_, r, q, n));
    }
    if constexpr (detail::runs_on_host_v<ExecutionSpace>) {
      if (!f_.on_device_backend() && batches() > 1) {
        f_.template solve_host_batches<D>(exec, [&](index_t first, index_t count, const auto& g) {
          detail::for_each_run_piece(first, count, r.lines,
                                     [&](index_t q, index_t lo, index_t lines) {
            g(q * r.lines, runs[static_cast<std::size_t>(q)], lo, lines);
          });
        });
        return;
      }
    }
    f_.template solve_batches<D>(exec, [&](const auto& g) {
      for (index_t q = 0; q < r.runs; ++q)
        g(q * r.lines, r.lines, runs[static_cast<std::size_t>(q)]);
    });
  }

  static std::string fn() { return "bandsolve::mpi::along_factorization::solve"; }

  // Checks d on every rank and agrees on the outcome (a throw on every rank if any rank's d is
  // bad).
  template <class DView>
  void agree_on_rhs(const DView& d) const {
    if (!initialized_)
      bandsolve::detail::throw_invalid_argument(
          fn(), "this factorization is empty (default-constructed)");
    detail::agree_on_arguments(fn(), f_.comm(), detail::scalar_code<typename DView::value_type>(),
                               [&] {
      if (static_cast<int>(DView::rank) != rank_)
        bandsolve::detail::throw_invalid_argument(fn(), "d has rank ", DView::rank,
                                                  " but the factored arrays have rank ", rank_);
      for (int k = 0; k < rank_; ++k)
        if (bandsolve::detail::extent_at(d, k) != extents_[static_cast<std::size_t>(k)])
          bandsolve::detail::throw_invalid_argument(fn(), "d.extent(", k, ") = ",
                                                    bandsolve::detail::extent_at(d, k),
                                                    " but the factored arrays have ",
                                                    extents_[static_cast<std::size_t>(k)]);
      return std::pair<std::size_t, std::size_t>(f_.nsys(), bandsolve::detail::extent_at(d, axis_));
    });
  }

  // refactor with the extents from `like` (b, or d for shared coefficients).
  template <class AView, class BView, class CView, class ShapeView>
  void refactor_from(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c,
                     const ShapeView& like);

  lines_factorization f_;
  // The codes in solve_along's numbering where order_ is not natural (else f_'s are), updated in
  // place by refactor (copies share the View).
  Kokkos::View<int*, Kokkos::HostSpace> renumbered_;
  int axis_ = 0, rank_ = 0;
  std::array<std::size_t, 4> extents_ = {0, 0, 0, 0};
  detail::line_order order_;
  bool shared_ = false, initialized_ = false;
};

namespace detail {

// refactor's checks on this rank: coefficients of the kind that was factored (full arrays, or
// rank-1 Views with d), `like` (b, or d) of the factored rank and extents.
template <class Previous, class ShapeView>
void check_refactor_shape(const std::string& fn, const Previous& previous, bool shared,
                          const ShapeView& like) {
  const char* name = shared ? "d" : "b";
  if (shared != previous.shared)
    bandsolve::detail::throw_invalid_argument(
        fn, previous.shared ? "the factored coefficients were shared by every line (rank 1, "
                              "with d): so must the new ones be"
                            : "the factored coefficients were full arrays: so must the new "
                              "ones be");
  constexpr int rank = static_cast<int>(ShapeView::rank);
  if (rank != previous.rank)
    bandsolve::detail::throw_invalid_argument(fn, name, " has rank ", rank,
                                              " but the factored arrays have rank ",
                                              previous.rank);
  for (int k = 0; k < rank; ++k)
    if (bandsolve::detail::extent_at(like, k) != previous.extents[static_cast<std::size_t>(k)])
      bandsolve::detail::throw_invalid_argument(
          fn, name, ".extent(", k, ") = ", bandsolve::detail::extent_at(like, k),
          " on this rank but the factored arrays have ",
          previous.extents[static_cast<std::size_t>(k)]);
}

// The factorization of the lines of kind Algo along `axis` with the passes DevicePasses selects
// (factorize.hpp's factorize_batches), the arguments checked on every rank and agreed first.
// shape: the array whose extents the solves take (b itself for full coefficient arrays; its
// values are not read). previous: the factorization a refactor replaces (its shape checked on
// every rank, its numbering kept, its parts' storage reused), or none.
template <class Algo, bool DevicePasses, class ExecutionSpace, class AView, class BView,
          class CView, class ShapeView>
along_factorization<typename BView::non_const_value_type, ExecutionSpace, Algo>
partitioned_factorize_along(
    const ExecutionSpace& exec, MPI_Comm comm, int axis, const AView& user_a, const BView& user_b,
    const CView& user_c, const ShapeView& user_like, const options& opts,
    const along_previous<part_factors<typename BView::non_const_value_type,
                                      typename ExecutionSpace::memory_space>>* previous =
        nullptr) {
  using T = typename BView::non_const_value_type;
  using memory_space = typename BView::memory_space;
  constexpr int rank = static_cast<int>(ShapeView::rank);
  constexpr bool shared = BView::rank == 1;
  static_assert(Kokkos::is_view<AView>::value && Kokkos::is_view<BView>::value &&
                    Kokkos::is_view<CView>::value && Kokkos::is_view<ShapeView>::value,
                "bandsolve::mpi::factorize_along: a, b and c (and d) must be Kokkos::Views");
  static_assert(rank >= 2 && rank <= 4,
                "bandsolve::mpi::factorize_along: the array must have rank 2, 3 or 4");
  static_assert((AView::rank == 1 && BView::rank == 1 && CView::rank == 1) ||
                    (static_cast<int>(AView::rank) == rank &&
                     static_cast<int>(BView::rank) == rank &&
                     static_cast<int>(CView::rank) == rank),
                "bandsolve::mpi::factorize_along: a, b and c must all be full arrays of rank 2, 3 "
                "or 4 (one matrix per line) or all rank-1 Views (coefficients shared by every "
                "line, with the array's d after them)");
  static_assert(is_supported_scalar_v<T>,
                "bandsolve::mpi::factorize_along: the scalar type must be float, double, "
                "Kokkos::complex<float> or Kokkos::complex<double>");
  static_assert(std::is_same_v<typename AView::non_const_value_type, T> &&
                    std::is_same_v<typename CView::non_const_value_type, T>,
                "bandsolve::mpi::factorize_along: a, b and c must have the same scalar type");
  static_assert(exec_reads_views_v<ExecutionSpace, AView, BView, CView>,
                "bandsolve::mpi::factorize_along: a, b and c must be accessible from the "
                "execution space");
  static_assert(DevicePasses || runs_on_host_v<ExecutionSpace>,
                "bandsolve::mpi::factorize_along: the host passes run on host execution spaces");

  const std::string fn = previous
                             ? line_fn<Algo>("bandsolve::mpi::along_factorization::refactor")
                             : line_fn<Algo>("bandsolve::mpi::factorize_along");
  along_shape shape;
  shape.axis = axis;
  std::array<std::size_t, 4> extents = {0, 0, 0, 0};
  for (int k = 0; k < rank; ++k) {
    extents[static_cast<std::size_t>(k)] = bandsolve::detail::extent_at(user_like, k);
    shape.extent[k] =
        k == axis ? 0 : static_cast<long long>(bandsolve::detail::extent_at(user_like, k));
  }
  shape.line_order =
      previous ? previous->order.code() : memory_order(axis, user_like).code();
  const partition p = agree_on_arguments(fn, comm, scalar_code<T>(), [&] {
    if (previous) check_refactor_shape(fn, *previous, shared, user_like);
    if (axis < 0 || axis >= rank)
      bandsolve::detail::throw_invalid_argument(fn, "axis = ", axis, " but the array has rank ",
                                                rank, " (axes 0 to ", rank - 1, ")");
    if constexpr (shared) {
      bandsolve::detail::check_line_coefficients(fn, "a", user_a, user_like, axis);
      bandsolve::detail::check_line_coefficients(fn, "b", user_b, user_like, axis);
      bandsolve::detail::check_line_coefficients(fn, "c", user_c, user_like, axis);
    } else {
      bandsolve::detail::check_same_extents(fn, "a", user_a, "b", user_b);
      bandsolve::detail::check_same_extents(fn, "c", user_c, "b", user_b);
    }
    bandsolve::detail::check_rows_fit_int(fn, bandsolve::detail::extent_at(user_like, axis));
    std::size_t nsys = 1;
    for (int k = 0; k < rank; ++k)
      if (k != axis) nsys *= bandsolve::detail::extent_at(user_like, k);
    return std::pair<std::size_t, std::size_t>(nsys, bandsolve::detail::extent_at(user_like, axis));
  }, &opts, &shape);

  // The arrays with their batch axes in the agreed line order (line_order.hpp).
  const line_order order = line_order::from_code(p.line_order);
  // One declaration each: the coefficients' Views and `like`'s may differ in type (shared
  // rank-1 coefficients), which one `auto` declaration may not deduce (GCC accepts it, Clang not).
  const auto a = permuted(user_a, order), b = permuted(user_b, order), c = permuted(user_c, order);
  const auto like = permuted(user_like, order);
  using strided = Kokkos::View<T**, Kokkos::LayoutStride, memory_space>;
  const along_runs r = p.nsys == 0 ? along_runs{} : runs_of(axis, like, a, b, c);
  const index_t n = static_cast<index_t>(bandsolve::detail::extent_at(like, axis));
  std::vector<std::array<strided, 3>> runs;
  if (p.nsys > 0)
    for (index_t q = 0; q < r.runs; ++q)
      runs.push_back({run_lines<T, memory_space>(a, axis, r, q, n),
                      run_lines<T, memory_space>(b, axis, r, q, n),
                      run_lines<T, memory_space>(c, axis, r, q, n)});
  // The host passes' storage follows the runs the solves are expected to take (those of the
  // coefficients' array): column runs (and shared factors, which any pack width reads) in the
  // column passes' packs of 64 lines, others in the strided and row passes' cache line of lines.
  // On the host passes the lines are factored in batches of lines (options), so that a solve
  // finishes each batch while its d is in cache, as mpi::factorize does; whether every rank
  // runs the host passes is agreed here, since the batches are collective.
  // A part of one row can be both a row and a column run; it counts as a row run, as in a solve.
  const auto every = [&](auto is) { return shared ? is(like) : is(a) && is(b) && is(c); };
  const bool host = !DevicePasses && p.nsys > 0;
  const bool rows = host && every([&](const auto& v) { return run_is_row(v, axis, r, n); });
  const bool columns =
      host && (shared ||
               (!rows && every([&](const auto& v) { return run_is_column(v, axis, r); })));
  int in_batches = host;
  if (p.size > 1) MPI_Allreduce(MPI_IN_PLACE, &in_batches, 1, MPI_INT, MPI_LAND, comm);
  const index_t batch =
      in_batches ? static_cast<index_t>(batch_lines(opts, p.machine_batch_bytes, p.nsys,
                                                    max_rows(p), sizeof(T), p.max_threads))
                 : static_cast<index_t>(p.nsys);
  const index_t lanes = columns ? part_lanes_v<layout::column, T> : part_lanes_v<layout::row, T>;
  auto f = factorize_batches<Algo, ExecutionSpace, DevicePasses, T>(
      exec, comm, p, opts, lanes, batch, shared,
      [&](const auto& g) {
        for (std::size_t q = 0; q < runs.size(); ++q)
          g(static_cast<index_t>(q) * r.lines, r.lines, runs[q][0], runs[q][1], runs[q][2]);
      },
      previous ? previous->factors : nullptr);
  // The info codes in solve_along's numbering.
  const Kokkos::View<int*, Kokkos::HostSpace> renumbered("bandsolve::mpi::factorize_along info",
                                                         order.natural() ? 0 : p.nsys);
  if (!order.natural()) {
    const auto info = f.info();
    const line_renumbering renumber(axis, user_like, order);
    for (std::size_t j = 0; j < p.nsys; ++j)
      renumbered(static_cast<std::size_t>(renumber(static_cast<index_t>(j)))) = info(j);
  }
  return along_factorization<T, ExecutionSpace, Algo>(std::move(f), axis, rank, extents, order,
                                                      renumbered, shared);
}

}  // namespace detail

template <class T, class ExecutionSpace, class Algo>
template <class AView, class BView, class CView, class ShapeView>
void along_factorization<T, ExecutionSpace, Algo>::refactor_from(const ExecutionSpace& exec,
                                                                 const AView& a, const BView& b,
                                                                 const CView& c,
                                                                 const ShapeView& like) {
  if (!initialized_)
    bandsolve::detail::throw_invalid_argument(
        detail::line_fn<Algo>("bandsolve::mpi::along_factorization::refactor"),
        "this factorization is empty (default-constructed)");
  const detail::along_previous<detail::part_factors<T, typename ExecutionSpace::memory_space>>
      previous{extents_, rank_, order_, shared_, &f_.parts_factors()};
  const options opts = f_.s_->opts;
  const auto take = [&](along_factorization&& fresh) {
    f_.take_state(std::move(fresh.f_));
    if (!order_.natural()) Kokkos::deep_copy(renumbered_, fresh.renumbered_);
  };
  if constexpr (detail::runs_on_host_v<ExecutionSpace>) {
    if (!f_.on_device_backend()) {
      take(detail::partitioned_factorize_along<Algo, false>(exec, f_.comm(), axis_, a, b, c, like,
                                                            opts, &previous));
      return;
    }
  }
  take(detail::partitioned_factorize_along<Algo, true>(exec, f_.comm(), axis_, a, b, c, like,
                                                       opts, &previous));
}

namespace detail {

// The passes a factorization along an axis takes: the device backend's when named or when
// ExecutionSpace does not run on host memory, else the host backend's (which only runs on its
// own space).
template <class ExecutionSpace, class Backend>
constexpr bool along_device_passes() {
  static_assert(std::is_same_v<Backend, backend::device> ||
                    std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                "bandsolve::mpi::factorize_along: a host backend runs only on its own execution "
                "space");
  return std::is_same_v<Backend, backend::device>;
}

}  // namespace detail

// Full coefficient arrays: lines with ends along `axis`, or of the kind the tag names
// (algo::thomas or algo::periodic); a trailing backend tag after the options picks the passes
// (backend::device on any execution space).
template <class ExecutionSpace, class AView, class BView, class CView,
          std::enable_if_t<(BView::rank > 1), int> = 0>
auto factorize_along(const ExecutionSpace& exec, MPI_Comm comm, int axis, const AView& a,
                     const BView& b, const CView& c, const options& opts = {}) {
  return factorize_along(exec, comm, algo::thomas{}, axis, a, b, c, opts,
                         backend::default_for_t<ExecutionSpace>{});
}

template <class ExecutionSpace, class Algo, class AView, class BView, class CView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<detail::is_line_algo_v<Algo> && backend::is_backend_v<Backend> &&
                               (BView::rank > 1),
                           int> = 0>
auto factorize_along(const ExecutionSpace& exec, MPI_Comm comm, Algo, int axis, const AView& a,
                     const BView& b, const CView& c, const options& opts = {}, Backend = {}) {
  constexpr bool device = detail::along_device_passes<ExecutionSpace, Backend>();
  return detail::partitioned_factorize_along<Algo, device>(exec, comm, axis, a, b, c, b, opts);
}

// Coefficients shared by every line (rank-1 a, b, c of this rank's rows along `axis`): d is any
// View of the array's extents, the d of the solves to come (its values are not read).
template <class ExecutionSpace, class Algo, class AView, class BView, class CView, class DView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<detail::is_line_algo_v<Algo> && backend::is_backend_v<Backend> &&
                               BView::rank == 1 && Kokkos::is_view<DView>::value,
                           int> = 0>
auto factorize_along(const ExecutionSpace& exec, MPI_Comm comm, Algo, int axis, const AView& a,
                     const BView& b, const CView& c, const DView& d, const options& opts = {},
                     Backend = {}) {
  constexpr bool device = detail::along_device_passes<ExecutionSpace, Backend>();
  return detail::partitioned_factorize_along<Algo, device>(exec, comm, axis, a, b, c, d, opts);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          std::enable_if_t<BView::rank == 1 && Kokkos::is_view<DView>::value, int> = 0>
auto factorize_along(const ExecutionSpace& exec, MPI_Comm comm, int axis, const AView& a,
                     const BView& b, const CView& c, const DView& d, const options& opts = {}) {
  return factorize_along(exec, comm, algo::thomas{}, axis, a, b, c, d, opts);
}

}  // namespace bandsolve::mpi
