// Batched Thomas on complex scalars: Kokkos::complex<float/double> systems against LAPACK
// cgtsv/zgtsv, real coefficients with complex right-hand sides against two real dgtsv/sgtsv
// solves, factored against one-shot, info codes of complex pivots, strided and row (gathered)
// access. Every check runs for each layout on the tests' host
// space (bstest::for_each_exec).
#include "complex_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace test_thomas_complex {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::algo::thomas;
using bstest::host_batch;
using bstest::cplx;
using bstest::complex_tol;
using bstest::lapack_solve;
using bstest::random_complex_rhs;
using bstest::max_rel_diff1;
using bstest::random_dominant_any;

namespace {

template <class Layout, class T, class D, class Exec>
void check_against_lapack(const Exec& exec, std::size_t nsys, std::size_t n, std::uint32_t seed) {
  using Mem = typename Exec::memory_space;
  const auto p = random_dominant_any<T>(nsys, n, seed);
  std::vector<D> rhs;
  if constexpr (std::is_same_v<T, D>)
    rhs = p.d;
  else
    rhs = random_complex_rhs<D>(nsys * n, seed + 7);
  const auto expected = lapack_solve(p, rhs);

  auto a = bstest::to_device<Layout, T, Mem>("a", p.a, nsys, n);
  auto b = bstest::to_device<Layout, T, Mem>("b", p.b, nsys, n);
  auto c = bstest::to_device<Layout, T, Mem>("c", p.c, nsys, n);
  auto d = bstest::to_device<Layout, D, Mem>("d", rhs, nsys, n);
  auto info = bstest::make_info<Mem>(nsys);
  bandsolve::solve(exec, thomas{}, a, b, c, d, info);
  exec.fence();
  const auto x = bstest::to_host(d, nsys);
  CHECK(max_rel_diff1(x, expected, nsys, n) <= complex_tol<D>());
  const auto codes = bstest::info_to_host(info);
  CHECK(std::count(codes.begin(), codes.end(), 0) == static_cast<long>(nsys));

  // Factor once, solve the same right-hand sides again: the one-shot result to a few ulps.
  auto f = bandsolve::factorize(exec, thomas{}, a, b, c, nsys);
  auto d2 = bstest::to_device<Layout, D, Mem>("d2", rhs, nsys, n);
  f.solve(exec, d2);
  exec.fence();
  const auto x2 = bstest::to_host(d2, nsys);
  CHECK(max_rel_diff1(x2, x, nsys, n) <= complex_tol<D>() / 4);
  const auto fcodes = bstest::info_to_host(f.info());
  CHECK(std::count(fcodes.begin(), fcodes.end(), 0) == static_cast<long>(nsys));
}

using layout_list = std::tuple<bl::row, bl::column, bl::interleaved<4>, bl::interleaved<8>>;

}  // namespace

TEMPLATE_LIST_TEST_CASE("complex thomas matches LAPACK ?gtsv in every layout",
                        "[thomas][complex]", layout_list) {
  using Layout = TestType;
  std::uint32_t seed = 100;
  bstest::for_each_exec([&](auto exec) {
    for (std::size_t n : {1, 2, 3, 17, 100})
      for (std::size_t nsys : {1, 5, 37}) {
        INFO(bstest::layout_name<Layout>() << " n = " << n << " nsys = " << nsys);
        check_against_lapack<Layout, cplx<double>, cplx<double>>(exec, nsys, n, seed++);
        check_against_lapack<Layout, cplx<float>, cplx<float>>(exec, nsys, n, seed++);
      }
  });
}

// Row layout: complex batches of more than 8192 rows, and batches of fewer systems than a wide
// pack (16 complex doubles, 32 complex floats), go in packs of one tile of systems; others in
// wide packs, whose tiles are transposed as real parts.
TEST_CASE("complex thomas: long rows and small batches in row layout", "[thomas][complex]") {
  std::uint32_t seed = 700;
  bstest::for_each_exec([&](auto exec) {
    for (const auto& [n, nsys] : {std::pair<std::size_t, std::size_t>{8200, 6}, {9001, 3},
                                  {64, 9}, {64, 15}, {64, 17}}) {
      INFO("n = " << n << " nsys = " << nsys);
      check_against_lapack<bl::row, cplx<double>, cplx<double>>(exec, nsys, n, seed++);
      check_against_lapack<bl::row, cplx<float>, cplx<float>>(exec, nsys, n, seed++);
    }
  });
}

TEMPLATE_LIST_TEST_CASE("real coefficients with complex right-hand sides",
                        "[thomas][complex]", layout_list) {
  using Layout = TestType;
  std::uint32_t seed = 500;
  bstest::for_each_exec([&](auto exec) {
    for (std::size_t n : {1, 2, 3, 17, 100})
      for (std::size_t nsys : {1, 5, 37}) {
        INFO(bstest::layout_name<Layout>() << " n = " << n << " nsys = " << nsys);
        check_against_lapack<Layout, double, cplx<double>>(exec, nsys, n, seed++);
        check_against_lapack<Layout, float, cplx<float>>(exec, nsys, n, seed++);
      }
  });
}

TEST_CASE("complex thomas on strided subviews writes only the view", "[thomas][complex]") {
  using T = cplx<double>;
  using Big = Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const std::size_t nsys = 13, n = 29;
  const auto p = random_dominant_any<T>(nsys, n, 77);
  const auto expected = lapack_solve(p, p.d);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Two kinds of strided View: systems along the middle axis (gathered access, row stride 2)
  // and systems contiguous (lane access).
  bstest::for_each_exec([&](auto exec) {
    for (int kind = 0; kind < 2; ++kind) {
      INFO("kind = " << kind);
      // Views built where they are declared (docs/development.md).
      std::vector<Big> big;
      std::vector<Kokkos::View<T**, Kokkos::LayoutStride, Kokkos::HostSpace>> v;
      const std::vector<T>* src[4] = {&p.a, &p.b, &p.c, &p.d};
      for (int k = 0; k < 4; ++k) {
        const auto& b = big.emplace_back(kind == 0 ? Big("big", nsys, n, 2)
                                                   : Big("big", n, 3, nsys + 1));
        Kokkos::deep_copy(b, T(nan, nan));
        if (kind == 0)  // (s, i) at big(s, i, 1)
          v.emplace_back(Kokkos::subview(b, Kokkos::ALL, Kokkos::ALL, 1));
        else  // (s, i) at big(i, 1, s + 1)
          v.emplace_back(&b(0, 1, 1), Kokkos::LayoutStride(nsys, 1, n, 3 * (nsys + 1)));
        bstest::fill(v[k], *src[k], nsys);
      }
      auto info = bstest::make_info(nsys);
      bandsolve::solve(exec, thomas{}, v[0], v[1], v[2], v[3], info);
      exec.fence();
      CHECK(max_rel_diff1(bstest::to_host(v[3], nsys), expected, nsys, n) <=
            complex_tol<T>());
      // Everything outside the view is still NaN.
      std::size_t touched = 0;
      for (std::size_t e = 0; e < big[3].span(); ++e) {
        const T z = big[3].data()[e];
        touched += std::isnan(z.real()) ? 0 : 1;
      }
      CHECK(touched == nsys * n);
    }
  });
}

TEST_CASE("complex pivots: zero and non-finite pivots give info codes", "[thomas][complex]") {
  using T = cplx<double>;
  const std::size_t nsys = 9, n = 12;
  bstest::for_each_exec([&](auto exec) {
    auto p = random_dominant_any<T>(nsys, n, 5);
    // System 2: b_0 = 0. System 4: pivot of row 6 exactly zero (b_5 = a_5 c'_4 is not known in
    // advance, so a row with a = c = 0 and b = 0 instead). System 7: NaN in an imaginary part.
    p.b[p.idx(2, 0)] = T(0, 0);
    p.a[p.idx(4, 5)] = T(0, 0);
    p.b[p.idx(4, 5)] = T(0, 0);
    p.b[p.idx(7, 8)] = T(1, std::numeric_limits<double>::quiet_NaN());
    auto a = bstest::to_device<bl::interleaved<4>, T, Kokkos::HostSpace>("a", p.a, nsys, n);
    auto b = bstest::to_device<bl::interleaved<4>, T, Kokkos::HostSpace>("b", p.b, nsys, n);
    auto c = bstest::to_device<bl::interleaved<4>, T, Kokkos::HostSpace>("c", p.c, nsys, n);
    auto d = bstest::to_device<bl::interleaved<4>, T, Kokkos::HostSpace>("d", p.d, nsys, n);
    auto info = bstest::make_info(nsys);
    bandsolve::solve(exec, thomas{}, a, b, c, d, info);
    exec.fence();
    const std::vector<int> expected = {0, 0, 1, 0, 6, 0, 0, 9, 0};
    CHECK(bstest::info_to_host(info) == expected);
    auto f = bandsolve::factorize(exec, thomas{}, a, b, c, nsys);
    exec.fence();
    CHECK(bstest::info_to_host(f.info()) == expected);
    // A finite complex pivot of large parts is good: no false alarm from |p|^2 overflowing.
    auto q = random_dominant_any<T>(3, 4, 6);
    for (auto* v : {&q.a, &q.b, &q.c, &q.d})
      for (auto& z : *v) z *= 1e300;
    auto qa = bstest::to_device<bl::row, T, Kokkos::HostSpace>("a", q.a, 3, 4);
    auto qb = bstest::to_device<bl::row, T, Kokkos::HostSpace>("b", q.b, 3, 4);
    auto qc = bstest::to_device<bl::row, T, Kokkos::HostSpace>("c", q.c, 3, 4);
    auto qd = bstest::to_device<bl::row, T, Kokkos::HostSpace>("d", q.d, 3, 4);
    auto qinfo = bstest::make_info(3);
    bandsolve::solve(exec, thomas{}, qa, qb, qc, qd, qinfo);
    exec.fence();
    CHECK(bstest::info_to_host(qinfo) == std::vector<int>{0, 0, 0});
    CHECK(max_rel_diff1(bstest::to_host(qd, 3), lapack_solve(q, q.d), 3, 4) <= complex_tol<T>());
  });
}

}  // namespace test_thomas_complex
