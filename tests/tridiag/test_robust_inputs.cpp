// Bad input and edge sizes across the host API: scratch bounds for one long system, catchable
// allocation failures, the one info contract (NaN, Inf, zero pivots, singular systems) on every
// family, partly overlapping arguments, and toeplitz_dc near the edge of diagonal dominance.
// Double precision on the default host execution space only: a small, representative set of
// instantiations keeps this translation unit cheap to compile.
#include <bandsolve/bandsolve.hpp>
#include <test_support.hpp>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace test_robust_inputs {  // units compile in groups: tests/CMakeLists.txt

// The allocation-failure test asks for more memory than exists: under AddressSanitizer the
// allocator must return null (as malloc does) instead of aborting, so that Kokkos's own failure
// path, and ours above it, run.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

namespace {

using exec_space = Kokkos::DefaultHostExecutionSpace;
using row_view = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
using info_view = Kokkos::View<int*, Kokkos::HostSpace>;
using Catch::Matchers::StartsWith;

struct batch {
  row_view a, b, c, d;
  info_view info;
};

batch upload(const bstest::host_batch<double>& p) {
  batch r{bstest::to_device<bandsolve::layout::row, double>("a", p.a, p.nsys, p.n),
          bstest::to_device<bandsolve::layout::row, double>("b", p.b, p.nsys, p.n),
          bstest::to_device<bandsolve::layout::row, double>("c", p.c, p.nsys, p.n),
          bstest::to_device<bandsolve::layout::row, double>("d", p.d, p.nsys, p.n),
          info_view("info", p.nsys)};
  return r;
}

// Thomas's info by definition: the first row whose LU pivot (no pivoting) is bad.
int lu_info(const bstest::host_batch<double>& p, std::size_t s) {
  double cp = 0;
  for (std::size_t i = 0; i < p.n; ++i) {
    const double piv = p.b[p.idx(s, i)] - (i ? p.a[p.idx(s, i)] * cp : 0.0);
    if (!(std::fabs(piv) >= std::numeric_limits<double>::min() &&
          std::fabs(piv) <= std::numeric_limits<double>::max()))
      return static_cast<int>(i + 1);
    cp = (i + 1 < p.n ? p.c[p.idx(s, i)] : 0.0) / piv;
  }
  return 0;
}

// Every tridiagonal algorithm without pivoting, one-shot, on p; info codes on the host.
template <class Algo>
std::vector<int> run_info(const bstest::host_batch<double>& p) {
  const exec_space exec;
  auto v = upload(p);
  bandsolve::solve(exec, Algo{}, v.a, v.b, v.c, v.d, v.info);
  exec.fence();
  return bstest::info_to_host(v.info);
}

// Systems with a NaN diagonal, an Inf subdiagonal, a zero first pivot, a zero pivot later on
// and an exactly singular (all-zero) row, each in its own system, plus clean systems.
bstest::host_batch<double> bad_batch(std::size_t nsys, std::size_t n) {
  auto p = bstest::random_dominant<double>(nsys, n, 7);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t mid = n / 2;
  p.b[p.idx(0, mid)] = nan;
  p.a[p.idx(1, mid)] = inf;
  p.b[p.idx(2, 0)] = 0;
  // An exactly zero LU pivot at row mid + 1 of a regular matrix: rows mid and mid + 1 start
  // [1 1; 1 1] with a[mid] = 0, so c' = 1 and the pivot 1 - 1 * 1 = 0 in any rounding.
  p.a[p.idx(3, mid)] = 0;
  p.b[p.idx(3, mid)] = p.c[p.idx(3, mid)] = 1;
  p.a[p.idx(3, mid + 1)] = p.b[p.idx(3, mid + 1)] = 1;
  p.a[p.idx(4, mid)] = p.b[p.idx(4, mid)] = p.c[p.idx(4, mid)] = 0;
  p.c[p.idx(5, n - 1)] = nan;  // ignored: c[n-1] is not part of the matrix
  return p;
}

}  // namespace

TEST_CASE("one info contract for every algorithm without pivoting", "[robust][info]") {
  for (std::size_t n : {7, 300, 5000}) {
    for (std::size_t nsys : {6, 40}) {  // 6: a team per system; 40: packs across systems
      const auto p = bad_batch(nsys, n);
      std::vector<int> expected(nsys);
      for (std::size_t s = 0; s < nsys; ++s) expected[s] = lu_info(p, s);
      CAPTURE(n, nsys);
      CHECK(expected[0] == static_cast<int>(n / 2 + 1));
      CHECK(expected[1] == static_cast<int>(n / 2 + 1));
      CHECK(expected[2] == 1);
      CHECK(expected[3] == static_cast<int>(n / 2 + 2));
      CHECK(expected[4] == static_cast<int>(n / 2 + 1));
      CHECK(expected[5] == 0);
      CHECK(run_info<bandsolve::algo::thomas>(p) == expected);
      // System 3 is regular: an algorithm that eliminates in another order may solve it without
      // meeting a bad pivot (then 0, and its solution is finite); one that meets one names
      // Thomas's row. Every other system holds every algorithm to the same row.
      const auto reordered = [&](std::vector<int> got) {
        CHECK((got[3] == expected[3] || got[3] == 0));
        got[3] = expected[3];
        return got;
      };
      CHECK(reordered(run_info<bandsolve::algo::pcr>(p)) == expected);
      CHECK(reordered(run_info<bandsolve::algo::cr>(p)) == expected);
      CHECK(reordered(run_info<bandsolve::algo::thomas_pcr>(p)) == expected);
      CHECK(reordered(run_info<bandsolve::algo::automatic>(p)) == expected);
    }
  }
}

TEST_CASE("pivoting families report NaN, Inf and singular systems", "[robust][info]") {
  const exec_space exec;
  const std::size_t n = 50, nsys = 6;
  const auto p = bad_batch(nsys, n);
  const std::size_t mid = n / 2;
  SECTION("partial_pivoting") {
    auto v = upload(p);
    bandsolve::solve(exec, bandsolve::algo::partial_pivoting{}, v.a, v.b, v.c, v.d, v.info);
    exec.fence();
    const auto info = bstest::info_to_host(v.info);
    CHECK(info[0] == static_cast<int>(mid + 1));  // NaN diagonal: its own pivot
    CHECK(info[1] >= 1);                           // Inf reaches a pivot at once or next row
    CHECK(info[1] <= static_cast<int>(mid + 1));
    CHECK(info[2] == 0);  // a zero diagonal needs only an interchange
    CHECK(info[3] == 0);
    CHECK(info[4] > 0);  // singular
    CHECK(info[5] == 0);
  }
  SECTION("banded_lu with and without pivoting") {
    for (bool pivoting : {true, false}) {
      // Band storage of kl = ku = 1 (band_layout.hpp): entry k = kl + ku + i - j of column j.
      Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> ab("ab", nsys, n, 4);
      row_view x("x", nsys, n);
      info_view info_v("info", nsys);
      for (std::size_t s = 0; s < nsys; ++s)
        for (std::size_t j = 0; j < n; ++j) {
          // column j: ab(kv + i - j) = A(i, j), kv = kl + ku = 2
          if (j > 0) ab(s, j, 1) = p.c[p.idx(s, j - 1)];
          ab(s, j, 2) = p.b[p.idx(s, j)];
          if (j + 1 < n) ab(s, j, 3) = p.a[p.idx(s, j + 1)];
          x(s, j) = p.d[p.idx(s, j)];
        }
      bandsolve::solve(exec, bandsolve::algo::banded_lu{1, 1, pivoting}, ab, x, info_v);
      exec.fence();
      const auto info = bstest::info_to_host(info_v);
      CAPTURE(pivoting);
      CHECK(info[0] == static_cast<int>(mid + 1));
      CHECK(info[1] >= 1);
      CHECK(info[1] <= static_cast<int>(mid + 1));
      CHECK(info[4] > 0);
      CHECK(info[5] == 0);
      if (!pivoting) {
        for (std::size_t s = 0; s < nsys; ++s) CHECK(info[s] == lu_info(p, s));
      } else {
        CHECK(info[2] == 0);
        CHECK(info[3] == 0);
      }
    }
  }
}

TEST_CASE("scratch grows with the systems solved: one long system", "[robust][scratch]") {
  const int threads = static_cast<int>(exec_space().concurrency());
  const std::size_t n = std::size_t(1) << 24;
  // Thomas: n doubles for one system, whatever the pack width or layout (c' of one system: each
  // work item is a chain of one, with no second item in flight).
  // Above 1 MiB an item's scratch is an allocated slice, one per item running at once
  // (launch.hpp, pack_scratch_bytes).
  for (std::size_t nsys : {1, 2, 3}) {
    const std::size_t per = n * sizeof(double);
    const std::size_t t = static_cast<std::size_t>(threads);
    const std::size_t expected = (nsys < t ? nsys : t) * per + 64;
    CAPTURE(nsys, threads);
    CHECK(bandsolve::solve_scratch_bytes<bandsolve::layout::row, double>(
              bandsolve::algo::thomas{}, n, nsys, threads) == expected);
    CHECK(bandsolve::solve_scratch_bytes<bandsolve::layout::column, double>(
              bandsolve::algo::thomas{}, n, nsys, threads) == expected);
    CHECK(bandsolve::solve_scratch_bytes<bandsolve::layout::strided, double>(
              bandsolve::algo::thomas{}, n, nsys, threads, false) == expected);
  }
  // PCR and CR: 6 n and 4 n values plus the threads' first bad rows.
  const std::size_t codes = (threads * sizeof(long long) + 63) / 64 * 64;
  CHECK(bandsolve::solve_scratch_bytes<double>(bandsolve::algo::pcr{}, n, 1, threads) ==
        (codes + 6 * n * sizeof(double) + 63) / 64 * 64 + 64);
  CHECK(bandsolve::solve_scratch_bytes<double>(bandsolve::algo::cr{}, n, 1, threads) ==
        (codes + 4 * n * sizeof(double) + 63) / 64 * 64 + 64);
  // A full batch: per-thread buffers of one pack each, never more than the batch needs.
  const std::size_t big = 1000;
  const std::size_t full = bandsolve::solve_scratch_bytes<bandsolve::layout::row, double>(
      bandsolve::algo::thomas{}, big, 4096, threads);
  CHECK(full <= static_cast<std::size_t>(threads) * (big * 64 * 16 + 128));
}

TEST_CASE("one long system is solved with the scratch it needs", "[robust][scratch]") {
  const exec_space exec;
  const std::size_t n = std::size_t(1) << 21;
  auto p = bstest::random_dominant<double>(1, n, 3);
  const auto ref = bstest::reference_solve(p);
  const std::size_t saved = bandsolve::detail::max_team_scratch_bytes;
  bandsolve::detail::max_team_scratch_bytes = std::size_t(1) << 20;  // the allocated path
  for (int algo = 0; algo < 3; ++algo) {
    auto v = upload(p);
    if (algo == 0) bandsolve::solve(exec, bandsolve::algo::thomas{}, v.a, v.b, v.c, v.d, v.info);
    if (algo == 1) bandsolve::solve(exec, bandsolve::algo::pcr{}, v.a, v.b, v.c, v.d, v.info);
    if (algo == 2)
      bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, v.a, v.b, v.c, v.d, v.info);
    exec.fence();
    CAPTURE(algo);
    CHECK(bstest::info_to_host(v.info)[0] == 0);
    CHECK(bstest::rel_diff(bstest::to_host(v.d, 1), ref, n, 0) < 1e-12);
  }
  bandsolve::detail::max_team_scratch_bytes = saved;
}

TEST_CASE("a scratch allocation that fails throws from the host API", "[robust][scratch]") {
  const exec_space exec;
  try {
    (void)bandsolve::detail::allocate_scratch<Kokkos::HostSpace>(exec, "bandsolve::solve(pcr)",
                                                                 std::size_t(1) << 62);
    FAIL("no exception");
  } catch (const bandsolve::allocation_error& e) {
    CHECK_THAT(std::string(e.what()), StartsWith("bandsolve::solve(pcr): cannot allocate "));
    CHECK(e.bytes() == (std::size_t(1) << 62));
  }
  CHECK_THROWS_AS(bandsolve::detail::scratch_total("f", std::size_t(1) << 40,
                                                   std::size_t(1) << 40, 0),
                  bandsolve::allocation_error);
}

TEST_CASE("partly overlapping strided arguments are rejected", "[robust][alias]") {
  const exec_space exec;
  const std::size_t nsys = 8, n = 16;
  using strided = Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace>;
  // One array of structures: fields interleave without sharing an element (accepted), and
  // windows of one array shifted by a row share elements (rejected).
  Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> aos("aos", nsys + 1, n, 4);
  const auto field = [&](int k, std::size_t first) {
    return strided(Kokkos::subview(aos, std::make_pair(first, first + nsys), Kokkos::ALL, k));
  };
  auto p = bstest::random_dominant<double>(nsys, n, 5);
  bstest::fill(field(0, 0), p.a, nsys);
  bstest::fill(field(1, 0), p.b, nsys);
  bstest::fill(field(2, 0), p.c, nsys);
  bstest::fill(field(3, 0), p.d, nsys);
  info_view info("info", nsys);
  CHECK_NOTHROW(bandsolve::solve(exec, bandsolve::algo::pcr{}, field(0, 0), field(1, 0),
                                 field(2, 0), field(3, 0), info));
  CHECK_NOTHROW(bandsolve::solve(exec, bandsolve::algo::thomas{}, field(0, 0), field(1, 0),
                                 field(2, 0), field(3, 0), info));
  // d = field 1 of systems 1.., b = field 1 of systems 0..: the same elements, shifted.
  CHECK_THROWS_WITH(bandsolve::solve(exec, bandsolve::algo::pcr{}, field(0, 0), field(1, 0),
                                     field(2, 0), field(1, 1), info),
                    StartsWith("bandsolve::solve(pcr): d overlaps b in memory"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, field(0, 0),
                                     field(1, 0), field(2, 0), field(1, 1), info),
                    StartsWith("bandsolve::solve(thomas_pcr): d overlaps b in memory"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, bandsolve::algo::thomas{}, field(0, 0), field(1, 0),
                                     field(2, 0), field(1, 1), info),
                    StartsWith("bandsolve::solve(thomas): d overlaps b in memory"));
  // Two column windows of one row-major array that share half their columns.
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> flat("flat", nsys, 4 * n);
  const strided first_half(Kokkos::subview(flat, Kokkos::ALL, std::make_pair(0, int(n))));
  CHECK_THROWS_WITH(bandsolve::solve(exec, bandsolve::algo::thomas{}, field(0, 0), first_half,
                                     field(2, 0), strided(Kokkos::subview(
                                                      flat, Kokkos::ALL,
                                                      std::make_pair(int(n / 2), int(3 * n / 2)))),
                                     info),
                    StartsWith("bandsolve::solve(thomas): d overlaps b in memory"));
}

TEST_CASE("toeplitz_dc near the edge of diagonal dominance keeps Thomas's accuracy",
          "[robust][toeplitz]") {
  const exec_space exec;
  const std::size_t n = 1000;
  for (double eps2 : {1e-13, 1e-12, 1e-9}) {
    for (double off : {-1.0, 1.0}) {
      const double t2 = 2 + eps2;
      Kokkos::View<double*, Kokkos::HostSpace> x("x", n);
      for (std::size_t i = 0; i < n; ++i)
        x(i) = t2 + (i > 0 ? off : 0.0) + (i + 1 < n ? off : 0.0);  // T * ones
      auto plan = bandsolve::factorize(exec, bandsolve::algo::toeplitz_dc{}, off, t2, off, n);
      CHECK(plan.uses_thomas());
      CHECK(plan.info() == 0);
      CHECK(plan.blocks() <= 1);
      CHECK(plan.block_rows() <= n);
      plan.solve(exec, x);
      exec.fence();
      double err = 0;
      for (std::size_t i = 0; i < n; ++i) err = std::fmax(err, std::fabs(x(i) - 1));
      CAPTURE(eps2, off);
      // Thomas's own error here is 1e-13 to 1e-12 (about n^2 eps cond-limited growth).
      CHECK(err < 5e-12);
    }
  }
  // Well inside diagonal dominance the split is used.
  auto plan = bandsolve::factorize(exec, bandsolve::algo::toeplitz_dc{}, -1.0, 4.0, -1.0,
                                   std::size_t(100000));
  CHECK(!plan.uses_thomas());
}

}  // namespace test_robust_inputs
