// Shared off-diagonals with per-system diagonals and modified corner rows: coefficients from a
// functor and from a View, every layout, real and complex data (against LAPACK dgtsv on the real
// and imaginary parts), the pivot chain in double for float data, and the singular zero mode
// reported or pinned; a diagonal View that does not cover d, or overlaps it, is refused.
#include "toeplitz_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/matchers/catch_matchers_string.hpp>

#include <complex>
#include <string>

namespace test_shared_offdiag {  // units compile in groups: tests/CMakeLists.txt

namespace {

using bandsolve::index_t;
using bandsolve::algo::shared_offdiag;

// Off-diagonals and corners of the test systems; the diagonal of system s, row i, is generated.
constexpr double lower = 0.7, upper = -1.2, first_upper = 0.5, last_lower = -0.9;

struct dominant_diagonal {  // |b| >= |a| + |c| + 1, sign alternating with the system
  KOKKOS_INLINE_FUNCTION double operator()(index_t s, index_t i) const {
    const double m = 1 + bandsolve_hash(s * 7919 + i);
    return (s % 2 ? -1.0 : 1.0) * (2.0 + m);
  }
  KOKKOS_INLINE_FUNCTION static double bandsolve_hash(index_t k) {
    return static_cast<double>((k * 2654435761u) % 1000u) / 1000.0;
  }
};

// The dense description of system s (for LAPACK and residuals).
bstest::host_batch<double> describe(std::size_t nsys, std::size_t n) {
  bstest::host_batch<double> h(nsys, n);
  const dominant_diagonal diag;
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = h.idx(s, i);
      h.a[k] = i == 0 ? 0 : (i + 1 == n ? last_lower : lower);
      h.c[k] = i + 1 == n ? 0 : (i == 0 ? first_upper : upper);
      h.b[k] = diag(static_cast<index_t>(s), static_cast<index_t>(i));
    }
  return h;
}

template <class T>
std::vector<T> lapack_batch(const bstest::host_batch<double>& h, const std::vector<T>& d) {
  std::vector<T> x(d.size());
  for (std::size_t s = 0; s < h.nsys; ++s) {
    const int n = static_cast<int>(h.n);
    std::vector<double> dl(h.a.begin() + s * h.n + 1, h.a.begin() + (s + 1) * h.n),
        dd(h.b.begin() + s * h.n, h.b.begin() + (s + 1) * h.n),
        du(h.c.begin() + s * h.n, h.c.begin() + (s + 1) * h.n - 1);
    if (n == 1) dl.assign(1, 0), du.assign(1, 0);
    std::vector<double> r(n);
    for (int i = 0; i < n; ++i) r[i] = double(d[s * h.n + i]);
    REQUIRE(bstest::lapack_gtsv(n, dl.data(), dd.data(), du.data(), r.data()) == 0);
    for (int i = 0; i < n; ++i) x[s * h.n + i] = static_cast<T>(r[i]);
  }
  return x;
}

template <class Layout, class T, class Real>
void check_real(std::size_t nsys, std::size_t n) {
  const auto h = describe(nsys, n);
  const auto d = bstest::random_rhs<T>(nsys, n, static_cast<std::uint32_t>(nsys + 31 * n));
  const auto ref = lapack_batch(h, d);
  bstest::for_each_exec([&](const auto& exec) {
    using Mem = typename std::decay_t<decltype(exec)>::memory_space;
    INFO(bstest::layout_name<Layout>() << ", nsys = " << nsys << ", n = " << n << ", data "
                                       << sizeof(T) << " B, pivots " << sizeof(Real) << " B");
    auto x = bstest::to_device<Layout, T, Mem>("x", d, nsys, n);
    Kokkos::View<int*, Mem> info("info", nsys);
    Kokkos::deep_copy(info, -1);
    const auto m = bandsolve::make_shared_offdiag(Real(lower), Real(upper), Real(first_upper),
                                                  Real(last_lower), dominant_diagonal{});
    bandsolve::solve(exec, shared_offdiag{}, m, x, info);
    exec.fence();
    const auto got = bstest::to_host(x, nsys);
    // dominant_diagonal gives cond_inf <= 5: LAPACK-level agreement at the data's precision.
    CHECK(bstest::max_rel_diff(got, ref, nsys, n) <= bstest::lapack_tol<T>());
    for (int code : bstest::info_to_host(info)) CHECK(code == 0);

    // The same diagonal read from a View in the batch's layout.
    std::vector<Real> bvals(h.b.begin(), h.b.end());
    const auto bview = bstest::to_device<Layout, Real, Mem>("b", bvals, nsys, n);
    auto y = bstest::to_device<Layout, T, Mem>("y", d, nsys, n);
    bandsolve::solve(exec, shared_offdiag{},
                     bandsolve::make_shared_offdiag(Real(lower), Real(upper), Real(first_upper),
                                                    Real(last_lower), bandsolve::diagonal_from(bview)),
                     y, info);
    exec.fence();
    CHECK(bstest::bitwise_equal(bstest::to_host(y, nsys), got));
  });
}

}  // namespace

TEMPLATE_TEST_CASE("shared_offdiag: functor and View coefficients in every layout, against LAPACK",
                   "[toeplitz][shared_offdiag]", float, double) {
  for (std::size_t nsys : {1u, 19u, 70u})
    for (std::size_t n : {1u, 2u, 3u, 33u}) {
      check_real<bandsolve::layout::row, TestType, TestType>(nsys, n);
      check_real<bandsolve::layout::column, TestType, TestType>(nsys, n);
      check_real<bandsolve::layout::interleaved<4>, TestType, TestType>(nsys, n);
      check_real<bandsolve::layout::interleaved<8>, TestType, TestType>(nsys, n);
    }
  check_real<bandsolve::layout::column, TestType, double>(45, 64);  // pivots in double
}

TEMPLATE_TEST_CASE("shared_offdiag: real coefficients, complex right-hand sides",
                   "[toeplitz][shared_offdiag][complex]", float, double) {
  using T = TestType;
  using C = Kokkos::complex<T>;
  const std::size_t nsys = 21, n = 50;
  const auto h = describe(nsys, n);
  const auto re = bstest::random_rhs<T>(nsys, n, 1), im = bstest::random_rhs<T>(nsys, n, 2);
  const auto xre = lapack_batch(h, re), xim = lapack_batch(h, im);
  std::vector<C> d(nsys * n);
  for (std::size_t k = 0; k < d.size(); ++k) d[k] = C(re[k], im[k]);
  auto check = [&](auto layout_tag) {
    using Layout = decltype(layout_tag);
    auto x = bstest::to_device<Layout, C, Kokkos::HostSpace>("x", d, nsys, n);
    Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
    bandsolve::solve(Kokkos::DefaultHostExecutionSpace(), shared_offdiag{},
                     bandsolve::make_shared_offdiag(T(lower), T(upper), T(first_upper),
                                                    T(last_lower), dominant_diagonal{}),
                     x, info);
    Kokkos::fence();
    const auto got = bstest::to_host(x, nsys);
    std::vector<T> gre(got.size()), gim(got.size());
    for (std::size_t k = 0; k < got.size(); ++k) gre[k] = got[k].real(), gim[k] = got[k].imag();
    INFO(bstest::layout_name<Layout>());
    CHECK(bstest::max_rel_diff(gre, xre, nsys, n) <= bstest::lapack_tol<T>());
    CHECK(bstest::max_rel_diff(gim, xim, nsys, n) <= bstest::lapack_tol<T>());
  };
  check(bandsolve::layout::row{});
  check(bandsolve::layout::column{});
  check(bandsolve::layout::interleaved<4>{});
}

// The Neumann systems of a Poisson solver along z: rows (-1, 1), (1, cc, 1), (1, -1), with
// cc = -2 - k2 h^2 per system (k2 >= 0 a squared wavenumber).
struct neumann_diagonal {
  Kokkos::View<const double*, Kokkos::HostSpace> cc;
  index_t n;
  KOKKOS_INLINE_FUNCTION double operator()(index_t s, index_t i) const {
    return i == 0 || i + 1 == n ? -1.0 - (cc(s) + 2.0) / 2 : cc(s);
  }
};

TEST_CASE("shared_offdiag: float data with the pivot chain in double", "[toeplitz][shared_offdiag]") {
  // Small wavenumbers: nearly singular systems where float pivots lose digits.
  const std::size_t nsys = 16, n = 256;
  Kokkos::View<double*, Kokkos::HostSpace> cc("cc", nsys);
  for (std::size_t s = 0; s < nsys; ++s) cc(s) = -2.0 - 1e-4 * double(s + 1);
  const neumann_diagonal diag{cc, static_cast<index_t>(n)};
  bstest::host_batch<double> h(nsys, n);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = h.idx(s, i);
      h.a[k] = i ? 1 : 0;
      h.c[k] = i + 1 < n ? 1 : 0;
      h.b[k] = diag(static_cast<index_t>(s), static_cast<index_t>(i));
    }
  const auto d = bstest::random_rhs<float>(nsys, n, 4);
  const auto ref = lapack_batch(h, std::vector<double>(d.begin(), d.end()));
  auto error_with = [&](auto real_tag) {
    using Real = decltype(real_tag);
    auto x = bstest::to_device<bandsolve::layout::column, float, Kokkos::HostSpace>("x", d, nsys, n);
    Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
    bandsolve::solve(Kokkos::DefaultHostExecutionSpace(), shared_offdiag{},
                     bandsolve::make_shared_offdiag(Real(1), Real(1), Real(1), Real(1), diag), x,
                     info);
    Kokkos::fence();
    for (int code : bstest::info_to_host(info)) CHECK(code == 0);
    const auto got = bstest::to_host(x, nsys);
    return bstest::max_rel_diff(std::vector<double>(got.begin(), got.end()), ref, nsys, n);
  };
  const double float_pivots = error_with(float{}), double_pivots = error_with(double{});
  INFO("float pivots: " << float_pivots << ", double pivots: " << double_pivots);
  CHECK(double_pivots <= 4 * bstest::eps<float>);  // only the final rounding to float
  CHECK(double_pivots * 10 < float_pivots);
}

TEST_CASE("shared_offdiag: the singular zero mode is reported or pinned", "[toeplitz][shared_offdiag]") {
  const std::size_t nsys = 3, n = 40;
  Kokkos::View<double*, Kokkos::HostSpace> cc("cc", nsys);
  cc(0) = -2.5;
  cc(1) = -2.0;  // the zero mode: singular, constant null vector
  cc(2) = -2.1;
  const neumann_diagonal diag{cc, static_cast<index_t>(n)};
  // A consistent right-hand side for the singular system: entries summing to zero.
  std::vector<double> d(nsys * n);
  for (std::size_t k = 0; k < d.size(); ++k) d[k] = std::cos(0.37 * double(k % n));
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += d[n + i];
  for (std::size_t i = 0; i < n; ++i) d[n + i] -= sum / n;
  const auto m = bandsolve::make_shared_offdiag(1.0, 1.0, 1.0, 1.0, diag);
  const Kokkos::DefaultHostExecutionSpace exec;
  Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);

  auto x = bstest::to_device<bandsolve::layout::row, double, Kokkos::HostSpace>("x", d, nsys, n);
  bandsolve::solve(exec, shared_offdiag{}, m, x, info);
  exec.fence();
  CHECK(info(0) == 0);
  CHECK(info(1) == static_cast<int>(n));
  CHECK(info(2) == 0);

  auto y = bstest::to_device<bandsolve::layout::row, double, Kokkos::HostSpace>("y", d, nsys, n);
  bandsolve::solve(exec, shared_offdiag{}, m, y, info,
                   bandsolve::shared_offdiag_options{bandsolve::singular_last_row::pin, 0.25});
  exec.fence();
  CHECK(info(1) == 0);
  CHECK(y(1, n - 1) == 0.25);
  // Every equation of the singular system holds (it is consistent), and the others are untouched
  // by the option.
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double b = diag(1, static_cast<index_t>(i));
    double r = b * y(1, i) - d[n + i];
    if (i > 0) r += y(1, i - 1);
    if (i + 1 < n) r += y(1, i + 1);
    worst = std::max(worst, std::abs(r));
  }
  CHECK(worst <= 1e-12);
  for (std::size_t i = 0; i < n; ++i) {
    CHECK(y(0, i) == x(0, i));
    CHECK(y(2, i) == x(2, i));
  }

  Kokkos::View<int*, Kokkos::HostSpace> short_info("info", 2);
  CHECK_THROWS_WITH(bandsolve::solve(exec, shared_offdiag{}, m, y, short_info),
                    "bandsolve::solve(shared_offdiag): info.extent(0) = 2 but d holds 3 systems");
}

TEST_CASE("shared_offdiag: a diagonal View that does not cover d, or overlaps it, throws",
          "[toeplitz][shared_offdiag]") {
  using host = Kokkos::HostSpace;
  const Kokkos::DefaultHostExecutionSpace exec;
  const std::size_t nsys = 3, n = 5;
  auto d = bandsolve::make_batch<bandsolve::layout::row, double, host>("d", nsys, n);
  Kokkos::View<int*, host> info("info", nsys);
  const auto with_diagonal = [&](const auto& diagonal_batch) {
    return bandsolve::make_shared_offdiag(1.0, 1.0, 1.0, 1.0,
                                          bandsolve::diagonal_from(diagonal_batch));
  };
  const std::string fn = "bandsolve::solve(shared_offdiag): ";
  // Backends: the execution space's own, and the device kernels on the host space.
  const auto both = [&](const auto& m, const std::string& message) {
    CHECK_THROWS_WITH(bandsolve::solve(exec, shared_offdiag{}, m, d, info), fn + message);
    CHECK_THROWS_WITH(bandsolve::solve(exec, shared_offdiag{}, m, d, info,
                                       bandsolve::backend::device{}),
                      fn + message);
  };
  both(with_diagonal(bandsolve::make_batch<bandsolve::layout::row, double, host>("b", nsys, n - 1)),
       "the diagonal (diagonal_from) has 4 rows but d has 5");
  both(with_diagonal(bandsolve::make_batch<bandsolve::layout::column, double, host>("b", 2, n)),
       "the diagonal (diagonal_from) holds 2 systems but d holds 3");
  // The diagonal in d's own memory: the sweeps would read values they have overwritten.
  const auto m = with_diagonal(d);
  CHECK_THROWS_WITH(bandsolve::solve(exec, shared_offdiag{}, m, d, info),
                    Catch::Matchers::StartsWith(fn + "d overlaps the diagonal (diagonal_from)"));
  // A diagonal in another layout with more systems than d is read for d's systems only.
  auto wide = bandsolve::make_batch<bandsolve::layout::interleaved<8>, double, host>("b", 8, n);
  Kokkos::deep_copy(wide, 4.0);
  Kokkos::deep_copy(d, 6.0);
  bandsolve::solve(exec, shared_offdiag{}, with_diagonal(wide), d, info);
  exec.fence();
  for (std::size_t s = 0; s < nsys; ++s) {
    CHECK(info(s) == 0);
    CHECK(std::abs(d(s, 0) * 4.0 + d(s, 1) - 6.0) <= 1e-12);
    CHECK(std::abs(d(s, n - 2) + d(s, n - 1) * 4.0 - 6.0) <= 1e-12);
  }
}

}  // namespace test_shared_offdiag
