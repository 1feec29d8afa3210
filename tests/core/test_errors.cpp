// Bad input: every check throws std::invalid_argument whose message starts with the function name
// and gives the values, before any work is enqueued. Info helpers: throw_if_failed, count_failed.
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

namespace test_errors {  // units compile in groups: tests/CMakeLists.txt

using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;
namespace bl = bandsolve::layout;
using bandsolve::algo::thomas;
using Mem = Kokkos::HostSpace;

namespace {

template <class Layout, class T = double>
auto batch(std::size_t nsys, std::size_t n, T value = T(4)) {
  auto v = bandsolve::make_batch<Layout, T, Mem>("v", nsys, n);
  Kokkos::deep_copy(v, value);
  return v;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// bandsolve::solve(thomas)

TEMPLATE_TEST_CASE("solve(thomas) rejects mismatched rows", "[errors][thomas]", bl::row,
                   bl::column, bl::interleaved<4>) {
  using Layout = TestType;
  Kokkos::Serial exec;
  // Diagonally dominant values (a = c = 1, b = 4) so that the one valid call succeeds.
  auto a = batch<Layout>(6, 9, 1.0), b = batch<Layout>(6, 9), c = batch<Layout>(6, 9, 1.0);
  auto d = batch<Layout>(6, 9, 1.0);
  auto info = bstest::make_info(6);
  auto d7 = batch<Layout>(6, 7, 1.0);

  CHECK_THROWS_AS(bandsolve::solve(exec, thomas{}, a, b, c, d7, info), std::invalid_argument);
  CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, d7, info),
                    StartsWith("bandsolve::solve(thomas): ") &&
                        ContainsSubstring("a has 9 rows but d has 7"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, d7, b, c, d, info),
                    Catch::Matchers::Equals("bandsolve::solve(thomas): a has 7 rows but d has 9"));
  {
    auto a7 = batch<Layout>(6, 7, 1.0), c7 = batch<Layout>(6, 7, 1.0);
    CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a7, b, c7, d7, info),
                      Catch::Matchers::Equals("bandsolve::solve(thomas): b has 9 rows but d has 7"));
    auto b7 = batch<Layout>(6, 7);
    CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a7, b7, c, d7, info),
                      Catch::Matchers::Equals("bandsolve::solve(thomas): c has 9 rows but d has 7"));
    CHECK_NOTHROW(bandsolve::solve(exec, thomas{}, a7, b7, c7, d7, info));
  }
  // The valid call ran and wrote every info code.
  exec.fence();
  CHECK(bstest::info_to_host(info) == std::vector<int>(6, 0));
}

TEST_CASE("solve(thomas) leaves d and info untouched when it throws", "[errors][thomas]") {
  Kokkos::Serial exec;
  auto a = batch<bl::row>(6, 9), b = batch<bl::row>(6, 9), c = batch<bl::row>(6, 9);
  auto d7 = batch<bl::row>(6, 7, 1.0);
  auto info = bstest::make_info(6, -3);
  CHECK_THROWS_AS(bandsolve::solve(exec, thomas{}, a, b, c, d7, info), std::invalid_argument);
  exec.fence();
  CHECK(bstest::raw_copy(d7) == std::vector<double>(6 * 7, 1.0));
  CHECK(bstest::info_to_host(info) == std::vector<int>(6, -3));
}

TEMPLATE_TEST_CASE("solve(thomas) rejects mismatched system counts", "[errors][thomas]", bl::row,
                   bl::column) {
  using Layout = TestType;
  Kokkos::Serial exec;
  auto a = batch<Layout>(6, 9), b = batch<Layout>(6, 9), c = batch<Layout>(6, 9);
  auto d = batch<Layout>(6, 9, 1.0);
  auto info = bstest::make_info(6);
  auto a5 = batch<Layout>(5, 9);
  CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a5, b, c, d, info),
                    Catch::Matchers::Equals(
                        "bandsolve::solve(thomas): a holds 5 systems but d holds 6"));
  auto c8 = batch<Layout>(8, 9);
  CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c8, d, info),
                    Catch::Matchers::Equals(
                        "bandsolve::solve(thomas): c holds 8 systems but d holds 6"));
  auto d5 = batch<Layout>(5, 9, 1.0);
  auto info5 = bstest::make_info(5);
  CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, d5, info5),
                    Catch::Matchers::Equals(
                        "bandsolve::solve(thomas): a holds 6 systems but d holds 5"));
}

TEST_CASE("solve(thomas) rejects interleaved batches with different pack counts",
          "[errors][thomas]") {
  Kokkos::Serial exec;
  // 13 systems in packs of 4 need 4 packs (16 slots); b has 5 packs (20 slots).
  auto a = batch<bl::interleaved<4>>(13, 5), b = batch<bl::interleaved<4>>(17, 5);
  auto c = batch<bl::interleaved<4>>(13, 5), d = batch<bl::interleaved<4>>(13, 5, 1.0);
  auto info = bstest::make_info(13);
  CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, d, info),
                    Catch::Matchers::Equals(
                        "bandsolve::solve(thomas): b holds 20 systems but d holds 16"));
}

TEST_CASE("solve(thomas) rejects an info View of the wrong extent", "[errors][thomas]") {
  Kokkos::Serial exec;
  SECTION("row") {
    auto a = batch<bl::row>(6, 4), b = batch<bl::row>(6, 4), c = batch<bl::row>(6, 4);
    auto d = batch<bl::row>(6, 4, 1.0);
    for (std::size_t bad : {std::size_t(0), std::size_t(5), std::size_t(7)}) {
      auto info = bstest::make_info(bad);
      CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, d, info),
                        Catch::Matchers::Equals("bandsolve::solve(thomas): info.extent(0) = " +
                                                std::to_string(bad) + " but d holds 6 systems"));
    }
  }
  SECTION("column") {
    auto a = batch<bl::column>(33, 4), b = batch<bl::column>(33, 4), c = batch<bl::column>(33, 4);
    auto d = batch<bl::column>(33, 4, 1.0);
    auto info = bstest::make_info(32);
    CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, d, info),
                      Catch::Matchers::Equals(
                          "bandsolve::solve(thomas): info.extent(0) = 32 but d holds 33 systems"));
  }
  SECTION("interleaved<8>: info gives the number of systems, which must fit the packs") {
    auto a = batch<bl::interleaved<8>>(13, 4), b = batch<bl::interleaved<8>>(13, 4);
    auto c = batch<bl::interleaved<8>>(13, 4), d = batch<bl::interleaved<8>>(13, 4, 1.0);
    // 9..16 systems fit 2 packs; 8 and 17 do not.
    auto info17 = bstest::make_info(17);
    CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, d, info17),
                      Catch::Matchers::Equals("bandsolve::solve(thomas): info.extent(0) = 17 "
                                              "systems need 3 packs of 8 but d has 2 packs"));
    auto info8 = bstest::make_info(8);
    CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, d, info8),
                      StartsWith("bandsolve::solve(thomas): info.extent(0) = 8 ") &&
                          ContainsSubstring("need 1 packs of 8 but d has 2 packs"));
    auto info9 = bstest::make_info(9);
    CHECK_NOTHROW(bandsolve::solve(exec, thomas{}, a, b, c, d, info9));
    exec.fence();
  }
}

TEMPLATE_TEST_CASE("solve(thomas) rejects d sharing memory with a, b, c or info",
                   "[errors][thomas]", bl::row, bl::column, bl::interleaved<4>) {
  using Layout = TestType;
  Kokkos::Serial exec;
  auto a = batch<Layout>(6, 5), b = batch<Layout>(6, 5), c = batch<Layout>(6, 5);
  auto d = batch<Layout>(6, 5, 1.0);
  auto info = bstest::make_info(6);
  CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, b, info),
                    StartsWith("bandsolve::solve(thomas): d overlaps b in memory") &&
                        ContainsSubstring("pass separate arrays"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, a, info),
                    StartsWith("bandsolve::solve(thomas): d overlaps a in memory"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, c, info),
                    StartsWith("bandsolve::solve(thomas): d overlaps c in memory"));
  // Coefficients may share memory with each other (they are only read).
  CHECK_NOTHROW(bandsolve::solve(exec, thomas{}, b, b, b, d, info));
  exec.fence();
}

TEST_CASE("solve(thomas) overlap check: partial overlap throws, adjacent arrays do not",
          "[errors][thomas]") {
  Kokkos::Serial exec;
  constexpr std::size_t n = 5;
  Kokkos::View<double**, Kokkos::LayoutRight, Mem> big("big", 12, n);
  Kokkos::deep_copy(big, 4.0);
  using P = std::pair<std::size_t, std::size_t>;
  auto b = batch<bl::row>(6, n), c = batch<bl::row>(6, n);
  auto info = bstest::make_info(6);
  // a = systems 0..5 of big, d = systems 3..8: they share systems 3..5.
  auto a = Kokkos::subview(big, P(0, 6), Kokkos::ALL);
  auto d_overlap = Kokkos::subview(big, P(3, 9), Kokkos::ALL);
  CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, d_overlap, info),
                    StartsWith("bandsolve::solve(thomas): d overlaps a in memory"));
  // d = systems 6..11: right after a, no shared element.
  auto d_adjacent = Kokkos::subview(big, P(6, 12), Kokkos::ALL);
  CHECK_NOTHROW(bandsolve::solve(exec, thomas{}, a, b, c, d_adjacent, info));
  exec.fence();

  // info aliasing d's memory.
  auto d = batch<bl::row>(6, n, 1.0);
  Kokkos::View<int*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> info_in_d(
      reinterpret_cast<int*>(d.data()), 6);
  CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, d, info_in_d),
                    StartsWith("bandsolve::solve(thomas): d overlaps info in memory"));
  CHECK(bstest::raw_copy(d) == std::vector<double>(6 * n, 1.0));
}

TEST_CASE("solve(thomas) overlap check: a strided slice ends at its last element, not at span()",
          "[errors][thomas]") {
  // d: column 1 of a column-major (systems x 2) array of one row, i.e. values 7..13 of buf with
  // system stride 1 and row stride 14; Kokkos's span() of such a View reaches value 21. a starts
  // right after d's last value: no shared element, so the solve must run.
  Kokkos::Serial exec;
  constexpr std::size_t nsys = 7;
  using S = Kokkos::View<double**, Kokkos::LayoutStride, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::View<double*, Mem> buf("buf", 4 * nsys);
  Kokkos::deep_copy(buf, 4.0);
  const S d(buf.data() + nsys, Kokkos::LayoutStride(nsys, 1, 1, 2 * nsys));
  const S a(buf.data() + 2 * nsys, Kokkos::LayoutStride(nsys, 1, 1, nsys));
  REQUIRE(d.span() > nsys);  // the bound this check must not rely on
  Kokkos::View<double*, Mem> coefficients("bc", 2 * nsys);
  Kokkos::deep_copy(coefficients, 2.0);
  const S b(coefficients.data(), Kokkos::LayoutStride(nsys, 1, 1, nsys));
  const S c(coefficients.data() + nsys, Kokkos::LayoutStride(nsys, 1, 1, nsys));
  auto info = bstest::make_info(nsys);
  CHECK_NOTHROW(bandsolve::solve(exec, thomas{}, a, b, c, d, info));
  exec.fence();
  CHECK(buf(nsys) == 2.0);  // x = d / b
}

TEST_CASE("solve and factorize reject more rows than int info codes can name",
          "[errors][thomas]") {
  // Unmanaged Views over addresses that are never dereferenced: the check must throw before any
  // memory is touched or allocated. n = INT_MAX + 1 rows; the arrays are 2^36 bytes apart.
  using U = Kokkos::View<double**, Kokkos::LayoutRight, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const std::size_t n = std::size_t(INT_MAX) + 1;
  const std::uintptr_t base = std::uintptr_t(1) << 40, gap = std::uintptr_t(1) << 36;
  U a(reinterpret_cast<double*>(base), 1, n), b(reinterpret_cast<double*>(base + gap), 1, n),
      c(reinterpret_cast<double*>(base + 2 * gap), 1, n),
      d(reinterpret_cast<double*>(base + 3 * gap), 1, n);
  auto info = bstest::make_info(1);
  Kokkos::Serial exec;
  CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, d, info),
                    Catch::Matchers::Equals("bandsolve::solve(thomas): n = 2147483648 rows "
                                            "exceeds the supported maximum 2147483646"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, thomas{}, a, b, c),
                    StartsWith("bandsolve::factorize(thomas): n = 2147483648 rows exceeds"));
}

// ---------------------------------------------------------------------------------------------
// bandsolve::factorize(thomas) and thomas_factorization::solve

TEMPLATE_TEST_CASE("factorize(thomas) rejects mismatched coefficients and nsys",
                   "[errors][thomas][factorize]", bl::row, bl::column, bl::interleaved<8>) {
  using Layout = TestType;
  Kokkos::Serial exec;
  auto a = batch<Layout>(9, 5), b = batch<Layout>(9, 5), c = batch<Layout>(9, 5);
  auto a4 = batch<Layout>(9, 4);
  CHECK_THROWS_WITH(bandsolve::factorize(exec, thomas{}, a4, b, c),
                    Catch::Matchers::Equals("bandsolve::factorize(thomas): a has 4 rows but b has 5"));
  auto c6 = batch<Layout>(9, 6);
  CHECK_THROWS_WITH(bandsolve::factorize(exec, thomas{}, a, b, c6),
                    Catch::Matchers::Equals("bandsolve::factorize(thomas): c has 6 rows but b has 5"));
  auto a_many = batch<Layout>(40, 5);
  CHECK_THROWS_WITH(bandsolve::factorize(exec, thomas{}, a_many, b, c),
                    StartsWith("bandsolve::factorize(thomas): a holds 40 systems but b holds "));
  const std::string slots = std::to_string(bandsolve::capacity(b));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, thomas{}, a, b, c, 30),
                    Catch::Matchers::Equals("bandsolve::factorize(thomas): nsys = 30 does not "
                                            "match the " + slots + " system slots of b (" +
                                            std::string(Layout::name) + " layout)"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, thomas{}, a, b, c, 8),
                    StartsWith("bandsolve::factorize(thomas): nsys = 8 does not match"));
  CHECK_NOTHROW(bandsolve::factorize(exec, thomas{}, a, b, c, 9));
  exec.fence();
}

TEMPLATE_TEST_CASE("thomas_factorization::solve rejects a d of another shape",
                   "[errors][thomas][factorize]", bl::row, bl::column, bl::interleaved<4>) {
  using Layout = TestType;
  Kokkos::Serial exec;
  auto a = batch<Layout>(6, 9, 0.5), b = batch<Layout>(6, 9, 4.0), c = batch<Layout>(6, 9, 0.5);
  auto f = bandsolve::factorize(exec, thomas{}, a, b, c, 6);
  exec.fence();
  REQUIRE(f.nsys() == 6);
  REQUIRE(f.n() == 9);

  auto d7 = batch<Layout>(6, 7, 1.0);
  CHECK_THROWS_WITH(f.solve(exec, d7),
                    Catch::Matchers::Equals("bandsolve::thomas_factorization::solve: d has 7 rows "
                                            "but the factorization has 9"));
  CHECK(bstest::raw_copy(d7) == std::vector<double>(bstest::raw_copy(d7).size(), 1.0));
  // Interleaved<4>: 6 systems use 2 packs (8 slots); 9 systems need 3 packs (12 slots).
  auto d_other = batch<Layout>(9, 9, 1.0);
  const std::string slots = std::to_string(bandsolve::capacity(d_other));
  CHECK_THROWS_WITH(f.solve(exec, d_other),
                    Catch::Matchers::Equals("bandsolve::thomas_factorization::solve: d holds " +
                                            slots + " systems but the factorization has 6"));
  auto d_ok = batch<Layout>(6, 9, 1.0);
  CHECK_NOTHROW(f.solve(exec, d_ok));
  exec.fence();
}

TEST_CASE("a default-constructed thomas_factorization refuses to solve",
          "[errors][thomas][factorize]") {
  Kokkos::Serial exec;
  bandsolve::thomas_factorization<double, bl::row, Kokkos::Serial> f;
  CHECK(f.nsys() == 0);
  CHECK(f.n() == 0);
  auto d = batch<bl::row>(3, 4, 1.0);
  CHECK_THROWS_AS(f.solve(exec, d), std::invalid_argument);
  CHECK_THROWS_WITH(f.solve(exec, d),
                    StartsWith("bandsolve::thomas_factorization::solve: ") &&
                        ContainsSubstring("empty (default-constructed)"));
  // Also with an empty d: emptiness of the factorization is checked first.
  auto d0 = batch<bl::row>(0, 0, 1.0);
  CHECK_THROWS_WITH(f.solve(exec, d0), ContainsSubstring("default-constructed"));
  CHECK(bstest::raw_copy(d) == std::vector<double>(12, 1.0));
}

// ---------------------------------------------------------------------------------------------
// Info helpers

TEST_CASE("count_failed counts the non-zero info codes", "[errors][info]") {
  Kokkos::View<int*, Mem> info("info", 7);
  CHECK(bandsolve::count_failed(info) == 0);
  info(2) = 3;
  info(6) = 1;
  info(4) = -2;
  CHECK(bandsolve::count_failed(info) == 3);
  CHECK(bandsolve::count_failed(Kokkos::View<int*, Mem>("empty", 0)) == 0);
  CHECK_NOTHROW(bandsolve::throw_if_failed("empty", Kokkos::View<int*, Mem>("empty", 0)));
}

TEST_CASE("throw_if_failed names the first failing system, its code and the count",
          "[errors][info]") {
  Kokkos::View<int*, Mem> info("info", 5);
  CHECK_NOTHROW(bandsolve::throw_if_failed("all good", info));

  info(2) = 3;
  info(4) = 2;
  CHECK_THROWS_AS(bandsolve::throw_if_failed("heat step", info), bandsolve::numerical_error);
  CHECK_THROWS_WITH(bandsolve::throw_if_failed("heat step", info),
                    Catch::Matchers::Equals("heat step: system 2 of 5 failed: zero, tiny or "
                                            "non-finite pivot at row 3 (info = 3); 2 of 5 "
                                            "systems failed"));
  try {
    bandsolve::throw_if_failed("heat step", info);
    FAIL("throw_if_failed did not throw");
  } catch (const bandsolve::numerical_error& e) {
    CHECK(e.system() == 2);
    CHECK(e.info() == 3);
    CHECK(e.failed_systems() == 2);
  }
  // numerical_error is a std::runtime_error, not an invalid_argument.
  CHECK_THROWS_AS(bandsolve::throw_if_failed("x", info), std::runtime_error);

  // Negative codes (LAPACK's invalid argument convention) are reported as such.
  Kokkos::View<int*, Mem> neg("neg", 3);
  neg(0) = -4;
  CHECK_THROWS_WITH(bandsolve::throw_if_failed("ctx", neg),
                    StartsWith("ctx: system 0 of 3 failed: invalid argument 4 (info = -4)"));
  try {
    bandsolve::throw_if_failed("ctx", neg);
  } catch (const bandsolve::numerical_error& e) {
    CHECK(e.system() == 0);
    CHECK(e.info() == -4);
    CHECK(e.failed_systems() == 1);
  }
}

TEST_CASE("throw_if_failed after a real solve with a zero pivot", "[errors][info][thomas]") {
  bstest::threaded_host_space exec;
  constexpr std::size_t nsys = 10, n = 4;
  auto p = bstest::random_dominant<double>(nsys, n, 7);
  p.b[p.idx(6, 0)] = 0.0;  // system 6, row 1 (1-based)
  auto a = bstest::to_device<bl::row>("a", p.a, nsys, n);
  auto b = bstest::to_device<bl::row>("b", p.b, nsys, n);
  auto c = bstest::to_device<bl::row>("c", p.c, nsys, n);
  auto d = bstest::to_device<bl::row>("d", p.d, nsys, n);
  auto info = bstest::make_info(nsys);
  bandsolve::solve(exec, thomas{}, a, b, c, d, info);
  exec.fence();
  CHECK(bandsolve::count_failed(info) == 1);
  CHECK_THROWS_WITH(bandsolve::throw_if_failed("step 12", info),
                    StartsWith("step 12: system 6 of 10 failed: ") &&
                        ContainsSubstring("(info = 1); 1 of 10 systems failed"));
}

}  // namespace test_errors
