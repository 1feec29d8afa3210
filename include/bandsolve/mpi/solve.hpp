#pragma once
// Distributed one-shot solve of a batch of scalar tridiagonal systems whose rows are split over
// the ranks of an MPI communicator:
//
//   bandsolve::mpi::solve(exec, comm, a, b, c, d, info[, opts]);                   // lines with ends
//   bandsolve::mpi::solve(exec, comm, algo::thomas{}, a, b, c, d, info[, opts]);   // the same
//   bandsolve::mpi::solve(exec, comm, algo::periodic{}, a, b, c, d, info[, opts]); // periodic lines
//
// Rank r holds a contiguous part of every system (line): rows offsets[r] .. offsets[r] + n_r - 1,
// in rank order, where n_r = rows(d) on rank r (at least 1; the parts may differ in size). a, b,
// c, d are this rank's rows in any batch layout of the single-process API (row, column,
// interleaved<W>, strided; float, double or Kokkos::complex of either, d complex over real a, b,
// c too), info has one entry per system and the same number of systems on every rank. Lines
// with ends: a[0] of the first rank and c[n_r - 1] of the last are ignored. Periodic lines
// (line_algo.hpp): a[0] of the first rank multiplies the last row's unknown and c[n_r - 1] of
// the last rank the first row's, as in the single-process
// algo::periodic solve (whose folding rules for 1 and 2 rows in all apply too). x overwrites d
// (each rank its own rows); every rank gets the same info codes (info_reduce.hpp).
// Collective over comm: every rank calls it with the same options. The arguments are checked on
// every rank and agreed before any exchange (collective_checks.hpp): bad arguments on any rank
// make every rank throw the same std::invalid_argument. Host execution spaces (Serial, OpenMP)
// run the local passes in SIMD packs (partition_kernel.hpp); Kokkos::Cuda runs them on the device,
// a thread per system (partition_device.hpp), and only the reduced rows and interface values
// cross to host memory for the exchange; a trailing backend::device{} runs the device passes on
// any space (host spaces included, to test them without a GPU). The call fences exec. One rank:
// the single-process solve. See docs/distributed.md.
#include <bandsolve/backend/host_simd/team_launch.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/mpi/collective_checks.hpp>
#include <bandsolve/mpi/datatype.hpp>
#include <bandsolve/mpi/host_execution.hpp>
#include <bandsolve/mpi/info_reduce.hpp>
#include <bandsolve/mpi/line_algo.hpp>
#include <bandsolve/mpi/options.hpp>
#include <bandsolve/mpi/partition_device.hpp>
#include <bandsolve/mpi/partition_kernel.hpp>
#include <bandsolve/mpi/reduced_exchange.hpp>
#include <bandsolve/mpi/reduced_rows.hpp>
#include <bandsolve/mpi/staging.hpp>
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

// The reduced rows received (a, c and d of each, as reduced_rows.hpp stores them over
// coefficients of type C; the diagonal is 1) into the reduced batch. A function of its own: nvcc
// takes no device lambda in a function templated on local lambdas.
template <class C, class T, class ExecutionSpace, class Router, class Buffer, class Batch>
void unpack_reduced_rows(const ExecutionSpace& exec, const Router& router, const Buffer& rows_in,
                         const Batch& ra, const Batch& rb, const Batch& rc, const Batch& rd) {
  router.for_each_received(exec, rows_in, reduced_row_words_v<C, T>,
                           KOKKOS_LAMBDA(int t, int i, const T* w) {
                             T wa, wc, wd;
                             load_reduced_row<C>(w, wa, wc, wd);
                             ra(t, i) = wa;
                             rb(t, i) = T(1);
                             rc(t, i) = wc;
                             rd(t, i) = wd;
                           });
}

// The one-shot solve of p.nsys lines of kind Algo after the checks (p.size > 1, p.nsys > 0), in
// batches of batch_lines consecutive lines (the last one shorter), each reduced, exchanged and
// finished before the next: reduce(first, count, red, codes) writes the reduced rows of lines
// first .. first + count - 1 (line s at red[s*k*W], k reduced rows of this rank, W =
// reduced_row_words_v<C, T> values each: C the coefficients' type, T d's) and their local
// info codes; the reduced systems (tridiagonal for algo::thomas, periodic for algo::periodic) go
// to the ranks that solve them with the single-process solve of the same kind;
// finish(first, count, iface) finishes those lines from their interface values (line s at
// iface[s*k]). A batch that stays in cache from its reduce to its finish is read from memory
// once. info gets the codes every rank agrees on. With `staging` (one batch of every line:
// reduced_lines_staging_bytes of it), red, iface, the codes (which reduce must then write for
// every line) and the exchange buffers are carved from it instead of allocated.
template <class Algo, class C, class T, class MemorySpace, class ExecutionSpace, class Reduce,
          class Finish, class InfoView>
void solve_reduced_lines(const ExecutionSpace& exec, MPI_Comm comm, const partition& p,
                         const options& opts, const local_part& part, index_t batch_lines,
                         const Reduce& reduce, const Finish& finish, const InfoView& info,
                         carved_buffer<MemorySpace>* staging = nullptr) {
  using memory_space = MemorySpace;
  using buffer = Kokkos::View<T*, memory_space>;
  using codes_view = Kokkos::View<int*, memory_space>;
  const index_t nsys = static_cast<index_t>(p.nsys);
  const int k = part.reduced_rows();
  constexpr int W = reduced_row_words_v<C, T>;
  const auto uninitialized = [](const char* label) {
    return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
  };
  const std::size_t words = p.nsys * static_cast<std::size_t>(k);  // nsys * k reduced rows
  const buffer red = staging ? staging->template take<T>(words * W)
                             : buffer(uninitialized("bandsolve::mpi reduced rows"), words * W);
  const buffer iface = staging ? staging->template take<T>(words)
                               : buffer(uninitialized("bandsolve::mpi interface"), words);
  const codes_view codes = staging ? staging->template take<int>(p.nsys)
                                   : codes_view("bandsolve::mpi local info", p.nsys);
  const exchange scheme = chosen_scheme(opts, p.nsys, p.size);
  std::vector<int> reduced_codes(p.nsys, 0);
  partition batch = p;
  for (index_t first = 0; first < nsys; first += batch_lines) {
    const index_t count = nsys - first < batch_lines ? nsys - first : batch_lines;
    batch.nsys = static_cast<std::size_t>(count);
    reduce(first, count, red, codes);
    exec.fence();  // red is complete
    const std::size_t mark = staging ? staging->mark() : 0;
    const reduced_router<T, memory_space> router(comm, batch, scheme);
    const auto batch_words = static_cast<std::size_t>(count * k);  // the batch's reduced rows
    const auto rows_in =
        router.to_solvers(buffer(red.data() + first * k * W, batch_words * W), W, staging);
    auto rd = router.allocate_batch("bandsolve::mpi reduced d", staging);
    if (router.lines_solved_here() > 0) {
      const auto ra = router.allocate_batch("bandsolve::mpi reduced a", staging),
                 rb = router.allocate_batch("bandsolve::mpi reduced b", staging),
                 rc = router.allocate_batch("bandsolve::mpi reduced c", staging);
      unpack_reduced_rows<C, T>(exec, router, rows_in, ra, rb, rc, rd);
      const auto solved = static_cast<std::size_t>(router.lines_solved_here());
      const codes_view rinfo = staging ? staging->template take<int>(solved)
                                       : codes_view("bandsolve::mpi reduced info", solved);
      bandsolve::solve(exec, Algo{}, ra, rb, rc, rd, rinfo);
      exec.fence();
      router.record_codes(rinfo, reduced_codes, static_cast<std::size_t>(first));
    }
    router.to_owners(exec, rd, buffer(iface.data() + first * k, batch_words), staging);
    finish(first, count, iface);
    if (staging) staging->rewind(mark);
  }
  exec.fence();
  reduce_info(comm, p.nsys, codes, reduced_codes, info);
}

// Bytes of staging that solve_reduced_lines takes for p.nsys lines in one batch.
template <class C, class T, class MemorySpace>
std::size_t reduced_lines_staging_bytes(MPI_Comm comm, const partition& p, const options& opts,
                                        const local_part& part) {
  using carve = carved_buffer<MemorySpace>;
  constexpr int W = reduced_row_words_v<C, T>;
  const auto words = p.nsys * static_cast<std::size_t>(part.reduced_rows());
  const reduced_router<T, MemorySpace> router(comm, p, chosen_scheme(opts, p.nsys, p.size));
  return carve::template bytes_for<T>(W * words) + carve::template bytes_for<T>(words) +
         carve::template bytes_for<int>(p.nsys) + router.staging_bytes(W, 4);
}

// The one-shot solve of p.nsys lines (p.size > 1) with the device backend's local passes
// (partition_device.hpp) on exec: for_each_batch(f) calls f(first, lines, a, b, c, d) for batches
// of consecutive lines [first, first + lines) that together hold every line once (their Views
// readable from exec). The reduced rows and local codes cross to host memory, where
// solve_reduced_lines exchanges and solves them; the interface values cross back for the finish.
template <class Algo, class C, class T, class MemorySpace, class ExecutionSpace,
          class ForEachBatch, class InfoView>
void solve_reduced_lines_device(const ExecutionSpace& exec, MPI_Comm comm, const partition& p,
                                const options& opts, const ForEachBatch& for_each_batch,
                                const InfoView& info) {
  using memory_space = MemorySpace;
  using buffer = Kokkos::View<T*, memory_space>;
  using codes_view = Kokkos::View<int*, memory_space>;
  using carve = carved_buffer<memory_space>;
  const local_part part = part_of<Algo>(p);
  const index_t nsys = static_cast<index_t>(p.nsys);
  const int k = part.reduced_rows();
  constexpr int W = reduced_row_words_v<C, T>;
  const auto words = static_cast<std::size_t>(nsys) * static_cast<std::size_t>(k);
  // Every buffer of the call from the two kept ones: no allocation, no fresh page.
  kept_carving<memory_space, device_rows_tag> kept(
      exec, "bandsolve::mpi::solve",
      device_forward_rows_bytes<T, memory_space>(nsys, part.m) +
          carve::template bytes_for<T>(W * words) + carve::template bytes_for<T>(words) +
          carve::template bytes_for<int>(p.nsys));
  auto& device = kept.carved();
  const auto ws = device_forward_rows<T>(device, nsys, part.m);
  const buffer red = device.template take<T>(W * words);
  const buffer iface = device.template take<T>(words);
  const codes_view codes = device.template take<int>(p.nsys);
  host_staging<memory_space> staging(
      "bandsolve::mpi::solve staging",
      reduced_lines_staging_bytes<C, T, Kokkos::HostSpace>(comm, p, opts, part));
  const auto host_info = Kokkos::create_mirror_view(info);
  solve_reduced_lines<Algo, C, T, Kokkos::HostSpace>(
      Kokkos::DefaultHostExecutionSpace(), comm, p, opts, part, nsys,
      [&](index_t, index_t, const auto& host_red, const auto& host_codes) {
        for_each_batch([&](index_t first, index_t lines, const auto& a, const auto& b,
                           const auto& c, const auto& d) {
          const auto batch_words = static_cast<std::size_t>(lines * k);  // the batch's reduced rows
          reduce_parts_device(exec, a, b, c, d,
                              buffer(red.data() + first * k * W, batch_words * W),
                              codes_view(codes.data() + first, static_cast<std::size_t>(lines)),
                              lines, part, ws.batch(first, part.m, lines));
        });
        Kokkos::deep_copy(exec, host_red, red);
        Kokkos::deep_copy(exec, host_codes, codes);
        exec.fence();
      },
      [&](index_t, index_t, const auto& host_iface) {
        Kokkos::deep_copy(exec, iface, host_iface);
        for_each_batch([&](index_t first, index_t lines, const auto&, const auto&, const auto&,
                           const auto& d) {
          finish_parts_device(exec, d,
                              buffer(iface.data() + first * k, static_cast<std::size_t>(lines * k)),
                              lines, part, ws.batch(first, part.m, lines));
        });
        exec.fence();
      },
      host_info, &staging.carved());
  Kokkos::deep_copy(exec, info, host_info);
  exec.fence();
}

// This rank's checks of a one-shot solve's arguments: (systems, rows of this rank).
template <class Layout, class AView, class BView, class CView, class DView, class InfoView>
std::pair<std::size_t, std::size_t> one_shot_arguments(const std::string& fn, const AView& a,
                                                       const BView& b, const CView& c,
                                                       const DView& d, const InfoView& info) {
  const std::size_t nsys = bandsolve::detail::check_one_shot<Layout>(fn, a, b, c, d, info);
  return {nsys, rows(d)};
}

// The one-shot solve of lines of kind Algo (line_algo.hpp): each rank reduces its parts to their
// interface rows, the reduced systems (tridiagonal for algo::thomas, periodic for algo::periodic)
// are solved by the single-process solve of the same kind, and each rank finishes its parts.
template <class Algo, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void partitioned_solve(const ExecutionSpace& exec, MPI_Comm comm, const AView& a, const BView& b,
                       const CView& c, const DView& d, const InfoView& info, const options& opts) {
  using Layout = layout_of_t<DView>;
  using T = typename DView::non_const_value_type;
  using memory_space = typename DView::memory_space;
  bandsolve::detail::one_shot_static_checks<Algo, ExecutionSpace, AView, BView, CView, DView,
                                            InfoView>();
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                               typename InfoView::memory_space>::accessible,
                "bandsolve::mpi::solve: the local passes run on host execution spaces and host memory");
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible,
                "bandsolve::mpi::solve: the local passes run on host execution spaces (Serial, OpenMP)");

  const std::string fn = line_fn<Algo>("bandsolve::mpi::solve");
  const partition p = agree_on_arguments(
      fn, comm, scalar_code<T>(),
      [&] { return one_shot_arguments<Layout>(fn, a, b, c, d, info); }, &opts, nullptr,
      bandsolve::detail::concurrency_of(exec));
  if (p.nsys == 0) return;
  if (p.size == 1) {
    bandsolve::solve(exec, Algo{}, a, b, c, d, info);
    exec.fence();
    return;
  }

  const local_part part = part_of<Algo>(p);
  const index_t nsys = static_cast<index_t>(p.nsys);
  const index_t batch = static_cast<index_t>(batch_lines(opts, p.machine_batch_bytes, p.nsys,
                                                        max_rows(p), sizeof(T), p.max_threads));
  // In batches, the reduce pass leaves the forward rows of each pack in a buffer of the batch,
  // where the finish finds them in cache; one batch of every line re-sweeps instead.
  const std::size_t kept_count =
      opts.batch_bytes_per_thread ? kept_values<Layout, T>(batch < nsys ? batch : nsys, part) : 0;
  // Those rows, the reduced rows, interface values, codes and exchange buffers are carved from a
  // buffer kept between calls (staging.hpp): repeated solves map no fresh pages.
  kept_carving<memory_space, host_passes_tag> staging(
      exec, "bandsolve::mpi::solve",
      reduced_lines_staging_bytes<coefficient_t<BView>, T, memory_space>(comm, p, opts, part) +
          carved_buffer<memory_space>::template bytes_for<T>(kept_count));
  const auto kept = staging.carved().template take<T>(kept_count);
  T* const rows = kept_count ? kept.data() : nullptr;
  solve_reduced_lines<Algo, coefficient_t<BView>, T, memory_space>(
      exec, comm, p, opts, part, batch,
      [&](index_t first, index_t count, const auto& red, const auto& codes) {
        reduce_parts(exec, a, b, c, d, red, codes, first, count, part, rows);
      },
      [&](index_t first, index_t count, const auto& iface) {
        finish_parts(exec, a, b, c, d, iface, first, count, part, rows);
      },
      info, &staging.carved());
}

// The one-shot solve with the device backend's local passes on exec's own memory (one rank: the
// single-process solve on the device backend).
template <class Algo, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void device_partitioned_solve(const ExecutionSpace& exec, MPI_Comm comm, const AView& a,
                              const BView& b, const CView& c, const DView& d, const InfoView& info,
                              const options& opts) {
  using Layout = layout_of_t<DView>;
  using T = typename DView::non_const_value_type;
  using memory_space = typename DView::memory_space;
  bandsolve::detail::one_shot_static_checks<Algo, ExecutionSpace, AView, BView, CView, DView,
                                            InfoView>();
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, memory_space>::accessible,
                "bandsolve::mpi::solve(backend::device): the Views must be accessible from the "
                "execution space");

  const std::string fn = line_fn<Algo>("bandsolve::mpi::solve");
  const partition p = agree_on_arguments(
      fn, comm, scalar_code<T>(),
      [&] { return one_shot_arguments<Layout>(fn, a, b, c, d, info); }, &opts);
  if (p.nsys == 0) return;
  if (p.size == 1) {
    bandsolve::solve(exec, Algo{}, a, b, c, d, info, backend::device{});
    exec.fence();
    return;
  }

  solve_reduced_lines_device<Algo, coefficient_t<BView>, T, memory_space>(
      exec, comm, p, opts,
      [&](const auto& f) { f(index_t(0), static_cast<index_t>(p.nsys), a, b, c, d); }, info);
}

// The one-shot solve on exec's own memory: the host passes on host spaces, the device passes on
// others.
template <class Algo, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void solve_lines(const ExecutionSpace& exec, MPI_Comm comm, const AView& a, const BView& b,
                 const CView& c, const DView& d, const InfoView& info, const options& opts) {
  // The arguments' checks first, before runs_on_host_v reads the execution space.
  bandsolve::detail::one_shot_static_checks<Algo, ExecutionSpace, AView, BView, CView, DView,
                                            InfoView>();
  if constexpr (runs_on_host_v<ExecutionSpace>)
    partitioned_solve<Algo>(exec, comm, a, b, c, d, info, opts);
  else
    device_partitioned_solve<Algo>(exec, comm, a, b, c, d, info, opts);
}

// The one-shot solve with the backend the tag names: backend::device runs the device passes on
// any execution space; a host backend only on its own space.
template <class Algo, class Backend, class ExecutionSpace, class AView, class BView, class CView,
          class DView, class InfoView>
void solve_lines_on(const ExecutionSpace& exec, MPI_Comm comm, const AView& a, const BView& b,
                    const CView& c, const DView& d, const InfoView& info, const options& opts) {
  bandsolve::detail::one_shot_static_checks<Algo, ExecutionSpace, AView, BView, CView, DView,
                                            InfoView>();
  if constexpr (std::is_same_v<Backend, backend::device>) {
    device_partitioned_solve<Algo>(exec, comm, a, b, c, d, info, opts);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::mpi::solve: a host backend runs only on its own execution space");
    solve_lines<Algo>(exec, comm, a, b, c, d, info, opts);
  }
}

}  // namespace detail

// Lines with ends (the scalar Thomas lines).
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, MPI_Comm comm, const AView& a, const BView& b,
           const CView& c, const DView& d, const InfoView& info, const options& opts = {}) {
  detail::solve_lines<algo::thomas>(exec, comm, a, b, c, d, info, opts);
}

// Lines of the kind the tag names: algo::thomas (as above) or algo::periodic.
template <class ExecutionSpace, class Algo, class AView, class BView, class CView, class DView,
          class InfoView, std::enable_if_t<detail::is_line_algo_v<Algo>, int> = 0>
void solve(const ExecutionSpace& exec, MPI_Comm comm, Algo, const AView& a, const BView& b,
           const CView& c, const DView& d, const InfoView& info, const options& opts = {}) {
  detail::solve_lines<Algo>(exec, comm, a, b, c, d, info, opts);
}

// Either of the above with the local passes of the backend the trailing tag names
// (backend::device on any execution space, e.g. to test the device passes on the host).
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView,
          class Backend, std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
void solve(const ExecutionSpace& exec, MPI_Comm comm, const AView& a, const BView& b,
           const CView& c, const DView& d, const InfoView& info, const options& opts, Backend) {
  detail::solve_lines_on<algo::thomas, Backend>(exec, comm, a, b, c, d, info, opts);
}
template <class ExecutionSpace, class Algo, class AView, class BView, class CView, class DView,
          class InfoView, class Backend,
          std::enable_if_t<detail::is_line_algo_v<Algo> && backend::is_backend_v<Backend>, int> = 0>
void solve(const ExecutionSpace& exec, MPI_Comm comm, Algo, const AView& a, const BView& b,
           const CView& c, const DView& d, const InfoView& info, const options& opts, Backend) {
  detail::solve_lines_on<Algo, Backend>(exec, comm, a, b, c, d, info, opts);
}

}  // namespace bandsolve::mpi
