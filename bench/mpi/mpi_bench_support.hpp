#pragma once
// What the MPI benchmarks share (include in one translation unit per executable: it defines MPI
// functions). Bytes sent, counted by wrapping MPI's collective calls through the profiling
// interface (PMPI): data exchanges (Alltoall(v), Gatherv, Scatterv) and the small collectives of
// argument checks and info agreement (Allreduce, Allgather, Bcast). The collective timed loop of
// every case, and a main() that runs the registered benchmarks on every rank (rank 0 reports).
#include <benchmark/benchmark.h>
#include <mpi.h>
#include <sys/resource.h>

#include <Kokkos_Core.hpp>

#include <cstring>
#include <vector>

namespace bandsolve_bench_mpi {

struct sent_bytes {
  double exchange = 0;  // data exchanges
  double checks = 0;    // small collectives (argument checks, info agreement)
};
inline sent_bytes sent;

inline int rank_of(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}
inline int size_of(MPI_Comm comm) {
  int p = 1;
  PMPI_Comm_size(comm, &p);
  return p;
}
inline double type_bytes(MPI_Datatype t) {
  int s = 0;
  PMPI_Type_size(t, &s);
  return s;
}
}  // namespace bandsolve_bench_mpi

extern "C" {
int MPI_Alltoall(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt,
                 MPI_Comm comm) {
  using namespace bandsolve_bench_mpi;
  sent.exchange += double(sc) * type_bytes(st) * (size_of(comm) - 1);
  return PMPI_Alltoall(sb, sc, st, rb, rc, rt, comm);
}
int MPI_Alltoallv(const void* sb, const int sc[], const int sd[], MPI_Datatype st, void* rb,
                  const int rc[], const int rd[], MPI_Datatype rt, MPI_Comm comm) {
  using namespace bandsolve_bench_mpi;
  const int me = rank_of(comm), p = size_of(comm);
  for (int q = 0; q < p; ++q)
    if (q != me) sent.exchange += double(sc[q]) * type_bytes(st);
  return PMPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, comm);
}
int MPI_Gatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int rc[], const int rd[],
                MPI_Datatype rt, int root, MPI_Comm comm) {
  using namespace bandsolve_bench_mpi;
  if (rank_of(comm) != root) sent.exchange += double(sc) * type_bytes(st);
  return PMPI_Gatherv(sb, sc, st, rb, rc, rd, rt, root, comm);
}
int MPI_Scatterv(const void* sb, const int sc[], const int sd[], MPI_Datatype st, void* rb,
                 int rc, MPI_Datatype rt, int root, MPI_Comm comm) {
  using namespace bandsolve_bench_mpi;
  const int me = rank_of(comm), p = size_of(comm);
  if (me == root)
    for (int q = 0; q < p; ++q)
      if (q != me) sent.exchange += double(sc[q]) * type_bytes(st);
  return PMPI_Scatterv(sb, sc, sd, st, rb, rc, rt, root, comm);
}
int MPI_Allreduce(const void* sb, void* rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  using namespace bandsolve_bench_mpi;
  sent.checks += double(count) * type_bytes(t);
  return PMPI_Allreduce(sb, rb, count, t, op, comm);
}
int MPI_Allgather(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt,
                  MPI_Comm comm) {
  using namespace bandsolve_bench_mpi;
  sent.checks += double(sc) * type_bytes(st);
  return PMPI_Allgather(sb, sc, st, rb, rc, rt, comm);
}
int MPI_Bcast(void* buf, int count, MPI_Datatype t, int root, MPI_Comm comm) {
  using namespace bandsolve_bench_mpi;
  if (rank_of(comm) == root) sent.checks += double(count) * type_bytes(t);
  return PMPI_Bcast(buf, count, t, root, comm);
}
}  // extern "C"

namespace bandsolve_bench_mpi {

// The timed loop of every case, collective: restore() outside the clock, a barrier, call() on
// every rank, the slowest rank's time as the iteration's, after one untimed call. Returns the
// seconds per call and the bytes this rank sent in the first timed call (MPI's profiling
// interface).
struct timed_calls {
  double seconds = 0;
  sent_bytes first_call;
};

// Minor page faults of this process so far: over repeated calls, whether a call maps and
// first-touches fresh memory.
inline long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// Also sets the counter page_faults_per_call: the minor page faults of the calls after the first,
// per call, on the rank that took the most.
template <class Restore, class Call>
timed_calls time_collective(benchmark::State& state, const Restore& restore, const Call& call) {
  double total = 0;
  timed_calls out;
  bool counted = false;
  double faults = 0;
  // One untimed call first: what a case does once (buffers kept between calls mapped, MPI's
  // first exchange between the ranks) is not a call's cost. Averaged into 10 calls, it had made
  // transpose-solve-transpose's factored solve read 1.16-1.33x its time per call.
  restore();
  MPI_Barrier(MPI_COMM_WORLD);
  call();
  MPI_Barrier(MPI_COMM_WORLD);
  for (auto _ : state) {
    restore();
    MPI_Barrier(MPI_COMM_WORLD);
    const sent_bytes start = sent;
    const long faults_before = minor_faults();
    const double t0 = MPI_Wtime();
    call();
    double t = MPI_Wtime() - t0;
    if (counted) faults += static_cast<double>(minor_faults() - faults_before);
    if (!counted) {
      out.first_call = {sent.exchange - start.exchange, sent.checks - start.checks};
      counted = true;
    }
    PMPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    state.SetIterationTime(t);
    total += t;
  }
  out.seconds = total / static_cast<double>(state.iterations());
  const auto later_calls = static_cast<double>(state.iterations() > 1 ? state.iterations() - 1 : 1);
  faults /= later_calls;
  PMPI_Allreduce(MPI_IN_PLACE, &faults, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  state.counters["page_faults_per_call"] = faults;
  return out;
}

// Ranks other than 0 run the benchmarks silently.
class silent_reporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

// MPI and Kokkos around register_cases() and the benchmarks it registers, run on every rank (the
// timed loops are collective); only rank 0 reports and writes --benchmark_out.
template <class Register>
int run_main(int argc, char** argv, const Register& register_cases) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  {
    int me = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    register_cases();
    // Only rank 0 writes --benchmark_out: the others would truncate the same file.
    int kept = 1;
    for (int i = 1; i < argc; ++i)
      if (me == 0 || std::strncmp(argv[i], "--benchmark_out", 15) != 0) argv[kept++] = argv[i];
    argc = kept;
    benchmark::Initialize(&argc, argv);
    if (me == 0) {
      benchmark::RunSpecifiedBenchmarks();
    } else {
      silent_reporter quiet;
      benchmark::RunSpecifiedBenchmarks(&quiet);
    }
    benchmark::Shutdown();
  }
  Kokkos::finalize();
  MPI_Finalize();
  return 0;
}

}  // namespace bandsolve_bench_mpi
