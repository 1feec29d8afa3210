#pragma once
// How the distributed solves exchange the reduced systems (see docs/distributed.md):
//   exchange::all_to_all  every rank solves the reduced systems of a share of the lines
//                         (MPI_Alltoallv there and back): for many lines;
//   exchange::gather      rank 0 solves all of them (MPI_Gatherv, MPI_Scatterv): for few lines;
//   exchange::automatic   all_to_all when there are at least all_to_all_min_lines_per_rank lines
//                         per rank, else gather.
#include <bandsolve/backend/cache_sizes.hpp>

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
  // One-shot solves of scalar lines (solve, solve_along) on host execution spaces reduce,
  // exchange and finish the lines in batches whose coefficients and right-hand sides take about
  // this many bytes per thread (on the rank with the most rows, for the rank with the most
  // threads); the reduce pass keeps the batch's forward rows (as many bytes again) for the
  // finish, which finds them in cache. 0: every line in one batch, the finish sweeping forward
  // again from a, b, c, d. A factorization (factorize, factorize_along) on the host passes keeps
  // its reduced systems in batches of as many lines, so that each solve's d stays in cache
  // between its two passes (one batch where every rank's finish corrects only the rows near its
  // part's ends: factorization::finish_tip_rows). One-shot solves of block lines (solve with
  // algo::block_thomas) on host spaces batch their lines too, the batch's kept rows and
  // right-hand sides (2m^2 + m nrhs words per block row) within this many bytes per thread.
  // Each batch costs two collective exchanges: with more ranks than cores and an MPI that waits
  // without giving up the core (MPICH; Open MPI with mpi_yield_when_idle 0), each one waits for
  // a scheduler time slice (4 ranks on 2 cores: 250 ns per unknown against 3.7), and 0 is the
  // setting to take there. The time depends on it, the result not.
  // automatic_batch_bytes (the default) takes the size from each rank's level-2 cache, the
  // smallest over the ranks (machine_batch_bytes below).
  static constexpr std::size_t automatic_batch_bytes = ~std::size_t(0);
  std::size_t batch_bytes_per_thread = automatic_batch_bytes;
};

namespace detail {

// The scheme a solve of nsys lines over `ranks` ranks takes; the same on every rank.
inline exchange chosen_scheme(const options& opt, std::size_t nsys, int ranks) {
  if (opt.scheme != exchange::automatic) return opt.scheme;
  return nsys >= opt.all_to_all_min_lines_per_rank * static_cast<std::size_t>(ranks)
             ? exchange::all_to_all
             : exchange::gather;
}

// The batch bytes per thread that automatic_batch_bytes takes on a host with level2_bytes of L2
// per core (0 where unknown). A batch's working set is about twice its bytes (its lines' inputs
// and the forward rows kept for the finish): where a quarter of L2 holds at least 512 KiB (L2 of
// 2 MiB or more per core), that quarter, so that the working set stays in L2; else 2 MiB, beyond
// L2 (the fastest size on a Zen 5 with 1 MiB of L2). Measured on 256^3 doubles over 2 ranks of
// one thread (docs/distributed.md, "Batch size and kept buffers"): an Intel Xeon with 2 MiB of L2
// per core took 0.72-0.93x the time of 2 MiB batches with 512 KiB in the one-shot solves of
// scalar lines, an AMD EPYC Zen 5 with 1 MiB 1.05-1.21x.
inline std::size_t batch_bytes_for_level2(std::size_t level2_bytes) {
  const std::size_t quarter = level2_bytes / 4, least = std::size_t(512) << 10;
  return quarter >= least ? quarter : std::size_t(2) << 20;
}

// This host's (cache_sizes.hpp).
inline std::size_t machine_batch_bytes() {
  return batch_bytes_for_level2(bandsolve::detail::level2_cache_bytes());
}

// The bytes per thread of opt's batches: opt's own, or `machine` (the ranks' agreed
// machine_batch_bytes, partition::machine_batch_bytes) for automatic_batch_bytes.
inline std::size_t batch_bytes(const options& opt, std::size_t machine) {
  return opt.batch_bytes_per_thread == options::automatic_batch_bytes ? machine
                                                                      : opt.batch_bytes_per_thread;
}

// Lines per batch of a one-shot solve's host passes (batch_bytes of opt and `machine`): the same
// on every rank, at least 64 per thread, a multiple of 128 lines from 128 on (whole SIMD packs
// in every layout: column packs hold 128 floats, and a batch that starts inside a pack of the
// stored factors runs its factored passes one line at a time), else 64.
inline std::size_t batch_lines(const options& opt, std::size_t machine, std::size_t nsys,
                               std::size_t max_rows, std::size_t scalar_bytes, int threads) {
  const std::size_t per_line = 4 * max_rows * scalar_bytes;
  const std::size_t t = threads > 1 ? static_cast<std::size_t>(threads) : 1;
  const std::size_t bytes = batch_bytes(opt, machine);
  if (bytes == 0 || per_line == 0) return nsys;
  const std::size_t lines = bytes / per_line;
  return (lines < 128 ? 64 : lines / 128 * 128) * t;
}

}  // namespace detail
}  // namespace bandsolve::mpi
