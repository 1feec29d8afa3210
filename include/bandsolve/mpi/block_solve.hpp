#pragma once
// Distributed one-shot solve of a batch of block-tridiagonal systems (m x m blocks, m = 2..8)
// whose block rows are split over the ranks of an MPI communicator:
//
//   bandsolve::mpi::solve(exec, comm, algo::block_thomas{}, a, b, c, d, info[, opts]);
//
// Rank r holds block rows offsets[r] .. offsets[r] + n_r - 1 of every system, in rank order,
// where n_r = b.extent(1) on rank r (at least 1; the parts may differ in size). a, b, c are
// View<T****>(nsys, n_r, m, m) and d View<T***>(nsys, n_r, m) or View<T****>(nsys, n_r, m, nrhs)
// (LayoutRight, LayoutLeft, LayoutStride), or interleaved packs
// View<T****[W], LayoutRight>(ceil(nsys/W), n_r, m, m) and View<T***[W], LayoutRight>(ceil(nsys/W),
// n_r, m) or View<T****[W], LayoutRight>(ceil(nsys/W), n_r, m, nrhs), as the single-process block
// solve takes them (T float, double or Kokkos::complex of one; over real coefficients d may be
// Kokkos::complex<T>, the same on every rank); info has one entry per system
// (nsys = info.extent(0); padding lanes are neither read nor written); nsys, m and nrhs are the
// same on every rank, the layouts may differ. A_0 of the first rank and C_{n_r - 1} of the last
// are ignored. x overwrites d (each rank its own rows); every rank gets the
// same info codes: for each system the global 1-based block row of the first bad pivot met by any
// rank's local pass (block_partition_kernel.hpp gives the order; the smallest such row over the
// ranks), else the global block row of the interface row at which the reduced solve found one,
// else 0. algo::block_thomas{block_thomas::pivoting::partial} pivots by rows inside every block
// that is factored (locally and in the reduced solve), as the single-process solve does.
// Collective over comm; the arguments (m and nrhs included) are checked on every rank and agreed
// before any exchange (collective_checks.hpp), so bad arguments on any rank make every rank throw
// the same std::invalid_argument. The local passes run on exec, a group of systems in SIMD
// lanes per work item on the host backends, a thread per system on the device backend (on
// Kokkos::Cuda on the device: only the reduced rows, codes and interface values cross to host
// memory, where the exchange and the reduced solve run). The call fences exec. One rank: the
// single-process solve. See docs/distributed.md, "Block-tridiagonal lines".
#include <bandsolve/backend/host_simd/team_launch.hpp>
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/backend/scratch.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/block/block_checks.hpp>
#include <bandsolve/block/block_thomas.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/mpi/block_partition_kernel.hpp>
#include <bandsolve/mpi/collective_checks.hpp>
#include <bandsolve/mpi/datatype.hpp>
#include <bandsolve/mpi/host_execution.hpp>
#include <bandsolve/mpi/info_reduce.hpp>
#include <bandsolve/mpi/options.hpp>
#include <bandsolve/mpi/reduced_exchange.hpp>
#include <bandsolve/mpi/staging.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <array>
#include <climits>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bandsolve::mpi {
namespace detail {

inline const char* block_fn() { return "bandsolve::mpi::solve(block_thomas)"; }

// d of the block lines for coefficients of pack width W and scalar type T: one right-hand side
// per system or several, of type T or complex over real T (solved as its real and imaginary
// parts, block_partition_kernel.hpp's rhs_parts_v). A rank-4 d of rank-4 coefficients has no
// static last extent (rhs_at in block_partition_kernel.hpp reads such an extent as a pack width).
template <int W, class T, class DView>
constexpr void block_lines_rhs_static_checks() {
  static_assert(bandsolve::is_rhs_of_v<T, typename DView::non_const_value_type>,
                "bandsolve::mpi block_thomas: d must have the coefficients' scalar type, or be "
                "Kokkos::complex of real coefficients' type");
  static_assert(
      (W == 0 && (DView::rank == 3 ||
                  (DView::rank == 4 && bandsolve::detail::static_pack_width<DView, 4>() == 0))) ||
          (W > 0 && (bandsolve::detail::static_pack_width<DView, 4>() == W ||
                     bandsolve::detail::static_pack_width<DView, 5>() == W)),
      "bandsolve::mpi block_thomas: with a, b, c of View<T****>(nsys, n, m, m) (row, column or "
      "strided) d must be View<T***>(nsys, n, m) or View<T****>(nsys, n, m, nrhs) (no static "
      "extent); with View<T****[W], LayoutRight>(packs, n, m, m) (interleaved<W>) d must be "
      "View<T***[W], LayoutRight>(packs, n, m) or View<T****[W], LayoutRight>(packs, n, m, nrhs)");
}

// Right-hand sides per system of d (coefficients of pack width W).
template <int W, class DView>
std::size_t block_lines_nrhs(const DView& d) {
  return static_cast<std::size_t>(bandsolve::detail::block_nrhs<(W > 0)>(d));
}

// Compile-time checks of the block lines' Views: rank-4 coefficients (or packs), d with one or
// several right-hand sides, rank-1 int info.
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
constexpr void block_lines_static_checks() {
  static_assert(Kokkos::is_view<AView>::value && Kokkos::is_view<BView>::value &&
                    Kokkos::is_view<CView>::value && Kokkos::is_view<DView>::value,
                "bandsolve::mpi::solve(block_thomas): a, b, c and d must be Kokkos::Views");
  constexpr int W = bandsolve::detail::block_pack_width_v<BView>;
  bandsolve::detail::block_coefficient_static_checks<ExecutionSpace, BView, AView, CView>();
  bandsolve::detail::block_rhs_static_checks<ExecutionSpace, W,
                                             typename BView::non_const_value_type, DView>();
  block_lines_rhs_static_checks<W, typename BView::non_const_value_type, DView>();
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1 &&
                    std::is_same_v<typename InfoView::value_type, int>,
                "bandsolve::mpi::solve(block_thomas): info must be a rank-1 Kokkos::View<int*>");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename InfoView::memory_space>::accessible,
      "bandsolve::mpi::solve(block_thomas): info must be accessible from the execution space");
}

// This rank's checks: returns (systems, block rows of this rank) and sets m.
template <class AView, class BView, class CView, class DView, class InfoView>
std::pair<std::size_t, std::size_t> block_arguments(const std::string& fn, const AView& a,
                                                    const BView& b, const CView& c,
                                                    const DView& d, const InfoView& info,
                                                    std::size_t& m) {
  m = bandsolve::detail::block_check_coefficients(fn, a, b, c);
  bandsolve::detail::block_check_rhs(fn, b, d);
  bandsolve::detail::check_no_overlap(fn, "d", d, "a", a);
  bandsolve::detail::check_no_overlap(fn, "d", d, "b", b);
  bandsolve::detail::check_no_overlap(fn, "d", d, "c", c);
  bandsolve::detail::check_no_overlap(fn, "d", d, "info", info);
  const std::size_t nsys =
      bandsolve::detail::block_systems(fn, "info.extent(0)", info.extent(0), b);
  return {nsys, b.extent(1)};
}

// What the ranks agreed on for block lines: who holds which rows, the block size and the
// right-hand sides per system.
struct block_agreement {
  partition p;
  int m = 0, nrhs = 1;
};

// The block size m and the right-hand sides per system nrhs, the same on every rank (one
// MPI_Allgather): ranks that pass different ones all throw the same message; so do lines too
// large for the int counts of the exchanges (2 reduced rows of words_per_row(m, nrhs) words per
// line and rank, all at one rank in the gather scheme).
template <class WordsPerRow>
std::pair<int, int> agree_on_block_counts(const std::string& fn, MPI_Comm comm, const partition& p,
                                          std::size_t m, std::size_t nrhs,
                                          const WordsPerRow& words_per_row) {
  std::vector<long long> all(2 * static_cast<std::size_t>(p.size));
  long long mine[2] = {static_cast<long long>(m), static_cast<long long>(nrhs)};
  MPI_Allgather(mine, 2, MPI_LONG_LONG, all.data(), 2, MPI_LONG_LONG, comm);
  const char* what[2] = {"block sizes: m = ", "numbers of right-hand sides: nrhs = "};
  for (int r = 1; r < p.size; ++r)
    for (std::size_t k = 0; k < 2; ++k)
      if (all[2 * static_cast<std::size_t>(r) + k] != all[k])
        bandsolve::detail::throw_invalid_argument(fn, "the ranks pass different ", what[k], all[k],
                                                  " on rank 0 but ",
                                                  all[2 * static_cast<std::size_t>(r) + k],
                                                  " on rank ", r);
  const long long words = static_cast<long long>(p.nsys) * 2 * p.size *
                          words_per_row(static_cast<long long>(all[0]), all[1]);
  if (words > static_cast<long long>(INT_MAX))
    bandsolve::detail::throw_invalid_argument(
        fn, "nsys = ", p.nsys, " over ", p.size, " ranks with blocks of ", all[0], " x ", all[0],
        " and ", all[1], " right-hand sides exceeds MPI's int message counts");
  return {static_cast<int>(all[0]), static_cast<int>(all[1])};
}

// The collective checks of agree_on_arguments (local_checks returns (systems, block rows of this
// rank) and sets m and nrhs), then m and nrhs agreed (agree_on_block_counts) with the one-shot
// solve's reduced rows (block_row_words; parts real words per value of d). threads: those of
// this rank's execution space (the batches of the one-shot solve take the most of any rank).
template <class LocalChecks>
block_agreement agree_on_block_lines(const std::string& fn, MPI_Comm comm,
                                     long long scalar, const options& opts,
                                     const std::size_t& m, const std::size_t& nrhs,
                                     const LocalChecks& local_checks, int threads = 1,
                                     int parts = 1) {
  block_agreement agreed;
  agreed.p = agree_on_arguments(fn, comm, scalar, local_checks, &opts, nullptr, threads);
  const auto counts = agree_on_block_counts(
      fn, comm, agreed.p, m, nrhs,
      [parts](long long bm, long long k) { return 2 * bm * bm + bm * k * parts; });
  agreed.m = counts.first;
  agreed.nrhs = counts.second;
  return agreed;
}

// The one-shot solve's collective checks.
template <class AView, class BView, class CView, class DView, class InfoView>
block_agreement agree_on_block_arguments(MPI_Comm comm, long long scalar, const AView& a,
                                         const BView& b, const CView& c, const DView& d,
                                         const InfoView& info, const options& opts,
                                         int threads) {
  const std::string fn = block_fn();
  std::size_t m = 0;
  const std::size_t nrhs = block_lines_nrhs<bandsolve::detail::block_pack_width_v<BView>>(d);
  return agree_on_block_lines(
      fn, comm, scalar, opts, m, nrhs, [&] { return block_arguments(fn, a, b, c, d, info, m); },
      threads, rhs_parts_v<typename BView::non_const_value_type, DView>);
}

// The reduced block systems of the lines solved here, a row batch: ra, rb (identity), rc of
// (lines, K, M, M) and rd of (lines, K, M, nrhs).
template <class T, class MemorySpace>
using reduced_blocks = Kokkos::View<T****, Kokkos::LayoutRight, MemorySpace>;
template <class T, class MemorySpace>
using reduced_block_rhs = Kokkos::View<T****, Kokkos::LayoutRight, MemorySpace>;

// The reduced block rows received (w words each: A, C column-major first; the diagonal block is
// I) into the reduced batch. Functions of their own: nvcc takes no device lambda in a function
// templated on local lambdas.
template <int M, class T, class ExecutionSpace, class Router, class Buffer, class Coef>
void unpack_reduced_coefficients(const ExecutionSpace& exec, const Router& router,
                                 const Buffer& rows_in, int w, const Coef& ra, const Coef& rb,
                                 const Coef& rc) {
  router.for_each_received(exec, rows_in, w, KOKKOS_LAMBDA(int t, int i, const T* v) {
    for (int col = 0; col < M; ++col)
      for (int r = 0; r < M; ++r) {
        ra(t, i, r, col) = v[col * M + r];
        rb(t, i, r, col) = r == col ? T(1) : T(0);
        rc(t, i, r, col) = v[M * M + col * M + r];
      }
  });
}

// Their right-hand sides (M words per right-hand side, the rd.extent(3) of a row side by side,
// from word `at` of each w-word row) into rd.
template <int M, class T, class ExecutionSpace, class Router, class Buffer, class Rhs>
void unpack_reduced_rhs(const ExecutionSpace& exec, const Router& router, const Buffer& rows_in,
                        int w, int at, const Rhs& rd) {
  const int nrhs = static_cast<int>(rd.extent(3));
  router.for_each_received(exec, rows_in, w, KOKKOS_LAMBDA(int t, int i, const T* v) {
    for (int k = 0; k < nrhs; ++k)
      for (int r = 0; r < M; ++r) rd(t, i, r, k) = v[at + k * M + r];
  });
}

// The interface values of the lines solved here (x(t, i, r, q): line t, reduced row i,
// right-hand side q) back to the ranks that own them, M words per reduced row and right-hand side:
// iface receives line s, row j, right-hand side q, entry r at ((s*k + j)*nrhs + q)*M + r. The
// counterpart of reduced_router::to_owners (one word per row) with the same
// shares of lines (gather: rank 0 solves every line; all_to_all: rank q lines
// [nsys q/P, nsys (q+1)/P)).
template <int M, class T, class ExecutionSpace, class Router, class X, class Buffer>
void block_interface_to_owners(const ExecutionSpace& exec, MPI_Comm comm, const partition& p,
                               const Router& router, const X& x, const Buffer& iface) {
  const std::size_t P = static_cast<std::size_t>(p.size), me = static_cast<std::size_t>(p.rank);
  const long long nsys = static_cast<long long>(p.nsys);
  const bool gather = router.scheme() == exchange::gather;
  const auto begin = [&](std::size_t q) {
    return gather ? (q == 0 ? 0 : nsys) : nsys * static_cast<long long>(q) / p.size;
  };
  const int nrhs = static_cast<int>(x.extent(3)), RM = nrhs * M;
  std::vector<int> k(P), first(P), send(P), sdisp(P), recv(P), rdisp(P);
  int rows = 0;
  for (std::size_t q = 0; q < P; ++q) {
    k[q] = p.rows[q] == 1 ? 1 : 2;
    first[q] = rows;
    rows += k[q];
  }
  const int mine = router.lines_solved_here();
  int total = 0;
  for (std::size_t q = 0; q < P; ++q) {
    send[q] = RM * mine * k[q];
    sdisp[q] = total;
    total += send[q];
    recv[q] = RM * static_cast<int>(begin(q + 1) - begin(q)) * k[me];
    rdisp[q] = RM * static_cast<int>(begin(q)) * k[me];
  }
  // Rank q's rows of every line solved here, line by line (host memory: the driver runs on host
  // execution spaces).
  std::vector<T> back(static_cast<std::size_t>(total));
  exec.fence();
  for (std::size_t q = 0; q < P; ++q)
    for (int t = 0; t < mine; ++t)
      for (int j = 0; j < k[q]; ++j)
        for (int c = 0; c < nrhs; ++c)
          for (int r = 0; r < M; ++r)
            back[static_cast<std::size_t>(sdisp[q] + ((t * k[q] + j) * nrhs + c) * M + r)] =
                x(t, first[q] + j, r, c);
  const MPI_Datatype dt = datatype<T>();
  if (gather)
    MPI_Scatterv(back.data(), send.data(), sdisp.data(), dt, iface.data(), recv[0], dt, 0, comm);
  else
    MPI_Alltoallv(back.data(), send.data(), sdisp.data(), dt, iface.data(), recv.data(),
                  rdisp.data(), dt, comm);
}

// This rank's part of the lines of partition p.
inline block_part block_part_of(const partition& p, algo::block_thomas algorithm) {
  const auto me = static_cast<std::size_t>(p.rank);
  block_part part;
  part.n = p.rows[me];
  part.offset = p.offsets[me];
  part.first = p.rank == 0;
  part.last = p.rank == p.size - 1;
  part.pivoting = algorithm.pivot == algo::block_thomas::pivoting::partial;
  return part;
}

template <class T, class MemorySpace>
Kokkos::View<T*, MemorySpace> block_buffer(const char* label, std::size_t size) {
  return bandsolve::detail::allocate_uninitialized<Kokkos::View<T*, MemorySpace>>(label, size);
}

// The extents of what this rank keeps of its parts for the local passes on ExecutionSpace
// (block_partition_kernel.hpp; Factored: a factorization's rows): a row per group of L systems,
// lane-innermost.
template <int M, bool Factored, class T, class ExecutionSpace>
std::array<std::size_t, 2> block_rows_extents(const partition& p, const block_part& part) {
  constexpr int L = block_part_lanes_v<ExecutionSpace, T>;
  return {static_cast<std::size_t>(block_groups<L>(static_cast<index_t>(p.nsys))),
          static_cast<std::size_t>(block_kept_words(M, block_kept_row_words<M, Factored>, part.n)) *
              static_cast<std::size_t>(L)};
}

// Lines per batch of the one-shot solve's host passes (batch_bytes of the options: 0, one batch):
// the kept rows and the right-hand sides of a batch's lines (2m^2 + m nrhs words per block
// row of the longest part) within that many bytes per thread, whole groups of 16 lines (the
// lanes of any scalar type), at least one group per thread. The same on every rank: it reads
// only agreed values.
template <int M>
index_t block_batch_lines(const options& opts, const partition& p, int nrhs,
                          std::size_t scalar_bytes) {
  constexpr std::size_t group = 16;
  const std::size_t per_line =
      max_rows(p) * static_cast<std::size_t>(2 * M * M + M * nrhs) * scalar_bytes;
  const std::size_t threads = p.max_threads > 1 ? static_cast<std::size_t>(p.max_threads) : 1;
  const std::size_t bytes = batch_bytes(opts, p.machine_batch_bytes);
  if (bytes == 0 || per_line == 0) return static_cast<index_t>(p.nsys);
  const std::size_t lines = bytes / per_line / group * group;
  const std::size_t batch = (lines < group ? group : lines) * threads;
  return static_cast<index_t>(batch < p.nsys ? batch : p.nsys);
}

// A factorization's kept rows (block_rows_extents), the group w at &f(w, 0).
template <int M, class T, class ExecutionSpace>
Kokkos::View<T**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space>
allocate_block_factors(const partition& p, const block_part& part) {
  const auto e = block_rows_extents<M, true, T, ExecutionSpace>(p, part);
  return bandsolve::detail::allocate_uninitialized<
      Kokkos::View<T**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space>>(
      "bandsolve::mpi block factors", e[0], e[1]);
}

// The reduced systems' right-hand sides of the lines solved here, nrhs per system.
template <int M, class T, class Router>
auto allocate_reduced_rhs(const Router& router, int nrhs) {
  using memory_space = typename Router::buffer::memory_space;
  return reduced_block_rhs<T, memory_space>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing,
                         std::string("bandsolve::mpi block reduced d")),
      static_cast<std::size_t>(router.lines_solved_here()),
      static_cast<std::size_t>(router.reduced_rows()), M, static_cast<std::size_t>(nrhs));
}

// The reduced systems' matrices of the lines solved here (w words per received row, A' and C'
// first): ra, rb, rc.
template <int M, class T, class ExecutionSpace, class Router>
auto receive_reduced_matrices(const ExecutionSpace& exec, const Router& router,
                              const typename Router::buffer& rows_in, int w) {
  using memory_space = typename Router::buffer::memory_space;
  const auto alloc = [&](const char* label) {
    return reduced_blocks<T, memory_space>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
        static_cast<std::size_t>(router.lines_solved_here()),
        static_cast<std::size_t>(router.reduced_rows()), M, M);
  };
  std::array<reduced_blocks<T, memory_space>, 3> abc = {alloc("bandsolve::mpi block reduced a"),
                                                        alloc("bandsolve::mpi block reduced b"),
                                                        alloc("bandsolve::mpi block reduced c")};
  unpack_reduced_coefficients<M, T>(exec, router, rows_in, w, abc[0], abc[1], abc[2]);
  return abc;
}

// The interface values (rd: the reduced solutions of the lines solved here, rd.extent(3)
// right-hand sides each, in host memory) back to their ranks, then the finish pass on exec of the
// p.nsys systems from `first` (the values copied to exec's memory first where that is not host
// memory): x over d. Fences exec.
template <int M, bool Factored, class ExecutionSpace, class Router, class Rhs, class DView,
          class Work>
void block_return_and_finish(const ExecutionSpace& exec, MPI_Comm comm, const partition& p,
                             const Router& router, const Rhs& rd, const DView& d,
                             const Work& work, const block_part& part, index_t first = 0) {
  using T = typename Rhs::non_const_value_type;
  const int nrhs = static_cast<int>(rd.extent(3));
  const auto iface = block_buffer<T, typename Router::buffer::memory_space>(
      "bandsolve::mpi block interface",
      p.nsys * static_cast<std::size_t>(part.reduced_rows() * M * nrhs));
  block_interface_to_owners<M, T>(host_execution_of(exec), comm, p, router, rd, iface);
  const auto here =
      Kokkos::create_mirror_view_and_copy(typename ExecutionSpace::memory_space(), iface);
  block_finish_parts<M, Factored>(exec, d, nrhs, work, here, first,
                                  static_cast<index_t>(p.nsys), part);
  exec.fence();
}

// The partitioned solve of p.nsys block lines (p.size > 1, p.nsys > 0; nrhs real right-hand
// sides per system, rhs_parts_v), batch by batch on the host backends: the local passes on exec
// (groups of systems in SIMD lanes, valid device code), the reduced rows and codes in host memory
// for the exchange and the reduced solve (on the host), the interface values back for the
// finish.
template <int M, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void block_solve_reduced(const ExecutionSpace& exec, MPI_Comm comm, algo::block_thomas algorithm,
                         const partition& p, int nrhs, const options& opts, const AView& a,
                         const BView& b, const CView& c, const DView& d, const InfoView& info) {
  using T = typename BView::non_const_value_type;
  using memory_space = typename ExecutionSpace::memory_space;
  using host_memory = typename host_execution_t<ExecutionSpace>::memory_space;
  const auto host = host_execution_of(exec);
  const int RW = block_row_words(M, nrhs);
  const block_part part = block_part_of(p, algorithm);
  const index_t nsys = static_cast<index_t>(p.nsys);
  const int k = part.reduced_rows();
  // Batches on the host backends; the device backend takes every line at once.
  constexpr bool on_host =
      !std::is_same_v<backend::default_for_t<ExecutionSpace>, backend::device>;
  const index_t batch = on_host ? block_batch_lines<M>(opts, p, nrhs, sizeof(T)) : nsys;
  partition bp = p;  // one batch's lines
  bp.nsys = static_cast<std::size_t>(batch);
  // The kept rows of a batch (2m^2 words per block row and line) over the buffer kept between
  // calls, held until the call ends: a buffer allocated per call would be mapped and
  // first-touched afresh.
  const auto rows = block_rows_extents<M, false, T, ExecutionSpace>(bp, part);
  std::unique_lock<std::mutex> lock;
  const auto keep = bandsolve::detail::scratch_buffer<memory_space, block_rows_tag>(
      exec, "bandsolve::mpi::solve(block_thomas)", rows[0] * rows[1] * sizeof(T), lock);
  const Kokkos::View<T**, Kokkos::LayoutRight, memory_space,
                     Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      work(reinterpret_cast<T*>(keep.data()), rows[0], rows[1]);
  const auto red = block_buffer<T, memory_space>(
      "bandsolve::mpi block reduced rows", bp.nsys * static_cast<std::size_t>(k * RW));
  const Kokkos::View<int*, memory_space> codes("bandsolve::mpi block local info", p.nsys);
  const exchange scheme = chosen_scheme(opts, p.nsys, p.size);
  std::vector<int> reduced_codes(p.nsys, 0);

  // Batch by batch: reduced, exchanged, solved and finished while its kept rows are in cache.
  for (index_t first = 0; first < nsys; first += batch) {
    const index_t count = nsys - first < batch ? nsys - first : batch;
    bp.nsys = static_cast<std::size_t>(count);
    block_reduce_parts<M>(exec, a, b, c, d, nrhs, work, red, codes, first, count, part);
    exec.fence();  // red is complete
    const auto host_red = Kokkos::create_mirror_view_and_copy(host_memory(), red);
    const reduced_router<T, host_memory> router(comm, bp, scheme);
    const auto rows_in = router.to_solvers(
        Kokkos::View<T*, host_memory>(host_red.data(), static_cast<std::size_t>(count * k * RW)),
        RW);
    const auto rd = allocate_reduced_rhs<M, T>(router, nrhs);
    if (router.lines_solved_here() > 0) {
      const auto abc = receive_reduced_matrices<M, T>(host, router, rows_in, RW);
      unpack_reduced_rhs<M, T>(host, router, rows_in, RW, 2 * M * M, rd);
      const Kokkos::View<int*, host_memory> rinfo("bandsolve::mpi block reduced info",
                                                  rd.extent(0));
      bandsolve::solve(host, algorithm, abc[0], abc[1], abc[2], rd, rinfo);
      host.fence();
      router.record_codes(rinfo, reduced_codes, static_cast<std::size_t>(first));
    }
    block_return_and_finish<M, false>(exec, comm, bp, router, rd, d, work, part, first);
  }
  const auto host_codes = Kokkos::create_mirror_view_and_copy(host_memory(), codes);
  const auto host_info = Kokkos::create_mirror_view(info);
  reduce_info(comm, p.nsys, host_codes, reduced_codes, host_info);
  Kokkos::deep_copy(info, host_info);
}

// The one-shot solve on exec's memory (arguments checked here, collectively).
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void block_partitioned_solve(const ExecutionSpace& exec, MPI_Comm comm,
                             algo::block_thomas algorithm, const AView& a, const BView& b,
                             const CView& c, const DView& d, const InfoView& info,
                             const options& opts) {
  using T = typename BView::non_const_value_type;
  block_lines_static_checks<ExecutionSpace, AView, BView, CView, DView, InfoView>();
  // Named members, not a structured binding: C++17 lambdas cannot capture those.
  const auto agreed =
      agree_on_block_arguments(comm, block_scalar_code<T, typename DView::non_const_value_type>(),
                               a, b, c, d, info, opts, bandsolve::detail::concurrency_of(exec));
  const partition& p = agreed.p;
  if (p.nsys == 0) return;
  if (p.size == 1) {
    bandsolve::solve(exec, algorithm, a, b, c, d, info);
    exec.fence();
    return;
  }
  bandsolve::detail::block_size_dispatch(block_fn(), static_cast<std::size_t>(agreed.m),
                                         [&](auto bs) {
                                           block_solve_reduced<decltype(bs)::value>(
                                               exec, comm, algorithm, p,
                                               agreed.nrhs * rhs_parts_v<T, DView>, opts, a, b, c,
                                               d, info);
                                         });
}

}  // namespace detail

// Block-tridiagonal lines (see the top of this header).
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, MPI_Comm comm, algo::block_thomas algorithm,
           const AView& a, const BView& b, const CView& c, const DView& d, const InfoView& info,
           const options& opts = {}) {
  detail::block_partitioned_solve(exec, comm, algorithm, a, b, c, d, info, opts);
}

}  // namespace bandsolve::mpi
