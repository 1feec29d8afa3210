// Distributed tridiagonal solves (bandsolve::mpi) against transpose-solve-transpose, in one run.
//
//   mpiexec -n 4 build/bench/bandsolve_bench_mpi [--benchmark_filter=...]
//
// An N^3 field of doubles (N = 256, or BANDSOLVE_BENCH_MPI_N) is split over the P ranks along the
// axis the lines run on: every rank holds N/P rows of each of the N^2 lines. Two axes:
//   x  the split axis is the slowest: a rank's part is column layout (lines contiguous);
//   z  the split axis is the fastest: a rank's part is row layout (each line's rows contiguous).
// Cases, each timed from a barrier to the last rank's end (the maximum over ranks), after one
// untimed call:
//   partitioned/one_shot   bandsolve::mpi::solve on the parts as they lie;
//   partitioned_one_batch/one_shot
//                          the same with every line in one batch (options::batch_bytes_per_thread
//                          = 0), counter vs_batched: time over partitioned/one_shot;
//   partitioned/factored   f.solve of bandsolve::mpi::factorize's factorization;
//   partitioned_periodic/one_shot, partitioned_periodic/factored
//                          the same lines closed into rings (algo::periodic: a[0] of the first
//                          rank and c[n-1] of the last couple the ends), counter vs_lines: time
//                          over the partitioned case of the same axis and kind (lines with ends);
//   transpose/one_shot     MPI_Alltoall of a, b, c, d so that each rank holds N^2/P whole lines,
//                          Thomas on them, MPI_Alltoall of x back (what a user without a
//                          distributed solver writes);
//   transpose/factored     the same with the coefficients moved and factored once: d there, x back;
//   <method>/factorize     the factorization alone (each call allocates its factors): local,
//                          partitioned (mpi::factorize), partitioned_periodic, and transpose (a, b,
//                          c moved, then factored); vs_local over the local factorization;
//   <method>/refactor      the same matrices factored again into the storage of a factorization
//                          (f.refactor), no allocation: local, partitioned, partitioned_periodic,
//                          and transpose (a, b, c moved, then refactored);
//   along/<axis>/one_shot  bandsolve::mpi::solve_along on the field as one LayoutRight array split
//                          along x (axis 0), y (1) or z (2), full coefficient arrays;
//   along/<axis>/factored  f.solve of bandsolve::mpi::factorize_along on the same array (vs_local:
//                          over the local factored solve of the x column case);
//   along/<axis>/factored_shared
//                          the same with the coefficients given once for every line (rank-1 a,
//                          b, c of this rank's rows): one line's factors, read by every line;
//   along/<axis>/<kind>/left, along/<axis>/<kind>/padded
//                          the same cases on the field as one LayoutLeft array (x fastest) and
//                          as make_padded_array's padded LayoutRight array;
//   scheme/gather/L, scheme/all_to_all/L
//                          the two exchanges of the reduced systems on L lines of 64 rows per rank
//                          (row layout, one-shot), for the automatic scheme's threshold;
//   paired_local/<kind>, paired_transpose/<kind>
//                          the partitioned case and the local (or transpose) case of the same
//                          kind (one_shot, factored) called in turn, each iteration one call of
//                          each: vs_local (or transpose_over_partitioned) is the median of the
//                          pairs' ratios, with its _min and _max, robust to the machine's speed
//                          changing between cases timed apart;
//   local/one_shot, local/factored
//                          each rank solves N^2/P whole lines of N rows, no communication: the
//                          single-process solve of the same field on the same cores, the reference
//                          for the time per unknown;
//   local/<kind>_complex_rhs, partitioned/<kind>_complex_rhs
//                          the one-shot and factored cases with complex right-hand sides over the
//                          same real lines (Kokkos::complex<double> d; vs_local against the local
//                          case of the same kind);
//   local/one_shot_complex_lines, partitioned/one_shot_complex_lines
//                          the one-shot case of complex lines (Kokkos::complex<double> a, b, c, d).
//   block/m<m>/local/<kind>, block/m<m>/partitioned/<kind>[/nrhs<k>|/complex_rhs|/interleaved8]
//                          block-tridiagonal lines (m x m blocks, m = 3; L lines, L = 4096 or
//                          BANDSOLVE_BENCH_MPI_BLOCK_LINES, of 128 block rows per rank, row
//                          layout View<T****>(lines, rows, m, m)): each rank solving L/P whole
//                          lines with the single-process block Thomas, against mpi::solve and
//                          mpi::factorize's f.solve on the parts; vs_local as above. nrhs<k>: k
//                          right-hand sides per system in one View<T****>(lines, rows, m, k),
//                          ns_per_unknown then per unknown and right-hand side; complex_rhs: one
//                          Kokkos::complex<double> right-hand side per system over the same real
//                          lines (ns_per_unknown per complex unknown, words in reals);
//                          interleaved8: one right-hand side, every View in interleaved<8> packs.
//   block_along/m3/<axis>/local/<kind>, block_along/m3/<axis>/batch/<kind>,
//   block_along/m3/<axis>/partitioned/<kind>
//                          block lines along x (0), y (1) or z (2) of a 64^3 grid of 3 unknowns
//                          per point (LayoutRight arrays, a(i, j, k, r, c)), one-shot and
//                          factored: local, each rank solving whole lines of its share of the
//                          grid (64/P along a batch axis) with the single-process solve_along;
//                          batch, mpi::solve (or mpi::factorize's f.solve) of this rank's parts
//                          as a row batch View<T****, LayoutRight>(lines, 64/P, m, m), what
//                          solve_along hands the distributed solve; partitioned,
//                          mpi::solve_along (or mpi::factorize_along's f.solve) on the grid's
//                          parts as they lie (vs_local, and vs_batch: time over the batch case).
//   block_along/m3/<axis>/{local,partitioned}/{factorize,refactor}
//                          the factorization alone: factorize_along (each call allocating its
//                          factors) or f.refactor of the same blocks into f's storage.
//   block_along_left/m3/<axis>/local/<kind>, block_along_left/m3/<axis>/partitioned/<kind>
//                          the same with LayoutLeft arrays (each entry of a block a field of its
//                          own, x fastest); vs_local over the LayoutLeft local case.
// Counters: ns_per_unknown (the field's N^3 unknowns), vs_local (time over the local case of the
// same kind), and, counted by wrapping MPI's collective calls (the profiling interface, PMPI):
// words_per_line_rank, the largest number of values one rank sends to other ranks in the data
// exchanges (Alltoall(v), Gatherv, Scatterv) per line, and check_bytes_per_line_rank, what the
// argument checks and info agreement (Allreduce, Allgather, Bcast) add.
// Run P ranks with OMP_NUM_THREADS = cores / P so that the ranks do not share cores.
#include <bandsolve/bandsolve.hpp>
#include <bandsolve/mpi.hpp>

#include "mpi_bench_support.hpp"

#include <benchmark/benchmark.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using bandsolve_bench_mpi::sent_bytes;
using bandsolve_bench_mpi::time_collective;
using bandsolve_bench_mpi::timed_calls;
using exec_space = Kokkos::DefaultHostExecutionSpace;
using T = double;

int field_n() {
  const char* s = std::getenv("BANDSOLVE_BENCH_MPI_N");
  return s ? std::atoi(s) : 256;
}

// A rank's part of the field's lines, in the layout its axis gives, with the inputs kept for
// restoring d outside the timed region. Diagonally dominant: a = c = -1, b = 4, d random.
template <class Layout>
struct part_data {
  using view = decltype(bandsolve::make_batch<Layout, T, Kokkos::HostSpace>("", 0, 0));
  view a, b, c, d, d0;
  Kokkos::View<int*, Kokkos::HostSpace> info;
  part_data(std::size_t lines, std::size_t rows, std::size_t first_row)
      : a(bandsolve::make_batch<Layout, T, Kokkos::HostSpace>("a", lines, rows)),
        b(bandsolve::make_batch<Layout, T, Kokkos::HostSpace>("b", lines, rows)),
        c(bandsolve::make_batch<Layout, T, Kokkos::HostSpace>("c", lines, rows)),
        d(bandsolve::make_batch<Layout, T, Kokkos::HostSpace>("d", lines, rows)),
        d0(bandsolve::make_batch<Layout, T, Kokkos::HostSpace>("d0", lines, rows)),
        info("info", lines) {
    Kokkos::deep_copy(a, -1.0);
    Kokkos::deep_copy(b, 4.0);
    Kokkos::deep_copy(c, -1.0);
    const auto dd = d0;
    const auto n_all = static_cast<std::uint64_t>(rows);
    Kokkos::parallel_for(
        Kokkos::RangePolicy<exec_space>(0, lines), [=](std::size_t s) {
          for (std::size_t i = 0; i < rows; ++i) {
            std::uint64_t k = (s * 1000003u + first_row + i) * 0x9E3779B97F4A7C15ull + n_all;
            k ^= k >> 29;
            dd(s, i) = static_cast<T>(k % 1000) / 500.0 - 1.0;
          }
        });
    Kokkos::fence();
  }
  void restore() const {
    Kokkos::deep_copy(d, d0);
  }
};

// Moves, for every line, a rank's rows to the rank that solves the line whole (forward) or back.
// Lines are dealt in equal contiguous shares (N^2 is a multiple of P); parts are N/P rows each.
// Column layout: a part (lines x m rows) sends, per destination, m runs of lines/P values; the
// received blocks, rank by rank, are already the column layout of lines/P whole lines.
// Row layout: a destination's block is contiguous (its lines' rows); the received blocks are
// (source rank, line, row) and are reordered into the row layout of whole lines.
template <class Layout>
struct transposer {
  using view = typename part_data<Layout>::view;
  std::size_t lines, m, P, share;
  Kokkos::View<T*, Kokkos::HostSpace> send, recv;
  // lines_ 0: no buffers (a case that does not transpose).
  transposer(std::size_t lines_, std::size_t m_, std::size_t P_)
      : lines(lines_), m(m_), P(P_), share(lines_ / P_),
        send(Kokkos::view_alloc(Kokkos::WithoutInitializing, "send"), lines_ * m_),
        recv(Kokkos::view_alloc(Kokkos::WithoutInitializing, "recv"), lines_ * m_) {}

  // part -> whole (share lines x P m rows).
  void forward(const view& part, const view& whole) const {
    const auto sb = send;
    const std::size_t mm = m, sh = share, pp = P, n = m * P;
    if constexpr (std::is_same_v<Layout, bandsolve::layout::column>) {
      Kokkos::parallel_for(
          Kokkos::RangePolicy<exec_space>(0, pp * mm), [=](std::size_t qi) {
            const std::size_t q = qi / mm, i = qi % mm;
            std::memcpy(&sb(qi * sh), &part(q * sh, i), sh * sizeof(T));
          });
      Kokkos::fence();
      MPI_Alltoall(send.data(), int(sh * mm), MPI_DOUBLE, whole.data(), int(sh * mm), MPI_DOUBLE,
                   MPI_COMM_WORLD);
    } else {
      MPI_Alltoall(part.data(), int(sh * mm), MPI_DOUBLE, recv.data(), int(sh * mm), MPI_DOUBLE,
                   MPI_COMM_WORLD);
      const auto rb = recv;
      Kokkos::parallel_for(
          Kokkos::RangePolicy<exec_space>(0, sh), [=](std::size_t s) {
            for (std::size_t q = 0; q < pp; ++q)
              std::memcpy(&whole(s, q * mm), &rb((q * sh + s) * mm), mm * sizeof(T));
          });
      Kokkos::fence();
      (void)n;
    }
  }
  // whole -> part.
  void backward(const view& whole, const view& part) const {
    const auto rb = recv;
    const std::size_t mm = m, sh = share, pp = P;
    if constexpr (std::is_same_v<Layout, bandsolve::layout::column>) {
      MPI_Alltoall(whole.data(), int(sh * mm), MPI_DOUBLE, recv.data(), int(sh * mm), MPI_DOUBLE,
                   MPI_COMM_WORLD);
      Kokkos::parallel_for(
          Kokkos::RangePolicy<exec_space>(0, pp * mm), [=](std::size_t qi) {
            const std::size_t q = qi / mm, i = qi % mm;
            std::memcpy(&part(q * sh, i), &rb(qi * sh), sh * sizeof(T));
          });
      Kokkos::fence();
    } else {
      const auto sb = send;
      Kokkos::parallel_for(
          Kokkos::RangePolicy<exec_space>(0, sh), [=](std::size_t s) {
            for (std::size_t q = 0; q < pp; ++q)
              std::memcpy(&sb((q * sh + s) * mm), &whole(s, q * mm), mm * sizeof(T));
          });
      Kokkos::fence();
      MPI_Alltoall(send.data(), int(sh * mm), MPI_DOUBLE, part.data(), int(sh * mm), MPI_DOUBLE,
                   MPI_COMM_WORLD);
    }
  }
};

enum class method { partitioned, transpose, local, partitioned_periodic, partitioned_one_batch };
enum class kind { one_shot, factored, factorize, refactor };

// Seconds of the local and partitioned cases of each (axis, kind), for vs_local and vs_lines.
double local_seconds[2][4] = {};
double partitioned_seconds[2][4] = {};

// One case of the N^3 field on this rank: its data (a part of every line, or whole lines of a
// share for the local case), the transpose's buffers, and the factorization the factored kinds
// make once; call() is what a timed iteration runs, restore() what it runs before the clock.
template <class Layout>
struct field_case {
  using view = typename part_data<Layout>::view;
  method how;
  kind what;
  std::size_t N, lines, m, P, share;
  exec_space exec;
  part_data<Layout> data;
  transposer<Layout> tr;
  view wa, wb, wc, wd;  // whole lines after a transpose
  Kokkos::View<int*, Kokkos::HostSpace> winfo;
  bandsolve::mpi::factorization<T, exec_space> dist;
  bandsolve::mpi::factorization<T, exec_space, bandsolve::algo::periodic> ring;
  bandsolve::thomas_factorization<T, Layout, exec_space> single;

  // N must be a multiple of the number of ranks (field_ranks).
  field_case(method how_, kind what_, int me, int ranks)
      : how(how_), what(what_), N(static_cast<std::size_t>(field_n())), lines(N * N),
        m(N / static_cast<std::size_t>(ranks)), P(static_cast<std::size_t>(ranks)),
        share(lines / P),
        // The local case holds whole lines for a share of the lines; the others a part of every
        // line.
        data(how == method::local ? share : lines, how == method::local ? N : m,
             how == method::local ? 0 : static_cast<std::size_t>(me) * m),
        tr(how == method::transpose ? lines : 0, m, P), winfo("winfo", share) {
    if (how == method::transpose) {
      wa = bandsolve::make_batch<Layout, T, Kokkos::HostSpace>("wa", share, N);
      wb = bandsolve::make_batch<Layout, T, Kokkos::HostSpace>("wb", share, N);
      wc = bandsolve::make_batch<Layout, T, Kokkos::HostSpace>("wc", share, N);
      wd = bandsolve::make_batch<Layout, T, Kokkos::HostSpace>("wd", share, N);
    }
    // Factored cases: factor once, outside the timed loop.
    if (what == kind::factored || what == kind::refactor) {
      factor(false);
      exec.fence();
    }
  }

  // Factors the case's matrices: into a new factorization, or (again) into the storage of the
  // one it holds.
  void factor(bool again) {
    if (how == method::partitioned) {
      if (again)
        dist.refactor(exec, data.a, data.b, data.c);
      else
        dist = bandsolve::mpi::factorize(exec, MPI_COMM_WORLD, data.a, data.b, data.c);
    } else if (how == method::partitioned_periodic) {
      if (again)
        ring.refactor(exec, data.a, data.b, data.c);
      else
        ring = bandsolve::mpi::factorize(exec, MPI_COMM_WORLD, bandsolve::algo::periodic{},
                                         data.a, data.b, data.c);
    } else if (how == method::transpose) {
      tr.forward(data.a, wa);
      tr.forward(data.b, wb);
      tr.forward(data.c, wc);
      if (again)
        single.refactor(exec, wa, wb, wc);
      else
        single = bandsolve::factorize(exec, bandsolve::algo::thomas{}, wa, wb, wc);
    } else if (again) {
      single.refactor(exec, data.a, data.b, data.c);
    } else {
      single = bandsolve::factorize(exec, bandsolve::algo::thomas{}, data.a, data.b, data.c);
    }
  }

  void restore() const { data.restore(); }

  void call() {
    if (what == kind::factorize || what == kind::refactor) {
      // The factorization alone: a new one, its storage allocated by each call, or again into
      // the storage of the one made before.
      factor(what == kind::refactor);
    } else if (how == method::partitioned) {
      if (what == kind::one_shot)
        bandsolve::mpi::solve(exec, MPI_COMM_WORLD, data.a, data.b, data.c, data.d, data.info);
      else
        dist.solve(exec, data.d);
    } else if (how == method::partitioned_one_batch) {
      bandsolve::mpi::options one_batch;
      one_batch.batch_bytes_per_thread = 0;
      bandsolve::mpi::solve(exec, MPI_COMM_WORLD, data.a, data.b, data.c, data.d, data.info,
                            one_batch);
    } else if (how == method::partitioned_periodic) {
      if (what == kind::one_shot)
        bandsolve::mpi::solve(exec, MPI_COMM_WORLD, bandsolve::algo::periodic{}, data.a, data.b,
                              data.c, data.d, data.info);
      else
        ring.solve(exec, data.d);
    } else if (how == method::transpose) {
      if (what == kind::one_shot) {
        tr.forward(data.a, wa);
        tr.forward(data.b, wb);
        tr.forward(data.c, wc);
        tr.forward(data.d, wd);
        bandsolve::solve(exec, bandsolve::algo::thomas{}, wa, wb, wc, wd, winfo);
      } else {
        tr.forward(data.d, wd);
        single.solve(exec, wd);
      }
      exec.fence();
      tr.backward(wd, data.d);
    } else {
      if (what == kind::one_shot)
        bandsolve::solve(exec, bandsolve::algo::thomas{}, data.a, data.b, data.c, data.d,
                         data.info);
      else
        single.solve(exec, data.d);
    }
    exec.fence();
  }
};

// This rank and the number of ranks in me and P; false, with the case skipped, where N is not a
// multiple of P.
bool field_ranks(benchmark::State& state, int& me, int& P) {
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  if (static_cast<std::size_t>(field_n()) % static_cast<std::size_t>(P) == 0) return true;
  state.SkipWithError("N must be a multiple of the number of ranks");
  for (auto _ : state) {}
  return false;
}

template <class Layout>
void run(benchmark::State& state, method how, kind what) {
  int me = 0, P = 1;
  if (!field_ranks(state, me, P)) return;
  field_case<Layout> fc(how, what, me, P);
  const std::size_t N = fc.N, lines = fc.lines;
  const bool local = how == method::local;
  const timed_calls timed =
      time_collective(state, [&] { fc.restore(); }, [&] { fc.call(); });
  const double per_iter = timed.seconds;
  const int axis = std::is_same_v<Layout, bandsolve::layout::column> ? 0 : 1;
  if (local) local_seconds[axis][int(what)] = per_iter;
  if (how == method::partitioned) partitioned_seconds[axis][int(what)] = per_iter;
  double words[2] = {timed.first_call.exchange / sizeof(T) / double(lines),
                     timed.first_call.checks / double(lines)};
  PMPI_Allreduce(MPI_IN_PLACE, words, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  state.counters["ranks"] = P;
  state.counters["ns_per_unknown"] = per_iter * 1e9 / double(lines * N);
  state.counters["words_per_line_rank"] = words[0];
  state.counters["check_bytes_per_line_rank"] = words[1];
  if (local_seconds[axis][int(what)] > 0)
    state.counters["vs_local"] = per_iter / local_seconds[axis][int(what)];
  if (how == method::partitioned_periodic && partitioned_seconds[axis][int(what)] > 0)
    state.counters["vs_lines"] = per_iter / partitioned_seconds[axis][int(what)];
  if (how == method::partitioned_one_batch && partitioned_seconds[axis][int(what)] > 0)
    state.counters["vs_batched"] = per_iter / partitioned_seconds[axis][int(what)];
}

// The partitioned solve and a reference (the local solve or transpose-solve-transpose) of the
// same kind, called in turn within each iteration (which goes first alternates), so that both
// see the same moments of a shared machine: the ratio of each pair's times, not of two cases
// timed seconds apart, is what the counters give (after one untimed call of each). The
// iteration time is the partitioned call's.
// Counters: ns_per_unknown (partitioned) and reference_ns_per_unknown (means over the calls);
// for the local reference vs_local, the median of the pairs' partitioned / local, with
// vs_local_min and vs_local_max; for transpose transpose_over_partitioned, the median of the
// pairs' transpose / partitioned, with its min and max.
template <class Layout>
void run_paired(benchmark::State& state, method reference, kind what) {
  int me = 0, P = 1;
  if (!field_ranks(state, me, P)) return;
  field_case<Layout> part(method::partitioned, what, me, P), ref(reference, what, me, P);
  // One call of c, timed from a barrier to the slowest rank's end.
  const auto timed_call = [](field_case<Layout>& c) {
    c.restore();
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    c.call();
    double t = MPI_Wtime() - t0;
    PMPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
  };
  // One untimed call of each: the buffers they keep between calls are mapped.
  timed_call(part);
  timed_call(ref);
  std::vector<double> ratios;
  double part_total = 0, ref_total = 0;
  bool part_first = true;
  for (auto _ : state) {
    double tp = 0, tr = 0;
    if (part_first) {
      tp = timed_call(part);
      tr = timed_call(ref);
    } else {
      tr = timed_call(ref);
      tp = timed_call(part);
    }
    part_first = !part_first;
    state.SetIterationTime(tp);
    part_total += tp;
    ref_total += tr;
    ratios.push_back(reference == method::local ? tp / tr : tr / tp);
  }
  if (ratios.empty()) return;
  std::sort(ratios.begin(), ratios.end());
  const std::size_t calls = ratios.size();
  const double unknowns = double(part.lines * part.N);
  state.counters["ranks"] = P;
  state.counters["ns_per_unknown"] = part_total * 1e9 / (double(calls) * unknowns);
  state.counters["reference_ns_per_unknown"] = ref_total * 1e9 / (double(calls) * unknowns);
  const std::string ratio = reference == method::local ? "vs_local" : "transpose_over_partitioned";
  const double median = calls % 2 ? ratios[calls / 2]
                                  : (ratios[calls / 2 - 1] + ratios[calls / 2]) / 2;
  state.counters[ratio] = median;
  state.counters[ratio + "_min"] = ratios.front();
  state.counters[ratio + "_max"] = ratios.back();
}

// Complex right-hand sides over the real lines of run() (the Fourier modes of a real operator):
// d of Kokkos::complex<T>, both parts in one pass. One-shot: mpi::solve on the parts, or (local)
// the single-process solve of each rank's share of whole lines; factored: f.solve of
// mpi::factorize with the real factors, or the single-process factorization's. The local case
// runs first, for vs_local. ns_per_unknown counts complex unknowns; words_per_line_rank counts
// complex values. complex_lines (one-shot): complex coefficients too (a = -1 + i/4, b = 4 + i/2,
// c = -1 - i/4 on every row), the lines of a complex operator.
template <class Layout>
void complex_rhs(benchmark::State& state, bool partitioned, kind what, bool complex_lines = false) {
  using Z = Kokkos::complex<T>;
  int me = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const std::size_t N = static_cast<std::size_t>(field_n());
  const std::size_t lines = N * N, m = N / static_cast<std::size_t>(P);
  if (N % static_cast<std::size_t>(P) != 0) {
    state.SkipWithError("N must be a multiple of the number of ranks");
    for (auto _ : state) {}
    return;
  }
  const exec_space exec;
  const std::size_t held = partitioned ? lines : lines / static_cast<std::size_t>(P);
  const std::size_t rows = partitioned ? m : N;
  const part_data<Layout> data(held, rows, partitioned ? static_cast<std::size_t>(me) * m : 0);
  const auto d = bandsolve::make_batch<Layout, Z, Kokkos::HostSpace>("zd", held, rows);
  const auto d0 = bandsolve::make_batch<Layout, Z, Kokkos::HostSpace>("zd0", held, rows);
  const auto re = data.d0;
  Kokkos::parallel_for(
      Kokkos::RangePolicy<exec_space>(0, held), [=](std::size_t s) {
        for (std::size_t i = 0; i < rows; ++i)
          d0(s, i) = Z(re(s, i), re(s, rows - 1 - i));
      });
  Kokkos::fence();
  const std::size_t coefficient_lines = complex_lines ? held : 0;
  using host = Kokkos::HostSpace;
  const auto za = bandsolve::make_batch<Layout, Z, host>("za", coefficient_lines, rows);
  const auto zb = bandsolve::make_batch<Layout, Z, host>("zb", coefficient_lines, rows);
  const auto zc = bandsolve::make_batch<Layout, Z, host>("zc", coefficient_lines, rows);
  Kokkos::deep_copy(za, Z(-1.0, 0.25));
  Kokkos::deep_copy(zb, Z(4.0, 0.5));
  Kokkos::deep_copy(zc, Z(-1.0, -0.25));
  const auto one_shot = [&](const auto& a, const auto& b, const auto& c) {
    if (partitioned)
      bandsolve::mpi::solve(exec, MPI_COMM_WORLD, a, b, c, d, data.info);
    else
      bandsolve::solve(exec, bandsolve::algo::thomas{}, a, b, c, d, data.info);
  };
  bandsolve::mpi::factorization<T, exec_space> dist;
  bandsolve::thomas_factorization<T, Layout, exec_space> single;
  const bool factored = what == kind::factored;
  if (factored && partitioned)
    dist = bandsolve::mpi::factorize(exec, MPI_COMM_WORLD, data.a, data.b, data.c);
  else if (factored)
    single = bandsolve::factorize(exec, bandsolve::algo::thomas{}, data.a, data.b, data.c);
  exec.fence();
  const timed_calls timed = time_collective(state, [&] { Kokkos::deep_copy(d, d0); }, [&] {
    if (factored && partitioned)
      dist.solve(exec, d);
    else if (factored)
      single.solve(exec, d);
    else if (complex_lines)
      one_shot(za, zb, zc);
    else
      one_shot(data.a, data.b, data.c);
    exec.fence();
  });
  const double per_iter = timed.seconds;
  const int axis = std::is_same_v<Layout, bandsolve::layout::column> ? 0 : 1;
  static double local_complex_seconds[2][3] = {{0, 0, 0}, {0, 0, 0}};
  double& local_seconds_here = local_complex_seconds[axis][complex_lines ? 2 : int(what)];
  if (!partitioned) local_seconds_here = per_iter;
  double words = timed.first_call.exchange / sizeof(Z) / double(lines);
  PMPI_Allreduce(MPI_IN_PLACE, &words, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  state.counters["ranks"] = P;
  state.counters["ns_per_unknown"] = per_iter * 1e9 / double(lines * N);
  state.counters["words_per_line_rank"] = words;
  if (local_seconds_here > 0) state.counters["vs_local"] = per_iter / local_seconds_here;
}

// mpi::solve_along on the N^3 field as one array in ArrayLayout (LayoutRight, LayoutLeft, or
// LayoutStride: the padded LayoutRight array of make_padded_array) split along `axis` (N/P planes
// per rank), one-shot, full coefficient arrays: the lines are solved in
// place, run by run. Counters: ns_per_unknown and vs_local (time over the local one-shot case of
// the column layout, the single-process reference of the x_column cases; run those first).
template <class ArrayLayout>
void along(benchmark::State& state, int axis, kind what, bool shared = false) {
  int me = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const std::size_t N = static_cast<std::size_t>(field_n());
  if (N % static_cast<std::size_t>(P) != 0) {
    state.SkipWithError("N must be a multiple of the number of ranks");
    for (auto _ : state) {}
    return;
  }
  std::size_t e[3] = {N, N, N};
  e[axis] = N / static_cast<std::size_t>(P);
  using field = Kokkos::View<T***, ArrayLayout, Kokkos::HostSpace>;
  const auto make = [&](const char* label) {
    if constexpr (std::is_same_v<ArrayLayout, Kokkos::LayoutStride>)
      return bandsolve::make_padded_array<T***, Kokkos::HostSpace>(label, e[0], e[1], e[2]);
    else
      return field(std::string(label), e[0], e[1], e[2]);
  };
  const field a = make("a"), b = make("b"), c = make("c"), d = make("d"), d0 = make("d0");
  Kokkos::deep_copy(a, -1.0);
  Kokkos::deep_copy(b, 4.0);
  Kokkos::deep_copy(c, -1.0);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<exec_space>(0, e[0]), [=](std::size_t i) {
        for (std::size_t j = 0; j < e[1]; ++j)
          for (std::size_t k = 0; k < e[2]; ++k) {
            std::uint64_t h = ((i * 1000003u + j) * 1000003u + k + static_cast<std::uint64_t>(me)) *
                              0x9E3779B97F4A7C15ull;
            h ^= h >> 29;
            d0(i, j, k) = static_cast<T>(h % 1000) / 500.0 - 1.0;
          }
      });
  Kokkos::fence();
  Kokkos::View<int*, Kokkos::HostSpace> info("info", N * N);
  const exec_space exec;
  bandsolve::mpi::along_factorization<T, exec_space> f;
  if (what == kind::factored && shared) {
    using line = Kokkos::View<T*, Kokkos::HostSpace>;
    const line la("a", e[axis]), lb("b", e[axis]), lc("c", e[axis]);
    Kokkos::deep_copy(la, -1.0);
    Kokkos::deep_copy(lb, 4.0);
    Kokkos::deep_copy(lc, -1.0);
    f = bandsolve::mpi::factorize_along(exec, MPI_COMM_WORLD, axis, la, lb, lc, d);
  } else if (what == kind::factored) {
    f = bandsolve::mpi::factorize_along(exec, MPI_COMM_WORLD, axis, a, b, c);
  }
  const double per_iter =
      time_collective(state, [&] { Kokkos::deep_copy(d, d0); }, [&] {
        if (what == kind::factored)
          f.solve(exec, d);
        else
          bandsolve::mpi::solve_along(exec, MPI_COMM_WORLD, axis, a, b, c, d, info);
      }).seconds;
  state.counters["ranks"] = P;
  state.counters["ns_per_unknown"] = per_iter * 1e9 / double(N * N * N);
  const double local = local_seconds[0][int(what)];
  if (local > 0) state.counters["vs_local"] = per_iter / local;
}

// The exchange schemes against each other: `lines` lines of 64 rows per rank (row layout), the
// one-shot solve with the scheme forced; the crossover sets options::all_to_all_min_lines_per_rank.
void scheme_sweep(benchmark::State& state, bandsolve::mpi::exchange scheme) {
  int P = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const auto lines = static_cast<std::size_t>(state.range(0));
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  part_data<bandsolve::layout::row> data(lines, 64, static_cast<std::size_t>(me) * 64);
  bandsolve::mpi::options opts;
  opts.scheme = scheme;
  const exec_space exec;
  const double per_call = time_collective(state, [&] { data.restore(); }, [&] {
                            bandsolve::mpi::solve(exec, MPI_COMM_WORLD, data.a, data.b, data.c,
                                                  data.d, data.info, opts);
                          }).seconds;
  state.counters["ranks"] = P;
  state.counters["us_per_line"] = per_call * 1e6 / double(lines);
}

// Block-tridiagonal lines of m x m blocks (see the header): the local and partitioned cases of
// one kind, one-shot or factored (factored outside the timed loop), nrhs right-hand sides per
// system (1: d of rank 3; complex: one Kokkos::complex<T> right-hand side), in row batches or
// interleaved packs (Layout). block_local_seconds: the local case of each kind, nrhs (-1: complex)
// and layout (interleaved or not).
std::map<std::tuple<int, int, bool>, double> block_local_seconds;

std::size_t block_lines_count() {
  const char* s = std::getenv("BANDSOLVE_BENCH_MPI_BLOCK_LINES");
  return s ? static_cast<std::size_t>(std::atol(s)) : 4096;
}

template <class Layout>
void block_lines(benchmark::State& state, int m, int nrhs, bool partitioned, kind what,
                 bool complex = false) {
  constexpr bool interleaved = !std::is_same_v<Layout, bandsolve::layout::row>;
  int me = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const std::size_t L = block_lines_count(), R = 128, M = static_cast<std::size_t>(m);
  if (L % static_cast<std::size_t>(P) != 0) {
    state.SkipWithError("the block lines must be a multiple of the number of ranks");
    for (auto _ : state) {}
    return;
  }
  // Local: L/P whole lines of P R block rows; partitioned: R block rows of each of the L lines.
  const std::size_t lines = partitioned ? L : L / static_cast<std::size_t>(P);
  const std::size_t rows = partitioned ? R : R * static_cast<std::size_t>(P);
  const std::size_t K = static_cast<std::size_t>(nrhs);
  const auto coeffs = [&](const char* label) {
    return bandsolve::make_block_batch<Layout, T, Kokkos::HostSpace>(label, lines, rows, M);
  };
  const auto a = coeffs("a"), b = coeffs("b"), c = coeffs("c");
  // Several right-hand sides: k of them per system side by side; d0 holds them all.
  const auto rhs = [&](const char* label) {
    return bandsolve::make_block_rhs<Layout, T, Kokkos::HostSpace>(label, lines, rows, M, K);
  };
  const auto d4 = rhs("d"), d0 = rhs("d0");
  // One right-hand side: the same memory as a View of one (rank 3, or packs of rank 4).
  using one_rhs = decltype(bandsolve::make_block_rhs<Layout, T, Kokkos::HostSpace>("", 0, 0, 0));
  const one_rhs d3(d4.data(), d4.extent(0), rows, M);
  // The complex right-hand side: d0's first as the real part, its last halved as the imaginary.
  using Z = Kokkos::complex<T>;
  const Kokkos::View<Z***, Kokkos::LayoutRight, Kokkos::HostSpace> dz("dz", complex ? lines : 0,
                                                                       rows, M),
      dz0("dz0", complex ? lines : 0, rows, M);
  const Kokkos::View<int*, Kokkos::HostSpace> info("info", lines);
  // Block diagonally dominant: B = 6 I + 0.2 off the diagonal, A = C = -I + 0.1 off it.
  Kokkos::parallel_for(
      Kokkos::RangePolicy<exec_space>(0, lines), [=](std::size_t s) {
        for (std::size_t i = 0; i < rows; ++i)
          for (std::size_t r = 0; r < M; ++r) {
            for (std::size_t q = 0; q < M; ++q) {
              bandsolve::block_at(a, s, i, r, q) = bandsolve::block_at(c, s, i, r, q) =
                  r == q ? -1.0 : 0.1;
              bandsolve::block_at(b, s, i, r, q) = r == q ? 6.0 : 0.2;
            }
            for (std::size_t q = 0; q < K; ++q) {
              std::uint64_t k = (((s * 1000003u + i) * 8 + r) * 16 + q) * 0x9E3779B97F4A7C15ull;
              k ^= k >> 29;
              bandsolve::block_at(d0, s, i, r, q) = static_cast<T>(k % 1000) / 500.0 - 1.0;
            }
          }
      });
  Kokkos::fence();
  if (complex)
    Kokkos::parallel_for(
        Kokkos::RangePolicy<exec_space>(0, lines), [=](std::size_t s) {
          for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t r = 0; r < M; ++r)
              dz0(s, i, r) = Z(bandsolve::block_at(d0, s, i, r, 0),
                               0.5 * bandsolve::block_at(d0, s, i, r, K - 1));
        });
  Kokkos::fence();
  const exec_space exec;
  const bandsolve::algo::block_thomas algo{};
  timed_calls timing;
  const auto timed = [&](const auto& call) {
    timing = time_collective(
        state,
        [&] {
          if (complex)
            Kokkos::deep_copy(dz, dz0);
          else
            Kokkos::deep_copy(d4, d0);
        },
        [&] {
          call();
          exec.fence();
        });
  };
  const auto solves = [&](const auto& d) {
    if (what == kind::one_shot) {
      if (partitioned)
        timed([&] { bandsolve::mpi::solve(exec, MPI_COMM_WORLD, algo, a, b, c, d, info); });
      else
        timed([&] { bandsolve::solve(exec, algo, a, b, c, d, info); });
    } else if (partitioned) {
      const auto f = bandsolve::mpi::factorize(exec, MPI_COMM_WORLD, algo, a, b, c);
      timed([&] { f.solve(exec, d); });
    } else {
      const auto f = bandsolve::factorize(exec, algo, a, b, c);
      exec.fence();
      timed([&] { f.solve(exec, d); });
    }
  };
  if (complex) {
    if constexpr (!interleaved) solves(dz);  // registered for row batches only
  } else if (nrhs == 1) {
    solves(d3);
  } else {
    solves(d4);
  }
  const double per_iter = timing.seconds;
  const auto key = std::make_tuple(int(what), complex ? -1 : nrhs, interleaved);
  if (!partitioned) block_local_seconds[key] = per_iter;
  double words = timing.first_call.exchange / sizeof(T) / double(L);
  PMPI_Allreduce(MPI_IN_PLACE, &words, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  state.counters["ranks"] = P;
  state.counters["nrhs"] = nrhs;
  state.counters["ns_per_unknown"] = per_iter * 1e9 / double(L * R * M * K) / double(P);
  state.counters["words_per_line_rank"] = words;
  if (block_local_seconds.count(key) > 0)
    state.counters["vs_local"] = per_iter / block_local_seconds[key];
}

// Block lines along an axis of a 64^3 grid of m unknowns per point (see the header): where
// 0 local, 1 batch, 2 partitioned; Layout: the grid's arrays. block_along_seconds: the local and
// batch cases of each axis, kind and layout (LayoutLeft: the axis + 3).
std::map<std::pair<int, int>, double> block_along_seconds[2];

template <class Layout>
void block_along(benchmark::State& state, int axis, kind what, int where) {
  int P = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const std::size_t side = 64, M = 3, part = side / static_cast<std::size_t>(P);
  if (side % static_cast<std::size_t>(P) != 0) {
    state.SkipWithError("the grid's side must be a multiple of the number of ranks");
    for (auto _ : state) {}
    return;
  }
  // This rank's share: along the axis (partitioned, batch), or along the next axis (local).
  std::size_t e[3] = {side, side, side};
  e[where == 0 ? (axis + 1) % 3 : axis] = part;
  using grid5 = Kokkos::View<T*****, Layout, Kokkos::HostSpace>;
  using grid4 = Kokkos::View<T****, Layout, Kokkos::HostSpace>;
  const grid5 a("a", e[0], e[1], e[2], M, M), b("b", e[0], e[1], e[2], M, M),
      c("c", e[0], e[1], e[2], M, M);
  const grid4 d("d", e[0], e[1], e[2], M), d0("d0", e[0], e[1], e[2], M);
  // Block diagonally dominant: B = 6 I + 0.2 off the diagonal, A = C = -I + 0.1 off it.
  Kokkos::parallel_for(
      Kokkos::RangePolicy<exec_space>(0, e[0]), [=](std::size_t i) {
        for (std::size_t j = 0; j < e[1]; ++j)
          for (std::size_t k = 0; k < e[2]; ++k)
            for (std::size_t r = 0; r < M; ++r) {
              for (std::size_t q = 0; q < M; ++q) {
                a(i, j, k, r, q) = c(i, j, k, r, q) = r == q ? -1.0 : 0.1;
                b(i, j, k, r, q) = r == q ? 6.0 : 0.2;
              }
              std::uint64_t h = (((i * 1000003u + j) * 1009u + k) * 8 + r);
              h *= 0x9E3779B97F4A7C15ull;
              h ^= h >> 29;
              d0(i, j, k, r) = static_cast<T>(h % 1000) / 500.0 - 1.0;
            }
      });
  Kokkos::fence();
  const exec_space exec;
  const bandsolve::algo::block_thomas algo{};
  const std::size_t lines = e[0] * e[1] * e[2] / e[axis];
  const Kokkos::View<int*, Kokkos::HostSpace> info("info", lines);
  timed_calls timing;
  const auto timed = [&](const auto& restore, const auto& call) {
    timing = time_collective(state, restore, [&] {
      call();
      exec.fence();
    });
  };
  const auto restore = [&] { Kokkos::deep_copy(d, d0); };
  if (where == 1) {  // this rank's parts as the row batch solve_along makes of them
    using batch4 = Kokkos::View<T****, Kokkos::LayoutRight, Kokkos::HostSpace>;
    using batch3 = Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace>;
    const batch4 pa("pa", lines, part, M, M), pb("pb", lines, part, M, M),
        pc("pc", lines, part, M, M);
    const batch3 pd("pd", lines, part, M), pd0("pd0", lines, part, M);
    Kokkos::parallel_for(
        Kokkos::RangePolicy<exec_space>(0, lines), [=](std::size_t s) {
          for (std::size_t i = 0; i < part; ++i) {
            std::size_t p[3] = {0, 0, 0};
            std::size_t rest = s;
            for (int k = 2; k >= 0; --k) {
              if (k == axis) continue;
              p[k] = rest % e[k];
              rest /= e[k];
            }
            p[axis] = i;
            for (std::size_t r = 0; r < M; ++r) {
              pd0(s, i, r) = d0(p[0], p[1], p[2], r);
              for (std::size_t q = 0; q < M; ++q) {
                pa(s, i, r, q) = a(p[0], p[1], p[2], r, q);
                pb(s, i, r, q) = b(p[0], p[1], p[2], r, q);
                pc(s, i, r, q) = c(p[0], p[1], p[2], r, q);
              }
            }
          }
        });
    Kokkos::fence();
    const auto restore_batch = [&] { Kokkos::deep_copy(pd, pd0); };
    if (what == kind::one_shot) {
      timed(restore_batch,
            [&] { bandsolve::mpi::solve(exec, MPI_COMM_WORLD, algo, pa, pb, pc, pd, info); });
    } else {
      const auto f = bandsolve::mpi::factorize(exec, MPI_COMM_WORLD, algo, pa, pb, pc);
      timed(restore_batch, [&] { f.solve(exec, pd); });
    }
  } else if (where == 2) {
    if (what == kind::one_shot) {
      timed(restore, [&] {
        bandsolve::mpi::solve_along(exec, MPI_COMM_WORLD, algo, axis, a, b, c, d, info);
      });
    } else if (what == kind::factorize) {
      timed([] {}, [&] {
        bandsolve::mpi::factorize_along(exec, MPI_COMM_WORLD, algo, axis, a, b, c);
      });
    } else {
      auto f = bandsolve::mpi::factorize_along(exec, MPI_COMM_WORLD, algo, axis, a, b, c);
      if (what == kind::refactor)
        timed([] {}, [&] { f.refactor(exec, a, b, c); });
      else
        timed(restore, [&] { f.solve(exec, d); });
    }
  } else if (what == kind::one_shot) {
    timed(restore, [&] { bandsolve::solve_along(exec, algo, axis, a, b, c, d, info); });
  } else if (what == kind::factorize) {
    timed([] {}, [&] { bandsolve::factorize_along(exec, algo, axis, a, b, c); });
  } else {
    auto f = bandsolve::factorize_along(exec, algo, axis, a, b, c);
    exec.fence();
    if (what == kind::refactor)
      timed([] {}, [&] { f.refactor(exec, a, b, c); });
    else
      timed(restore, [&] { f.solve(exec, d); });
  }
  const double per_iter = timing.seconds;
  const int layout_key = std::is_same_v<Layout, Kokkos::LayoutLeft> ? 3 : 0;
  const auto key = std::make_pair(axis + layout_key, int(what));
  if (where < 2) block_along_seconds[where][key] = per_iter;
  double words = timing.first_call.exchange / sizeof(T) / double(lines);
  PMPI_Allreduce(MPI_IN_PLACE, &words, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  state.counters["ranks"] = P;
  state.counters["ns_per_unknown"] = per_iter * 1e9 / double(side * side * part * M);
  state.counters["words_per_line_rank"] = words;
  if (block_along_seconds[0].count(key) > 0)
    state.counters["vs_local"] = per_iter / block_along_seconds[0][key];
  if (where == 2 && block_along_seconds[1].count(key) > 0)
    state.counters["vs_batch"] = per_iter / block_along_seconds[1][key];
}

// iterations: the calls of the cases on lines of a fixed size (the schemes', 20 times as many);
// field_iterations: those of the cases on the N^3 field.
void register_all(int iterations, int field_iterations) {
  for (const auto scheme : {bandsolve::mpi::exchange::gather, bandsolve::mpi::exchange::all_to_all}) {
    const std::string name = std::string("mpi/scheme/") +
                             (scheme == bandsolve::mpi::exchange::gather ? "gather" : "all_to_all");
    benchmark::RegisterBenchmark(name.c_str(),
                                 [scheme](benchmark::State& s) { scheme_sweep(s, scheme); })
        ->RangeMultiplier(4)
        ->Range(1, 16384)
        ->UseManualTime()
        ->Iterations(20 * iterations)
        ->Unit(benchmark::kMicrosecond);
  }
  const char* kinds[] = {"one_shot", "factored", "factorize", "refactor"};
  const char* methods[] = {"local", "partitioned", "partitioned_one_batch", "partitioned_periodic",
                           "transpose"};
  const method order[] = {method::local, method::partitioned, method::partitioned_one_batch,
                          method::partitioned_periodic, method::transpose};
  for (int axis = 0; axis < 2; ++axis)
    for (int k = 0; k < 4; ++k)
      for (int h = 0; h < 5; ++h) {
        if (order[h] == method::partitioned_one_batch && k != int(kind::one_shot)) continue;
        const std::string name = std::string("mpi/") + (axis == 0 ? "x_column/" : "z_row/") +
                                 methods[h] + "/" + kinds[k];
        const method how = order[h];
        const kind what = static_cast<kind>(k);
        auto* b = axis == 0 ? benchmark::RegisterBenchmark(
                                  name.c_str(),
                                  [how, what](benchmark::State& s) {
                                    run<bandsolve::layout::column>(s, how, what);
                                  })
                            : benchmark::RegisterBenchmark(
                                  name.c_str(), [how, what](benchmark::State& s) {
                                    run<bandsolve::layout::row>(s, how, what);
                                  });
        // Every rank must run the same iterations (the loop is collective): a fixed count.
        b->UseManualTime()->Iterations(field_iterations)->Unit(benchmark::kMillisecond);
      }
  // The partitioned solve paired with the local solve and with transpose-solve-transpose.
  for (int axis = 0; axis < 2; ++axis)
    for (const kind what : {kind::one_shot, kind::factored})
      for (const method reference : {method::local, method::transpose}) {
        const std::string name = std::string("mpi/") + (axis == 0 ? "x_column/" : "z_row/") +
                                 (reference == method::local ? "paired_local/"
                                                             : "paired_transpose/") +
                                 kinds[int(what)];
        auto* b = axis == 0 ? benchmark::RegisterBenchmark(
                                  name.c_str(),
                                  [reference, what](benchmark::State& s) {
                                    run_paired<bandsolve::layout::column>(s, reference, what);
                                  })
                            : benchmark::RegisterBenchmark(
                                  name.c_str(), [reference, what](benchmark::State& s) {
                                    run_paired<bandsolve::layout::row>(s, reference, what);
                                  });
        b->UseManualTime()->Iterations(3 * field_iterations)->Unit(benchmark::kMillisecond);
      }
  // k = 2: one-shot complex lines.
  for (int axis = 0; axis < 2; ++axis)
    for (int k = 0; k < 3; ++k)
      for (const bool partitioned : {false, true}) {
        const bool lines = k == 2;
        const std::string name = std::string("mpi/") + (axis == 0 ? "x_column/" : "z_row/") +
                                 (partitioned ? "partitioned/" : "local/") +
                                 (lines ? std::string("one_shot_complex_lines")
                                        : kinds[k] + std::string("_complex_rhs"));
        const kind what = lines ? kind::one_shot : static_cast<kind>(k);
        auto* b = axis == 0
                      ? benchmark::RegisterBenchmark(
                            name.c_str(),
                            [partitioned, what, lines](benchmark::State& s) {
                              complex_rhs<bandsolve::layout::column>(s, partitioned, what, lines);
                            })
                      : benchmark::RegisterBenchmark(
                            name.c_str(), [partitioned, what, lines](benchmark::State& s) {
                              complex_rhs<bandsolve::layout::row>(s, partitioned, what, lines);
                            });
        b->UseManualTime()->Iterations(field_iterations)->Unit(benchmark::kMillisecond);
      }
}

// After register_all's cases, so that vs_local finds the local case of the same run. The field
// as a LayoutRight array, then (suffix /left) as a LayoutLeft one, then (suffix /padded) as the
// padded array of make_padded_array.
void register_along(int iterations) {
  const char* axes[] = {"x_axis0", "y_axis1", "z_axis2"};
  for (const char* suffix : {"", "/left", "/padded"})
    for (const kind what : {kind::one_shot, kind::factored})
      for (int axis = 0; axis < 3; ++axis)
        for (const bool shared : {false, true}) {
          if (shared && what == kind::one_shot) continue;
          const std::string name = std::string("mpi/along/") + axes[axis] +
                                   (what == kind::one_shot ? "/one_shot"
                                    : shared               ? "/factored_shared"
                                                           : "/factored") +
                                   suffix;
          const char k = suffix[0] == '\0' ? 'r' : suffix[1];  // 'r', 'l' or 'p'
          benchmark::RegisterBenchmark(name.c_str(),
                                       [axis, what, shared, k](benchmark::State& s) {
                                         if (k == 'l')
                                           along<Kokkos::LayoutLeft>(s, axis, what, shared);
                                         else if (k == 'p')
                                           along<Kokkos::LayoutStride>(s, axis, what, shared);
                                         else
                                           along<Kokkos::LayoutRight>(s, axis, what, shared);
                                       })
              ->UseManualTime()
              ->Iterations(iterations)
              ->Unit(benchmark::kMillisecond);
        }
}

// After the local block case of each kind, the partitioned one (vs_local); one right-hand side
// per system, then 4, then one complex one (nrhs 0 below), then one in interleaved<8> packs
// (nrhs -1).
void register_block(int iterations) {
  const char* kinds[] = {"one_shot", "factored"};
  for (const int nrhs : {1, 4, 0, -1})
    for (int k = 0; k < 2; ++k)
      for (const bool partitioned : {false, true}) {
        const std::string name =
            std::string("mpi/block/m3/") + (partitioned ? "partitioned/" : "local/") + kinds[k] +
            (nrhs == 1    ? ""
             : nrhs == 0  ? "/complex_rhs"
             : nrhs == -1 ? "/interleaved8"
                          : "/nrhs" + std::to_string(nrhs));
        const kind what = static_cast<kind>(k);
        benchmark::RegisterBenchmark(name.c_str(),
                                     [nrhs, partitioned, what](benchmark::State& s) {
                                       if (nrhs < 0)
                                         block_lines<bandsolve::layout::interleaved<8>>(
                                             s, 3, 1, partitioned, what);
                                       else
                                         block_lines<bandsolve::layout::row>(
                                             s, 3, nrhs > 0 ? nrhs : 1, partitioned, what,
                                             nrhs == 0);
                                     })
            ->UseManualTime()
            ->Iterations(iterations)
            ->Unit(benchmark::kMillisecond);
      }
}

// Each axis: local, batch and partitioned, one-shot then factored, then (local and partitioned)
// factorize and refactor; then LayoutLeft grids (local and partitioned, one-shot and factored).
void register_block_along(int iterations) {
  const char* axes[] = {"x", "y", "z"};
  const char* kinds[] = {"one_shot", "factored", "factorize", "refactor"};
  const char* places[] = {"local", "batch", "partitioned"};
  for (int left = 0; left < 2; ++left)
    for (int axis = 0; axis < 3; ++axis)
      for (int k = 0; k < 4; ++k)
        for (int where = 0; where < 3; ++where) {
          if (left == 1 && (where == 1 || k >= 2)) continue;  // the batch: the LayoutRight grid's
          if (k >= 2 && where == 1) continue;  // factorizations: local and partitioned
          const std::string name = std::string(left ? "mpi/block_along_left/m3/"
                                                    : "mpi/block_along/m3/") +
                                   axes[axis] + "/" + places[where] + "/" + kinds[k];
          const kind what = static_cast<kind>(k);
          benchmark::RegisterBenchmark(name.c_str(),
                                       [axis, what, where, left](benchmark::State& s) {
                                         if (left == 1)
                                           block_along<Kokkos::LayoutLeft>(s, axis, what, where);
                                         else
                                           block_along<Kokkos::LayoutRight>(s, axis, what, where);
                                       })
              ->UseManualTime()
              ->Iterations(iterations)
              ->Unit(benchmark::kMillisecond);
        }
}

}  // namespace

// Timed calls of a case on the N^3 field: 10 at N = 256 and as many more as keep the unknowns
// solved per case the same for smaller fields, at most 1000 (a small field's call takes tens of
// microseconds, where 10 calls read the first calls' cold caches and pages).
int iterations_on_field(int iterations) {
  const double n = field_n(), calls = iterations * (256.0 / n) * (256.0 / n) * (256.0 / n);
  return calls < iterations ? iterations : calls > 1000 ? 1000 : static_cast<int>(calls);
}

int main(int argc, char** argv) {
  return bandsolve_bench_mpi::run_main(argc, argv, [] {
    // BANDSOLVE_BENCH_MPI_ITERATIONS: the calls of every case, N or not.
    const char* it = std::getenv("BANDSOLVE_BENCH_MPI_ITERATIONS");
    const int iterations = it ? std::atoi(it) : 10;
    const int on_field = it ? iterations : iterations_on_field(iterations);
    register_all(iterations, on_field);
    register_along(on_field);
    register_block(iterations);
    register_block_along(iterations);
  });
}
