// Periodic (cyclic) tridiagonal solver with real coefficients and complex right-hand sides
// (float / complex<float>, double / complex<double>): one-shot solve and real factorization
// solving complex d, against a dense LAPACK zgesv of the cyclic matrix promoted to complex and
// against the real periodic solver run on the real and imaginary parts apart; info codes of
// singular matrices; every layout, strided subviews; Serial and OpenMP.
#include "pivoting_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace test_periodic_complex {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::algo::periodic;
using bstest::host_batch;

namespace {

template <class R>
using cplx = Kokkos::complex<R>;

// Work items hold 16 doubles / 32 floats (row, column, strided) or whole interleaved packs: the
// nsys below are not multiples of any of them.
using layout_real_list =
    std::tuple<std::tuple<bl::row, float>, std::tuple<bl::row, double>,
               std::tuple<bl::column, float>, std::tuple<bl::column, double>,
               std::tuple<bl::interleaved<1>, double>, std::tuple<bl::interleaved<4>, float>,
               std::tuple<bl::interleaved<8>, float>, std::tuple<bl::interleaved<8>, double>>;

// As in test_periodic.cpp: cond < 10 for random_periodic, forward error against the dense solve
// C u with C = 200, normwise residual 32 u.
template <class R>
double dense_tol() {
  return 200 * bstest::eps_of<R>();
}
template <class R>
double residual_tol() {
  return 32 * bstest::eps_of<R>();
}

template <class D>
double worst_diff(const std::vector<D>& x, const std::vector<D>& ref, std::size_t nsys,
                  std::size_t n, const std::vector<int>* skip = nullptr) {
  double w = 0;
  for (std::size_t s = 0; s < nsys; ++s)
    if (!skip || (*skip)[s] == 0) w = std::max(w, bstest::rel_diff_any(x, ref, n, s));
  return w;
}

template <class R>
std::vector<R> part(const std::vector<cplx<R>>& v, bool imaginary) {
  std::vector<R> out(v.size());
  for (std::size_t k = 0; k < v.size(); ++k) out[k] = imaginary ? v[k].imag() : v[k].real();
  return out;
}

// The real periodic batch p with complex right-hand sides rhs in Layout: the one-shot solve and
// the real factorization solving rhs against zgesv of the promoted cyclic matrix, and against
// the real solver on either part; info codes against `expected`.
template <class Layout, class Exec, class R>
void check_complex_rhs(const Exec& exec, const host_batch<R>& p, const std::vector<cplx<R>>& rhs,
                       const std::vector<int>& expected, const std::string& what) {
  using Mem = typename Exec::memory_space;
  using D = cplx<R>;
  const std::size_t nsys = p.nsys, n = p.n;
  INFO(what << ": " << bstest::layout_name<Layout>() << ", " << bstest::type_name<R>()
            << " coefficients, " << Exec::name() << ", n = " << n << ", nsys = " << nsys);
  const auto q = bstest::promote_to_complex(p, rhs);
  const auto ref = bstest::periodic_dense_reference(q);

  const auto a = bstest::to_device<Layout, R, Mem>("a", p.a, nsys, n);
  const auto b = bstest::to_device<Layout, R, Mem>("b", p.b, nsys, n);
  const auto c = bstest::to_device<Layout, R, Mem>("c", p.c, nsys, n);
  auto d = bstest::to_device<Layout, D, Mem>("d", rhs, nsys, n);
  auto df = bstest::to_device<Layout, D, Mem>("df", rhs, nsys, n);
  auto dre = bstest::to_device<Layout, R, Mem>("dre", part(rhs, false), nsys, n);
  auto dim = bstest::to_device<Layout, R, Mem>("dim", part(rhs, true), nsys, n);
  auto info = bstest::make_info<Mem>(nsys), info_re = bstest::make_info<Mem>(nsys),
       info_im = bstest::make_info<Mem>(nsys);
  bandsolve::solve(exec, periodic{}, a, b, c, d, info);
  bandsolve::solve(exec, periodic{}, a, b, c, dre, info_re);
  bandsolve::solve(exec, periodic{}, a, b, c, dim, info_im);
  const auto f = bandsolve::factorize(exec, periodic{}, a, b, c, nsys);
  f.solve(exec, df);
  exec.fence();

  CHECK(bstest::info_to_host(info) == expected);
  CHECK(bstest::info_to_host(f.info()) == expected);
  CHECK(bstest::info_to_host(info_re) == expected);
  CHECK(bstest::info_to_host(info_im) == expected);
  const auto x = bstest::to_host(d, nsys), xf = bstest::to_host(df, nsys);
  CHECK(worst_diff(x, ref, nsys, n, &expected) <= dense_tol<R>());
  CHECK(worst_diff(xf, ref, nsys, n, &expected) <= dense_tol<R>());
  double residual = 0;
  for (std::size_t s = 0; s < nsys; ++s)
    if (expected[s] == 0)
      residual = std::max({residual, bstest::residual_any(q, x, s, &q.d, true),
                           bstest::residual_any(q, xf, s, &q.d, true)});
  CHECK(residual <= residual_tol<R>());
  // The real solver on either part: the same operations on the same pivots, equal up to
  // contraction into fused multiply-adds (a few u times cond < 10).
  std::vector<D> x_parts(nsys * n);
  const auto xre = bstest::to_host(dre, nsys), xim = bstest::to_host(dim, nsys);
  for (std::size_t k = 0; k < nsys * n; ++k) x_parts[k] = D(xre[k], xim[k]);
  CHECK(worst_diff(x, x_parts, nsys, n, &expected) <= 80 * bstest::eps_of<R>());
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("periodic: real coefficients, complex right-hand sides match zgesv",
                        "[periodic][complex]", layout_real_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using R = std::tuple_element_t<1, TestType>;
  const std::vector<std::size_t> ns = {1, 2, 3, 4, 5, 17, 64, 101};
  const std::vector<std::size_t> nsys_all = {1, 7, 17, 33, 40};
  bstest::for_each_exec([&](auto exec) {
    std::uint32_t seed = 41;
    for (std::size_t k = 0; k < ns.size(); ++k)
      for (std::size_t j : {k % 5, (k + 3) % 5}) {
        const auto p = bstest::random_periodic<R>(nsys_all[j], ns[k], seed++);
        const auto rhs = bstest::random_complex<R>(p.nsys * p.n, seed++);
        check_complex_rhs<Layout>(exec, p, rhs, std::vector<int>(p.nsys, 0), "random dominant");
      }
  });
}

TEMPLATE_LIST_TEST_CASE("periodic: real coefficients, complex right-hand sides, singular",
                        "[periodic][complex][info]", layout_real_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using R = std::tuple_element_t<1, TestType>;
  // As in test_periodic.cpp (n = 3): 0 regular; 1: b[0] = 0 -> info 1; 2: all ones -> info 2;
  // 3: Schur complement exactly 0 -> info 3; 4: NaN on the last diagonal -> info 3; 5 regular.
  auto p = bstest::random_periodic<R>(6, 3, 909);
  p.b[p.idx(1, 0)] = R(0);
  for (std::size_t i = 0; i < 3; ++i) p.a[p.idx(2, i)] = p.b[p.idx(2, i)] = p.c[p.idx(2, i)] = R(1);
  const R row3[3][3] = {{R(1), R(2), R(0)}, {R(0), R(1), R(1)}, {R(2), R(3), R(2)}};
  for (std::size_t i = 0; i < 3; ++i) {
    p.a[p.idx(3, i)] = row3[i][0];
    p.b[p.idx(3, i)] = row3[i][1];
    p.c[p.idx(3, i)] = row3[i][2];
  }
  p.b[p.idx(4, 2)] = std::numeric_limits<R>::quiet_NaN();
  const auto rhs = bstest::random_complex<R>(6 * 3, 910);
  std::vector<int> lapack_info;
  const auto q = bstest::promote_to_complex(p, rhs);
  bstest::periodic_dense_reference(q, &q.d, &lapack_info);
  CHECK(lapack_info[2] != 0);
  CHECK(lapack_info[3] != 0);
  bstest::for_each_exec([&](auto exec) {
    check_complex_rhs<Layout>(exec, p, rhs, {0, 1, 2, 3, 3, 0}, "singular");
  });
}

TEMPLATE_TEST_CASE("periodic: real coefficients, complex right-hand sides on strided subviews",
                   "[periodic][complex][strided]", float, double) {
  using R = TestType;
  using D = cplx<R>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    using Batch = bstest::strided_mixed_batch<R, D, Mem>;
    for (std::size_t n : {1, 2, 9, 40}) {
      const std::size_t nsys = 13;
      const auto p = bstest::random_periodic<R>(nsys, n, 1300 + std::uint32_t(n));
      const auto rhs = bstest::random_complex<R>(nsys * n, 1400 + std::uint32_t(n));
      const auto ref = bstest::periodic_dense_reference(bstest::promote_to_complex(p, rhs));
      for (int kind = 0; kind < 2; ++kind) {
        INFO(Exec::name() << ", n = " << n
                          << ": " << Batch::describe(kind));
        const Batch batch(kind, nsys, n);
        const auto &a = batch.a, &b = batch.b, &c = batch.c;
        const auto& d = batch.d;
        batch.fill(p, rhs);
        auto info = bstest::make_info<Mem>(nsys);
        bandsolve::solve(exec, periodic{}, a, b, c, d, info);
        exec.fence();
        CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
        CHECK(worst_diff(bstest::to_host(d, nsys), ref, nsys, n) <= dense_tol<R>());
        CHECK(batch.d_finite() == nsys * n);
        const auto f = bandsolve::factorize(exec, periodic{}, a, b, c);
        bstest::fill(d, rhs, nsys);
        f.solve(exec, d);
        exec.fence();
        CHECK(worst_diff(bstest::to_host(d, nsys), ref, nsys, n) <= dense_tol<R>());
      }
    }
  });
}

TEST_CASE("periodic: real factorization, complex right-hand sides: shape checks",
          "[periodic][complex][errors]") {
  using V = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  using Z = Kokkos::View<cplx<double>**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  Kokkos::Serial exec;
  V a("a", 5, 9), b("b", 5, 9), c("c", 5, 9);
  Z d8("d8", 5, 8), d6("d6", 6, 9);
  auto info = bstest::make_info(5);
  using Catch::Matchers::Equals;
  CHECK_THROWS_WITH(bandsolve::solve(exec, periodic{}, a, b, c, d6, info),
                    Equals("bandsolve::solve(periodic): a holds 5 systems but d holds 6"));
  const auto f = bandsolve::factorize(exec, periodic{}, a, b, c);
  CHECK_THROWS_WITH(f.solve(exec, d8),
                    Equals("bandsolve::periodic_factorization::solve: d has 8 rows but the "
                           "factorization has 9"));
  CHECK_THROWS_WITH(f.solve(exec, d6),
                    Equals("bandsolve::periodic_factorization::solve: d holds 6 systems but the "
                           "factorization has 5"));
}

}  // namespace test_periodic_complex
