#pragma once
// Distributed factorization of a batch of scalar tridiagonal systems split over the ranks of a
// communicator (data layout as for mpi::solve, solve.hpp): factor once, solve many.
//
//   auto f = bandsolve::mpi::factorize(exec, comm, a, b, c[, nsys][, opts]);   // lines with ends
//   auto f = bandsolve::mpi::factorize(exec, comm, algo::periodic{}, a, b, c[, nsys][, opts]);
//   f.info();            // agreed info codes (host View), the same on every rank
//   f.solve(exec, d);    // any number of times, collective over comm; x overwrites d
//
// Each rank keeps its parts' factors (4 values per row); the ranks that solve reduced systems
// keep their single-process factorizations (Thomas, or periodic for periodic lines). A solve then
// sends 1 word per reduced row to the solving ranks and gets 1 back: at most 4 words per line per
// rank (one-shot: 8). Unlike the one-shot solve, one rank also takes this path (a reduced system
// of 2 rows per line; for periodic lines a periodic one, whose coefficients of the one other
// unknown add). Arguments are checked collectively (collective_checks.hpp). Host execution
// spaces factor and solve in place; others (Kokkos::Cuda) keep the factors in host memory and go
// through host copies of a, b, c and of each d (host_staging.hpp).
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/mpi/collective_checks.hpp>
#include <bandsolve/mpi/host_staging.hpp>
#include <bandsolve/mpi/info_reduce.hpp>
#include <bandsolve/mpi/line_algo.hpp>
#include <bandsolve/mpi/options.hpp>
#include <bandsolve/mpi/partition_factor_kernel.hpp>
#include <bandsolve/mpi/partition_kernel.hpp>
#include <bandsolve/mpi/reduced_exchange.hpp>
#include <bandsolve/tridiag/batch_checks.hpp>
#include <bandsolve/tridiag/periodic.hpp>
#include <bandsolve/tridiag/thomas.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bandsolve::mpi {

namespace detail {

// What factorize() keeps: the factors of this rank's parts and, on the ranks that solve reduced
// systems, their single-process factorization (a row batch), all in HostExecutionSpace's memory.
template <class T, class HostExecutionSpace, class Algo>
struct factorization_state {
  using memory_space = typename HostExecutionSpace::memory_space;
  using reduced_batch = Kokkos::View<T**, Kokkos::LayoutRight, memory_space>;
  using reduced_factorization = decltype(bandsolve::factorize(
      std::declval<const HostExecutionSpace&>(), Algo{}, std::declval<const reduced_batch&>(),
      std::declval<const reduced_batch&>(), std::declval<const reduced_batch&>()));

  MPI_Comm comm = MPI_COMM_NULL;
  partition p;
  local_part part;
  part_factors<T, memory_space> factors;
  reduced_router<T, memory_space> router;
  reduced_factorization reduced;  // of the lines solved here
  Kokkos::View<int*, Kokkos::HostSpace> info;
};

}  // namespace detail

// Algo: the kind of lines (line_algo.hpp), algo::thomas or algo::periodic. On an execution space
// that does not run on host memory (Kokkos::Cuda) the factors live in host memory and each solve
// goes through a host copy of d (host_staging.hpp).
template <class T, class ExecutionSpace, class Algo = algo::thomas>
class factorization {
  static_assert(detail::is_line_algo_v<Algo>,
                "bandsolve::mpi::factorization: lines are algo::thomas or algo::periodic");

 public:
  using scalar_type = T;
  using execution_space = ExecutionSpace;
  // Where the factors live and the solves' local passes run.
  using host_execution_space = detail::host_execution_t<ExecutionSpace>;
  using memory_space = typename host_execution_space::memory_space;
  using algorithm = Algo;
  using state = detail::factorization_state<T, host_execution_space, Algo>;
  using reduced_batch = typename state::reduced_batch;
  using reduced_factorization = typename state::reduced_factorization;

  factorization() = default;
  explicit factorization(state s) : s_(std::move(s)), initialized_(true) {}

  std::size_t nsys() const { return s_.p.nsys; }
  // Rows this rank holds of every system.
  std::size_t rows() const { return static_cast<std::size_t>(s_.part.m); }
  exchange scheme() const { return s_.router.scheme(); }
  // Per-system info codes, the same on every rank (see solve.hpp).
  Kokkos::View<const int*, Kokkos::HostSpace> info() const { return s_.info; }

  // Collective over the factorization's communicator. d: this rank's rows, same rows and system
  // slots as factored, any batch layout. Fences exec.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    bandsolve::detail::tridiag_static_checks<Algo, ExecutionSpace, DView>();
    static_assert(std::is_same_v<typename DView::non_const_value_type, T> &&
                      !std::is_const_v<typename DView::value_type>,
                  "bandsolve::mpi::factorization::solve: d must be a non-const View of the "
                  "factored scalar type");
    agree_on_rhs(d);
    if (s_.p.nsys == 0) return;
    // d as given was checked above, before it is copied.
    detail::solve_on_host_rhs(
        exec, [&](const host_execution_space& e, const auto& v) { solve_here(e, v); }, d);
  }

 private:
  // Checks d on every rank and agrees on the outcome (a throw on every rank if any rank's d is bad).
  template <class DView>
  void agree_on_rhs(const DView& d) const {
    const std::string fn = "bandsolve::mpi::factorization::solve";
    if (!initialized_)
      bandsolve::detail::throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
    detail::agree_on_arguments(fn, s_.comm, sizeof(T), [&] {
      bandsolve::detail::check_factored_rhs<layout_of_t<DView>>(fn, d, s_.part.m,
                                                                static_cast<index_t>(s_.p.nsys));
      return std::pair<std::size_t, std::size_t>(s_.p.nsys, bandsolve::rows(d));
    });
  }


 public:
  // The solve of a checked d in host memory: solve's last step, public because nvcc does not
  // accept device lambdas in private member functions.
  template <class DView>
  void solve_here(const host_execution_space& exec, const DView& d) const {
    const index_t nsys = static_cast<index_t>(s_.p.nsys);
    const int k = s_.part.reduced_rows();
    const Kokkos::View<T*, memory_space> rhs(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("bandsolve::mpi reduced d")),
        static_cast<std::size_t>(nsys * k));
    const Kokkos::View<T*, memory_space> iface(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("bandsolve::mpi interface")),
        static_cast<std::size_t>(nsys * k));
    detail::reduce_rhs(exec, d, s_.factors, rhs, nsys, s_.part);
    exec.fence();
    const auto rhs_in = s_.router.to_solvers(rhs, 1);
    const auto rd = s_.router.allocate_batch("bandsolve::mpi reduced d");
    if (s_.router.lines_solved_here() > 0) {
      s_.router.for_each_received(exec, rhs_in, 1,
                                  KOKKOS_LAMBDA(int t, int i, const T* w) { rd(t, i) = w[0]; });
      s_.reduced.solve(exec, rd);
    }
    s_.router.to_owners(exec, rd, iface);
    detail::finish_factored_parts(exec, d, s_.factors, iface, nsys, s_.part);
    exec.fence();
  }

 private:
  state s_;
  bool initialized_ = false;
};

namespace detail {

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

// The factorization of lines of kind Algo (line_algo.hpp) on a host execution space; nsys: the
// systems of interleaved packs (-1: every slot of b). ResultSpace: the execution space the
// factorization is for (its host_execution_space is ExecutionSpace).
template <class Algo, class ResultSpace, class ExecutionSpace, class AView, class BView,
          class CView>
factorization<typename BView::non_const_value_type, ResultSpace, Algo> partitioned_factorize(
    const ExecutionSpace& exec, MPI_Comm comm, const AView& a, const BView& b, const CView& c,
    std::size_t nsys, const options& opts) {
  using Layout = layout_of_t<BView>;
  using T = typename BView::non_const_value_type;
  using result = factorization<T, ResultSpace, Algo>;
  static_assert(std::is_same_v<typename result::host_execution_space, ExecutionSpace>);
  using memory_space = typename result::memory_space;
  bandsolve::detail::tridiag_static_checks<Algo, ExecutionSpace, BView, AView, CView>();
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "bandsolve::mpi::factorize: the scalar type must be float or double");
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename BView::memory_space>::accessible &&
                    std::is_same_v<typename BView::memory_space, memory_space>,
                "bandsolve::mpi::factorize: the local passes run on host execution spaces and host memory");
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible,
                "bandsolve::mpi::factorize: the local passes run on host execution spaces (Serial, OpenMP)");

  const std::string fn = line_fn<Algo>("bandsolve::mpi::factorize");
  typename result::state s;
  s.comm = comm;
  s.p = agree_on_arguments(
      fn, comm, sizeof(T), [&] { return factor_arguments<Layout>(fn, a, b, c, nsys); }, &opts);
  s.part = part_of<Algo>(s.p);
  s.info = Kokkos::View<int*, Kokkos::HostSpace>("bandsolve::mpi::factorization info", s.p.nsys);
  s.router = reduced_router<T, memory_space>(comm, s.p, chosen_scheme(opts, s.p.nsys, s.p.size));
  if (s.p.nsys == 0) return result(std::move(s));

  const auto n_sys = static_cast<std::size_t>(s.p.nsys), m = static_cast<std::size_t>(s.part.m);
  const int k = s.part.reduced_rows();
  auto& f = s.factors;
  f.lanes = part_lanes_v<Layout, T>;
  f.m = s.part.m;
  const std::size_t packed = (n_sys + static_cast<std::size_t>(f.lanes) - 1) /
                             static_cast<std::size_t>(f.lanes) * static_cast<std::size_t>(f.lanes) * m;
  const auto rows_view = [&](const char* label) {
    return Kokkos::View<T*, memory_space>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), packed);
  };
  f.r = rows_view("bandsolve::mpi r"), f.lo = rows_view("bandsolve::mpi l");
  f.cf = rows_view("bandsolve::mpi c' forward"), f.af = rows_view("bandsolve::mpi a' forward");
  f.first = decltype(f.first)(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("bandsolve::mpi first rows")), n_sys);
  const Kokkos::View<T*, memory_space> coef(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("bandsolve::mpi reduced coefficients")),
      n_sys * static_cast<std::size_t>(k) * 2);
  const Kokkos::View<int*, memory_space> codes("bandsolve::mpi local info", n_sys);
  factor_parts(exec, a, b, c, f, coef, codes, static_cast<index_t>(n_sys), s.part);
  exec.fence();

  const auto coef_in = s.router.to_solvers(coef, 2);
  std::vector<int> reduced_codes(n_sys, 0);
  if (s.router.lines_solved_here() > 0) {
    const auto ra = s.router.allocate_batch("bandsolve::mpi reduced a"),
               rb = s.router.allocate_batch("bandsolve::mpi reduced b"),
               rc = s.router.allocate_batch("bandsolve::mpi reduced c");
    s.router.for_each_received(exec, coef_in, 2, KOKKOS_LAMBDA(int t, int i, const T* w) {
      ra(t, i) = w[0];
      rb(t, i) = T(1);
      rc(t, i) = w[1];
    });
    s.reduced = bandsolve::factorize(exec, Algo{}, ra, rb, rc);
    exec.fence();
    s.router.record_codes(s.reduced.info(), reduced_codes);
  }
  reduce_info(comm, n_sys, codes, reduced_codes, s.info);
  return result(std::move(s));
}

// The factorization for exec, on exec's own memory or through host copies of a, b and c (checked
// and agreed as given before anything is copied; host_staging.hpp).
template <class Algo, class ExecutionSpace, class AView, class BView, class CView>
factorization<typename BView::non_const_value_type, ExecutionSpace, Algo> factorize_lines(
    const ExecutionSpace& exec, MPI_Comm comm, const AView& a, const BView& b, const CView& c,
    std::size_t nsys, const options& opts) {
  if constexpr (runs_on_host_v<ExecutionSpace>) {
    return partitioned_factorize<Algo, ExecutionSpace>(exec, comm, a, b, c, nsys, opts);
  } else {
    using T = typename BView::non_const_value_type;
    bandsolve::detail::tridiag_static_checks<Algo, ExecutionSpace, BView, AView, CView>();
    const std::string fn = line_fn<Algo>("bandsolve::mpi::factorize");
    agree_on_arguments(
        fn, comm, sizeof(T),
        [&] { return factor_arguments<layout_of_t<BView>>(fn, a, b, c, nsys); }, &opts);
    const auto ha = stage_on_host(exec, a, "a");
    const auto hb = stage_on_host(exec, b, "b");
    const auto hc = stage_on_host(exec, c, "c");
    return partitioned_factorize<Algo, ExecutionSpace>(host_execution_t<ExecutionSpace>(), comm,
                                                       ha.host, hb.host, hc.host, nsys, opts);
  }
}

}  // namespace detail

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

}  // namespace bandsolve::mpi
