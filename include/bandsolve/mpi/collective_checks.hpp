#pragma once
// Collective argument checks of the distributed solves. Each rank runs its own checks (those of
// the single-process API), then every rank of the communicator learns every rank's outcome, its
// number of systems and rows (one MPI_Allgather, before any exchange): when any rank's input is
// bad, or the ranks disagree, all of them throw the same std::invalid_argument, so no rank is
// left waiting in an exchange the others never enter.
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/errors.hpp>
#include <bandsolve/mpi/datatype.hpp>
#include <bandsolve/mpi/options.hpp>

#include <mpi.h>

#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace bandsolve::mpi::detail {

// Who holds which rows: rank r holds rows offsets[r] .. offsets[r] + rows[r] - 1 of every system.
struct partition {
  int rank = 0, size = 1;
  std::size_t nsys = 0;
  std::vector<index_t> rows, offsets;
  index_t total_rows = 0;
  int max_threads = 1;  // the most threads a rank's execution space runs (batch sizes)
  // The batch bytes per thread of options::automatic_batch_bytes: the smallest of the ranks'
  // machine_batch_bytes (options.hpp).
  std::size_t machine_batch_bytes = 0;
  // Solves along an axis: the order every rank numbers the lines in (line_order.hpp's code; 0:
  // solve_along's numbering), the one the ranks proposed when all proposed the same.
  long long line_order = 0;
};

// The most rows any rank holds.
inline std::size_t max_rows(const partition& p) {
  index_t most = 0;
  for (const index_t r : p.rows) most = r > most ? r : most;
  return static_cast<std::size_t>(most);
}

// Solves along an axis of an N-D array (solve_along.hpp): the axis and d's extents (that of the
// axis itself as 0), which every rank must pass alike (the ranks split the lines only along it).
struct along_shape {
  long long axis = 0;
  long long extent[4] = {0, 0, 0, 0};
  long long line_order = 0;  // the order this rank proposes to number the lines in
};

// The communicator itself is checked locally: a null one has no ranks to agree with.
inline void check_comm(const std::string& fn, MPI_Comm comm) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized)
    bandsolve::detail::throw_invalid_argument(fn, "MPI is not initialized (or already finalized)");
  if (comm == MPI_COMM_NULL) bandsolve::detail::throw_invalid_argument(fn, "comm is MPI_COMM_NULL");
}

// What one rank's own checks found: its systems and rows, or the message of the
// std::invalid_argument they threw (without fn's prefix).
struct local_outcome {
  bool bad = false;
  std::size_t nsys = 0, held = 0;
  std::string message;
};

// options::batch_bytes_per_thread as the messages name it (the field as the ranks sent it).
inline std::string batch_bytes_text(long long field) {
  return field == static_cast<long long>(options::automatic_batch_bytes) ? "automatic"
                                                                          : std::to_string(field);
}

// The collective part of agree_on_arguments, the same code for every View type: a function of
// its own, so that each solve's instantiation calls it instead of compiling it again.
inline partition agree_on_outcomes(const std::string& fn, MPI_Comm comm, long long scalar,
                                   const local_outcome& local, const options* opts,
                                   const along_shape* shape, int threads) {
  partition p;
  MPI_Comm_rank(comm, &p.rank);
  MPI_Comm_size(comm, &p.size);

  std::string message = local.message;
  // bad, nsys, rows, scalar type, scheme, all-to-all threshold, axis, 4 extents, batch bytes,
  // threads, line order, this host's automatic batch bytes
  constexpr int F = 15;
  const along_shape none{};
  const along_shape& sh = shape ? *shape : none;
  long long mine[F] = {0, 0, 0, scalar,
                       opts ? static_cast<long long>(opts->scheme) : 0,
                       opts ? static_cast<long long>(opts->all_to_all_min_lines_per_rank) : 0,
                       sh.axis, sh.extent[0], sh.extent[1], sh.extent[2], sh.extent[3],
                       opts ? static_cast<long long>(opts->batch_bytes_per_thread) : 0, threads,
                       sh.line_order, static_cast<long long>(machine_batch_bytes())};
  if (local.bad) {
    mine[0] = 1;
  } else if (local.held < 1) {
    mine[0] = 1;
    message = "this rank holds 0 rows; every rank must hold at least one row of each system";
  } else {
    mine[1] = static_cast<long long>(local.nsys);
    mine[2] = static_cast<long long>(local.held);
  }
  std::vector<long long> all(F * static_cast<std::size_t>(p.size));
  MPI_Allgather(mine, F, MPI_LONG_LONG, all.data(), F, MPI_LONG_LONG, comm);
  const auto field = [&](int r, int k) { return all[static_cast<std::size_t>(F * r + k)]; };

  int first_bad = -1, bad_ranks = 0;
  for (int r = 0; r < p.size; ++r)
    if (field(r, 0) != 0) {
      if (first_bad < 0) first_bad = r;
      ++bad_ranks;
    }
  if (first_bad >= 0) {
    // The first bad rank's message, the same on every rank.
    char text[512] = {};
    if (p.rank == first_bad) std::strncpy(text, message.c_str(), sizeof(text) - 1);
    MPI_Bcast(text, static_cast<int>(sizeof(text)), MPI_CHAR, first_bad, comm);
    if (bad_ranks > 1)
      bandsolve::detail::throw_invalid_argument(fn, "rank ", first_bad, " of ", p.size, ": ", text,
                                                " (and bad arguments on ", bad_ranks - 1,
                                                " other ranks)");
    bandsolve::detail::throw_invalid_argument(fn, "rank ", first_bad, " of ", p.size, ": ", text);
  }
  for (int r = 1; r < p.size; ++r) {
    if (field(r, 6) != field(0, 6))
      bandsolve::detail::throw_invalid_argument(fn, "the ranks pass different axes: axis = ",
                                                field(0, 6), " on rank 0 but ", field(r, 6),
                                                " on rank ", r);
    for (int k = 0; k < 4; ++k)
      if (field(r, 7 + k) != field(0, 7 + k))
        bandsolve::detail::throw_invalid_argument(
            fn, "the ranks hold different batch extents: d.extent(", k, ") = ", field(0, 7 + k),
            " on rank 0 but ", field(r, 7 + k), " on rank ", r,
            " (only the extent along axis ", field(0, 6), " may differ)");
    if (field(r, 1) != field(0, 1))
      bandsolve::detail::throw_invalid_argument(
          fn, "the ranks hold different numbers of systems: nsys = ", field(0, 1), " on rank 0 but ",
          field(r, 1), " on rank ", r, " (every rank holds a part of every system)");
    if (field(r, 3) != field(0, 3))
      bandsolve::detail::throw_invalid_argument(
          fn, "the ranks pass different scalar types: ", scalar_name(field(0, 3)),
          " on rank 0 but ", scalar_name(field(r, 3)), " on rank ", r);
    if (field(r, 4) != field(0, 4) || field(r, 5) != field(0, 5) || field(r, 11) != field(0, 11))
      bandsolve::detail::throw_invalid_argument(
          fn, "the ranks pass different options: scheme ", field(0, 4),
          ", all_to_all_min_lines_per_rank ", field(0, 5), ", batch_bytes_per_thread ",
          batch_bytes_text(field(0, 11)), " on rank 0 but ", field(r, 4), ", ", field(r, 5), ", ",
          batch_bytes_text(field(r, 11)), " on rank ", r);
  }
  p.nsys = static_cast<std::size_t>(field(0, 1));
  p.line_order = field(0, 13);
  for (int r = 1; r < p.size; ++r)
    if (field(r, 13) != field(0, 13)) p.line_order = 0;
  p.machine_batch_bytes = static_cast<std::size_t>(field(0, 14));
  for (int r = 0; r < p.size; ++r) {
    p.max_threads = field(r, 12) > p.max_threads ? static_cast<int>(field(r, 12)) : p.max_threads;
    const auto machine = static_cast<std::size_t>(field(r, 14));
    if (machine < p.machine_batch_bytes) p.machine_batch_bytes = machine;
  }
  p.rows.resize(static_cast<std::size_t>(p.size));
  p.offsets.resize(static_cast<std::size_t>(p.size));
  long long total = 0;
  for (int r = 0; r < p.size; ++r) {
    p.offsets[static_cast<std::size_t>(r)] = static_cast<index_t>(total);
    p.rows[static_cast<std::size_t>(r)] = static_cast<index_t>(field(r, 2));
    total += field(r, 2);
  }
  p.total_rows = static_cast<index_t>(total);
  // Info codes are int rows; MPI counts are int: 3 words of each of 2 reduced rows per rank
  // per line all arrive at one rank in the gather scheme.
  if (total > static_cast<long long>(INT_MAX) - 1)
    bandsolve::detail::throw_invalid_argument(fn, "the systems have ", total,
                                              " rows in all, more than the supported ", INT_MAX - 1);
  if (static_cast<long long>(p.nsys) * 6 * p.size > static_cast<long long>(INT_MAX))
    bandsolve::detail::throw_invalid_argument(fn, "nsys = ", p.nsys, " over ", p.size,
                                              " ranks exceeds MPI's int message counts");
  return p;
}

// local_checks() returns {nsys, rows held by this rank} or throws std::invalid_argument with
// fn's prefix. scalar: scalar_code of the scalar each rank sends (datatype.hpp); opts: the
// options, if the call takes them (the ranks must agree on both: different schemes would wait in
// different calls); shape: the axis and extents of a solve along an axis, if it is one;
// threads: those of this rank's execution space (the ranks may differ; the partition keeps the
// most).
template <class LocalChecks>
partition agree_on_arguments(const std::string& fn, MPI_Comm comm, long long scalar,
                             const LocalChecks& local_checks, const options* opts = nullptr,
                             const along_shape* shape = nullptr, int threads = 1) {
  check_comm(fn, comm);
  local_outcome local;
  try {
    const auto [nsys, held] = local_checks();
    local.nsys = static_cast<std::size_t>(nsys);
    local.held = static_cast<std::size_t>(held);
  } catch (const std::invalid_argument& e) {
    local.bad = true;
    local.message = e.what();
    if (local.message.compare(0, fn.size() + 2, fn + ": ") == 0)
      local.message.erase(0, fn.size() + 2);
  }
  return agree_on_outcomes(fn, comm, scalar, local, opts, shape, threads);
}

}  // namespace bandsolve::mpi::detail
