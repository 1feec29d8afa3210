// Partial pivoting with real coefficients and complex right-hand sides (float / complex<float>,
// double / complex<double>): one-shot solve and real factorization solving complex d, against
// LAPACK ?gtsv on the matrix promoted to complex and against the real solver run on the real and
// imaginary parts apart; LAPACK's ipiv and info (singular matrices included); every layout,
// strided subviews; Serial and OpenMP.
#include "pivoting_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace test_pivoting_complex {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::algo::partial_pivoting;
using bstest::host_batch;

// Complex coefficients over a real right-hand side are rejected at compile time (the
// static_assert of tridiag_static_checks names the rule); a real d over real coefficients and a
// complex d over complex ones of the same precision are the other allowed pairs.
static_assert(!bandsolve::is_rhs_of_v<Kokkos::complex<double>, double>);
static_assert(!bandsolve::is_rhs_of_v<float, Kokkos::complex<double>>);
static_assert(bandsolve::is_rhs_of_v<double, Kokkos::complex<double>>);

namespace {

template <class R>
using cplx = Kokkos::complex<R>;

// Layouts x real coefficient types; work items hold 16 doubles / 32 floats (row, column,
// strided) or whole interleaved packs: the nsys below are not multiples of any of them.
using layout_real_list =
    std::tuple<std::tuple<bl::row, float>, std::tuple<bl::row, double>,
               std::tuple<bl::column, float>, std::tuple<bl::column, double>,
               std::tuple<bl::interleaved<1>, double>, std::tuple<bl::interleaved<4>, float>,
               std::tuple<bl::interleaved<4>, double>, std::tuple<bl::interleaved<8>, float>,
               std::tuple<bl::interleaved<8>, double>>;

template <class R>
std::vector<R> part(const std::vector<cplx<R>>& v, bool imaginary) {
  std::vector<R> out(v.size());
  for (std::size_t k = 0; k < v.size(); ++k) out[k] = imaginary ? v[k].imag() : v[k].real();
  return out;
}

// Tolerances as in test_pivoting.cpp: the solvers are backward stable (residual C u, C = 32) and
// agree with LAPACK to 2 C u cond(A) with C = 64.
template <class R>
double residual_tol() {
  return 32 * bstest::eps_of<R>();
}
template <class R>
double lapack_tol(double cond) {
  return 64 * bstest::eps_of<R>() * std::max(cond, 1.0);
}

// Largest |x - ref| / (tolerance of the system), over the systems LAPACK did not call singular.
template <class R>
double worst_vs_tol(const std::vector<cplx<R>>& x, const std::vector<cplx<R>>& ref,
                    std::size_t n, const std::vector<double>& cond, const std::vector<int>& info) {
  double w = 0;
  for (std::size_t s = 0; s < cond.size(); ++s)
    if (info[s] == 0) w = std::max(w, bstest::rel_diff_any(x, ref, n, s) / lapack_tol<R>(cond[s]));
  return w;
}

template <class R>
double worst_residual(const host_batch<cplx<R>>& q, const std::vector<cplx<R>>& x,
                      const std::vector<int>& info) {
  double r = 0;
  for (std::size_t s = 0; s < q.nsys; ++s)
    if (info[s] == 0) r = std::max(r, bstest::residual_any(q, x, s));
  return r;
}

template <class View>
std::vector<int> ipiv_rows(const View& ipiv) {
  std::vector<int> v(ipiv.extent(0) * ipiv.extent(1));
  for (std::size_t s = 0; s < ipiv.extent(0); ++s)
    for (std::size_t i = 0; i < ipiv.extent(1); ++i) v[s * ipiv.extent(1) + i] = ipiv(s, i);
  return v;
}

// The real batch p with complex right-hand sides rhs in Layout: the one-shot solve and the real
// factorization solving rhs, against ?gtsv on the promoted matrix (info, solution, residual),
// the real ?gttrf's ipiv, and the real solver on the real and imaginary parts apart.
template <class Layout, class Exec, class R>
void check_complex_rhs(const Exec& exec, const host_batch<R>& p,
                       const std::vector<cplx<R>>& rhs, const std::string& what) {
  using Mem = typename Exec::memory_space;
  using D = cplx<R>;
  const std::size_t nsys = p.nsys, n = p.n;
  INFO(what << ": " << bstest::layout_name<Layout>() << ", " << bstest::type_name<R>()
            << " coefficients, " << Exec::name() << ", n = " << n << ", nsys = " << nsys);
  const auto q = bstest::promote_to_complex(p, rhs);
  std::vector<int> zinfo, real_info, ipiv, trf_info;
  std::vector<double> cond;
  const auto ref = bstest::gtsv_reference(q, &zinfo);
  bstest::gtsv_reference(p, &real_info);
  bstest::gttrf_reference(p, ipiv, trf_info, cond);
  CHECK(zinfo == real_info);  // promoting the matrix changes no pivot in LAPACK either

  const auto a = bstest::to_device<Layout, R, Mem>("a", p.a, nsys, n);
  const auto b = bstest::to_device<Layout, R, Mem>("b", p.b, nsys, n);
  const auto c = bstest::to_device<Layout, R, Mem>("c", p.c, nsys, n);
  auto d = bstest::to_device<Layout, D, Mem>("d", rhs, nsys, n);
  auto df = bstest::to_device<Layout, D, Mem>("df", rhs, nsys, n);
  auto dre = bstest::to_device<Layout, R, Mem>("dre", part(rhs, false), nsys, n);
  auto dim = bstest::to_device<Layout, R, Mem>("dim", part(rhs, true), nsys, n);
  auto info = bstest::make_info<Mem>(nsys), info_re = bstest::make_info<Mem>(nsys),
       info_im = bstest::make_info<Mem>(nsys);
  bandsolve::solve(exec, partial_pivoting{}, a, b, c, d, info);
  bandsolve::solve(exec, partial_pivoting{}, a, b, c, dre, info_re);
  bandsolve::solve(exec, partial_pivoting{}, a, b, c, dim, info_im);
  const auto f = bandsolve::factorize(exec, partial_pivoting{}, a, b, c, nsys);
  f.solve(exec, df);
  exec.fence();

  CHECK(bstest::info_to_host(info) == zinfo);
  CHECK(bstest::info_to_host(f.info()) == zinfo);
  CHECK(bstest::info_to_host(info_re) == zinfo);
  CHECK(bstest::info_to_host(info_im) == zinfo);
  CHECK(ipiv_rows(f.ipiv()) == ipiv);
  const auto x = bstest::to_host(d, nsys), xf = bstest::to_host(df, nsys);
  CHECK(worst_vs_tol(x, ref, n, cond, zinfo) <= 1.0);
  CHECK(worst_vs_tol(xf, ref, n, cond, zinfo) <= 1.0);
  CHECK(worst_residual(q, x, zinfo) <= residual_tol<R>());
  CHECK(worst_residual(q, xf, zinfo) <= residual_tol<R>());
  // The real solver on either part: the same operations on the same pivots, so the same
  // results up to contraction into fused multiply-adds (8 u cond(A)).
  std::vector<D> x_parts(nsys * n);
  const auto xre = bstest::to_host(dre, nsys), xim = bstest::to_host(dim, nsys);
  for (std::size_t k = 0; k < nsys * n; ++k) x_parts[k] = D(xre[k], xim[k]);
  for (std::size_t s = 0; s < nsys; ++s)
    if (zinfo[s] == 0)
      CHECK(bstest::rel_diff_any(x, x_parts, n, s) <=
            8 * bstest::eps_of<R>() * std::max(cond[s], 1.0));
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("real coefficients, complex right-hand sides match LAPACK",
                        "[pivoting][complex]", layout_real_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using R = std::tuple_element_t<1, TestType>;
  const std::vector<std::size_t> ns = {1, 2, 3, 4, 7, 16, 33, 100};
  const std::vector<std::size_t> nsys_all = {1, 7, 17, 33, 45};
  bstest::for_each_exec([&](auto exec) {
    std::uint32_t seed = 31;
    for (std::size_t k = 0; k < ns.size(); ++k)
      for (std::size_t j : {k % 5, (k + 2) % 5}) {
        const auto p = bstest::random_general<R>(nsys_all[j], ns[k], seed++);
        const auto rhs = bstest::random_complex<R>(p.nsys * p.n, seed++);
        check_complex_rhs<Layout>(exec, p, rhs, "random non-dominant");
      }
  });
}

TEMPLATE_LIST_TEST_CASE("real coefficients, complex right-hand sides: singular matrices",
                        "[pivoting][complex][info]", layout_real_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using R = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([&](auto exec) {
    for (std::size_t n : {1, 2, 3, 6, 20}) {
      // System 0: the zero matrix (info 1); system 1: regular; system s > 1: column (s-2) % n
      // zeroed, so LAPACK reports the first zero U(i, i) at or before that column.
      const std::size_t nsys = n + 3;
      auto p = bstest::random_general<R>(nsys, n, 700 + std::uint32_t(n));
      for (std::size_t i = 0; i < n; ++i)
        p.a[p.idx(0, i)] = p.b[p.idx(0, i)] = p.c[p.idx(0, i)] = R(0);
      for (std::size_t s = 2; s < nsys; ++s) {
        const std::size_t j = (s - 2) % n;
        p.b[p.idx(s, j)] = R(0);
        if (j + 1 < n) p.a[p.idx(s, j + 1)] = R(0);
        if (j > 0) p.c[p.idx(s, j - 1)] = R(0);
      }
      const auto rhs = bstest::random_complex<R>(nsys * n, 800 + std::uint32_t(n));
      std::vector<int> zinfo;
      bstest::gtsv_reference(bstest::promote_to_complex(p, rhs), &zinfo);
      CHECK(zinfo[0] == 1);
      CHECK(zinfo[1] == 0);
      CHECK(std::count(zinfo.begin(), zinfo.end(), 0) == 1);
      check_complex_rhs<Layout>(exec, p, rhs, "singular");
    }
  });
}

TEMPLATE_TEST_CASE("real coefficients, complex right-hand sides on strided subviews",
                   "[pivoting][complex][strided]", float, double) {
  using R = TestType;
  using D = cplx<R>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    using Batch = bstest::strided_mixed_batch<R, D, Mem>;
    for (const auto& shape : std::vector<std::pair<std::size_t, std::size_t>>{
             {1, 3}, {2, 17}, {9, 33}, {40, 5}}) {
      const std::size_t n = shape.first, nsys = shape.second;
      const auto p = bstest::random_general<R>(nsys, n, 910 + std::uint32_t(n));
      const auto rhs = bstest::random_complex<R>(nsys * n, 920 + std::uint32_t(n));
      const auto q = bstest::promote_to_complex(p, rhs);
      std::vector<int> zinfo, ipiv, trf_info;
      std::vector<double> cond;
      const auto ref = bstest::gtsv_reference(q, &zinfo);
      bstest::gttrf_reference(p, ipiv, trf_info, cond);
      for (int kind = 0; kind < 2; ++kind) {
        INFO(Exec::name() << ", n = " << n << ", nsys = " << nsys
                          << ": " << Batch::describe(kind));
        const Batch batch(kind, nsys, n);
        const auto &a = batch.a, &b = batch.b, &c = batch.c;
        const auto& d = batch.d;
        batch.fill(p, rhs);
        auto info = bstest::make_info<Mem>(nsys);
        bandsolve::solve(exec, partial_pivoting{}, a, b, c, d, info);
        exec.fence();
        CHECK(bstest::info_to_host(info) == zinfo);
        CHECK(worst_vs_tol(bstest::to_host(d, nsys), ref, n, cond, zinfo) <= 1.0);
        // Outside the view d still holds NaN everywhere: count the non-NaN elements.
        CHECK(batch.d_finite() == nsys * n);
        // The real factorization of strided coefficients, solved into the strided complex d.
        const auto f = bandsolve::factorize(exec, partial_pivoting{}, a, b, c);
        bstest::fill(d, rhs, nsys);
        f.solve(exec, d);
        exec.fence();
        CHECK(worst_vs_tol(bstest::to_host(d, nsys), ref, n, cond, zinfo) <= 1.0);
      }
    }
  });
}

TEST_CASE("real factorization, complex right-hand sides: shape checks name the values",
          "[pivoting][complex][errors]") {
  using V = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using Z = Kokkos::View<cplx<double>**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  Kokkos::Serial exec;
  V a("a", 5, 9), b("b", 5, 9), c("c", 5, 9);
  Z d7("d7", 5, 7), d4("d4", 4, 9);
  auto info = bstest::make_info(5);
  using Catch::Matchers::Equals;
  CHECK_THROWS_WITH(bandsolve::solve(exec, partial_pivoting{}, a, b, c, d7, info),
                    Equals("bandsolve::solve(partial_pivoting): a has 9 rows but d has 7"));
  const auto f = bandsolve::factorize(exec, partial_pivoting{}, a, b, c);
  CHECK_THROWS_WITH(f.solve(exec, d7),
                    Equals("bandsolve::pivoting_factorization::solve: d has 7 rows but the "
                           "factorization has 9"));
  CHECK_THROWS_WITH(f.solve(exec, d4),
                    Equals("bandsolve::pivoting_factorization::solve: d holds 4 systems but the "
                           "factorization has 5"));
}

}  // namespace test_pivoting_complex
