// Column batches of many systems: the one-shot Thomas solve reads runs of 2 or 8 KiB of every row
// (detail::column_run_packing). Which shapes take the runs, and that every system of them (the
// last, partial run included) matches LAPACK ?gtsv with its own info code.
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <complex>
#include <cstdint>
#include <vector>

namespace test_thomas_column_runs {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
namespace bd = bandsolve::detail;
using bandsolve::index_t;

namespace {

template <class T>
constexpr index_t lanes_of(int bytes) {
  return bytes / static_cast<index_t>(sizeof(T));
}

}  // namespace

TEMPLATE_TEST_CASE("column runs: taken for many systems of 48 to 8192 rows, two per thread",
                   "[thomas][column_runs]", float, double) {
  using T = TestType;
  constexpr int long_runs = bd::column_long_run_bytes, short_runs = bd::column_short_run_bytes;
  const index_t long_below = sizeof(T) >= 8 ? 512 : 2048;
  for (const int threads : {1, 2, 8}) {
    INFO(threads << " threads");
    const auto fill = [&](int bytes) { return 2 * threads * lanes_of<T>(bytes); };
    // Row range: packs below 48 rows and above 8192, long runs below long_below, short above.
    CHECK(bd::column_run_bytes<T, T>(fill(long_runs), 47, threads) == 0);
    CHECK(bd::column_run_bytes<T, T>(fill(long_runs), 48, threads) == long_runs);
    CHECK(bd::column_run_bytes<T, T>(fill(long_runs), long_below - 1, threads) == long_runs);
    CHECK(bd::column_run_bytes<T, T>(fill(short_runs), long_below, threads) == short_runs);
    CHECK(bd::column_run_bytes<T, T>(fill(short_runs), 8192, threads) == short_runs);
    CHECK(bd::column_run_bytes<T, T>(fill(short_runs), 8193, threads) == 0);
    // Two runs per thread at least.
    CHECK(bd::column_run_bytes<T, T>(fill(long_runs) - 1, 64, threads) == 0);
    CHECK(bd::column_run_bytes<T, T>(fill(short_runs) - 1, 4096, threads) == 0);
    // Complex right-hand sides keep the packs.
    CHECK(bd::column_run_bytes<T, std::complex<T>>(fill(long_runs), 64, threads) == 0);
  }
  // The c' rows of two runs per thread must fit the kept scratch.
  const std::size_t limit = bandsolve::scratch_cache_limit;
  const int many = 4096;
  const index_t nsys = 2 * many * lanes_of<T>(short_runs);
  const bool fits = std::size_t(many) * 2 * 8192 * std::size_t(short_runs) <= limit;
  CHECK(bd::column_run_bytes<T, T>(nsys, 8192, many) == (fits ? short_runs : 0));
  bandsolve::scratch_cache_limit = 0;
  CHECK(bd::column_run_bytes<T, T>(2 * lanes_of<T>(long_runs), 64, 1) == 0);
  bandsolve::scratch_cache_limit = limit;
  // Thomas's scratch estimate follows the runs: c' rows of two runs per thread.
  const index_t n = 64, runs_nsys = 4 * lanes_of<T>(long_runs) + 3;
  CHECK(bandsolve::solve_scratch_bytes<bl::column, T>(bandsolve::algo::thomas{}, n, runs_nsys,
                                                      2) >=
        2 * 2 * std::size_t(n) * std::size_t(long_runs));
}

TEMPLATE_TEST_CASE("column runs: every system matches LAPACK, every info code in place",
                   "[thomas][column_runs]", float, double) {
  using T = TestType;
  const index_t long_below = sizeof(T) >= 8 ? 512 : 2048;
  // Long runs from 48 rows, short runs from long_below on.
  for (const index_t n : {index_t(48), index_t(67), index_t(200), long_below + 1}) {
    bstest::for_each_exec([&](auto exec) {
      using Exec = decltype(exec);
      const int threads = exec.concurrency();
      if (threads > 4) {
        WARN(bstest::exec_name<Exec>() << ": " << threads << " threads, more systems than the "
                                       << "test solves; its runs are checked on fewer threads");
        return;
      }
      const int bytes = n < long_below ? bd::column_long_run_bytes : bd::column_short_run_bytes;
      // Two runs per thread, one more, and a partial last run.
      const index_t nsys = (2 * threads + 1) * lanes_of<T>(bytes) + 5;
      INFO(bstest::exec_name<Exec>() << ", n = " << n << ", " << nsys << " systems");
      REQUIRE(bd::column_run_bytes<T, T>(nsys, n, threads) == bytes);
      auto p = bstest::random_dominant<T>(static_cast<std::size_t>(nsys),
                                          static_cast<std::size_t>(n),
                                          static_cast<std::uint32_t>(11 + n));
      const std::vector<int> expected = bstest::zero_pivots_first_middle_last(p);
      std::vector<bool> skip(expected.size());
      for (std::size_t s = 0; s < expected.size(); ++s) skip[s] = expected[s] != 0;
      auto D = bstest::upload<bl::column, Exec>(p);
      auto info = bstest::make_info<typename Exec::memory_space>(p.nsys);
      bandsolve::solve(exec, bandsolve::algo::thomas{}, D.a, D.b, D.c, D.d, info);
      exec.fence();
      CHECK(bstest::info_to_host(info) == expected);
      const std::vector<T> x = bstest::to_host(D.d, p.nsys);
      CHECK(bstest::max_rel_diff(x, bstest::reference_solve(p), p.nsys, p.n, skip) <=
            bstest::lapack_tol<T>());
    });
  }
}

}  // namespace test_thomas_column_runs
