#pragma once
// Distributed solve of the lines along one axis of a 2-D to 4-D array whose solve axis is split
// over the ranks of an MPI communicator:
//
//   bandsolve::mpi::solve_along(exec, comm, axis, a, b, c, d, info[, opts]);
//   bandsolve::mpi::solve_along(exec, comm, algo::thomas{}, axis, a, b, c, d, info[, opts]);
//   bandsolve::mpi::solve_along(exec, comm, algo::periodic{}, axis, a, b, c, d, info[, opts]);
//
// Every line of the global array along `axis` (all other indices fixed) is one system with ends,
// as in the single-process bandsolve::solve_along(exec, algo::thomas{}, axis, ...), or with
// algo::periodic one ring, as in the periodic lines of mpi::solve (solve.hpp). Rank r holds
// a contiguous part of every line: global rows offsets[r] .. offsets[r] + n_r - 1 along the axis,
// in rank order, n_r = d.extent(axis) on rank r (at least 1; the parts may differ in size); every
// other extent of d is the same on every rank. d: rank 2 to 4, LayoutRight, LayoutLeft or
// LayoutStride (subviews of padded arrays), real or complex; a, b, c: full arrays of d's extents
// (any layouts) or rank-1 Views of length n_r, this rank's part of one line shared by every line.
// info: one entry per line, numbered as the single-process solve_along numbers them (batch
// indices in axis order, last fastest); every rank gets the same codes (info_reduce.hpp). x
// overwrites d. Collective over comm; arguments are checked on every rank and agreed before any
// exchange, the axis and the batch extents included (collective_checks.hpp). Host execution
// spaces (Serial, OpenMP) run the host passes in place, Kokkos::Cuda the device backend's
// (partition_device.hpp; any space with a trailing backend::device{}); the call fences exec. One
// rank: the single-process Thomas (or periodic) solve of every line (run by run, below: the same
// pivots and info codes as solve_along).
//
// How: the lines are numbered among the ranks in the order of d's memory (line_order.hpp: the
// batch axes by stride, largest first, when every rank proposes the same order; solve_along's
// numbering otherwise), then cut into runs of consecutive numbers that are equally spaced in d and
// in every full coefficient array (the batch axes fold as far as their strides allow, last axis
// first); each run is handed to the local passes of mpi::solve (partition_kernel.hpp) in place,
// as a column batch View where every array's run is one (neighbouring lines side by side, rows
// `lines` or a padded pitch apart: the slowest axis of a LayoutRight array), as a row batch View
// where every array's run is one (each line's rows contiguous, lines n rows or a padded pitch
// apart: the fastest axis of a LayoutRight array, padded or not; its packs are staged as
// mpi::solve stages row batches),
// else as a strided batch View (layout::strided; shared coefficients with system stride 0): no
// array is copied. The reduced systems of all runs go through one exchange, as in mpi::solve; the
// info codes are put back into solve_along's numbering. See docs/distributed.md.
#include <bandsolve/backend/host_simd/team_launch.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/mpi/host_execution.hpp>
#include <bandsolve/mpi/line_order.hpp>
#include <bandsolve/mpi/solve.hpp>
#include <bandsolve/tridiag/thomas.hpp>
#include <bandsolve/tridiag/thomas_axis.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bandsolve::mpi {
namespace detail {

// Runs of the lines along `axis`: run q holds lines q*lines .. (q+1)*lines - 1; its lines step by
// the stride of step_axis (none: one line per run) in each array; q numbers the indices of the
// loop axes (loop_axis[0] slower; an unused slot is `axis` with extent 1).
struct along_runs {
  index_t lines = 1, runs = 1;
  int step_axis = -1;
  int loop_axis[2] = {0, 0};
  index_t loop_extent[2] = {1, 1};

  template <class View>
  index_t offset(const View& v, index_t q) const {
    return (q / loop_extent[1]) * static_cast<index_t>(v.stride(loop_axis[0])) +
           (q % loop_extent[1]) * static_cast<index_t>(v.stride(loop_axis[1]));
  }
};

// Whether batch axis k continues a run of `count` lines stepping along step_axis in array v
// (shared rank-1 coefficients: always).
template <class View>
bool continues_run(const View& v, int k, index_t count, int step_axis) {
  if constexpr (View::rank == 1)
    return true;
  else
    return static_cast<index_t>(v.stride(k)) == count * static_cast<index_t>(v.stride(step_axis));
}

// The runs of the lines of d along `axis` (checked), folding the batch axes from the last one
// while they continue the run in d and in every coefficient array.
template <class DView, class... Coefficients>
along_runs runs_of(int axis, const DView& d, const Coefficients&... coefficients) {
  constexpr int rank = static_cast<int>(DView::rank);
  along_runs r;
  r.loop_axis[0] = r.loop_axis[1] = axis;
  int k = rank - 1;
  for (; k >= 0; --k) {
    if (k == axis) continue;
    const index_t e = static_cast<index_t>(bandsolve::detail::extent_at(d, k));
    if (e == 1) continue;
    if (r.lines > 1 && !(continues_run(d, k, r.lines, r.step_axis) &&
                         (continues_run(coefficients, k, r.lines, r.step_axis) && ...)))
      break;
    if (r.lines == 1) r.step_axis = k;
    r.lines *= e;
  }
  int loops = 0;
  for (; k >= 0; --k) {  // the axes left number the runs (at most two: the last one folds)
    if (k == axis || bandsolve::detail::extent_at(d, k) == 1) continue;
    const int slot = 1 - loops++;
    r.loop_axis[slot] = k;
    r.loop_extent[slot] = static_cast<index_t>(bandsolve::detail::extent_at(d, k));
    r.runs *= r.loop_extent[slot];
  }
  return r;
}

// Run q of array v as a batch View (lines, n): a strided View over v's own memory. The type is
// that of strided batches of mpi::solve and never const (a, b, c are only read), so that every
// array type shares one instantiation of the local passes.
template <class T, class MemorySpace, class View>
Kokkos::View<T**, Kokkos::LayoutStride, MemorySpace> run_lines(const View& v, int axis,
                                                              const along_runs& r, index_t q,
                                                              index_t n) {
  using V = Kokkos::View<T**, Kokkos::LayoutStride, MemorySpace>;
  const auto lines = static_cast<std::size_t>(r.lines), rows = static_cast<std::size_t>(n);
  T* const data = const_cast<T*>(v.data());
  if constexpr (View::rank == 1) {
    return V(data, Kokkos::LayoutStride(lines, 0, rows, v.stride(0)));
  } else {
    const std::size_t step = r.step_axis >= 0 ? v.stride(r.step_axis) : 0;
    return V(data + r.offset(v, q), Kokkos::LayoutStride(lines, step, rows, v.stride(axis)));
  }
}

// Whether run q of every array is a column batch: neighbouring lines neighbours in memory and
// the rows at least `lines` apart (e.g. the slowest axis of a LayoutRight array, or of a padded
// one: the rows one pitch apart; any stride along the axis for a part of one row). Such runs take
// the column layout's local passes (blocks of 64 lines, the next row prefetched) instead of the
// strided ones (a cache line of lines, rows far apart read without prefetch).
template <class View>
bool run_is_column(const View& v, int axis, const along_runs& r) {
  if constexpr (View::rank == 1) {
    return false;
  } else {
    const bool side_by_side = r.step_axis >= 0 ? v.stride(r.step_axis) == 1 : r.lines == 1;
    return side_by_side &&
           (bandsolve::detail::extent_at(v, axis) <= 1 ||
            static_cast<index_t>(bandsolve::detail::stride_at(v, axis)) >= r.lines);
  }
}

// Run q of array v as a batch View (lines, n) in Layout over v's own memory: LayoutLeft where
// run_is_column holds (its stride(1) the axis's stride: the rows' pitch), LayoutRight where
// run_is_row holds (its stride(0) the lines' pitch).
template <class Layout, class T, class MemorySpace, class View>
Kokkos::View<T**, Layout, MemorySpace> run_batch(const View& v, int axis, const along_runs& r,
                                                 index_t q, index_t n) {
  T* const first = const_cast<T*>(v.data()) + r.offset(v, q);
  const auto lines = static_cast<std::size_t>(r.lines), rows = static_cast<std::size_t>(n);
  if constexpr (std::is_same_v<Layout, Kokkos::LayoutLeft>) {
    const std::size_t pitch = n > 1 ? static_cast<std::size_t>(v.stride(axis)) : lines;
    const Kokkos::View<T**, Layout, MemorySpace> whole(first, pitch, rows);
    return Kokkos::subview(whole, Kokkos::make_pair(std::size_t(0), lines), Kokkos::ALL);
  } else {
    const std::size_t pitch =
        r.step_axis >= 0 ? static_cast<std::size_t>(v.stride(r.step_axis)) : rows;
    const Kokkos::View<T**, Layout, MemorySpace> whole(first, lines, pitch);
    return Kokkos::subview(whole, Kokkos::ALL, Kokkos::make_pair(std::size_t(0), rows));
  }
}

// Whether a row batch's lines `pitch` values apart, n rows each, are near enough to stage as
// rows: n, or padded by at most an eighth of n and a cache line (what make_padded_array adds to
// its fastest axis). The staged passes prefetch a pack's lines as one block, padding included.
template <class T>
bool row_pitch_is_near(index_t pitch, index_t n) {
  return pitch >= n && pitch - n <= n / 8 + bandsolve::detail::cache_line_lanes_v<T>;
}

// Whether run q of every array is a row batch: each line's rows contiguous and the neighbouring
// lines n rows or a padded pitch apart (row_pitch_is_near; e.g. the fastest axis of a LayoutRight
// array, padded or not). Such runs take the row layout's local passes (packs of lines staged
// tile by tile, the next pack's rows prefetched) instead of the strided ones.
template <class View>
bool run_is_row(const View& v, int axis, const along_runs& r, index_t n) {
  if constexpr (View::rank == 1) {
    return false;
  } else {
    using T = typename View::non_const_value_type;
    const bool lines_apart =
        r.step_axis >= 0
            ? row_pitch_is_near<T>(static_cast<index_t>(v.stride(r.step_axis)), n)
            : r.lines == 1;
    return lines_apart && v.stride(axis) == 1;
  }
}

// f(q, lo, count) for every run q of `lines` lines (run q holds lines q*lines .. (q+1)*lines - 1)
// that holds some of the lines begin .. begin + batch - 1: its lines lo .. lo + count - 1 (lo
// numbered within the run), in run order.
template <class F>
void for_each_run_piece(index_t begin, index_t batch, index_t lines, const F& f) {
  const index_t end = begin + batch;
  for (index_t q = begin / lines; q <= (end - 1) / lines; ++q) {
    const index_t run_first = q * lines, run_end = run_first + lines;
    const index_t lo = begin > run_first ? begin : run_first;
    const index_t hi = end < run_end ? end : run_end;
    f(q, lo - run_first, hi - lo);
  }
}

// One run: its first line and its lines of a, b, c, d as batch Views of one type.
template <class View>
struct along_run {
  index_t first;
  View a, b, c, d;
};

// Every run of a, b, c, d as strided batch Views (run_lines).
template <class T, class MemorySpace, class AView, class BView, class CView, class DView>
std::vector<along_run<Kokkos::View<T**, Kokkos::LayoutStride, MemorySpace>>> strided_runs(
    int axis, const along_runs& r, index_t n, const AView& a, const BView& b, const CView& c,
    const DView& d) {
  std::vector<along_run<Kokkos::View<T**, Kokkos::LayoutStride, MemorySpace>>> runs;
  runs.reserve(static_cast<std::size_t>(r.runs));
  for (index_t q = 0; q < r.runs; ++q)
    runs.push_back({q * r.lines, run_lines<T, MemorySpace>(a, axis, r, q, n),
                    run_lines<T, MemorySpace>(b, axis, r, q, n),
                    run_lines<T, MemorySpace>(c, axis, r, q, n),
                    run_lines<T, MemorySpace>(d, axis, r, q, n)});
  return runs;
}

// Every run of a, b, c, d as batch Views in Layout (run_batch).
template <class Layout, class T, class MemorySpace, class AView, class BView, class CView,
          class DView>
std::vector<along_run<Kokkos::View<T**, Layout, MemorySpace>>> batch_runs(
    int axis, const along_runs& r, index_t n, const AView& a, const BView& b, const CView& c,
    const DView& d) {
  std::vector<along_run<Kokkos::View<T**, Layout, MemorySpace>>> runs;
  runs.reserve(static_cast<std::size_t>(r.runs));
  for (index_t q = 0; q < r.runs; ++q)
    runs.push_back({q * r.lines, run_batch<Layout, T, MemorySpace>(a, axis, r, q, n),
                    run_batch<Layout, T, MemorySpace>(b, axis, r, q, n),
                    run_batch<Layout, T, MemorySpace>(c, axis, r, q, n),
                    run_batch<Layout, T, MemorySpace>(d, axis, r, q, n)});
  return runs;
}

// The solve of the runs (`lines` lines each) after the checks: one rank, the single-process
// solve of each run (Thomas or periodic); more, the local passes run by run around one exchange.
template <class Algo, class T, class MemorySpace, class ExecutionSpace, class View, class InfoView>
void solve_runs(const ExecutionSpace& exec, MPI_Comm comm, const partition& p,
                const options& opts, const std::vector<along_run<View>>& runs, index_t lines,
                const InfoView& info) {
  if (p.size == 1) {
    const Kokkos::View<int*, Kokkos::HostSpace> codes("bandsolve::mpi::solve_along info", p.nsys);
    for (const auto& r : runs)
      bandsolve::solve(exec, Algo{}, r.a, r.b, r.c, r.d,
                       Kokkos::View<int*, Kokkos::HostSpace>(codes.data() + r.first,
                                                             static_cast<std::size_t>(lines)));
    exec.fence();
    for (std::size_t s = 0; s < p.nsys; ++s) info(s) = codes(s);
    return;
  }
  const local_part part = part_of<Algo>(p);
  const int k = part.reduced_rows();
  constexpr int W = reduced_row_words_v<T, T>;  // a, b, c and d of one type here
  const index_t batch = static_cast<index_t>(batch_lines(opts, p.machine_batch_bytes, p.nsys,
                                                        max_rows(p), sizeof(T), p.max_threads));
  const bool keep = opts.batch_bytes_per_thread != 0;
  const index_t nsys = static_cast<index_t>(p.nsys);
  // The kept forward rows of the largest batch (each run's piece after the previous one's), or
  // none when every line is in one batch (the finish re-sweeps).
  std::size_t kept_count = 0;
  for (index_t begin = 0; keep && begin < nsys; begin += batch) {
    std::size_t at = 0;
    for_each_run_piece(begin, nsys - begin < batch ? nsys - begin : batch, lines,
                       [&](index_t, index_t, index_t n) {
                         at += kept_values<layout_of_t<View>, T>(n, part);
                       });
    kept_count = at > kept_count ? at : kept_count;
  }
  // Those rows, the reduced rows, interface values, codes and exchange buffers are carved from a
  // buffer kept between calls (staging.hpp): repeated solves map no fresh pages.
  kept_carving<MemorySpace, host_passes_tag> staging(
      exec, "bandsolve::mpi::solve_along",
      reduced_lines_staging_bytes<T, T, MemorySpace>(comm, p, opts, part) +
          carved_buffer<MemorySpace>::template bytes_for<T>(kept_count));
  const auto kept = staging.carved().template take<T>(kept_count);
  // f(run, first, count, rows): the lines first .. first + count - 1 of the run (numbered within
  // it) that lie in the batch of lines [begin, begin + lines_in_batch), and where their kept
  // forward rows lie (null when every line is in one batch).
  const auto for_each_run_in = [&](index_t begin, index_t lines_in_batch, const auto& f) {
    std::size_t at = 0;
    for_each_run_piece(begin, lines_in_batch, lines, [&](index_t q, index_t lo, index_t n) {
      f(runs[static_cast<std::size_t>(q)], lo, n, keep ? kept.data() + at : nullptr);
      at += kept_values<layout_of_t<View>, T>(n, part);
    });
  };
  solve_reduced_lines<Algo, T, T, MemorySpace>(
      exec, comm, p, opts, part, batch,
      [&](index_t begin, index_t count, const auto& red, const auto& codes) {
        for_each_run_in(begin, count, [&](const auto& r, index_t first, index_t n_lines, T* rows) {
          reduce_parts(exec, r.a, r.b, r.c, r.d,
                       Kokkos::View<T*, MemorySpace>(red.data() + r.first * k * W,
                                                     static_cast<std::size_t>(lines * k * W)),
                       Kokkos::View<int*, MemorySpace>(codes.data() + r.first,
                                                       static_cast<std::size_t>(lines)),
                       first, n_lines, part, rows);
        });
      },
      [&](index_t begin, index_t count, const auto& iface) {
        for_each_run_in(begin, count, [&](const auto& r, index_t first, index_t n_lines, T* rows) {
          finish_parts(exec, r.a, r.b, r.c, r.d,
                       Kokkos::View<T*, MemorySpace>(iface.data() + r.first * k,
                                                     static_cast<std::size_t>(lines * k)),
                       first, n_lines, part, rows);
        });
      },
      info, &staging.carved());
}

// The host passes on a, b, c, d with their batch axes in the agreed line order (line_order.hpp):
// runs that are column or row batches in every array take those layouts' passes, others the
// strided ones; codes numbered in that order.
template <class Algo, class T, class MemorySpace, class ExecutionSpace, class AView, class BView,
          class CView, class DView, class InfoView>
void solve_permuted_runs(const ExecutionSpace& exec, MPI_Comm comm, const partition& p,
                         const options& opts, int axis, const AView& a, const BView& b,
                         const CView& c, const DView& d, const InfoView& codes) {
  const along_runs r = runs_of(axis, d, a, b, c);
  const index_t n = static_cast<index_t>(bandsolve::detail::extent_at(d, axis));
  if (run_is_column(a, axis, r) && run_is_column(b, axis, r) && run_is_column(c, axis, r) &&
      run_is_column(d, axis, r))
    return solve_runs<Algo, T, MemorySpace>(
        exec, comm, p, opts,
        batch_runs<Kokkos::LayoutLeft, T, MemorySpace>(axis, r, n, a, b, c, d), r.lines, codes);
  if (run_is_row(a, axis, r, n) && run_is_row(b, axis, r, n) && run_is_row(c, axis, r, n) &&
      run_is_row(d, axis, r, n))
    return solve_runs<Algo, T, MemorySpace>(
        exec, comm, p, opts,
        batch_runs<Kokkos::LayoutRight, T, MemorySpace>(axis, r, n, a, b, c, d), r.lines, codes);
  solve_runs<Algo, T, MemorySpace>(exec, comm, p, opts,
                                   strided_runs<T, MemorySpace>(axis, r, n, a, b, c, d), r.lines,
                                   codes);
}

// The arguments of solve_along checked on every rank and agreed, the batch extents included.
template <class AView, class BView, class CView, class DView, class InfoView>
partition agree_on_along_arguments(const std::string& fn, MPI_Comm comm, int axis, const AView& a,
                                   const BView& b, const CView& c, const DView& d,
                                   const InfoView& info, const options& opts, int threads = 1) {
  constexpr int rank = static_cast<int>(DView::rank);
  along_shape shape;
  shape.axis = axis;
  for (int k = 0; k < rank; ++k)
    shape.extent[k] = k == axis ? 0 : static_cast<long long>(bandsolve::detail::extent_at(d, k));
  shape.line_order = memory_order(axis, d).code();
  return agree_on_arguments(fn, comm, scalar_code<typename DView::non_const_value_type>(), [&] {
    const std::size_t nsys = bandsolve::detail::check_along_lines(fn, axis, d, info);
    bandsolve::detail::check_along_coefficient(fn, "a", a, d, axis, "d", d);
    bandsolve::detail::check_along_coefficient(fn, "b", b, d, axis, "d", d);
    bandsolve::detail::check_along_coefficient(fn, "c", c, d, axis, "d", d);
    bandsolve::detail::check_no_overlap(fn, "d", d, "info", info);
    return std::pair<std::size_t, std::size_t>(nsys, bandsolve::detail::extent_at(d, axis));
  }, &opts, &shape, threads);
}

// The compile-time checks of solve_along's arguments (either backend's passes).
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
constexpr void along_static_checks() {
  using T = typename DView::non_const_value_type;
  bandsolve::detail::thomas_along_static_checks<ExecutionSpace, AView, BView, CView, DView, DView,
                                                InfoView>();
  static_assert(std::is_same_v<typename DView::value_type, T>,
                "bandsolve::mpi::solve_along: d receives the solution and cannot be a View of "
                "const");
}

template <class Algo, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void partitioned_solve_along(const ExecutionSpace& exec, MPI_Comm comm, int axis, const AView& a,
                             const BView& b, const CView& c, const DView& d, const InfoView& info,
                             const options& opts) {
  using T = typename DView::non_const_value_type;
  using memory_space = typename DView::memory_space;
  along_static_checks<ExecutionSpace, AView, BView, CView, DView, InfoView>();
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                               typename InfoView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible,
                "bandsolve::mpi::solve_along: the local passes run on host execution spaces "
                "(Serial, OpenMP) and host memory");

  const std::string fn = line_fn<Algo>("bandsolve::mpi::solve_along");
  const partition p = agree_on_along_arguments(fn, comm, axis, a, b, c, d, info, opts,
                                               bandsolve::detail::concurrency_of(exec));
  if (p.nsys == 0) return;
  const line_order order = line_order::from_code(p.line_order);
  solve_in_line_order(exec, axis, d, order, info, [&](const auto& codes) {
    solve_permuted_runs<Algo, T, memory_space>(exec, comm, p, opts, axis, permuted(a, order),
                                               permuted(b, order), permuted(c, order),
                                               permuted(d, order), codes);
  });
}

// solve_along with the device backend's local passes (partition_device.hpp) on exec's own
// memory: every run as a strided batch View (one kernel per run and pass), around one exchange.
// One rank: the single-process solve of each run on the device backend.
template <class Algo, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void device_partitioned_solve_along(const ExecutionSpace& exec, MPI_Comm comm, int axis,
                                    const AView& a, const BView& b, const CView& c,
                                    const DView& d, const InfoView& info, const options& opts) {
  using T = typename DView::non_const_value_type;
  using memory_space = typename DView::memory_space;
  along_static_checks<ExecutionSpace, AView, BView, CView, DView, InfoView>();
  static_assert(exec_reads_views_v<ExecutionSpace, AView, BView, CView, DView, InfoView>,
                "bandsolve::mpi::solve_along(backend::device): the Views must be accessible "
                "from the execution space");

  const std::string fn = line_fn<Algo>("bandsolve::mpi::solve_along");
  const partition p = agree_on_along_arguments(fn, comm, axis, a, b, c, d, info, opts);
  if (p.nsys == 0) return;
  const line_order order = line_order::from_code(p.line_order);
  // `d` in a declaration of its own: shared coefficients are rank-1 Views of another type.
  const auto pa = permuted(a, order), pb = permuted(b, order), pc = permuted(c, order);
  const auto pd = permuted(d, order);
  const along_runs r = runs_of(axis, pd, pa, pb, pc);
  const index_t n = static_cast<index_t>(d.extent(axis));
  const auto runs = strided_runs<T, memory_space>(axis, r, n, pa, pb, pc, pd);
  solve_in_line_order(exec, axis, d, order, info, [&](const auto& codes) {
    if (p.size == 1) {
      const Kokkos::View<int*, memory_space> lines("bandsolve::mpi::solve_along info", p.nsys);
      for (const auto& run : runs)
        bandsolve::solve(exec, Algo{}, run.a, run.b, run.c, run.d,
                         Kokkos::View<int*, memory_space>(lines.data() + run.first,
                                                          static_cast<std::size_t>(r.lines)),
                         backend::device{});
      Kokkos::deep_copy(exec, codes, lines);
      return;
    }
    solve_reduced_lines_device<Algo, T, T, memory_space>(
        exec, comm, p, opts,
        [&](const auto& f) {
          for (const auto& run : runs) f(run.first, r.lines, run.a, run.b, run.c, run.d);
        },
        codes);
  });
}

template <class Algo, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void solve_lines_along(const ExecutionSpace& exec, MPI_Comm comm, int axis, const AView& a,
                       const BView& b, const CView& c, const DView& d, const InfoView& info,
                       const options& opts) {
  if constexpr (runs_on_host_v<ExecutionSpace>)
    partitioned_solve_along<Algo>(exec, comm, axis, a, b, c, d, info, opts);
  else
    device_partitioned_solve_along<Algo>(exec, comm, axis, a, b, c, d, info, opts);
}

// solve_along with the local passes of the backend the tag names (backend::device on any space).
template <class Algo, class Backend, class ExecutionSpace, class AView, class BView, class CView,
          class DView, class InfoView>
void solve_lines_along_on(const ExecutionSpace& exec, MPI_Comm comm, int axis, const AView& a,
                          const BView& b, const CView& c, const DView& d, const InfoView& info,
                          const options& opts) {
  if constexpr (std::is_same_v<Backend, backend::device>) {
    device_partitioned_solve_along<Algo>(exec, comm, axis, a, b, c, d, info, opts);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::mpi::solve_along: a host backend runs only on its own execution "
                  "space");
    solve_lines_along<Algo>(exec, comm, axis, a, b, c, d, info, opts);
  }
}

}  // namespace detail

// Lines with ends along `axis`. See the top of this header.
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve_along(const ExecutionSpace& exec, MPI_Comm comm, int axis, const AView& a,
                 const BView& b, const CView& c, const DView& d, const InfoView& info,
                 const options& opts = {}) {
  detail::solve_lines_along<algo::thomas>(exec, comm, axis, a, b, c, d, info, opts);
}

// Lines of the kind the tag names: algo::thomas (as above) or algo::periodic (rings).
template <class ExecutionSpace, class Algo, class AView, class BView, class CView, class DView,
          class InfoView, std::enable_if_t<detail::is_line_algo_v<Algo>, int> = 0>
void solve_along(const ExecutionSpace& exec, MPI_Comm comm, Algo, int axis, const AView& a,
                 const BView& b, const CView& c, const DView& d, const InfoView& info,
                 const options& opts = {}) {
  detail::solve_lines_along<Algo>(exec, comm, axis, a, b, c, d, info, opts);
}

// Either of the above with the local passes of the backend the trailing tag names
// (backend::device on any execution space, e.g. to test the device passes on the host).
template <class ExecutionSpace, class Algo, class AView, class BView, class CView, class DView,
          class InfoView, class Backend,
          std::enable_if_t<detail::is_line_algo_v<Algo> && backend::is_backend_v<Backend>, int> = 0>
void solve_along(const ExecutionSpace& exec, MPI_Comm comm, Algo, int axis, const AView& a,
                 const BView& b, const CView& c, const DView& d, const InfoView& info,
                 const options& opts, Backend) {
  detail::solve_lines_along_on<Algo, Backend>(exec, comm, axis, a, b, c, d, info, opts);
}

}  // namespace bandsolve::mpi
