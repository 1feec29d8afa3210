// Periodic (cyclic) tridiagonal solver: one-shot solve and factorize/solve against a dense LAPACK
// zgesv solve of the full matrix, in every layout, float, double, complex<float> and
// complex<double>, Serial and OpenMP; n = 1, 2, 3 edge cases; info codes; bad shapes.
#include "pivoting_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace test_periodic {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::index_t;
using bandsolve::algo::periodic;
using bstest::cd;
using bstest::host_batch;
using cfloat = Kokkos::complex<float>;
using cdouble = Kokkos::complex<double>;

namespace {

using layout_scalar_list =
    std::tuple<std::tuple<bl::row, float>, std::tuple<bl::row, double>,
               std::tuple<bl::row, cdouble>, std::tuple<bl::column, double>,
               std::tuple<bl::column, cfloat>, std::tuple<bl::interleaved<1>, double>,
               std::tuple<bl::interleaved<4>, float>, std::tuple<bl::interleaved<4>, cfloat>,
               std::tuple<bl::interleaved<8>, double>, std::tuple<bl::interleaved<8>, cdouble>>;

using bstest::device_batch;
using bstest::upload;

// Forward error against the dense solve: Thomas on the dominant leading block and the bordered
// correction are backward stable with a few u per entry (Higham Sec. 9.6: |dA| <= 4u |L||U|,
// |L||U| <= 3|A| for dominant rows); the correction adds O(1) operations per entry. With
// cond < 10 (random_periodic): C = 16 * 10 = 160 plus the rounding of T to float: C = 200.
template <class T>
double dense_tol() {
  return 200 * bstest::eps_of<T>();
}
template <class T>
double residual_tol() {
  return 32 * bstest::eps_of<T>();
}

template <class T>
double worst_diff(const std::vector<T>& x, const std::vector<T>& ref, std::size_t nsys,
                  std::size_t n, const std::vector<int>* skip = nullptr) {
  double w = 0;
  for (std::size_t s = 0; s < nsys; ++s)
    if (!skip || (*skip)[s] == 0) w = std::max(w, bstest::rel_diff_any(x, ref, n, s));
  return w;
}

template <class T>
double worst_residual(const host_batch<T>& p, const std::vector<T>& x,
                      const std::vector<T>* rhs = nullptr) {
  double w = 0;
  for (std::size_t s = 0; s < p.nsys; ++s)
    w = std::max(w, bstest::residual_any(p, x, s, rhs, true));
  return w;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("periodic solve matches a dense LAPACK solve of the cyclic matrix",
                        "[periodic][lapack]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  const std::vector<std::size_t> ns = {1, 2, 3, 4, 5, 8, 17, 64, 101};
  const std::vector<std::size_t> nsys_all = {1, 2, 7, 9, 17, 33, 40};
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    std::uint32_t seed = 3;
    double worst = 0;
    for (std::size_t k = 0; k < ns.size(); ++k)
      for (std::size_t j : {k % 7, (k + 4) % 7}) {
        const std::size_t n = ns[k], nsys = nsys_all[j];
        INFO(bstest::layout_name<Layout>() << ", " << bstest::type_name<T>() << ", "
                                           << Exec::name() << ", n = " << n
                                           << ", nsys = " << nsys);
        const auto p = bstest::random_periodic<T>(nsys, n, seed++);
        const auto ref = bstest::periodic_dense_reference(p);
        auto D = upload<Layout, Exec>(p);
        const auto a0 = bstest::raw_copy(D.a), b0 = bstest::raw_copy(D.b),
                   c0 = bstest::raw_copy(D.c);
        auto info = bstest::make_info<Mem>(nsys);
        bandsolve::solve(exec, periodic{}, D.a, D.b, D.c, D.d, info);
        auto f = bandsolve::factorize(exec, periodic{}, D.a, D.b, D.c, nsys);
        auto df = bstest::to_device<Layout, T, Mem>("df", p.d, nsys, n);
        f.solve(exec, df);
        exec.fence();
        CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
        CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
        const auto x = bstest::to_host(D.d, nsys), xf = bstest::to_host(df, nsys);
        const double diff = worst_diff(x, ref, nsys, n);
        CHECK(diff <= dense_tol<T>());
        CHECK(worst_diff(xf, ref, nsys, n) <= dense_tol<T>());
        CHECK(worst_residual(p, x) <= residual_tol<T>());
        CHECK(worst_residual(p, xf) <= residual_tol<T>());
        CHECK(bstest::bitwise_equal(bstest::raw_copy(D.a), a0));
        CHECK(bstest::bitwise_equal(bstest::raw_copy(D.b), b0));
        CHECK(bstest::bitwise_equal(bstest::raw_copy(D.c), c0));
        worst = std::max(worst, diff);
      }
    UNSCOPED_INFO(bstest::layout_name<Layout>() << " " << bstest::type_name<T>()
                                                << ": worst difference to zgesv "
                                                << worst / bstest::eps_of<T>() << " eps");
    CHECK(worst > 0);
  });
}

TEMPLATE_TEST_CASE("periodic n = 1 and n = 2: the corner entries fold onto the diagonal",
                   "[periodic][edges]", float, double, cdouble) {
  using T = TestType;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    INFO(Exec::name());
    {  // n = 1: (a + b + c) x = d: (1 + 4 + 3) x = 16 -> x = 2, exactly.
      host_batch<T> p(3, 1);
      for (std::size_t s = 0; s < 3; ++s) {
        p.a[s] = T(1);
        p.b[s] = T(4);
        p.c[s] = T(3);
        p.d[s] = T(16);
      }
      auto D = upload<bl::row, Exec>(p);
      auto info = bstest::make_info<Mem>(3);
      bandsolve::solve(exec, periodic{}, D.a, D.b, D.c, D.d, info);
      auto f = bandsolve::factorize(exec, periodic{}, D.a, D.b, D.c);
      auto df = bstest::to_device<bl::row, T, Mem>("df", p.d, 3, 1);
      f.solve(exec, df);
      exec.fence();
      CHECK(bstest::info_to_host(info) == std::vector<int>(3, 0));
      CHECK(bstest::to_host(D.d, 3) == std::vector<T>(3, T(2)));
      CHECK(bstest::to_host(df, 3) == std::vector<T>(3, T(2)));
    }
    {  // n = 2: a = (1, 2), b = (5, 7), c = (3, 4): [[5, 1 + 3], [2 + 4, 7]] x = (9, 13),
       // x = (1, 1).
      host_batch<T> p(1, 2);
      p.a = {T(1), T(2)};
      p.b = {T(5), T(7)};
      p.c = {T(3), T(4)};
      p.d = {T(9), T(13)};
      auto D = upload<bl::interleaved<4>, Exec>(p);
      auto info = bstest::make_info<Mem>(1);
      bandsolve::solve(exec, periodic{}, D.a, D.b, D.c, D.d, info);
      exec.fence();
      CHECK(bstest::info_to_host(info) == std::vector<int>{0});
      const auto x = bstest::to_host(D.d, 1);
      CHECK(bstest::rel_diff_any(x, std::vector<T>{T(1), T(1)}, 2, 0) <= 4 * bstest::eps_of<T>());
    }
  });
}

TEMPLATE_LIST_TEST_CASE("without corner entries the periodic solve is the Thomas solve",
                        "[periodic][thomas]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  if constexpr (!bstest::is_kokkos_complex<T>::value) {
    bstest::for_each_exec([&](auto exec) {
      using Exec = decltype(exec);
      using Mem = typename Exec::memory_space;
      for (std::size_t n : {2, 3, 30}) {
        INFO(bstest::layout_name<Layout>() << ", " << Exec::name() << ", n = " << n);
        const auto p = bstest::random_dominant<T>(19, n, 60 + std::uint32_t(n));  // a0 = c(n-1) = 0
        auto D = upload<Layout, Exec>(p);
        auto dt = bstest::to_device<Layout, T, Mem>("dt", p.d, 19, n);
        auto info = bstest::make_info<Mem>(19), info_t = bstest::make_info<Mem>(19);
        bandsolve::solve(exec, periodic{}, D.a, D.b, D.c, D.d, info);
        bandsolve::solve(exec, bandsolve::algo::thomas{}, D.a, D.b, D.c, dt, info_t);
        exec.fence();
        CHECK(bstest::info_to_host(info) == std::vector<int>(19, 0));
        CHECK(worst_diff(bstest::to_host(D.d, 19), bstest::to_host(dt, 19), 19, n) <=
              bstest::lapack_tol<T>());
      }
    });
  }
}

TEMPLATE_LIST_TEST_CASE("singular periodic matrices give the row of the failing pivot",
                        "[periodic][info]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    INFO(bstest::layout_name<Layout>() << ", " << Exec::name());
    // Systems (n = 3): 0 regular; 1: b[0] = 0 -> info 1; 2: all ones (T = [[1, 1], [1, 1]]
    // singular) -> info 2; 3: b[2] chosen so that the Schur complement is exactly 0 -> info 3;
    // 4: a NaN on the last diagonal -> info 3; 5: regular.
    auto p = bstest::random_periodic<T>(6, 3, 808);
    p.b[p.idx(1, 0)] = T(0);
    for (std::size_t i = 0; i < 3; ++i)
      p.a[p.idx(2, i)] = p.b[p.idx(2, i)] = p.c[p.idx(2, i)] = T(1);
    // System 3: rows 0, 1 = (a, b, c) = (1, 2, 0), (0, 1, 1) -> T = [[2, 0], [0, 1]],
    // e = (1, 1) -> z = (0.5, 1); row 2 (a, b, c) = (2, b2, 2): s = b2 - 2*0.5 - 2*1 = b2 - 3.
    const T row3[3][3] = {{T(1), T(2), T(0)}, {T(0), T(1), T(1)}, {T(2), T(3), T(2)}};
    for (std::size_t i = 0; i < 3; ++i) {
      p.a[p.idx(3, i)] = row3[i][0];
      p.b[p.idx(3, i)] = row3[i][1];
      p.c[p.idx(3, i)] = row3[i][2];
    }
    p.b[p.idx(4, 2)] = bstest::from_cd<T>(cd(std::nan(""), 0));
    const std::vector<int> expected = {0, 1, 2, 3, 3, 0};
    auto D = upload<Layout, Exec>(p);
    auto info = bstest::make_info<Mem>(6);
    bandsolve::solve(exec, periodic{}, D.a, D.b, D.c, D.d, info);
    auto f = bandsolve::factorize(exec, periodic{}, D.a, D.b, D.c, 6);
    exec.fence();
    CHECK(bstest::info_to_host(info) == expected);
    CHECK(bstest::info_to_host(f.info()) == expected);
    std::vector<int> lapack_info;
    const auto ref = bstest::periodic_dense_reference<T>(p, nullptr, &lapack_info);
    CHECK(lapack_info[2] != 0);  // the all-ones matrix is singular for LAPACK too
    CHECK(lapack_info[3] != 0);
    CHECK(worst_diff(bstest::to_host(D.d, 6), ref, 6, 3, &expected) <= dense_tol<T>());
  });
}

TEMPLATE_TEST_CASE("periodic on strided subviews and padded interleaved packs",
                   "[periodic][strided]", double, cfloat) {
  using T = TestType;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    for (std::size_t n : {1, 2, 9, 40}) {
      const std::size_t nsys = 13;
      INFO(Exec::name() << ", n = " << n);
      const auto p = bstest::random_periodic<T>(nsys, n, 1234 + std::uint32_t(n));
      const auto ref = bstest::periodic_dense_reference(p);
      {  // every other system of a row array with padded rows; NaN outside
        using Big = Kokkos::View<T***, Kokkos::LayoutRight, Mem>;
        using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
        const T nan = bstest::from_cd<T>(cd(std::nan(""), 0));
        // Built in place: no View is default-constructed (docs/development.md, Kokkos and GCC 12).
        std::vector<Big> big;
        std::vector<Sub> v;
        for (int k = 0; k < 4; ++k) {
          big.emplace_back("big", nsys, 2, n + 2);
          Kokkos::deep_copy(big[k], nan);
          v.emplace_back(
              Kokkos::subview(big[k], Kokkos::ALL, 1, std::make_pair(std::size_t(1), n + 1)));
        }
        bstest::fill(v[0], p.a, nsys);
        bstest::fill(v[1], p.b, nsys);
        bstest::fill(v[2], p.c, nsys);
        bstest::fill(v[3], p.d, nsys);
        auto info = bstest::make_info<Mem>(nsys);
        bandsolve::solve(exec, periodic{}, v[0], v[1], v[2], v[3], info);
        exec.fence();
        CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
        CHECK(worst_diff(bstest::to_host(v[3], nsys), ref, nsys, n) <= dense_tol<T>());
        std::size_t finite = 0;
        for (const T& e : bstest::raw_copy(big[3]))
          finite += std::isnan(bstest::to_cd(e).real()) ? 0 : 1;
        CHECK(finite == nsys * n);
      }
      {  // interleaved<8>: 13 systems in 2 packs, NaN padding, info inside a larger array
        auto D = upload<bl::interleaved<8>, Exec>(p);
        Kokkos::View<int*, Mem> info_big("info_big", 16);
        Kokkos::deep_copy(info_big, -99);
        auto info = Kokkos::subview(info_big, std::make_pair(0, 13));
        bandsolve::solve(exec, periodic{}, D.a, D.b, D.c, D.d, info);
        exec.fence();
        std::vector<int> expected(16, 0);
        expected[13] = expected[14] = expected[15] = -99;
        CHECK(bstest::info_to_host(info_big) == expected);
        CHECK(worst_diff(bstest::to_host(D.d, nsys), ref, nsys, n) <= dense_tol<T>());
      }
    }
  });
}

TEMPLATE_LIST_TEST_CASE("one periodic factorization, several right-hand sides",
                        "[periodic][factorize]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    const std::size_t n = 23, nsys = 21;
    const auto p = bstest::random_periodic<T>(nsys, n, 77);
    auto D = upload<Layout, Exec>(p);
    auto f = bandsolve::factorize(exec, periodic{}, D.a, D.b, D.c, nsys);
    const T nan = bstest::from_cd<T>(cd(std::nan(""), 0));
    Kokkos::deep_copy(D.a, nan);
    Kokkos::deep_copy(D.b, nan);
    Kokkos::deep_copy(D.c, nan);
    for (std::uint32_t k = 0; k < 3; ++k) {
      INFO(bstest::layout_name<Layout>() << ", " << Exec::name() << ", right-hand side " << k);
      std::vector<T> rhs(nsys * n);
      std::mt19937 gen(k);
      for (auto& v : rhs) v = bstest::uniform11<T>(gen);
      auto d = bstest::to_device<Layout, T, Mem>("d", rhs, nsys, n);
      f.solve(exec, d);
      exec.fence();
      const auto x = bstest::to_host(d, nsys);
      CHECK(worst_diff(x, bstest::periodic_dense_reference(p, &rhs), nsys, n) <= dense_tol<T>());
      CHECK(worst_residual(p, x, &rhs) <= residual_tol<T>());
    }
  });
}

TEST_CASE("periodic: bad shapes throw messages that name the values", "[periodic][errors]") {
  using V = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  Kokkos::Serial exec;
  V a("a", 5, 9), b("b", 5, 9), c("c", 5, 9), d("d", 5, 9), c8("c8", 5, 8);
  auto info = bstest::make_info(5), info6 = bstest::make_info(6);
  using Catch::Matchers::Equals;
  CHECK_THROWS_WITH(bandsolve::solve(exec, periodic{}, a, b, c8, d, info),
                    Equals("bandsolve::solve(periodic): c has 8 rows but d has 9"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, periodic{}, a, b, c, d, info6),
                    Equals("bandsolve::solve(periodic): info.extent(0) = 6 but d holds 5 systems"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, periodic{}, a, b, c8),
                    Equals("bandsolve::factorize(periodic): c has 8 rows but b has 9"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, periodic{}, a, b, c, c, info),
                    Catch::Matchers::StartsWith("bandsolve::solve(periodic): d overlaps c in "
                                                "memory"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, periodic{}, a, b, c, 4),
                    Equals("bandsolve::factorize(periodic): nsys = 4 does not match the 5 system "
                           "slots of b (column layout)"));
  auto f = bandsolve::factorize(exec, periodic{}, a, b, c);
  CHECK_THROWS_WITH(f.solve(exec, c8),
                    Equals("bandsolve::periodic_factorization::solve: d has 8 rows but the "
                           "factorization has 9"));
  V d4("d4", 4, 9);
  CHECK_THROWS_WITH(f.solve(exec, d4),
                    Equals("bandsolve::periodic_factorization::solve: d holds 4 systems but the "
                           "factorization has 5"));
  bandsolve::periodic_factorization<double, bandsolve::layout::column, Kokkos::Serial> empty;
  CHECK_THROWS_WITH(empty.solve(exec, d),
                    Equals("bandsolve::periodic_factorization::solve: this factorization is "
                           "empty (default-constructed)"));
  // Strided Views (every other system of a 10-system array) that share a data pointer.
  using S = Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace>;
  V a10("a10", 10, 9), b10("b10", 10, 9), c10("c10", 10, 9);
  const Kokkos::LayoutStride every_other(5, 2, 9, 10);
  const S sa(a10.data(), every_other), sb(b10.data(), every_other), sc(c10.data(), every_other);
  const S sd = sb;
  CHECK_THROWS_WITH(bandsolve::solve(exec, periodic{}, sa, sb, sc, sd, info),
                    Catch::Matchers::StartsWith("bandsolve::solve(periodic): d and b are the same "
                                                "array"));
  // Interleaved: 9 systems need 3 packs of 4.
  using I = Kokkos::View<double**[4], Kokkos::LayoutRight, Kokkos::HostSpace>;
  I ia("a", 2, 6), ib("b", 2, 6), ic("c", 2, 6), id("d", 2, 6);
  auto info9 = bstest::make_info(9);
  CHECK_THROWS_WITH(bandsolve::solve(exec, periodic{}, ia, ib, ic, id, info9),
                    Equals("bandsolve::solve(periodic): info.extent(0) = 9 systems need 3 packs "
                           "of 4 but d has 2 packs"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, periodic{}, ia, ib, ic, 9),
                    Equals("bandsolve::factorize(periodic): nsys = 9 does not match the 8 system "
                           "slots of b (interleaved layout)"));
}

// ---------------------------------------------------------------------------------------------
// New matrices of the same shape factored in place.

namespace {
using refactor_list = std::tuple<std::tuple<bl::row, double>, std::tuple<bl::column, float>,
                                 std::tuple<bl::interleaved<4>, cfloat>>;

// refactor on one backend: the new matrices' factors in the factorization's own storage (a copy
// made before sees them), bitwise the solutions of a fresh factorization of them, a singular
// system's code set and cleared again, the dense solution.
template <class Layout, class T, class Exec, class Backend>
void check_refactor(const Exec& exec, Backend backend) {
  using Mem = typename Exec::memory_space;
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1, 3}, {2, 5}, {3, 9}, {17, 6}, {40, 37}, {4, 0}};
  std::uint32_t seed = 600;
  for (const auto& shape : shapes) {
    const std::size_t n = shape.first, nsys = shape.second;
    INFO(bstest::layout_name<Layout>() << ", " << Exec::name() << ", n = " << n
                                       << ", nsys = " << nsys);
    const auto p1 = bstest::random_periodic<T>(nsys, n, seed++);
    auto p2 = bstest::random_periodic<T>(nsys, n, seed++);
    if (nsys > 1)  // system 1 singular: its first row zero
      p2.a[p2.idx(1, 0)] = p2.b[p2.idx(1, 0)] = p2.c[p2.idx(1, 0)] = T(0);
    auto D1 = upload<Layout, Exec>(p1);
    auto D2 = upload<Layout, Exec>(p2);
    auto f = bandsolve::factorize(exec, periodic{}, D1.a, D1.b, D1.c, nsys, backend);
    const auto shared = f;
    f.refactor(exec, D2.a, D2.b, D2.c);
    const auto g = bandsolve::factorize(exec, periodic{}, D2.a, D2.b, D2.c, nsys, backend);
    exec.fence();
    CHECK(shared.storage_bytes() == g.storage_bytes());
    const auto codes = bstest::info_to_host(g.info());
    CHECK(bstest::info_to_host(shared.info()) == codes);
    if (nsys > 1) CHECK(codes[1] != 0);
    auto d_shared = bstest::to_device<Layout, T, Mem>("d_shared", p2.d, nsys, n);
    auto d_fresh = bstest::to_device<Layout, T, Mem>("d_fresh", p2.d, nsys, n);
    shared.solve(exec, d_shared);
    g.solve(exec, d_fresh);
    exec.fence();
    CHECK(bstest::bitwise_equal(bstest::to_host(d_shared, nsys), bstest::to_host(d_fresh, nsys)));
    f.refactor(exec, D1.a, D1.b, D1.c);  // back to the first matrices: no code left
    f.solve(exec, D1.d);
    exec.fence();
    CHECK(bstest::info_to_host(shared.info()) == std::vector<int>(nsys, 0));
    CHECK(worst_diff(bstest::to_host(D1.d, nsys), bstest::periodic_dense_reference(p1), nsys, n) <=
          dense_tol<T>());
  }
}

template <class F, class V>
void check_refactor_errors(F f, const std::string& name, const V& a, const V& b, const V& c) {
  using Catch::Matchers::Equals;
  Kokkos::Serial exec;
  V a8("a8", 5, 8), b8("b8", 5, 8), c8("c8", 5, 8), b4("b4", 4, 9);
  CHECK_THROWS_WITH(f.refactor(exec, a8, b8, c8),
                    Equals(name + ": b has 8 rows but the factorization has 9"));
  CHECK_THROWS_WITH(f.refactor(exec, b4, b4, b4),
                    Equals(name + ": b holds 4 systems but the factorization has 5"));
  CHECK_THROWS_WITH(f.refactor(exec, a, b, c8), Equals(name + ": c has 8 rows but b has 9"));
  CHECK_THROWS_WITH(F().refactor(exec, a, b, c),
                    Equals(name + ": this factorization is empty (default-constructed)"));
  // The refused calls left the factors of a, b, c: x = d / (a + b + c) for constant rows.
  V d("d", 5, 9);
  Kokkos::deep_copy(d, 12.0);
  f.solve(exec, d);
  exec.fence();
  CHECK(std::abs(d(4, 8) - 2.0) <= 1e-14);
}
}  // namespace

TEMPLATE_LIST_TEST_CASE("periodic refactor factors new matrices into the factorization's storage",
                        "[periodic][factorize][refactor]", refactor_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([](auto exec) {
    using Exec = decltype(exec);
    check_refactor<Layout, T>(exec, bandsolve::backend::default_for_t<Exec>{});
#if BANDSOLVE_TESTS_DEVICE_BACKEND
    check_refactor<Layout, T>(exec, bandsolve::backend::device{});
#endif
  });
}

TEST_CASE("periodic refactor checks its arguments against what was factored",
          "[periodic][refactor][errors]") {
  using V = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  Kokkos::Serial exec;
  V a("a", 5, 9), b("b", 5, 9), c("c", 5, 9);
  Kokkos::deep_copy(a, 1.0);
  Kokkos::deep_copy(b, 4.0);
  Kokkos::deep_copy(c, 1.0);
  check_refactor_errors(bandsolve::factorize(exec, periodic{}, a, b, c),
                        "bandsolve::periodic_factorization::refactor", a, b, c);
#if BANDSOLVE_TESTS_DEVICE_BACKEND
  const auto dev = bandsolve::factorize(exec, periodic{}, a, b, c, bandsolve::backend::device{});
  check_refactor_errors(dev, "bandsolve::periodic_device_factorization::refactor", a, b, c);
#endif
}

}  // namespace test_periodic
