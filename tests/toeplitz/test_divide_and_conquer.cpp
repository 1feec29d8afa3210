// Toeplitz divide and conquer: accuracy against a known solution, sequential Thomas and LAPACK
// for n from 1 to 2^22, symmetric and non-symmetric T, float, double and complex, every block
// shape (short blocks below the truncation length, partial lane groups), the root choice, and the
// rejection of T the method cannot solve.
#include "complex_support.hpp"  // before toeplitz_support.hpp: its LAPACK calls find zgtsv
#include "toeplitz_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <iterator>

namespace test_divide_and_conquer {  // units compile in groups: tests/CMakeLists.txt

namespace {

using bandsolve::algo::toeplitz_dc;

template <class T, class Exec>
std::vector<T> dc_solve(const Exec& exec, T t1, T t2, T t3, const std::vector<T>& f,
                        std::size_t block_rows = 0) {
  Kokkos::View<T*, typename Exec::memory_space> x("x", f.size());
  auto h = Kokkos::create_mirror_view(x);
  for (std::size_t i = 0; i < f.size(); ++i) h(i) = f[i];
  Kokkos::deep_copy(x, h);
  const auto plan = bandsolve::factorize(exec, toeplitz_dc{}, t1, t2, t3, f.size(), block_rows);
  plan.solve(exec, x);
  exec.fence();
  Kokkos::deep_copy(h, x);
  return std::vector<T>(h.data(), h.data() + f.size());
}

struct coefficients {
  double t1, t2, t3;
  const char* what;
};

// Diagonally dominant T: symmetric, non-symmetric, negative diagonal, opposite-sign off-diagonals,
// weak dominance (contraction 0.9: long truncation) and bidiagonal.
const coefficients dominant[] = {
    {-1.0, 4.0, -1.0, "symmetric"},       {0.3, 1.0, -0.6, "non-symmetric"},
    {1.5, -4.0, 2.0, "negative diagonal"}, {-0.45, 1.0, -0.5, "weakly dominant"},
    {0.0, 2.0, 1.5, "upper bidiagonal"},  {0.7, -1.0, 0.0, "lower bidiagonal"},
};

template <class T>
void check_accuracy(std::size_t n, std::size_t block_rows, std::uint32_t seed,
                    std::size_t sets = std::size(dominant)) {
  for (std::size_t k = 0; k < sets; ++k) {
    const coefficients& c = dominant[k];
    const T t1 = T(c.t1), t2 = T(c.t2), t3 = T(c.t3);
    const auto p = bstest::make_toeplitz_problem<T>(t1, t2, t3, n, seed);
    const auto thomas = bstest::sequential_thomas(t1, t2, t3, p.f);
    const double thomas_err = bstest::max_rel_error(thomas, p.x);
    const double floor = bstest::eps<T>;
    bstest::for_each_exec([&](const auto& exec) {
      const auto x = dc_solve(exec, t1, t2, t3, p.f, block_rows);
      const double err = bstest::max_rel_error(x, p.x);
      INFO(c.what << ", n = " << n << ", block_rows = " << block_rows << ", exec "
                  << exec.name() << ": error " << err << ", Thomas " << thomas_err);
      // The done criterion: within 10x of Thomas's error (or of one eps when Thomas is exact).
      CHECK(err <= 10 * std::max(thomas_err, floor));
    });
  }
}

}  // namespace

TEMPLATE_TEST_CASE("toeplitz_dc: within 10x of sequential Thomas's error for n = 1 .. 2^22",
                   "[toeplitz]", float, double) {
  for (std::size_t n : {1u, 2u, 3u, 7u, 64u, 1000u, 4097u, 65539u})
    check_accuracy<TestType>(n, 0, 7u + static_cast<std::uint32_t>(n));
  // Large n with the symmetric and the non-symmetric T only (test time).
  check_accuracy<TestType>(1u << 20, 0, 5u, 2);
  if constexpr (std::is_same_v<TestType, double>) check_accuracy<TestType>(1u << 22, 0, 3u, 2);
}

TEMPLATE_TEST_CASE("toeplitz_dc: blocks shorter than the truncation length, partial lane groups",
                   "[toeplitz]", float, double) {
  // block_rows 1 .. 37 against a truncation of ~20 (float) to ~350 (double, weak dominance):
  // the carries then propagate through many blocks exactly; n leaves a short last block and
  // a last work item with fewer than `lanes` blocks.
  for (std::size_t rows : {1u, 2u, 5u, 16u, 37u, 1000u})
    check_accuracy<TestType>(5003, rows, 11u + static_cast<std::uint32_t>(rows));
}

TEST_CASE("toeplitz_dc: agrees with LAPACK dgtsv", "[toeplitz]") {
  for (std::size_t n : {2u, 5u, 999u, 123457u}) {
    for (const auto& c : dominant) {
      const auto p = bstest::make_toeplitz_problem<double>(c.t1, c.t2, c.t3, n, 5);
      const auto ref = bstest::lapack_toeplitz(c.t1, c.t2, c.t3, p.f);
      bstest::for_each_exec([&](const auto& exec) {
        const auto x = dc_solve(exec, c.t1, c.t2, c.t3, p.f);
        INFO(c.what << ", n = " << n);
        CHECK(bstest::max_rel_error(x, ref) <= bstest::lapack_tol<double>());
      });
    }
  }
}

TEST_CASE("toeplitz_dc: one-shot solve equals the plan's solve", "[toeplitz]") {
  const auto p = bstest::make_toeplitz_problem<double>(-1, 3, 0.5, 40000, 9);
  Kokkos::View<double*, Kokkos::HostSpace> x("x", p.f.size());
  for (std::size_t i = 0; i < p.f.size(); ++i) x(i) = p.f[i];
  bandsolve::solve(Kokkos::DefaultHostExecutionSpace(), toeplitz_dc{}, -1.0, 3.0, 0.5, x);
  Kokkos::fence();
  const auto y = dc_solve(Kokkos::DefaultHostExecutionSpace(), -1.0, 3.0, 0.5, p.f);
  for (std::size_t i = 0; i < p.f.size(); ++i) REQUIRE(x(i) == y[i]);
}

// The root choice. Run the same L R + P solve sequentially with either root: the chosen one
// contracts both recurrences and is accurate; the other one makes them grow.
template <class T>
std::vector<T> lr_solve_with_root(T t1, T t2, T t3, double delta, const std::vector<T>& f) {
  const std::size_t n = f.size();
  const T a = T(t1 / delta), g = T(-t3 / delta), inv = T(1 / delta), gamma = T(t2 - delta);
  auto solve_lr = [&](std::vector<T> v) {
    T z = 0;
    for (auto& e : v) e = z = e * inv - a * z;
    T x = 0;
    for (std::size_t i = n; i-- > 0;) v[i] = x = v[i] + g * x;
    return v;
  };
  auto v = solve_lr(f);
  std::vector<T> e0(n, T(0));
  e0[0] = 1;
  const auto u = solve_lr(e0);
  const T scale = gamma * v[0] / (1 + gamma * u[0]);
  for (std::size_t i = 0; i < n; ++i) v[i] -= scale * u[i];
  return v;
}

TEST_CASE("toeplitz_dc: the larger root keeps both recurrences contractive", "[toeplitz]") {
  for (const auto& c : dominant) {
    const auto sp = bandsolve::split_toeplitz<double>("test", c.t1, c.t2, c.t3);
    INFO(c.what << ": delta = " << sp.delta << ", other root = " << sp.other_root);
    CHECK(std::abs(sp.a) < 1);
    CHECK(std::abs(sp.g) < 1);
    CHECK(sp.contraction < 1);
    CHECK(std::abs(sp.other_root) <= std::abs(sp.delta));
    CHECK(std::abs(sp.delta * sp.delta - c.t2 * sp.delta + c.t1 * c.t3) <= 1e-14 * c.t2 * c.t2);
    // n = 200: the other root's growth (at least 1.3^200) stays finite, so the error is measured.
    const auto p = bstest::make_toeplitz_problem<double>(c.t1, c.t2, c.t3, 200, 1);
    CHECK(bstest::max_rel_error(lr_solve_with_root(c.t1, c.t2, c.t3, sp.delta, p.f), p.x) <
          1e-13);
    if (c.t1 != 0 && c.t3 != 0) {
      // The other root: |t1 / delta'| or |t3 / delta'| > 1, and the solve blows up.
      const double other = sp.other_root;
      CHECK(std::max(std::abs(c.t1 / other), std::abs(c.t3 / other)) > 1);
      const auto bad = lr_solve_with_root(c.t1, c.t2, c.t3, other, p.f);
      const double err = bstest::max_rel_error(bad, p.x);
      CHECK(err > 1e-3);
    }
  }
}

TEST_CASE("toeplitz_dc: T the method cannot solve is rejected with a clear message", "[toeplitz]") {
  const Kokkos::DefaultHostExecutionSpace exec;
  using Catch::Matchers::ContainsSubstring;
  // Complex roots: t2^2 < 4 t1 t3.
  CHECK_THROWS_WITH(bandsolve::factorize(exec, toeplitz_dc{}, 1.0, 1.0, 1.0, 100),
                    ContainsSubstring("bandsolve::factorize(toeplitz_dc): T = tridiag(1, 1, 1) "
                                      "has complex roots"));
  // The 1-D Laplacian: a double root delta = 1, ratios exactly 1.
  CHECK_THROWS_WITH(bandsolve::factorize(exec, toeplitz_dc{}, -1.0, 2.0, -1.0, 100),
                    ContainsSubstring("cannot be split into contractive bidiagonal recurrences"));
  // Not dominant with real roots: |t1| > |delta|.
  CHECK_THROWS_WITH(bandsolve::factorize(exec, toeplitz_dc{}, 3.0, 1.0, -0.5, 100),
                    ContainsSubstring("|t1/delta| = "));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, toeplitz_dc{}, 0.0, 0.0, 1.0, 100),
                    ContainsSubstring("is singular"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, toeplitz_dc{}, 1.0, std::nan(""), 1.0, 100),
                    ContainsSubstring("not finite"));
  CHECK_THROWS_AS(bandsolve::factorize(exec, toeplitz_dc{}, 1.0f, 1.0f, 1.0f, 10),
                  std::invalid_argument);

  const auto plan = bandsolve::factorize(exec, toeplitz_dc{}, -1.0, 4.0, -1.0, 100);
  Kokkos::View<double*, Kokkos::HostSpace> wrong("wrong", 99);
  CHECK_THROWS_WITH(plan.solve(exec, wrong),
                    "bandsolve::toeplitz_dc_plan::solve: x.extent(0) = 99 but the plan has n = 100");
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> m("m", 100, 2);
  const auto column = Kokkos::subview(m, Kokkos::ALL, 0);
  CHECK_THROWS_WITH(plan.solve(exec, column),
                    ContainsSubstring("x.stride(0) = 2; the divide and conquer needs unit stride"));
  bandsolve::toeplitz_dc_plan<double, Kokkos::DefaultHostExecutionSpace> empty;
  CHECK_THROWS_WITH(empty.solve(exec, wrong), ContainsSubstring("this plan is empty"));
}

namespace {

using zc = bstest::cplx<double>;

// Complex diagonally dominant T: symmetric (not Hermitian), non-symmetric, weakly dominant
// (contraction about 0.9) and bidiagonal.
struct complex_coefficients {
  zc t1, t2, t3;
  const char* what;
};
const complex_coefficients complex_dominant[] = {
    {{-1.0, 0.5}, {4.0, 1.0}, {-1.0, 0.5}, "complex symmetric"},
    {{0.3, -0.2}, {0.5, 1.0}, {-0.6, 0.1}, "complex non-symmetric"},
    {{-0.3, 0.33}, {0.0, -1.0}, {0.35, 0.35}, "complex weakly dominant"},
    {{0.0, 0.0}, {2.0, -1.0}, {1.5, 0.5}, "complex upper bidiagonal"},
};

// A known complex solution and f = T x in complex long double.
template <class C>
bstest::toeplitz_problem<C> complex_problem(C t1, C t2, C t3, std::size_t n, std::uint32_t seed) {
  using W = std::complex<long double>;
  const auto wide = [](C z) { return W(z.real(), z.imag()); };
  bstest::toeplitz_problem<C> p{t1, t2, t3, bstest::random_complex_rhs<C>(n, seed),
                                std::vector<C>(n)};
  for (std::size_t i = 0; i < n; ++i) {
    W s = wide(t2) * wide(p.x[i]);
    if (i > 0) s += wide(t1) * wide(p.x[i - 1]);
    if (i + 1 < n) s += wide(t3) * wide(p.x[i + 1]);
    using R = bandsolve::real_type_t<C>;
    p.f[i] = C(static_cast<R>(s.real()), static_cast<R>(s.imag()));
  }
  return p;
}

template <class C, class Exec, class Backend>
std::vector<C> complex_dc_solve(const Exec& exec, C t1, C t2, C t3, const std::vector<C>& f,
                                std::size_t block_rows, Backend) {
  Kokkos::View<C*, typename Exec::memory_space> x("x", f.size());
  auto h = Kokkos::create_mirror_view(x);
  for (std::size_t i = 0; i < f.size(); ++i) h(i) = f[i];
  Kokkos::deep_copy(x, h);
  const auto plan =
      bandsolve::factorize(exec, toeplitz_dc{}, t1, t2, t3, f.size(), block_rows, Backend{});
  plan.solve(exec, x);
  exec.fence();
  Kokkos::deep_copy(h, x);
  return std::vector<C>(h.data(), h.data() + f.size());
}

// Within 10x of sequential complex Thomas's error (or of one eps), host and device kernels.
template <class C>
void check_complex_accuracy(std::size_t n, std::size_t block_rows, std::uint32_t seed,
                            std::size_t sets = std::size(complex_dominant)) {
  using R = bandsolve::real_type_t<C>;
  for (std::size_t k = 0; k < sets; ++k) {
    const auto& c = complex_dominant[k];
    const C t1(R(c.t1.real()), R(c.t1.imag())), t2(R(c.t2.real()), R(c.t2.imag())),
        t3(R(c.t3.real()), R(c.t3.imag()));
    const auto p = complex_problem(t1, t2, t3, n, seed);
    const double thomas_err =
        bstest::max_rel_diff1(bstest::sequential_thomas(t1, t2, t3, p.f), p.x, 1, n);
    const double bound = 10 * std::max(thomas_err, double(bstest::eps<R>));
    bstest::for_each_exec([&](const auto& exec) {
      using Exec = std::decay_t<decltype(exec)>;
      INFO(c.what << ", n = " << n << ", block_rows = " << block_rows << ", Thomas "
                  << thomas_err);
      const auto x = complex_dc_solve(exec, t1, t2, t3, p.f, block_rows,
                                      bandsolve::backend::default_for_t<Exec>{});
      CHECK(bstest::max_rel_diff1(x, p.x, 1, n) <= bound);
      const auto y =
          complex_dc_solve(exec, t1, t2, t3, p.f, block_rows, bandsolve::backend::device{});
      CHECK(bstest::max_rel_diff1(y, p.x, 1, n) <= bound);
    });
  }
}

}  // namespace

TEMPLATE_TEST_CASE("toeplitz_dc: complex T within 10x of sequential Thomas's error",
                   "[toeplitz][complex]", bstest::cplx<float>, bstest::cplx<double>) {
  for (std::size_t n : {1u, 2u, 3u, 7u, 64u, 1000u, 4097u})
    check_complex_accuracy<TestType>(n, 0, 3u + static_cast<std::uint32_t>(n));
  // Blocks shorter than the truncation length and partial lane groups; 8 and 24 rows take the
  // register transposes of the parts (2 s a multiple of the lanes) for float and double.
  for (std::size_t rows : {1u, 5u, 8u, 24u, 37u})
    check_complex_accuracy<TestType>(5003, rows, 17u + static_cast<std::uint32_t>(rows));
  if constexpr (std::is_same_v<TestType, zc>) check_complex_accuracy<TestType>(1u << 18, 0, 9u, 2);
}

TEST_CASE("toeplitz_dc: complex T agrees with LAPACK zgtsv; one-shot equals the plan",
          "[toeplitz][complex]") {
  const Kokkos::DefaultHostExecutionSpace exec;
  for (std::size_t n : {2u, 999u, 70001u}) {
    for (const auto& c : complex_dominant) {
      const auto p = complex_problem(c.t1, c.t2, c.t3, n, 5);
      const auto ref = bstest::lapack_toeplitz(c.t1, c.t2, c.t3, p.f);
      INFO(c.what << ", n = " << n);
      const auto x = complex_dc_solve(exec, c.t1, c.t2, c.t3, p.f, 0,
                                      bandsolve::backend::default_for_t<decltype(exec)>{});
      CHECK(bstest::max_rel_diff1(x, ref, 1, n) <= bstest::complex_tol<zc>());
      Kokkos::View<zc*, Kokkos::HostSpace> y("y", n);
      for (std::size_t i = 0; i < n; ++i) y(i) = p.f[i];
      bandsolve::solve(exec, toeplitz_dc{}, c.t1, c.t2, c.t3, y);
      exec.fence();
      CHECK(bstest::bitwise_equal(std::vector<zc>(y.data(), y.data() + n), x));
    }
  }
}

TEST_CASE("toeplitz_dc: complex splitting, Thomas near the edge, rejected T", "[toeplitz][complex]") {
  using Catch::Matchers::ContainsSubstring;
  const Kokkos::DefaultHostExecutionSpace exec;
  for (const auto& c : complex_dominant) {
    const auto sp = bandsolve::split_toeplitz("test", c.t1, c.t2, c.t3);
    INFO(c.what << ": delta = " << sp.delta << ", other root = " << sp.other_root);
    CHECK(sp.contraction < 1);
    CHECK(std::abs(sp.other_root) <= std::abs(sp.delta));
    const std::complex<double> t1(c.t1.real(), c.t1.imag()), t2(c.t2.real(), c.t2.imag()),
        t3(c.t3.real(), c.t3.imag());
    CHECK(std::abs(sp.delta * sp.delta - t2 * sp.delta + t1 * t3) <= 1e-14 * std::norm(t2));
  }
  // Real T with complex roots (t2^2 < 4 t1 t3) split in complex arithmetic.
  const auto p = complex_problem(zc(1, 0), zc(2.5, 0), zc(1.2, 0), 3001, 4);
  const auto x = complex_dc_solve(exec, zc(1, 0), zc(2.5, 0), zc(1.2, 0), p.f, 0,
                                  bandsolve::backend::default_for_t<decltype(exec)>{});
  CHECK(bstest::max_rel_diff1(x, p.x, 1, 3001) <= 1e-12);
  // Near the edge of dominance the carries do not decay within n: Thomas on T's factors.
  // e^{i phi} (-1, 2 + 1e-12, -1): the real edge case rotated (a and g do not change).
  const zc rot(0.6, 0.8), edge = rot * (2 + 1e-12), one = -rot;
  const auto plan = bandsolve::factorize(exec, toeplitz_dc{}, one, edge, one, 1000);
  CHECK(plan.uses_thomas());
  CHECK(plan.info() == 0);
  // i (3, 1, -0.5): |t1 / delta| = 1.65 with the larger root.
  CHECK_THROWS_WITH(bandsolve::factorize(exec, toeplitz_dc{}, zc(0, 3), zc(0, 1), zc(0, -0.5), 100),
                    ContainsSubstring("cannot be split into contractive bidiagonal recurrences"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, toeplitz_dc{}, zc(0, 0), zc(0, 0), zc(1, 1), 100),
                    ContainsSubstring("is singular"));
  CHECK_THROWS_WITH(
      bandsolve::factorize(exec, toeplitz_dc{}, zc(1, 0), zc(std::nan(""), 0), zc(1, 0), 100),
      ContainsSubstring("not finite"));
}

}  // namespace test_divide_and_conquer
