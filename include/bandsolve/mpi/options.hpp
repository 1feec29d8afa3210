#pragma once
// How the distributed solves exchange the reduced systems (see docs/distributed.md):
//   exchange::all_to_all  every rank solves the reduced systems of a share of the lines
//                         (MPI_Alltoallv there and back): for many lines;
//   exchange::gather      rank 0 solves all of them (MPI_Gatherv, MPI_Scatterv): for few lines;
//   exchange::automatic   all_to_all when there are at least all_to_all_min_lines_per_rank lines
//                         per rank, else gather.
#include <cstddef>

namespace bandsolve::mpi {

enum class exchange { automatic, all_to_all, gather };

struct options {
  exchange scheme = exchange::automatic;
  // Below this many lines per rank each all-to-all message carries only a few lines' reduced
  // rows, and one rank solving them all is as fast or faster (measured crossover: about 16 lines
  // per rank at 4 ranks, none below 32 at 2; bench_distributed.cpp, mpi/scheme, and
  // docs/distributed.md).
  std::size_t all_to_all_min_lines_per_rank = 16;
};

namespace detail {

// The scheme a solve of nsys lines over `ranks` ranks takes; the same on every rank.
inline exchange chosen_scheme(const options& opt, std::size_t nsys, int ranks) {
  if (opt.scheme != exchange::automatic) return opt.scheme;
  return nsys >= opt.all_to_all_min_lines_per_rank * static_cast<std::size_t>(ranks)
             ? exchange::all_to_all
             : exchange::gather;
}

}  // namespace detail
}  // namespace bandsolve::mpi
