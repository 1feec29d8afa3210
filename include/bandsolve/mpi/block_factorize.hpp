#pragma once
// Distributed factorization of a batch of block-tridiagonal systems (m x m blocks, m = 2..8)
// whose block rows are split over the ranks of a communicator (Views and data layout as for the
// one-shot mpi::solve(exec, comm, algo::block_thomas{}, ...), block_solve.hpp): factor once,
// solve many.
//
//   auto f = bandsolve::mpi::factorize(exec, comm, algo::block_thomas{...}, a, b, c
//                                      [, nsys][, opts]);
//   f.info();            // agreed info codes (host View), the same on every rank
//   f.solve(exec, d);    // any number of times, collective over comm; x overwrites d
//   f.refactor(exec, a, b, c);  // new matrices of the same shape, in f's storage
//
// Each rank keeps the matrices' part of its local passes (block_partition_kernel.hpp: per block
// row the LU factors of P_i with their pivots, A_i, and the forward A'_i, C'_i; E's LU factors
// per line), and the ranks that solve reduced systems keep their single-process block
// factorizations. A solve then runs the local passes on d alone, sends the m words of d' of each
// of its (at most 2) reduced block rows to the solving ranks (at most 2m words per line) and gets
// m words back per reduced row: at most 4m words per line per rank on average (one-shot:
// 4m^2 + 4m), per right-hand side (d may hold several per system, nrhs the same on every
// rank). The info codes are the one-shot solve's. One rank: the single-process block
// factorization (block_thomas.hpp), after the same collective checks. Arguments are checked on
// every rank and agreed (collective_checks.hpp), those of each solve too. The local passes run on
// exec, a group of systems in SIMD lanes per work item on the host backends (a thread per system
// on the device backend), the factors in exec's memory (on Kokkos::Cuda on the device: only
// the reduced rows, codes and interface values cross to host memory, where the reduced systems
// are exchanged, factored and solved). refactor factors new matrices of the factored shape with
// the same algorithm and options into the same storage (the parts' factors, the reduced or the
// single-process factorization, the info codes): no allocation there; copies of a factorization
// share its state and solve with the new factors. See docs/distributed.md, "Block-tridiagonal
// lines".
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/block/block_checks.hpp>
#include <bandsolve/block/block_thomas.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/mpi/block_partition_kernel.hpp>
#include <bandsolve/mpi/block_solve.hpp>
#include <bandsolve/mpi/collective_checks.hpp>
#include <bandsolve/mpi/host_execution.hpp>
#include <bandsolve/mpi/info_reduce.hpp>
#include <bandsolve/mpi/options.hpp>
#include <bandsolve/mpi/reduced_exchange.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bandsolve::mpi {

namespace detail {

// What factorize(block_thomas) keeps: with several ranks the factors of this rank's parts (in
// ExecutionSpace's memory) and, on the ranks that solve reduced systems, their single-process
// factorization (a row batch in host memory); with one rank the single-process factorization of
// the lines on ExecutionSpace. algorithm and opts: what it was factored with (refactor takes them
// again).
template <class T, int W, class ExecutionSpace>
struct block_factorization_state {
  using host_execution_space = host_execution_t<ExecutionSpace>;
  using memory_space = typename host_execution_space::memory_space;
  using factor_memory_space = typename ExecutionSpace::memory_space;
  using whole_factorization =
      std::conditional_t<std::is_same_v<backend::default_for_t<ExecutionSpace>, backend::device>,
                         block_thomas_device_factorization<T, W, ExecutionSpace>,
                         block_thomas_factorization<T, W, ExecutionSpace>>;
  MPI_Comm comm = MPI_COMM_NULL;
  partition p;
  block_part part;
  int m = 0;
  Kokkos::View<T**, Kokkos::LayoutRight, factor_memory_space> factors;
  reduced_router<T, memory_space> router;
  // Of the lines solved here (several ranks, some lines solved here), or of every line (one rank).
  std::optional<block_thomas_factorization<T, 0, host_execution_space>> reduced;
  std::optional<whole_factorization> whole;
  Kokkos::View<int*, Kokkos::HostSpace> info;
  algo::block_thomas algorithm;
  options opts;
};

// A factored solve of d (checked, in exec's memory; nrhs real right-hand sides per system,
// rhs_parts_v) with several ranks: the local passes on exec, the reduced right-hand sides solved
// on the host.
template <int M, class ExecutionSpace, class State, class DView>
void block_factored_solve(const ExecutionSpace& exec, const State& s, const DView& d, int nrhs) {
  using T = typename decltype(s.factors)::non_const_value_type;
  const auto host = host_execution_of(exec);
  const int RW = M * nrhs;  // words of a reduced row: d' of each right-hand side
  const auto rhs = block_buffer<T, typename State::factor_memory_space>(
      "bandsolve::mpi block reduced rhs",
      s.p.nsys * static_cast<std::size_t>(s.part.reduced_rows() * RW));
  block_rhs_parts<M>(exec, d, nrhs, s.factors, rhs, static_cast<index_t>(s.p.nsys), s.part);
  exec.fence();  // rhs is complete
  const auto host_rhs =
      Kokkos::create_mirror_view_and_copy(typename State::memory_space(), rhs);
  const auto rhs_in = s.router.to_solvers(host_rhs, RW);
  const auto rd = allocate_reduced_rhs<M, T>(s.router, nrhs);
  if (s.router.lines_solved_here() > 0) {
    unpack_reduced_rhs<M, T>(host, s.router, rhs_in, RW, 0, rd);
    s.reduced->solve(host, rd);
  }
  block_return_and_finish<M, true>(exec, s.comm, s.p, s.router, rd, d, s.factors, s.part);
}

}  // namespace detail

// The factors of block lines split over the ranks. T: float, double or Kokkos::complex of one
// (solve's d: of type T, or Kokkos::complex<T> for real T); W: the pack width of interleaved<W>
// Views (0: rank-4 Views), which solve's d must share. The factors live in ExecutionSpace's
// memory, the reduced systems' factorization in host memory.
template <class T, int W, class ExecutionSpace>
class block_factorization {
 public:
  using scalar_type = T;
  using execution_space = ExecutionSpace;
  static constexpr int pack_width = W;
  // Where the reduced systems are exchanged and solved (host memory).
  using host_execution_space = detail::host_execution_t<ExecutionSpace>;
  using memory_space = typename host_execution_space::memory_space;
  using factor_memory_space = typename ExecutionSpace::memory_space;
  using state = detail::block_factorization_state<T, W, ExecutionSpace>;

  // An empty factorization (its state empty too, so that the accessors below answer 0).
  block_factorization() : s_(std::make_shared<state>()) {}
  explicit block_factorization(state s)
      : s_(std::make_shared<state>(std::move(s))), initialized_(true) {}

  std::size_t nsys() const { return s_->p.nsys; }
  // Block rows this rank holds of every system.
  std::size_t rows() const { return static_cast<std::size_t>(s_->part.n); }
  std::size_t m() const { return static_cast<std::size_t>(s_->m); }
  exchange scheme() const { return s_->router.scheme(); }
  // Per-system info codes, the same on every rank (see block_solve.hpp); refactor writes the new
  // ones into the same View.
  Kokkos::View<const int*, Kokkos::HostSpace> info() const { return s_->info; }
  // The stored factors of this rank's parts (block_partition_kernel.hpp; empty with one rank,
  // whose lines the single-process factorization holds, or with no systems).
  Kokkos::View<const T**, Kokkos::LayoutRight, factor_memory_space> parts_factors() const {
    return s_->factors;
  }

  // Collective over the factorization's communicator. d: this rank's block rows of every system,
  // same systems, block rows and block size as factored, any layout of the factored kind: one
  // right-hand side per system (rank 3, or View<T***[W]> for interleaved<W>) or nrhs of them, the
  // same number on every rank (View<T****>(nsys, n, m, nrhs), or View<T****[W]>); of type T, or
  // Kokkos::complex<T> for real T (the same on every rank). Fences exec.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    bandsolve::detail::block_rhs_static_checks<ExecutionSpace, W, T, DView>();
    detail::block_lines_rhs_static_checks<W, T, DView>();
    agree_on_rhs(d);
    if (s_->p.nsys == 0) return;
    solve_here(exec, d);
  }

  // Collective over the factorization's communicator. Factors new block matrices of the shape
  // factored (on every rank the same block rows, systems and m; Views of T of the factored kind,
  // rank 4 of any layout or interleaved<W>) with the algorithm (pivoting) and options of the
  // first factorization, into this factorization's storage: the parts' factors, the reduced
  // systems' (or, with one rank, the single-process) factorization and the info View take the
  // new values with no allocation there. info() then holds the new matrices' codes. Arguments
  // are checked collectively; on a throw the factorization is unchanged. Copies of a
  // factorization share it: every copy solves with the new factors. Fences exec.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c);

  // The solve of a checked d: solve's last step, public because nvcc does not accept device
  // lambdas in private member functions.
  template <class DView>
  void solve_here(const ExecutionSpace& exec, const DView& d) const {
    if (s_->p.size == 1) {
      s_->whole->solve(exec, d);
      exec.fence();
      return;
    }
    solve_parts(exec, d, static_cast<int>(detail::block_lines_nrhs<W>(d)));
  }

  // The solve with several ranks of a d checked and agreed by the caller, nrhs right-hand sides
  // per system: a View, or the lines of a grid where they lie (block_grid_lines.hpp).
  template <class DView>
  void solve_parts(const ExecutionSpace& exec, const DView& d, int nrhs) const {
    const int parts = nrhs * detail::rhs_parts_v<T, DView>;
    bandsolve::detail::block_size_dispatch(fn(), m(), [&](auto bs) {
      detail::block_factored_solve<decltype(bs)::value>(exec, *s_, d, parts);
    });
  }

  // refactor with several ranks of matrices checked and agreed by the caller (the lines of a
  // grid where they lie, block_grid_lines.hpp): refactor's last step.
  template <class AView, class BView, class CView>
  void refactor_parts(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c);

 private:
  static std::string fn() { return "bandsolve::mpi::block_factorization::solve"; }

  // Checks d on every rank and agrees on the outcome (a throw on every rank if any rank's d is
  // bad, or if the ranks pass different numbers of right-hand sides).
  template <class DView>
  void agree_on_rhs(const DView& d) const {
    if (!initialized_)
      bandsolve::detail::throw_invalid_argument(
          fn(), "this factorization is empty (default-constructed)");
    const auto scalar = detail::block_scalar_code<T, typename DView::non_const_value_type>();
    const detail::partition p = detail::agree_on_arguments(fn(), s_->comm, scalar, [&] {
      // Packs of W systems, or one system per slot (W = 0); no division by W written for W = 0,
      // which Clang warns about even where it is not taken.
      constexpr std::size_t per_slot = W > 0 ? std::size_t(W) : 1;
      const std::size_t slots = (s_->p.nsys + per_slot - 1) / per_slot;
      const std::size_t expected[3] = {slots, rows(), m()};
      const char* what[3] = {W > 0 ? " packs" : " systems", " block rows", " rows per block"};
      for (int k = 0; k < 3; ++k)
        if (bandsolve::detail::extent_at(d, k) != expected[k])
          bandsolve::detail::throw_invalid_argument(fn(), "d.extent(", k, ") = ",
                                                    bandsolve::detail::extent_at(d, k),
                                                    " but the factorization has ", expected[k],
                                                    what[k]);
      return std::pair<std::size_t, std::size_t>(s_->p.nsys, d.extent(1));
    });
    detail::agree_on_block_counts(
        fn(), s_->comm, p, m(), detail::block_lines_nrhs<W>(d),
        [](long long bm, long long k) { return bm * k * detail::rhs_parts_v<T, DView>; });
  }

  // Shared by copies, which refactor updates alike.
  std::shared_ptr<state> s_;
  bool initialized_ = false;
};

namespace detail {

inline const char* block_factorize_fn() { return "bandsolve::mpi::factorize(block_thomas)"; }
inline const char* block_refactor_fn() { return "bandsolve::mpi::block_factorization::refactor"; }

// This rank's checks of factorize's arguments: (systems, block rows of this rank); sets m.
template <class AView, class BView, class CView>
std::pair<std::size_t, std::size_t> block_factor_arguments(const std::string& fn, const AView& a,
                                                           const BView& b, const CView& c,
                                                           std::size_t nsys, std::size_t& m) {
  constexpr int W = bandsolve::detail::block_pack_width_v<BView>;
  m = bandsolve::detail::block_check_coefficients(fn, a, b, c);
  if (nsys == static_cast<std::size_t>(-1)) nsys = W > 0 ? b.extent(0) * W : b.extent(0);
  bandsolve::detail::block_systems(fn, "nsys", nsys, b);
  return {nsys, b.extent(1)};
}

// The collective checks of factorize's arguments (partition and m; nrhs is left at 1).
template <class AView, class BView, class CView>
block_agreement agree_on_block_factor_arguments(MPI_Comm comm, long long scalar,
                                                const AView& a, const BView& b, const CView& c,
                                                std::size_t nsys, const options& opts) {
  const std::string fn = block_factorize_fn();
  std::size_t m = 0;
  return agree_on_block_lines(fn, comm, scalar, opts, m, 1, [&] {
    return block_factor_arguments(fn, a, b, c, nsys, m);
  });
}

// The matrices' local passes, their reduced rows to the solving ranks and the factorization of
// the reduced systems there (several ranks, s.p.nsys > 0). A refactorization (s already holds
// factors of these extents and, where lines are solved here, their reduced factorization) writes
// the new ones into that storage.
template <int M, class ExecutionSpace, class State, class AView, class BView, class CView>
void block_factor_reduced(const ExecutionSpace& exec, algo::block_thomas algorithm,
                          const AView& a, const BView& b, const CView& c, State& s) {
  using T = typename BView::non_const_value_type;
  using memory_space = typename State::memory_space;
  using factor_memory_space = typename State::factor_memory_space;
  constexpr int CW = 2 * M * M;  // words of a reduced row's matrices: A', C'
  const auto host = host_execution_of(exec);
  const auto extents = block_rows_extents<M, true, T, ExecutionSpace>(s.p, s.part);
  if (s.factors.extent(0) != extents[0] || s.factors.extent(1) != extents[1])
    s.factors = allocate_block_factors<M, T, ExecutionSpace>(s.p, s.part);
  const auto coef = block_buffer<T, factor_memory_space>(
      "bandsolve::mpi block reduced coefficients",
      s.p.nsys * static_cast<std::size_t>(s.part.reduced_rows() * CW));
  const Kokkos::View<int*, factor_memory_space> codes("bandsolve::mpi block local info",
                                                      s.p.nsys);
  block_factor_parts<M>(exec, a, b, c, s.factors, coef, codes, static_cast<index_t>(s.p.nsys),
                        s.part);
  exec.fence();  // coef is complete
  const auto host_coef = Kokkos::create_mirror_view_and_copy(memory_space(), coef);
  const auto host_codes = Kokkos::create_mirror_view_and_copy(memory_space(), codes);
  const auto coef_in = s.router.to_solvers(host_coef, CW);
  std::vector<int> reduced_codes(s.p.nsys, 0);
  if (s.router.lines_solved_here() > 0) {
    const auto abc = receive_reduced_matrices<M, T>(host, s.router, coef_in, CW);
    if (s.reduced)
      s.reduced->refactor(host, abc[0], abc[1], abc[2]);
    else
      s.reduced.emplace(bandsolve::factorize(host, algorithm, abc[0], abc[1], abc[2]));
    host.fence();
    s.router.record_codes(s.reduced->info(), reduced_codes);
  }
  reduce_info(s.comm, s.p.nsys, host_codes, reduced_codes, s.info);
}

// The state of a factorization of the agreed lines p (block size m), before any factoring. Every
// View allocated where it is built (the factors empty until the local passes size them), never
// assigned into default-constructed (docs/development.md).
template <class State>
State block_state_of(MPI_Comm comm, const partition& p, algo::block_thomas algorithm, int m,
                     const options& opts) {
  using T = typename decltype(State::factors)::non_const_value_type;
  return State{comm,
               p,
               block_part_of(p, algorithm),
               m,
               decltype(State::factors)("bandsolve::mpi block factors", 0, 0),
               reduced_router<T, typename State::memory_space>(
                   comm, p, chosen_scheme(opts, p.nsys, p.size)),
               std::nullopt,
               std::nullopt,
               Kokkos::View<int*, Kokkos::HostSpace>("bandsolve::mpi::block_factorization info",
                                                     p.nsys),
               algorithm,
               opts};
}

// The factorization with several ranks of lines agreed by the caller (p, block size m), their
// matrices read where they lie (block_grid_lines.hpp).
template <class T, class ExecutionSpace, class AView, class BView, class CView>
block_factorization<T, 0, ExecutionSpace> block_factorize_parts(
    const ExecutionSpace& exec, MPI_Comm comm, algo::block_thomas algorithm, const partition& p,
    int m, const AView& a, const BView& b, const CView& c, const options& opts) {
  using result = block_factorization<T, 0, ExecutionSpace>;
  auto s = block_state_of<typename result::state>(comm, p, algorithm, m, opts);
  bandsolve::detail::block_size_dispatch(
      block_factorize_fn(), static_cast<std::size_t>(m), [&](auto bs) {
        block_factor_reduced<decltype(bs)::value>(exec, algorithm, a, b, c, s);
      });
  return result(std::move(s));
}

// The factorization on exec; nsys: the systems of interleaved packs (-1: every slot of b).
template <class ExecutionSpace, class AView, class BView, class CView>
block_factorization<typename BView::non_const_value_type,
                    bandsolve::detail::block_pack_width_v<BView>, ExecutionSpace>
partitioned_block_factorize(const ExecutionSpace& exec, MPI_Comm comm,
                            algo::block_thomas algorithm, const AView& a, const BView& b,
                            const CView& c, std::size_t nsys, const options& opts) {
  using T = typename BView::non_const_value_type;
  using result =
      block_factorization<T, bandsolve::detail::block_pack_width_v<BView>, ExecutionSpace>;
  bandsolve::detail::block_coefficient_static_checks<ExecutionSpace, BView, AView, CView>();
  const auto agreed = agree_on_block_factor_arguments(comm, scalar_code<T>(), a, b, c, nsys, opts);
  auto s = block_state_of<typename result::state>(comm, agreed.p, algorithm, agreed.m, opts);
  if (s.p.nsys == 0) return result(std::move(s));
  if (s.p.size == 1) {
    s.whole.emplace(bandsolve::factorize(exec, algorithm, a, b, c, s.p.nsys));
    exec.fence();
    Kokkos::deep_copy(s.info, s.whole->info());
    return result(std::move(s));
  }
  bandsolve::detail::block_size_dispatch(
      block_factorize_fn(), static_cast<std::size_t>(s.m), [&](auto bs) {
        block_factor_reduced<decltype(bs)::value>(exec, algorithm, a, b, c, s);
      });
  return result(std::move(s));
}

}  // namespace detail

template <class T, int W, class ExecutionSpace>
template <class AView, class BView, class CView>
void block_factorization<T, W, ExecutionSpace>::refactor(const ExecutionSpace& exec,
                                                         const AView& a, const BView& b,
                                                         const CView& c) {
  bandsolve::detail::block_coefficient_static_checks<ExecutionSpace, BView, AView, CView>();
  static_assert(std::is_same_v<typename BView::non_const_value_type, T> &&
                    bandsolve::detail::block_pack_width_v<BView> == W,
                "bandsolve::mpi::block_factorization::refactor: the matrices must have the "
                "factored scalar type and layout kind");
  const std::string fn = detail::block_refactor_fn();
  if (!initialized_)
    bandsolve::detail::throw_invalid_argument(
        fn, "this factorization is empty (default-constructed)");
  state& s = *s_;
  // Each rank checks its matrices against its own factored shape, then the ranks agree (the
  // options are the stored ones, so only the shapes can differ); nothing is written before.
  constexpr std::size_t per_slot = W > 0 ? std::size_t(W) : 1;
  const std::size_t slots = (s.p.nsys + per_slot - 1) / per_slot;
  const std::size_t m_here = m();
  detail::agree_on_block_lines(fn, s.comm, detail::scalar_code<T>(), s.opts, m_here, 1, [&] {
    bandsolve::detail::block_check_refactor(fn, true, a, b, c, slots, rows(), m_here);
    return std::pair<std::size_t, std::size_t>(s.p.nsys, b.extent(1));
  });
  if (s.p.nsys == 0) return;
  if (s.p.size == 1) {
    s.whole->refactor(exec, a, b, c);
    exec.fence();
    Kokkos::deep_copy(s.info, s.whole->info());
    return;
  }
  refactor_parts(exec, a, b, c);
}

template <class T, int W, class ExecutionSpace>
template <class AView, class BView, class CView>
void block_factorization<T, W, ExecutionSpace>::refactor_parts(const ExecutionSpace& exec,
                                                               const AView& a, const BView& b,
                                                               const CView& c) {
  bandsolve::detail::block_size_dispatch(detail::block_refactor_fn(), m(), [&](auto bs) {
    detail::block_factor_reduced<decltype(bs)::value>(exec, s_->algorithm, a, b, c, *s_);
  });
}

// Block-tridiagonal lines. nsys: the systems of interleaved packs (default: every slot of b).
template <class ExecutionSpace, class AView, class BView, class CView>
auto factorize(const ExecutionSpace& exec, MPI_Comm comm, algo::block_thomas algorithm,
               const AView& a, const BView& b, const CView& c, std::size_t nsys,
               const options& opts = {}) {
  return detail::partitioned_block_factorize(exec, comm, algorithm, a, b, c, nsys, opts);
}

template <class ExecutionSpace, class AView, class BView, class CView>
auto factorize(const ExecutionSpace& exec, MPI_Comm comm, algo::block_thomas algorithm,
               const AView& a, const BView& b, const CView& c, const options& opts = {}) {
  return detail::partitioned_block_factorize(exec, comm, algorithm, a, b, c,
                                             static_cast<std::size_t>(-1), opts);
}

}  // namespace bandsolve::mpi
