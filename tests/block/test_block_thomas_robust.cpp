// Block Thomas robustness: partial pivoting inside the diagonal blocks (against LAPACK ?gbsv on
// systems whose blocks need it), per-system info codes naming the block row of a singular, tiny
// or non-finite diagonal block (one-shot and factorization, without and with pivoting), and
// the messages of every bad argument, and calls with no right-hand sides.
#include "block_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace test_block_thomas_robust {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::algo::block_thomas;
using Catch::Matchers::Equals;
using Exec = Kokkos::DefaultHostExecutionSpace;
using Mem = Exec::memory_space;

namespace {

using layout_scalar_list =
    std::tuple<std::tuple<bl::row, double>, std::tuple<bl::interleaved<4>, float>>;

constexpr block_thomas no_pivoting{};
constexpr block_thomas partial_pivoting{block_thomas::pivoting::partial};

template <class Layout, class T>
struct device_problem {
  decltype(bstest::block_to_device<Layout, T, Mem>("", {}, 0, 0, 0)) a, b, c;
  decltype(bstest::rhs_to_device<Layout, T, Mem, false>({}, 0, 0, 0, 1)) d;
};

template <class Layout, class T>
device_problem<Layout, T> upload(const bstest::host_block_batch<T>& p) {
  return {bstest::block_to_device<Layout, T, Mem>("a", p.a, p.nsys, p.n, p.m),
          bstest::block_to_device<Layout, T, Mem>("b", p.b, p.nsys, p.n, p.m),
          bstest::block_to_device<Layout, T, Mem>("c", p.c, p.nsys, p.n, p.m),
          bstest::rhs_to_device<Layout, T, Mem, false>(p.d, p.nsys, p.n, p.m, 1)};
}

// One-shot solve and factorization + solve; both must report `expected` and agree on x.
template <class Layout, class T>
std::vector<T> solve_both_ways(const bstest::host_block_batch<T>& p, block_thomas algorithm,
                               const std::vector<int>& expected) {
  const auto dev = upload<Layout, T>(p);
  const auto info = bstest::make_info<Mem>(p.nsys);
  bandsolve::solve(Exec(), algorithm, dev.a, dev.b, dev.c, dev.d, info);
  const auto f = bandsolve::factorize(Exec(), algorithm, dev.a, dev.b, dev.c, p.nsys);
  const auto d2 = bstest::rhs_to_device<Layout, T, Mem, false>(p.d, p.nsys, p.n, p.m, 1);
  f.solve(Exec(), d2);
  Exec().fence();
  CHECK(bstest::info_to_host(info) == expected);
  CHECK(bstest::info_to_host(f.info()) == expected);
  const auto x = bstest::rhs_to_host<false>(dev.d, p.nsys, p.n, p.m, 1);
  std::vector<bool> failed(p.nsys);
  for (std::size_t s = 0; s < p.nsys; ++s) failed[s] = expected[s] != 0;
  CHECK(bstest::block_max_rel_diff(p, bstest::rhs_to_host<false>(d2, p.nsys, p.n, p.m, 1), x,
                                   failed) <= bstest::block_lapack_tol<T>(p.m) / 2);
  return x;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("block_thomas with partial pivoting solves systems whose blocks need it",
                        "[block_thomas][pivoting]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  const std::size_t nsys = 9, n = 6;
  for (std::size_t m = 2; m <= 8; ++m) {
    INFO("m = " << m);
    // Block diagonally dominant with A and C scaled by 0.05, then the rows of every B_i rotated
    // (row r takes row r + 1): with B_0 entry (1, 0) zeroed, S_0 = B_0 has a zero (0, 0) pivot.
    // As a scalar matrix the rows can be put back in order, where they are diagonally dominant
    // with a margin >= 1 - 2m * 0.05 >= 0.2: cond_inf is at most 5 times that of the unrotated
    // systems, so the LAPACK tolerance is scaled by 5.
    auto p = bstest::random_block_dominant<T>(nsys, n, m, 1, static_cast<std::uint32_t>(31 * m));
    for (auto& v : p.a) v *= T(0.05);
    for (auto& v : p.c) v *= T(0.05);
    for (std::size_t s = 0; s < nsys; ++s) {
      p.b[p.blk(s, 0, 1, 0)] = T(0);
      for (std::size_t i = 0; i < n; ++i) {
        std::vector<T> block(p.b.begin() + p.blk(s, i, 0, 0), p.b.begin() + p.blk(s, i, 0, 0) + m * m);
        for (std::size_t r = 0; r < m; ++r)
          for (std::size_t c = 0; c < m; ++c) p.b[p.blk(s, i, r, c)] = block[((r + 1) % m) * m + c];
      }
    }
    const auto ref = bstest::gbsv_reference(p);
    const auto x = solve_both_ways<Layout, T>(p, partial_pivoting, std::vector<int>(nsys, 0));
    CHECK(bstest::block_max_rel_diff(p, x, ref) <= 5 * bstest::block_lapack_tol<T>(m));
    CHECK(bstest::block_max_residual(p, x) <= 5 * bstest::block_residual_tol<T>(m));
    // Without pivoting the first diagonal block is rejected.
    solve_both_ways<Layout, T>(p, no_pivoting, std::vector<int>(nsys, 1));
  }
}

TEMPLATE_LIST_TEST_CASE("block_thomas info names the block row of a singular or non-finite block",
                        "[block_thomas][info]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  const std::size_t nsys = 7, n = 5, m = 3;
  auto p = bstest::random_block_dominant<T>(nsys, n, m, 1, 2024);
  const auto set_block = [&](std::vector<T>& v, std::size_t s, std::size_t i, T value) {
    for (std::size_t k = 0; k < m * m; ++k) v[p.blk(s, i, 0, 0) + k] = value;
  };
  // System 2: block row 3 all zero (A_2 = B_2 = 0, so S_2 = 0).
  set_block(p.a, 2, 2, T(0));
  set_block(p.b, 2, 2, T(0));
  // System 4: a zero column in B_0 (elimination keeps it exactly zero, with or without pivoting).
  for (std::size_t r = 0; r < m; ++r) p.b[p.blk(4, 0, r, 1)] = T(0);
  // System 5: NaN in B_3.
  p.b[p.blk(5, 3, 1, 1)] = std::numeric_limits<T>::quiet_NaN();
  // System 0: a subnormal pivot in the last block row (its reciprocal overflows).
  set_block(p.a, 0, 4, T(0));
  set_block(p.b, 0, 4, T(0));
  for (std::size_t r = 0; r < m; ++r) p.b[p.blk(0, 4, r, r)] = T(1);
  p.b[p.blk(0, 4, 1, 1)] = std::numeric_limits<T>::denorm_min();
  const std::vector<int> expected = {5, 0, 3, 0, 1, 4, 0};
  std::vector<bool> failed(nsys);
  for (std::size_t s = 0; s < nsys; ++s) failed[s] = expected[s] != 0;
  const auto ref = bstest::gbsv_reference(p);
  for (const block_thomas algorithm : {no_pivoting, partial_pivoting}) {
    INFO("pivoting = " << (algorithm.pivot == block_thomas::pivoting::partial));
    const auto x = solve_both_ways<Layout, T>(p, algorithm, expected);
    // The other systems of the same groups are solved.
    CHECK(bstest::block_max_rel_diff(p, x, ref, failed) <= bstest::block_lapack_tol<T>(m));
  }
}

TEST_CASE("block_thomas rejects bad arguments with messages that give the values",
          "[block_thomas][errors]") {
  using T = double;
  const std::string fn = "bandsolve::solve(block_thomas): ";
  const auto make = [](std::size_t nsys, std::size_t n, std::size_t m) {
    return bandsolve::make_block_batch<bl::row, T, Mem>("x", nsys, n, m);
  };
  const auto a = make(6, 5, 3), b = make(6, 5, 3), c = make(6, 5, 3);
  const auto d = bandsolve::make_block_rhs<bl::row, T, Mem>("d", 6, 5, 3);
  const auto info = bstest::make_info<Mem>(6);
  const auto solve = [&](const auto& a_, const auto& b_, const auto& c_, const auto& d_,
                         const auto& info_) {
    bandsolve::solve(Exec(), block_thomas{}, a_, b_, c_, d_, info_);
  };

  SECTION("block sizes outside 2..8") {
    for (std::size_t m : {1, 9}) {
      const auto x = make(6, 5, m);
      const auto dx = bandsolve::make_block_rhs<bl::row, T, Mem>("d", 6, 5, m);
      CHECK_THROWS_WITH(solve(x, x, x, dx, info),
                        Equals(fn + "block size m = " + std::to_string(m) +
                               " is not supported: m must be 2 to 8 (for m = 1 use algo::thomas)"));
      CHECK_THROWS_WITH(bandsolve::factorize(Exec(), block_thomas{}, x, x, x),
                        Equals("bandsolve::factorize(block_thomas): block size m = " +
                               std::to_string(m) +
                               " is not supported: m must be 2 to 8 (for m = 1 use algo::thomas)"));
    }
  }
  SECTION("non-square blocks") {
    Kokkos::View<T****, Kokkos::LayoutRight, Mem> x("x", 6, 5, 3, 4);
    CHECK_THROWS_WITH(solve(x, x, x, d, info),
                      Equals(fn + "blocks must be square but b has blocks of 3 x 4"));
  }
  SECTION("coefficient extents") {
    CHECK_THROWS_WITH(solve(make(6, 4, 3), b, c, d, info),
                      Equals(fn + "a.extent(1) = 4 but b.extent(1) = 5"));
    CHECK_THROWS_WITH(solve(a, b, make(7, 5, 3), d, info),
                      Equals(fn + "c.extent(0) = 7 but b.extent(0) = 6"));
  }
  SECTION("right-hand side extents") {
    CHECK_THROWS_WITH(solve(a, b, c, bandsolve::make_block_rhs<bl::row, T, Mem>("d", 6, 5, 2), info),
                      Equals(fn + "d.extent(2) = 2 but the matrices have 3 rows per block"));
    CHECK_THROWS_WITH(
        solve(a, b, c, bandsolve::make_block_rhs<bl::row, T, Mem>("d", 6, 4, 3, 2), info),
        Equals(fn + "d.extent(1) = 4 but the matrices have 5 block rows"));
    CHECK_THROWS_WITH(solve(a, b, c, bandsolve::make_block_rhs<bl::row, T, Mem>("d", 5, 5, 3), info),
                      Equals(fn + "d.extent(0) = 5 but the matrices have 6 systems"));
  }
  SECTION("info extent") {
    CHECK_THROWS_WITH(solve(a, b, c, d, bstest::make_info<Mem>(5)),
                      Equals(fn + "info.extent(0) = 5 but b holds 6 systems"));
    const auto ai = bandsolve::make_block_batch<bl::interleaved<4>, float, Mem>("a", 6, 5, 3);
    const auto di = bandsolve::make_block_rhs<bl::interleaved<4>, float, Mem>("d", 6, 5, 3);
    CHECK_NOTHROW(solve(ai, ai, ai, di, bstest::make_info<Mem>(5)));
    CHECK_THROWS_WITH(solve(ai, ai, ai, di, bstest::make_info<Mem>(9)),
                      Equals(fn + "info.extent(0) = 9 systems need 3 packs of 4 but b has 2 packs"));
  }
  SECTION("d overlapping a coefficient") {
    Kokkos::View<T***, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged> alias(b.data(), 6, 5, 3);
    CHECK_THROWS_WITH(solve(a, b, c, alias, info), Catch::Matchers::StartsWith(fn + "d overlaps b in memory"));
  }
  SECTION("factorization") {
    CHECK_THROWS_WITH(bandsolve::factorize(Exec(), block_thomas{}, a, b, c, 7),
                      Equals("bandsolve::factorize(block_thomas): nsys = 7 but b holds 6 systems"));
    const auto f = bandsolve::factorize(Exec(), block_thomas{}, a, b, c);
    const std::string fs = "bandsolve::block_thomas_factorization::solve: ";
    CHECK_THROWS_WITH(f.solve(Exec(), bandsolve::make_block_rhs<bl::row, T, Mem>("d", 6, 4, 3)),
                      Equals(fs + "d.extent(1) = 4 but the factorization has 5 block rows"));
    CHECK_THROWS_WITH(f.solve(Exec(), bandsolve::make_block_rhs<bl::row, T, Mem>("d", 6, 5, 4, 2)),
                      Equals(fs + "d.extent(2) = 4 but the factorization has 3 rows per block"));
    decltype(f) empty;
    CHECK_THROWS_WITH(empty.solve(Exec(), d),
                      Equals(fs + "this factorization is empty (default-constructed)"));
  }
}

TEST_CASE("block_thomas with no right-hand sides reports info and touches nothing of d",
          "[block][robust]") {
  // d of rank 4 with nrhs = 0 and no memory (a null pointer, as an empty allocation may give):
  // the one-shot solve still eliminates and reports the singular block, on both backends, and
  // forms no pointer into d (UBSan: arithmetic on null).
  using T = double;
  const std::size_t nsys = 3, n = 4, m = 2;
  auto a = bandsolve::make_block_batch<bl::row, T, Mem>("a", nsys, n, m);
  auto b = bandsolve::make_block_batch<bl::row, T, Mem>("b", nsys, n, m);
  auto c = bandsolve::make_block_batch<bl::row, T, Mem>("c", nsys, n, m);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r) b(s, i, r, r) = 4.0;
  b(1, 2, 0, 0) = 0.0;  // system 1: block row 3 singular (first column zero)
  b(1, 2, 1, 1) = 0.0;
  const Kokkos::View<T****, Kokkos::LayoutRight, Mem, Kokkos::MemoryUnmanaged> none(nullptr, nsys,
                                                                                    n, m, 0);
  for (const auto& alg : {no_pivoting, partial_pivoting}) {
    auto info = bstest::make_info<Mem>(nsys);
    bandsolve::solve(Exec(), alg, a, b, c, none, info);
    Exec().fence();
    CHECK(bstest::info_to_host(info) == std::vector<int>{0, 3, 0});
    auto info_device = bstest::make_info<Mem>(nsys);
    bandsolve::solve(Exec(), alg, a, b, c, none, info_device, bandsolve::backend::device{});
    Exec().fence();
    CHECK(bstest::info_to_host(info_device) == std::vector<int>{0, 3, 0});
    const auto f = bandsolve::factorize(Exec(), alg, a, b, c);
    CHECK_NOTHROW(f.solve(Exec(), none));
  }
}

}  // namespace test_block_thomas_robust
