#pragma once
// Distributed factorization of a batch of scalar tridiagonal systems split over the ranks of a
// communicator (data layout as for mpi::solve, solve.hpp): factor once, solve many.
//
//   auto f = bandsolve::mpi::factorize(exec, comm, a, b, c[, nsys][, opts]);   // lines with ends
//   auto f = bandsolve::mpi::factorize(exec, comm, algo::periodic{}, a, b, c[, nsys][, opts]);
//   f.info();            // agreed info codes (host View), the same on every rank
//   f.solve(exec, d);    // any number of times, collective over comm; x overwrites d
//   f.refactor(exec, a, b, c);  // new matrices of the same shape, in f's storage
//
// Each rank keeps its parts' factors (4 values per row); the ranks that solve reduced systems
// keep their single-process factorizations (Thomas, or periodic for periodic lines). A solve then
// sends 1 word per reduced row to the solving ranks and gets 1 back: at most 4 words per line per
// rank (one-shot: 8). Unlike the one-shot solve, one rank also takes this path (a reduced system
// of 2 rows per line; for periodic lines a periodic one, whose coefficients of the one other
// unknown add). Arguments are checked collectively (collective_checks.hpp). Host execution
// spaces factor and solve in place with the host passes; Kokkos::Cuda (or any space with a
// trailing backend::device{} after the options) with the device passes (partition_device.hpp):
// the factors stay in exec's memory, and only the reduced rows' words cross to host memory,
// where the reduced systems are factored, exchanged and solved.
#include <bandsolve/backend/host_simd/team_launch.hpp>
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/mpi/collective_checks.hpp>
#include <bandsolve/mpi/host_execution.hpp>
#include <bandsolve/mpi/info_reduce.hpp>
#include <bandsolve/mpi/line_algo.hpp>
#include <bandsolve/mpi/options.hpp>
#include <bandsolve/mpi/partition_device.hpp>
#include <bandsolve/mpi/partition_factor_kernel.hpp>
#include <bandsolve/mpi/partition_kernel.hpp>
#include <bandsolve/mpi/reduced_exchange.hpp>
#include <bandsolve/mpi/staging.hpp>
#include <bandsolve/tridiag/batch_checks.hpp>
#include <bandsolve/tridiag/periodic.hpp>
#include <bandsolve/tridiag/thomas.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bandsolve::mpi {

namespace detail {

// What factorize() keeps: the factors of this rank's parts (in FactorMemorySpace) and the
// reduced systems in batches of batch_lines consecutive lines (the last one shorter): per batch,
// who solves which of its lines (router) and, on the ranks that solve some, their single-process
// factorization (a row batch, in HostExecutionSpace's memory). A solve on the host passes reduces,
// exchanges and finishes one batch after the other, so that a batch's d stays in cache between
// its two passes (options::batch_bytes_per_thread); other solves take one batch after the other
// for the exchange alone. Factorizations whose finish corrects only the tips on every rank keep
// one batch.
template <class T, class HostExecutionSpace, class Algo, class FactorMemorySpace>
struct factorization_state {
  using memory_space = typename HostExecutionSpace::memory_space;
  using reduced_batch = Kokkos::View<T**, Kokkos::LayoutRight, memory_space>;
  using reduced_factorization = decltype(bandsolve::factorize(
      std::declval<const HostExecutionSpace&>(), Algo{}, std::declval<const reduced_batch&>(),
      std::declval<const reduced_batch&>(), std::declval<const reduced_batch&>()));

  MPI_Comm comm = MPI_COMM_NULL;
  partition p;
  local_part part;
  part_factors<T, FactorMemorySpace> factors;
  bool device_passes = false;  // factors stored for the device passes (lanes = nsys)
  exchange scheme = exchange::gather;
  index_t batch_lines = 0;
  std::vector<reduced_router<T, memory_space>> routers;  // one per batch
  // Of the lines solved here, per batch (none where no line of the batch is solved here).
  std::vector<std::optional<reduced_factorization>> reduced;
  Kokkos::View<int*, Kokkos::HostSpace> info;
  options opts;  // what it was factored with (refactor takes them again)
};

}  // namespace detail

// Algo: the kind of lines (line_algo.hpp), algo::thomas or algo::periodic. The factors live in
// ExecutionSpace's memory; the reduced systems' factorization in host memory.
template <class T, class ExecutionSpace, class Algo = algo::thomas>
class factorization {
  static_assert(detail::is_line_algo_v<Algo>,
                "bandsolve::mpi::factorization: lines are algo::thomas or algo::periodic");

 public:
  using scalar_type = T;
  using execution_space = ExecutionSpace;
  // Where the reduced systems are exchanged and solved (host memory).
  using host_execution_space = detail::host_execution_t<ExecutionSpace>;
  using memory_space = typename host_execution_space::memory_space;
  // Where the factors of this rank's parts live and the local passes run.
  using factor_memory_space = typename ExecutionSpace::memory_space;
  using algorithm = Algo;
  using state = detail::factorization_state<T, host_execution_space, Algo, factor_memory_space>;
  using reduced_batch = typename state::reduced_batch;
  using reduced_factorization = typename state::reduced_factorization;

  factorization() = default;
  explicit factorization(state s)
      : s_(std::make_shared<state>(std::move(s))), initialized_(true) {}

  std::size_t nsys() const { return s_->p.nsys; }
  // Rows this rank holds of every system.
  std::size_t rows() const { return static_cast<std::size_t>(s_->part.m); }
  exchange scheme() const { return s_->scheme; }
  // Batches of lines the reduced systems were factored in (see factorization_state).
  std::size_t batches() const { return s_->routers.size(); }
  // Bytes of the factors this rank keeps of its parts (4 values per row and line, or per row
  // only when every line has the same coefficients: factorize_along with rank-1 a, b, c).
  std::size_t storage_bytes() const {
    const auto& f = s_->factors;
    return sizeof(T) * (f.r.extent(0) + f.lo.extent(0) + f.cf.extent(0) + f.af.extent(0) +
                        3 * f.first.extent(0));
  }
  // Whether the local passes are the device backend's (a GPU space, or backend::device{}).
  bool on_device_backend() const { return s_->device_passes; }
  // Rows at each end of this rank's parts that a solve's finish corrects, where the coupling to
  // the interface values falls below the unit roundoff within them on every line (the rows
  // between are final after the reduce); -1 where the finish runs over every row.
  std::ptrdiff_t finish_tip_rows() const { return s_->factors.tip; }
  // Lines per pack of the stored factors: a host pass of packs of L lines reads them as packs
  // when L divides this (otherwise one line at a time).
  std::size_t factor_pack_lines() const { return static_cast<std::size_t>(s_->factors.lanes); }
  // Per-system info codes, the same on every rank (see solve.hpp).
  Kokkos::View<const int*, Kokkos::HostSpace> info() const { return s_->info; }
  // The stored factors of this rank's parts (partition_factor_kernel.hpp).
  const detail::part_factors<T, factor_memory_space>& parts_factors() const { return s_->factors; }

  // Collective over the factorization's communicator. d: this rank's rows, same rows and system
  // slots as factored, any batch layout, of the factored scalar type or, for real lines,
  // Kokkos::complex of it (both parts in one pass; the words sent are complex). Fences exec.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    using D = typename DView::non_const_value_type;
    bandsolve::detail::tridiag_static_checks<Algo, ExecutionSpace, DView>();
    static_assert(is_rhs_of_v<T, D> && !std::is_const_v<typename DView::value_type>,
                  "bandsolve::mpi::factorization::solve: d must be a non-const View of the "
                  "factored scalar type, or of Kokkos::complex of it for real lines");
    agree_on_rhs(d);
    if (s_->p.nsys == 0) return;
    if constexpr (detail::runs_on_host_v<ExecutionSpace>) {
      if (!s_->device_passes && s_->routers.size() > 1) {
        solve_host_batches<D>(exec, [&](index_t first, index_t count, const auto& g) {
          g(index_t(0), d, first, count);
        });
        return;
      }
    }
    solve_batches<D>(exec,
                     [&](const auto& g) { g(index_t(0), static_cast<index_t>(s_->p.nsys), d); });
  }

  MPI_Comm comm() const { return s_->comm; }

  // Collective over the factorization's communicator. Factors new lines of the shape factored
  // (on every rank the same rows and system slots; Views of T, any batch layout) with the
  // options of the first factorization, into this factorization's storage of the parts' factors
  // (4 values per row) where the layout's pack width is the stored one (the same layout): no
  // allocation, no fresh pages there. The reduced systems are factored anew (a few values per
  // line). Arguments are checked collectively; on a throw the factorization is unchanged.
  // Copies of a factorization share it: every copy solves with the new factors.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c);

 private:
  template <class, class, class>
  friend class along_factorization;

  // Gives this factorization (and its copies) fresh's state: a refactorization's last step.
  void take_state(factorization&& fresh) { *s_ = std::move(*fresh.s_); }

  // Checks d on every rank and agrees on the outcome (a throw on every rank if any rank's d is
  // bad).
  template <class DView>
  void agree_on_rhs(const DView& d) const {
    const std::string fn = "bandsolve::mpi::factorization::solve";
    if (!initialized_)
      bandsolve::detail::throw_invalid_argument(
          fn, "this factorization is empty (default-constructed)");
    using D = typename DView::non_const_value_type;
    detail::agree_on_arguments(fn, s_->comm, detail::scalar_code<D>(), [&] {
      bandsolve::detail::check_factored_rhs<layout_of_t<DView>>(fn, d, s_->part.m,
                                                                static_cast<index_t>(s_->p.nsys));
      return std::pair<std::size_t, std::size_t>(s_->p.nsys, bandsolve::rows(d));
    });
  }

 public:
  // The solve of right-hand sides already checked and agreed (p.nsys > 0), given as batches of
  // consecutive lines: for_each_batch(g) calls g(first, lines, d) for batches that together hold
  // every line once (d: the batch's rows, a batch View of D values: T, or complex over real T).
  // Each batch's reduced right-hand sides (line s of the batch at rhs[(first + s) k ..]) are made
  // by the host or the device passes on exec, cross to host memory for the exchange and the
  // reduced solve (no copy where exec runs on host memory), and the interface values come back
  // for each batch's finish. Public (as the function below) because nvcc does not accept device
  // lambdas in private member functions.
  template <class D, class ForEachBatch>
  void solve_batches(const ExecutionSpace& exec, const ForEachBatch& for_each_batch) const {
    using buffer = Kokkos::View<D*, factor_memory_space>;
    using host_buffer = Kokkos::View<D*, memory_space>;
    using carve = detail::carved_buffer<memory_space>;
    constexpr bool host_space = detail::runs_on_host_v<ExecutionSpace>;
    constexpr bool host_memory = std::is_same_v<factor_memory_space, memory_space>;
    const bool host_passes = host_space && !s_->device_passes;
    const int k = s_->part.reduced_rows();
    const auto words = static_cast<std::size_t>(s_->p.nsys) * static_cast<std::size_t>(k);
    // Every buffer of the call from kept ones (staging.hpp): no allocation, no fresh page. The
    // device buffer is taken before the host staging, in the one-shot solve's order, so that two
    // threads taking both cannot wait on each other.
    // (Views built where they are declared: docs/development.md.)
    std::optional<detail::kept_carving<factor_memory_space, detail::device_rows_tag>> device;
    if constexpr (!host_memory)
      device.emplace(exec, "bandsolve::mpi::factorization::solve",
                     2 * detail::carved_buffer<factor_memory_space>::template bytes_for<D>(words));
    std::size_t routed = 0;
    for (const auto& router : s_->routers)
      routed = std::max(routed, router.template staging_bytes<D>(1, 1));
    detail::host_staging<factor_memory_space> staging(
        "bandsolve::mpi::factorization::solve staging",
        2 * carve::template bytes_for<D>(words) + routed);
    auto& host = staging.carved();
    const host_buffer host_rhs = host.template take<D>(words);
    const host_buffer host_iface = host.template take<D>(words);
    const auto in_device_memory = [&](const host_buffer& host_view) -> buffer {
      if constexpr (host_memory) {
        return host_view;
      } else {
        (void)host_view;
        return device->carved().template take<D>(words);
      }
    };
    const buffer rhs = in_device_memory(host_rhs);
    const buffer iface = in_device_memory(host_iface);
    for_each_batch([&](index_t first, index_t lines, const auto& d) {
      const buffer batch_rhs(rhs.data() + first * k, static_cast<std::size_t>(lines * k));
      if constexpr (host_space) {
        if (host_passes) {
          detail::reduce_rhs(exec, d, s_->factors.from(first), batch_rhs, index_t(0), lines,
                             s_->part);
          return;
        }
      }
      detail::reduce_rhs_device(exec, d, s_->factors.from(first), batch_rhs, lines, s_->part);
    });
    if constexpr (!host_memory) Kokkos::deep_copy(exec, host_rhs, rhs);
    exec.fence();
    for (std::size_t b = 0; b < s_->routers.size(); ++b)
      solve_reduced(detail::host_execution_of(exec), b, host_rhs, host_iface, &host);
    if constexpr (!host_memory) Kokkos::deep_copy(exec, iface, host_iface);
    for_each_batch([&](index_t first, index_t lines, const auto& d) {
      const buffer batch_iface(iface.data() + first * k, static_cast<std::size_t>(lines * k));
      if constexpr (host_space) {
        if (host_passes) {
          detail::finish_factored_parts(exec, d, s_->factors.from(first), batch_iface, index_t(0),
                                        lines, s_->part);
          return;
        }
      }
      detail::finish_factored_device(exec, d, s_->factors.from(first), batch_iface, lines,
                                     s_->part);
    });
    exec.fence();
  }

  // The solve on the host passes, batch by batch: the reduce pass of a batch's lines (d' left in
  // d, the forward a' recomputed into a buffer of the batch), the exchange and reduced solve of
  // that batch, its finish, then the next batch. A batch's d, factors and a' are still in cache for
  // its finish: d and the factors are read from memory once. d comes in runs of consecutive lines:
  // for_each_run_in(first, count, g) calls g(run_first, run, lo, lines) for each run that holds
  // some of the lines first .. first + count - 1: lines lo .. lo + lines - 1 of the batch View
  // run, whose line 0 is line run_first.
  template <class D, class ForEachRunIn>
  void solve_host_batches(const ExecutionSpace& exec, const ForEachRunIn& for_each_run_in) const {
    using buffer = Kokkos::View<D*, memory_space>;
    using carve = detail::carved_buffer<memory_space>;
    using forward_a = detail::batch_forward_a<T>;
    const index_t nsys = static_cast<index_t>(s_->p.nsys);
    const int k = s_->part.reduced_rows();
    const auto words = static_cast<std::size_t>(nsys * k);
    // Shared factors are one pack, in cache: their af is read where it lies. The truncated
    // finish reads no forward a' (and its factorizations keep one batch: factorize_batches).
    const bool keep_a = !s_->factors.shared && !s_->factors.truncated() && s_->part.m > 2;
    const std::size_t a_values =
        keep_a ? forward_a::values(s_->batch_lines, s_->factors.lanes, s_->part.m) : 0;
    // From a buffer kept between calls (staging.hpp): repeated solves map no fresh pages.
    detail::kept_carving<memory_space, detail::host_passes_tag> kept(
        exec, "bandsolve::mpi::factorization::solve",
        2 * carve::template bytes_for<D>(words) + carve::template bytes_for<T>(a_values));
    const buffer rhs = kept.carved().template take<D>(words);
    const buffer iface = kept.carved().template take<D>(words);
    const auto a_rows = kept.carved().template take<T>(a_values);
    for (std::size_t b = 0; b < s_->routers.size(); ++b) {
      const index_t first = static_cast<index_t>(b) * s_->batch_lines;
      const index_t count = nsys - first < s_->batch_lines ? nsys - first : s_->batch_lines;
      const forward_a batch_a =
          keep_a ? forward_a::of_batch(a_rows.data(), s_->factors, first) : forward_a{};
      // A run's reduced rows in rhs or iface: from its line 0 (line run_first) on.
      const auto from_line = [&](const buffer& rows, index_t run_first) {
        return buffer(rows.data() + run_first * k,
                      static_cast<std::size_t>((nsys - run_first) * k));
      };
      for_each_run_in(first, count, [&](index_t run_first, const auto& d, index_t lo, index_t n) {
        detail::reduce_rhs(exec, d, s_->factors.from(run_first), from_line(rhs, run_first), lo, n,
                           s_->part, batch_a.from(run_first - first));
      });
      exec.fence();
      solve_reduced(detail::host_execution_of(exec), b, rhs, iface);
      for_each_run_in(first, count, [&](index_t run_first, const auto& d, index_t lo, index_t n) {
        detail::finish_factored_parts(exec, d, s_->factors.from(run_first),
                                      from_line(iface, run_first), lo, n, s_->part,
                                      batch_a.from(run_first - first));
      });
    }
    exec.fence();
  }

  // Batch b's reduced right-hand sides (host memory, line s, row j at rhs[s*k + j] for the
  // batch's lines s) to the solving ranks, solved there with the kept factorization; the
  // interface values back into iface (line s, row j at s*k + j). The exchange buffers are carved
  // from `staging` when given (and given back at the end).
  template <class D>
  void solve_reduced(const host_execution_space& exec, std::size_t b,
                     const Kokkos::View<D*, memory_space>& rhs,
                     const Kokkos::View<D*, memory_space>& iface,
                     detail::carved_buffer<memory_space>* staging = nullptr) const {
    using buffer = Kokkos::View<D*, memory_space>;
    const auto& router = s_->routers[b];
    const index_t first = static_cast<index_t>(b) * s_->batch_lines;
    const index_t words = static_cast<index_t>(router.lines()) * s_->part.reduced_rows();
    const index_t at = first * s_->part.reduced_rows();
    const std::size_t mark = staging ? staging->mark() : 0;
    const auto extent = static_cast<std::size_t>(words);
    const auto rhs_in = router.to_solvers(buffer(rhs.data() + at, extent), 1, staging);
    const auto rd = router.template allocate_batch<D>("bandsolve::mpi reduced d", staging);
    if (router.lines_solved_here() > 0) {
      router.for_each_received(exec, rhs_in, 1,
                               KOKKOS_LAMBDA(int t, int i, const D* w) { rd(t, i) = w[0]; });
      s_->reduced[b]->solve(exec, rd);
    }
    router.to_owners(exec, rd, buffer(iface.data() + at, extent), staging);
    if (staging) staging->rewind(mark);
  }

 private:
  // Shared by copies, which refactor updates alike.
  std::shared_ptr<state> s_;
  bool initialized_ = false;
};

namespace detail {

// The reduced rows' coefficients received (2 words each: of the previous and of the next interface
// unknown; the diagonal is 1) into the reduced batch. A function of its own: nvcc takes no device
// lambda in a function templated on local lambdas.
template <class T, class ExecutionSpace, class Router, class Buffer, class Batch>
void unpack_reduced_matrix_rows(const ExecutionSpace& exec, const Router& router,
                                const Buffer& rows_in, const Batch& ra, const Batch& rb,
                                const Batch& rc) {
  router.for_each_received(exec, rows_in, 2, KOKKOS_LAMBDA(int t, int i, const T* w) {
    ra(t, i) = w[0];
    rb(t, i) = T(1);
    rc(t, i) = w[1];
  });
}

// This rank's checks of factorize's arguments: (systems, rows of this rank).
template <class Layout, class AView, class BView, class CView>
std::pair<std::size_t, std::size_t> factor_arguments(const std::string& fn, const AView& a,
                                                     const BView& b, const CView& c,
                                                     std::size_t nsys) {
  bandsolve::detail::check_same_shape(fn, "a", a, "b", b);
  bandsolve::detail::check_same_shape(fn, "c", c, "b", b);
  bandsolve::detail::check_rows_fit_int(fn, rows(b));
  const std::size_t n = bandsolve::detail::check_factor_nsys<Layout>(fn, b, nsys);
  return {n, rows(b)};
}

// refactor's check of b against the factorization's shape on this rank: its rows here and its
// systems (interleaved packs: the slots of that many systems).
template <class Layout, class BView>
void check_refactor_shape(const std::string& fn, const BView& b, std::size_t rows_here,
                          std::size_t nsys) {
  if (rows(b) != rows_here)
    bandsolve::detail::throw_invalid_argument(fn, "b has ", rows(b),
                                              " rows on this rank but the factorization has ",
                                              rows_here);
  std::size_t slots = nsys;
  if constexpr (!std::is_same_v<Layout, layout::row> && !std::is_same_v<Layout, layout::column> &&
                !std::is_same_v<Layout, layout::strided>)
    slots = (nsys + Layout::width - 1) / Layout::width * Layout::width;
  if (capacity(b) != slots)
    bandsolve::detail::throw_invalid_argument(fn, "b holds ", capacity(b),
                                              " systems but the factorization has ", nsys);
}

// The factorization of the p.nsys lines of kind Algo (line_algo.hpp) that the ranks agreed as p,
// given as batches of consecutive lines: for_each_batch(g) calls g(first, lines, a, b, c) for
// batches that together hold every line once (batch Views of one type). host_lanes: the pack
// width the host passes store the factors in (part_lanes_v of the layout the solves will read
// most: a pass of another width reads them in packs when its width divides this one, else one
// line at a time). ResultSpace: the execution space the factorization is for. The local
// passes run on exec: the host passes (DevicePasses false; exec is ResultSpace's host execution
// space) or the device passes (exec of ResultSpace itself, a, b, c in its memory). The reduced
// systems are factored in batches of reduced_batch_lines lines (a multiple of the host passes'
// pack width, or p.nsys), which the solves keep. shared_lines: every line has the same a, b, c
// (the first line of the first batch is factored, and its factors stored once for all). reuse:
// factors of an earlier factorization (refactor), whose storage the new ones take where its
// lanes, rows and extents are those of the new ones (otherwise new storage).
template <class Algo, class ResultSpace, bool DevicePasses, class T, class ExecutionSpace,
          class ForEachBatch>
factorization<T, ResultSpace, Algo> factorize_batches(
    const ExecutionSpace& exec, MPI_Comm comm, const partition& p, const options& opts,
    index_t host_lanes, index_t reduced_batch_lines, bool shared_lines,
    const ForEachBatch& for_each_batch,
    const part_factors<T, typename ResultSpace::memory_space>* reuse = nullptr) {
  using result = factorization<T, ResultSpace, Algo>;
  using host_space = typename result::host_execution_space;
  using memory_space = typename result::memory_space;
  using factor_memory_space = typename result::factor_memory_space;
  static_assert(std::is_same_v<ExecutionSpace, std::conditional_t<DevicePasses, ResultSpace,
                                                                   host_space>>,
                "bandsolve::mpi::factorize: the local passes run on the factorization's execution "
                "space");
  // The state is built with every View allocated (empty ones for no lines), never assigned into
  // default-constructed Views (docs/development.md).
  const local_part part = part_of<Algo>(p);
  const auto n_sys = static_cast<std::size_t>(p.nsys), m = static_cast<std::size_t>(part.m);
  const int k = part.reduced_rows();
  const index_t lanes = p.nsys == 0  ? 1
                        : DevicePasses ? (shared_lines ? 1 : static_cast<index_t>(n_sys))
                                       : host_lanes;
  const std::size_t packed =
      p.nsys == 0 ? 0
                  : (shared_lines ? 1 : (n_sys + static_cast<std::size_t>(lanes) - 1) /
                                            static_cast<std::size_t>(lanes)) *
                        static_cast<std::size_t>(lanes) * m;
  const auto rows_view = [&](const char* label) {
    return bandsolve::detail::allocate_uninitialized<Kokkos::View<T*, factor_memory_space>>(label,
                                                                                        packed);
  };
  const index_t factor_m = p.nsys == 0 ? 0 : part.m;
  const std::size_t first_rows = p.nsys == 0 ? 0 : (shared_lines ? 1 : n_sys);
  const bool shared = p.nsys > 0 && shared_lines;
  // A refactorization's parts' factors go where the last ones were, when they fit alike.
  const bool reused = reuse && reuse->lanes == lanes && reuse->m == factor_m &&
                      reuse->shared == shared && reuse->r.extent(0) == packed &&
                      reuse->first.extent(0) == first_rows;
  const part_factors<T, factor_memory_space> factors =
      reused ? part_factors<T, factor_memory_space>{lanes, factor_m, 0, shared, reuse->r,
                                                    reuse->lo, reuse->cf, reuse->af,
                                                    reuse->first}
             : part_factors<T, factor_memory_space>{
                   lanes,
                   factor_m,
                   0,
                   shared,
                   rows_view("bandsolve::mpi r"),
                   rows_view("bandsolve::mpi l"),
                   rows_view("bandsolve::mpi c' forward"),
                   rows_view("bandsolve::mpi a' forward"),
                   Kokkos::View<T* [3], Kokkos::LayoutRight, factor_memory_space>(
                       Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                          std::string("bandsolve::mpi first rows")),
                       first_rows)};
  const index_t batch_lines = reduced_batch_lines > 0 &&
                                      reduced_batch_lines < static_cast<index_t>(p.nsys)
                                  ? reduced_batch_lines
                                  : static_cast<index_t>(p.nsys);
  typename result::state s{
      comm,
      p,
      part,
      factors,
      DevicePasses,
      chosen_scheme(opts, p.nsys, p.size),
      batch_lines,
      {},
      {},
      Kokkos::View<int*, Kokkos::HostSpace>("bandsolve::mpi::factorization info", p.nsys),
      opts};
  if (s.p.nsys == 0) return result(std::move(s));
  const auto& f = s.factors;
  using coefficients = Kokkos::View<T*, factor_memory_space>;
  using codes_view = Kokkos::View<int*, factor_memory_space>;
  const coefficients coef(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                             std::string("bandsolve::mpi reduced coefficients")),
                          n_sys * static_cast<std::size_t>(k) * 2);
  const codes_view codes("bandsolve::mpi local info", n_sys);
  // Each line's spike tip (factor_parts), for truncate_spikes: host passes only.
  const Kokkos::View<index_t*, factor_memory_space> tips(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("bandsolve::mpi spike tips")),
      DevicePasses ? 0 : n_sys);
  for_each_batch([&](index_t first, index_t lines, const auto& a, const auto& b, const auto& c) {
    if (shared_lines) {
      if (first > 0) return;
      lines = 1;  // line 0 stands for every line
    }
    const coefficients batch_coef(coef.data() + first * k * 2,
                                  static_cast<std::size_t>(lines * k * 2));
    const codes_view batch_codes(codes.data() + first, static_cast<std::size_t>(lines));
    if constexpr (DevicePasses)
      factor_parts_device(exec, a, b, c, f.from(first), batch_coef, batch_codes, lines, s.part);
    else
      factor_parts(exec, a, b, c, f.from(first), batch_coef, batch_codes, lines, s.part,
                   tips.data() + first);
  });
  // The host passes finish only the rows near the ends where the coupling dies out there. Where
  // every rank does, the reduced systems are factored (and each solve exchanged) in one batch:
  // the batches keep a batch's d in cache for a finish over every row, while the tips come from
  // memory at any batch size here, and each batch's exchanges wait for the slowest rank (256^3
  // over 2 ranks on 2 cores: 1.54-1.70x the single-process time in one batch, 1.71-2.05x in
  // batches of 2 MiB per thread; docs/distributed.md).
  // Every rank takes part in the agreement, whichever passes it runs.
  if constexpr (!DevicePasses)
    truncate_spikes(exec, s.factors, shared_lines ? index_t(1) : static_cast<index_t>(n_sys),
                    tips.data());
  int every_rank_truncated = s.factors.truncated() ? 1 : 0;
  if (p.size > 1) MPI_Allreduce(MPI_IN_PLACE, &every_rank_truncated, 1, MPI_INT, MPI_MIN, comm);
  if (every_rank_truncated) s.batch_lines = static_cast<index_t>(p.nsys);
  if (shared_lines) share_first_system(exec, f, coef, codes, static_cast<index_t>(n_sys), k);
  exec.fence();
  // The reduced rows' coefficients and the codes in host memory (the same Views on the host).
  const auto host_coef = Kokkos::create_mirror_view_and_copy(memory_space(), coef);
  const auto host_codes = Kokkos::create_mirror_view_and_copy(memory_space(), codes);

  const host_space host = host_execution_of(exec);
  std::vector<int> reduced_codes(n_sys, 0);
  partition batch = s.p;
  const auto nsys = static_cast<index_t>(n_sys);
  for (index_t first = 0; first < nsys; first += s.batch_lines) {
    const index_t count = nsys - first < s.batch_lines ? nsys - first : s.batch_lines;
    batch.nsys = static_cast<std::size_t>(count);
    const auto& router = s.routers.emplace_back(comm, batch, s.scheme);
    const auto coef_in = router.to_solvers(
        Kokkos::View<T*, memory_space>(host_coef.data() + first * k * 2,
                                       static_cast<std::size_t>(count * k * 2)),
        2);
    auto& reduced = s.reduced.emplace_back();  // none where no line is solved here
    if (router.lines_solved_here() > 0) {
      const auto ra = router.allocate_batch("bandsolve::mpi reduced a"),
                 rb = router.allocate_batch("bandsolve::mpi reduced b"),
                 rc = router.allocate_batch("bandsolve::mpi reduced c");
      unpack_reduced_matrix_rows<T>(host, router, coef_in, ra, rb, rc);
      reduced.emplace(bandsolve::factorize(host, Algo{}, ra, rb, rc));
      host.fence();
      router.record_codes(reduced->info(), reduced_codes, static_cast<std::size_t>(first));
    }
  }
  reduce_info(comm, n_sys, host_codes, reduced_codes, s.info);
  return result(std::move(s));
}

// The factorization of a batch of lines of kind Algo; nsys: the systems of interleaved packs (-1:
// every slot of b). The passes as for factorize_batches.
// refactor: the factorization whose shape a, b, c must have (each rank's rows, the systems) and
// whose parts' factors the new ones take the place of (factorize_batches' reuse); none for
// factorize.
template <class Algo, class ResultSpace, bool DevicePasses, class ExecutionSpace, class AView,
          class BView, class CView>
factorization<typename BView::non_const_value_type, ResultSpace, Algo> partitioned_factorize(
    const ExecutionSpace& exec, MPI_Comm comm, const AView& a, const BView& b, const CView& c,
    std::size_t nsys, const options& opts,
    const factorization<typename BView::non_const_value_type, ResultSpace, Algo>* refactor =
        nullptr) {
  using Layout = layout_of_t<BView>;
  using T = typename BView::non_const_value_type;
  bandsolve::detail::tridiag_static_checks<Algo, ExecutionSpace, BView, AView, CView>();
  const std::string fn = refactor ? line_fn<Algo>("bandsolve::mpi::factorization::refactor")
                                  : line_fn<Algo>("bandsolve::mpi::factorize");
  const partition p = agree_on_arguments(
      fn, comm, scalar_code<T>(),
      [&] {
        if (refactor) check_refactor_shape<Layout>(fn, b, refactor->rows(), refactor->nsys());
        return factor_arguments<Layout>(fn, a, b, c, nsys);
      },
      &opts, nullptr, bandsolve::detail::concurrency_of(exec));
  // The host passes solve in batches whose d and factors stay in cache between the reduce and
  // the finish, as the one-shot solve's (the same bytes per line): the finish reads d' and c'
  // from cache (6 words per unknown from memory against 9 in one batch). 256^3 over 2 ranks:
  // row batches 1.47-1.54x the single-process time against 1.60-1.61x in one (2-vCPU Xeon);
  // column batches 2.16-2.35 ns per unknown against 2.53-2.94 in one (2-vCPU EPYC, Zen 4;
  // docs/distributed.md), where the Xeon read 1.22-1.24x against 1.17-1.18x.
  const bool batched = !DevicePasses;
  const index_t batch =
      batched ? static_cast<index_t>(batch_lines(opts, p.machine_batch_bytes, p.nsys, max_rows(p),
                                                 sizeof(T), p.max_threads))
              : static_cast<index_t>(p.nsys);
  return factorize_batches<Algo, ResultSpace, DevicePasses, T>(
      exec, comm, p, opts, part_lanes_v<Layout, T>, batch, false,
      [&](const auto& g) { g(index_t(0), static_cast<index_t>(p.nsys), a, b, c); },
      refactor ? &refactor->parts_factors() : nullptr);
}

// The factorization for exec with its own backend's passes: the host passes on host spaces, the
// device passes on others (Kokkos::Cuda), a, b, c read where they are. Its return type is
// deduced, so that arguments that are no Views reach the checks, which come first.
template <class Algo, class ExecutionSpace, class AView, class BView, class CView>
auto factorize_lines(const ExecutionSpace& exec, MPI_Comm comm, const AView& a, const BView& b,
                     const CView& c, std::size_t nsys, const options& opts) {
  bandsolve::detail::tridiag_static_checks<Algo, ExecutionSpace, BView, AView, BView, CView>();
  return partitioned_factorize<Algo, ExecutionSpace, !runs_on_host_v<ExecutionSpace>>(
      exec, comm, a, b, c, nsys, opts);
}

// The factorization with the passes of the backend the tag names (backend::device on any space).
template <class Algo, class Backend, class ExecutionSpace, class AView, class BView, class CView>
auto factorize_lines_on(const ExecutionSpace& exec, MPI_Comm comm, const AView& a, const BView& b,
                        const CView& c, std::size_t nsys, const options& opts) {
  bandsolve::detail::tridiag_static_checks<Algo, ExecutionSpace, BView, AView, BView, CView>();
  if constexpr (std::is_same_v<Backend, backend::device>) {
    return partitioned_factorize<Algo, ExecutionSpace, true>(exec, comm, a, b, c, nsys, opts);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::mpi::factorize: a host backend runs only on its own execution space");
    return factorize_lines<Algo>(exec, comm, a, b, c, nsys, opts);
  }
}

}  // namespace detail

template <class T, class ExecutionSpace, class Algo>
template <class AView, class BView, class CView>
void factorization<T, ExecutionSpace, Algo>::refactor(const ExecutionSpace& exec, const AView& a,
                                                      const BView& b, const CView& c) {
  static_assert(std::is_same_v<typename BView::non_const_value_type, T>,
                "bandsolve::mpi::factorization::refactor: a, b and c must be Views of the "
                "factored scalar type");
  if (!initialized_)
    bandsolve::detail::throw_invalid_argument(
        detail::line_fn<Algo>("bandsolve::mpi::factorization::refactor"),
        "this factorization is empty (default-constructed)");
  const std::size_t nsys = s_->p.nsys;
  if constexpr (detail::runs_on_host_v<ExecutionSpace>) {
    if (!s_->device_passes) {
      take_state(detail::partitioned_factorize<Algo, ExecutionSpace, false>(
          exec, s_->comm, a, b, c, nsys, s_->opts, this));
      return;
    }
  }
  take_state(detail::partitioned_factorize<Algo, ExecutionSpace, true>(exec, s_->comm, a, b, c,
                                                                      nsys, s_->opts, this));
}

// Lines with ends. nsys: the systems of interleaved packs (default: every slot of b).
template <class ExecutionSpace, class AView, class BView, class CView>
auto factorize(const ExecutionSpace& exec, MPI_Comm comm, const AView& a, const BView& b,
               const CView& c, std::size_t nsys, const options& opts = {}) {
  return detail::factorize_lines<algo::thomas>(exec, comm, a, b, c, nsys, opts);
}

template <class ExecutionSpace, class AView, class BView, class CView>
auto factorize(const ExecutionSpace& exec, MPI_Comm comm, const AView& a, const BView& b,
               const CView& c, const options& opts = {}) {
  return detail::factorize_lines<algo::thomas>(exec, comm, a, b, c,
                                                     static_cast<std::size_t>(-1), opts);
}

// Lines of the kind the tag names: algo::thomas (as above) or algo::periodic.
template <class ExecutionSpace, class Algo, class AView, class BView, class CView,
          std::enable_if_t<detail::is_line_algo_v<Algo>, int> = 0>
auto factorize(const ExecutionSpace& exec, MPI_Comm comm, Algo, const AView& a, const BView& b,
               const CView& c, std::size_t nsys, const options& opts = {}) {
  return detail::factorize_lines<Algo>(exec, comm, a, b, c, nsys, opts);
}

template <class ExecutionSpace, class Algo, class AView, class BView, class CView,
          std::enable_if_t<detail::is_line_algo_v<Algo>, int> = 0>
auto factorize(const ExecutionSpace& exec, MPI_Comm comm, Algo, const AView& a, const BView& b,
               const CView& c, const options& opts = {}) {
  return detail::factorize_lines<Algo>(exec, comm, a, b, c, static_cast<std::size_t>(-1),
                                             opts);
}

// Either kind with the local passes of the backend the trailing tag names (backend::device on
// any execution space, e.g. to test the device passes on the host; the default on Kokkos::Cuda).
template <class ExecutionSpace, class Algo, class AView, class BView, class CView, class Backend,
          std::enable_if_t<detail::is_line_algo_v<Algo> && backend::is_backend_v<Backend>, int> = 0>
auto factorize(const ExecutionSpace& exec, MPI_Comm comm, Algo, const AView& a, const BView& b,
               const CView& c, std::size_t nsys, const options& opts, Backend) {
  return detail::factorize_lines_on<Algo, Backend>(exec, comm, a, b, c, nsys, opts);
}

}  // namespace bandsolve::mpi
