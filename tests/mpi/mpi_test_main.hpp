#pragma once
// What the MPI test executables share: main() (MPI around Kokkos around Catch2, the result agreed
// over the ranks), this process's rank and the number of ranks (world_rank, world_size), and
// bstest_mpi::words_sent, the words the reduced systems' exchanges sent from this rank (MPI's
// profiling interface: the definitions below take the place of the library's and call it
// through PMPI_), and bstest_mpi::thrown, the message a call throws. Include it in exactly one
// translation unit of an executable.
#include "view_tail_poisoning.hpp"

#include <Kokkos_Core.hpp>
#include <catch2/catch_session.hpp>
#include <mpi.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace bstest_mpi {
inline long long words_sent = 0;

// The host space of a rank's work in the tests: each rank runs one thread
// (cmake/BandSolveMPITest.cmake), so where the tests run on one host space
// (BANDSOLVE_TESTS_ONE_HOST_SPACE) the threaded space (OpenMP or Threads) takes Kokkos::Serial's
// work shapes and scratch sizes without compiling every kernel a second time for Serial; Serial
// otherwise.
#if defined(BANDSOLVE_TESTS_ONE_HOST_SPACE) && defined(KOKKOS_ENABLE_OPENMP)
using rank_space = Kokkos::OpenMP;
#elif defined(BANDSOLVE_TESTS_ONE_HOST_SPACE) && defined(KOKKOS_ENABLE_THREADS)
using rank_space = Kokkos::Threads;
#else
using rank_space = Kokkos::Serial;
#endif

// Calls f() and returns the message of the std::invalid_argument it threw ("" if none, "other"
// for any other exception).
template <class F>
std::string thrown(const F& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  } catch (...) {
    return "other";
  }
  return "";
}

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int world_size() {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}

// The batches a factorization f keeps of its reduced systems: one where every rank's finish
// corrects only the tips (f.finish_tip_rows() >= 0 everywhere), else `batches`. Collective.
template <class Factorization>
std::size_t expected_batches(const Factorization& f, std::size_t batches) {
  int truncated = f.finish_tip_rows() >= 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &truncated, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return truncated ? 1 : batches;
}
}  // namespace bstest_mpi

extern "C" {
int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  int P = 0;
  PMPI_Comm_size(comm, &P);
  for (int q = 0; q < P; ++q) bstest_mpi::words_sent += sendcounts[q];
  return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm);
}
int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  bstest_mpi::words_sent += sendcount;
  return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                      comm);
}
int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm) {
  int r = 0, P = 0;
  PMPI_Comm_rank(comm, &r);
  PMPI_Comm_size(comm, &P);
  if (r == root)
    for (int q = 0; q < P; ++q) bstest_mpi::words_sent += sendcounts[q];
  return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                       comm);
}
}

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  bstest::poison_view_tails();
  int result = 0;
  { result = Catch::Session().run(argc, argv); }
  Kokkos::finalize();
  MPI_Allreduce(MPI_IN_PLACE, &result, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return result;
}
