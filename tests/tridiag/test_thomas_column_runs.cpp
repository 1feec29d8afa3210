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

TEMPLATE_TEST_CASE("column runs: taken for many systems of 256 to 8192 rows, two per thread",
                   "[thomas][column_runs]", float, double) {
  using T = TestType;
  constexpr int long_runs = bd::column_long_run_bytes, short_runs = bd::column_short_run_bytes;
  const index_t long_below = sizeof(T) >= 8 ? 512 : 2048;
  for (const int threads : {1, 2, 8}) {
    INFO(threads << " threads");
    const auto fill = [&](int bytes) { return 2 * threads * lanes_of<T>(bytes); };
    // Row range: packs below 256 rows and above 8192, long runs below long_below, short above.
    CHECK(bd::column_run_bytes<T, T>(fill(long_runs), 255, threads) == 0);
    CHECK(bd::column_run_bytes<T, T>(fill(long_runs), 256, threads) == long_runs);
    CHECK(bd::column_run_bytes<T, T>(fill(long_runs), long_below - 1, threads) == long_runs);
    CHECK(bd::column_run_bytes<T, T>(fill(short_runs), long_below, threads) == short_runs);
    CHECK(bd::column_run_bytes<T, T>(fill(short_runs), 8192, threads) == short_runs);
    CHECK(bd::column_run_bytes<T, T>(fill(short_runs), 8193, threads) == 0);
    // Two runs per thread at least.
    CHECK(bd::column_run_bytes<T, T>(fill(long_runs) - 1, 300, threads) == 0);
    CHECK(bd::column_run_bytes<T, T>(fill(short_runs) - 1, 4096, threads) == 0);
    // Complex right-hand sides keep the packs.
    CHECK(bd::column_run_bytes<T, std::complex<T>>(fill(long_runs), 300, threads) == 0);
  }
  // The c' rows of two runs per thread must fit the kept scratch: 4096 threads x 2 runs of
  // 8192 rows x 2 KiB are 128 GiB, past the default limit; with a limit of 0 nothing fits.
  const std::size_t limit = bandsolve::scratch_cache_limit;
  const int many = 4096;
  REQUIRE(limit < std::size_t(many) * 2 * 8192 * std::size_t(short_runs));
  CHECK(bd::column_run_bytes<T, T>(2 * many * lanes_of<T>(short_runs), 8192, many) == 0);
  CHECK(bd::column_run_bytes<T, T>(2 * lanes_of<T>(long_runs), 300, 1) == long_runs);
  bandsolve::scratch_cache_limit = 0;
  CHECK(bd::column_run_bytes<T, T>(2 * lanes_of<T>(long_runs), 300, 1) == 0);
  bandsolve::scratch_cache_limit = limit;
  // Thomas's scratch estimate follows the runs: c' rows of two runs per thread.
  const index_t n = 260, runs_nsys = 4 * lanes_of<T>(long_runs) + 3;
  CHECK(bandsolve::solve_scratch_bytes<bl::column, T>(bandsolve::algo::thomas{}, n, runs_nsys,
                                                      2) >=
        2 * 2 * std::size_t(n) * std::size_t(long_runs));
}

// Dense and padded column batches, and a strided View of unit system stride (systems 3 ..
// nsys+2 of a wider column array, whose other systems must stay untouched).
TEMPLATE_TEST_CASE("column runs: every system matches LAPACK, every info code in place",
                   "[thomas][column_runs]", float, double) {
  using T = TestType;
  const index_t long_below = sizeof(T) >= 8 ? 512 : 2048;
  // Long runs from 256 rows, short runs from long_below on.
  for (const index_t n : {index_t(256), long_below + 1}) {
    bstest::for_each_exec([&](auto exec) {
      using Exec = decltype(exec);
      using Mem = typename Exec::memory_space;
      const int threads = exec.concurrency();
      if (threads > 4) {
        WARN(bstest::exec_name<Exec>() << ": " << threads << " threads, more systems than the "
                                       << "test solves; its runs are checked on fewer threads");
        return;
      }
      const int bytes = n < long_below ? bd::column_long_run_bytes : bd::column_short_run_bytes;
      // Two runs per thread, one more, and a partial last run.
      const index_t nsys = (2 * threads + 1) * lanes_of<T>(bytes) + 5;
      REQUIRE(bd::column_run_bytes<T, T>(nsys, n, threads) == bytes);
      auto p = bstest::random_dominant<T>(static_cast<std::size_t>(nsys),
                                          static_cast<std::size_t>(n),
                                          static_cast<std::uint32_t>(11 + n));
      const std::vector<int> expected = bstest::zero_pivots_first_middle_last(p);
      std::vector<bool> skip(expected.size());
      for (std::size_t s = 0; s < expected.size(); ++s) skip[s] = expected[s] != 0;
      const std::vector<T> reference = bstest::reference_solve(p);
      // Solves the batch held by a, b, c, d (filled from p) and checks it against LAPACK.
      const auto check = [&](const auto& a, const auto& b, const auto& c, const auto& d) {
        bstest::fill(a, p.a, p.nsys);
        bstest::fill(b, p.b, p.nsys);
        bstest::fill(c, p.c, p.nsys);
        bstest::fill(d, p.d, p.nsys);
        auto info = bstest::make_info<Mem>(p.nsys);
        bandsolve::solve(exec, bandsolve::algo::thomas{}, a, b, c, d, info);
        exec.fence();
        CHECK(bstest::info_to_host(info) == expected);
        CHECK(bstest::max_rel_diff(bstest::to_host(d, p.nsys), reference, p.nsys, p.n, skip) <=
              bstest::lapack_tol<T>());
      };
      const auto ns = static_cast<std::size_t>(nsys), rows = static_cast<std::size_t>(n);
      {
        INFO(bstest::exec_name<Exec>() << ", n = " << n << ", " << nsys << " systems, dense");
        const auto batch = [&](const char* label) {
          return bandsolve::make_batch<bl::column, T, Mem>(label, ns, rows);
        };
        check(batch("a"), batch("b"), batch("c"), batch("d"));
      }
      {
        INFO(bstest::exec_name<Exec>() << ", n = " << n << ", " << nsys << " systems, padded");
        const auto batch = [&](const char* label) {
          return bandsolve::make_padded_batch<bl::column, T, Mem>(label, ns, rows);
        };
        check(batch("a"), batch("b"), batch("c"), batch("d"));
      }
      {
        INFO(bstest::exec_name<Exec>() << ", n = " << n << ", " << nsys << " systems, strided");
        using Big = Kokkos::View<T**, Kokkos::LayoutLeft, Mem>;
        using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
        const auto systems = std::make_pair(std::size_t(3), ns + 3);
        Big A("A", ns + 7, rows), B("B", ns + 7, rows), C("C", ns + 7, rows), D("D", ns + 7, rows);
        Kokkos::deep_copy(D, T(7));
        const auto sub = [&](const Big& big) {
          return Sub(Kokkos::subview(big, systems, Kokkos::ALL));
        };
        check(sub(A), sub(B), sub(C), sub(D));
        auto h = Kokkos::create_mirror_view(D);
        Kokkos::deep_copy(h, D);
        std::size_t touched = 0;
        for (std::size_t i = 0; i < rows; ++i)
          for (const std::size_t s : {std::size_t(0), std::size_t(2), ns + 3, ns + 6})
            touched += h(s, i) != T(7);
        CHECK(touched == 0);
      }
    });
  }
}

}  // namespace test_thomas_column_runs
