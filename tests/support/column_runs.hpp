#pragma once
// Shapes of the tests of the column runs (detail::column_run_bytes, backend/host_simd/
// work_shape.hpp): which rows take runs of 8 KiB or of 2 KiB, lines that fill two runs per thread
// with a partial one at the end of each lane row, and the thread counts the tests check them on.
#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <cstddef>

namespace bstest {

// Rows from which the column runs are 2 KiB wide (8 KiB below): 512 doubles, 2048 floats.
template <class T>
constexpr std::size_t short_runs_from_rows = sizeof(T) >= 8 ? 512 : 2048;

// Whether exec runs few enough threads (at most 4) for the lines a run test solves to fill its
// runs; WARNs and returns false otherwise (the runs are then checked on fewer threads).
template <class Exec>
bool runs_fill_threads_of(const Exec& exec) {
  const int t = exec.concurrency();
  if (t <= 4) return true;
  WARN(exec.name() << ": " << t << " threads, more lines than the test solves; its runs are "
                   << "checked on fewer threads");
  return false;
}

// Lines in runs for n rows on t threads: `runs` lane rows (two per thread) of `row` lines each,
// one full run and an eighth, so that each lane row ends in a partial run. REQUIREs that
// column_run_bytes gives those lines the runs of their rows (8 KiB below
// short_runs_from_rows<T>, 2 KiB from there).
struct lines_in_runs {
  std::size_t runs = 0, row = 0;
};

template <class T>
lines_in_runs lines_in_runs_of(std::size_t n, int t) {
  namespace bd = bandsolve::detail;
  const int bytes =
      n < short_runs_from_rows<T> ? bd::column_long_run_bytes : bd::column_short_run_bytes;
  const std::size_t lanes = std::size_t(bytes) / sizeof(T);
  lines_in_runs l;
  l.runs = 2 * std::size_t(t);
  l.row = lanes + lanes / 8;
  REQUIRE(bd::column_run_bytes<T, T>(static_cast<bandsolve::index_t>(l.runs * l.row),
                                     static_cast<bandsolve::index_t>(n), t) == bytes);
  return l;
}

}  // namespace bstest
