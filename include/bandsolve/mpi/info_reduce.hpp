#pragma once
// Info codes agreed by every rank: for each line, the global 1-based row of the first bad pivot
// found by any rank's local pass (the smallest such row), else the one the reduced solve found,
// else 0. One MPI_Allreduce of one int when every line is fine; one more of 2 ints per line when
// some line is not.
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <climits>
#include <vector>

namespace bandsolve::mpi::detail {

// local: this rank's codes per line (host-accessible View), reduced: the codes of the lines this
// rank solved (0 elsewhere). Writes info(s) for s < nsys on every rank.
template <class LocalCodes, class InfoView>
void reduce_info(MPI_Comm comm, std::size_t nsys, const LocalCodes& local,
                 const std::vector<int>& reduced, const InfoView& info) {
  int any = 0;
  for (std::size_t s = 0; s < nsys; ++s)
    if (local(s) != 0 || reduced[s] != 0) any = 1;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, comm);
  if (any == 0) {
    for (std::size_t s = 0; s < nsys; ++s) info(s) = 0;
    return;
  }
  std::vector<int> both(2 * nsys);
  for (std::size_t s = 0; s < nsys; ++s) {
    both[s] = local(s) != 0 ? local(s) : INT_MAX;
    both[nsys + s] = reduced[s] != 0 ? reduced[s] : INT_MAX;
  }
  MPI_Allreduce(MPI_IN_PLACE, both.data(), static_cast<int>(2 * nsys), MPI_INT, MPI_MIN, comm);
  for (std::size_t s = 0; s < nsys; ++s)
    info(s) = both[s] != INT_MAX ? both[s] : (both[nsys + s] != INT_MAX ? both[nsys + s] : 0);
}

}  // namespace bandsolve::mpi::detail
