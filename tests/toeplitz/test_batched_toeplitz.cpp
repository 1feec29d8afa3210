// Batches sharing one Toeplitz matrix: every layout (row, column, interleaved<W>, strided
// subviews), float, double and complex (also real T with complex d), batches that are not a
// multiple of the lane count, against LAPACK ?gtsv per system; the device kernels on the host
// space; info codes and argument errors.
#include "complex_support.hpp"  // before toeplitz_support.hpp: its LAPACK calls find cgtsv/zgtsv
#include "toeplitz_support.hpp"

#include <bandsolve/bandsolve.hpp>

namespace test_batched_toeplitz {  // units compile in groups: tests/CMakeLists.txt

namespace {

using bandsolve::algo::toeplitz;
constexpr double t1 = 0.4, t2 = -2.5, t3 = 1.1;

template <class T>
std::vector<T> reference(const std::vector<T>& d, std::size_t nsys, std::size_t n) {
  std::vector<T> x(d.size());
  for (std::size_t s = 0; s < nsys; ++s) {
    const std::vector<T> one(d.begin() + s * n, d.begin() + (s + 1) * n);
    const auto xs = bstest::lapack_toeplitz<T>(T(t1), T(t2), T(t3), one);
    std::copy(xs.begin(), xs.end(), x.begin() + s * n);
  }
  return x;
}

template <class Layout, class T>
void check_layout() {
  for (std::size_t nsys : {1u, 37u, 130u}) {
    for (std::size_t n : {1u, 2u, 17u, 64u, 200u}) {
      const auto d = bstest::random_rhs<T>(nsys, n, static_cast<std::uint32_t>(nsys * 1000 + n));
      const auto ref = reference(d, nsys, n);
      bstest::for_each_exec([&](const auto& exec) {
        using Exec = std::decay_t<decltype(exec)>;
        INFO(bstest::layout_name<Layout>() << ", nsys = " << nsys << ", n = " << n << ", "
                                           << exec.name());
        auto x = bstest::to_device<Layout, T, typename Exec::memory_space>("x", d, nsys, n);
        const auto f = bandsolve::factorize(exec, toeplitz{}, T(t1), T(t2), T(t3), n);
        CHECK(f.info() == 0);
        f.solve(exec, x);
        exec.fence();
        CHECK(bstest::max_rel_diff(bstest::to_host(x, nsys), ref, nsys, n) <=
              bstest::lapack_tol<T>());

        auto y = bstest::to_device<Layout, T, typename Exec::memory_space>("y", d, nsys, n);
        Kokkos::View<int*, typename Exec::memory_space> info("info", nsys);
        Kokkos::deep_copy(info, -7);
        bandsolve::solve(exec, toeplitz{}, T(t1), T(t2), T(t3), y, info);
        exec.fence();
        CHECK(bstest::bitwise_equal(bstest::to_host(y, nsys), bstest::to_host(x, nsys)));
        for (int code : bstest::info_to_host(info)) CHECK(code == 0);
      });
    }
  }
}

// Complex T (or real T, with complex d): every layout against ?gtsv on T as a complex matrix;
// factored, one-shot and the device kernels on the host space. Coef is the coefficients' type.
template <class Layout, class Coef, class D>
void check_complex_layout(Coef t1c, Coef t2c, Coef t3c) {
  for (std::size_t nsys : {1u, 37u}) {
    // n = 64: the row layout's transposed parts for float lanes too (2n a multiple of 32).
    for (std::size_t n : {1u, 2u, 17u, 64u, 200u}) {
      const auto d = bstest::random_complex_rhs<D>(nsys * n, static_cast<std::uint32_t>(nsys + n));
      std::vector<D> ref(d.size());
      for (std::size_t s = 0; s < nsys; ++s) {
        const std::vector<D> one(d.begin() + s * n, d.begin() + (s + 1) * n);
        const auto xs = bstest::lapack_toeplitz<D>(D(t1c), D(t2c), D(t3c), one);
        std::copy(xs.begin(), xs.end(), ref.begin() + s * n);
      }
      bstest::for_each_exec([&](const auto& exec) {
        using Mem = typename std::decay_t<decltype(exec)>::memory_space;
        INFO(bstest::layout_name<Layout>() << ", nsys = " << nsys << ", n = " << n);
        auto x = bstest::to_device<Layout, D, Mem>("x", d, nsys, n);
        const auto f = bandsolve::factorize(exec, toeplitz{}, t1c, t2c, t3c, n);
        CHECK(f.info() == 0);
        f.solve(exec, x);
        exec.fence();
        const auto xh = bstest::to_host(x, nsys);
        CHECK(bstest::max_rel_diff1(xh, ref, nsys, n) <= bstest::complex_tol<D>());

        auto y = bstest::to_device<Layout, D, Mem>("y", d, nsys, n);
        auto info = bstest::make_info<Mem>(nsys);
        bandsolve::solve(exec, toeplitz{}, t1c, t2c, t3c, y, info);
        exec.fence();
        CHECK(bstest::bitwise_equal(bstest::to_host(y, nsys), xh));
        for (int code : bstest::info_to_host(info)) CHECK(code == 0);

        auto z = bstest::to_device<Layout, D, Mem>("z", d, nsys, n);
        f.solve(exec, z, bandsolve::backend::device{});
        exec.fence();
        CHECK(bstest::max_rel_diff1(bstest::to_host(z, nsys), ref, nsys, n) <=
              bstest::complex_tol<D>());
      });
    }
  }
}

template <class R>
struct complex_coefficients {
  using C = bstest::cplx<R>;
  // |t2| = 2.77 > |t1| + |t3| = 1.71: diagonally dominant.
  C t1{R(0.4), R(-0.3)}, t2{R(-2.5), R(1.2)}, t3{R(1.1), R(0.5)};
};

}  // namespace

TEMPLATE_TEST_CASE("toeplitz batch: every layout against LAPACK", "[toeplitz][batched]", float,
                   double) {
  check_layout<bandsolve::layout::row, TestType>();
  check_layout<bandsolve::layout::column, TestType>();
  check_layout<bandsolve::layout::interleaved<4>, TestType>();
  check_layout<bandsolve::layout::interleaved<8>, TestType>();
  check_layout<bandsolve::layout::interleaved<16>, TestType>();
}

TEMPLATE_TEST_CASE("toeplitz batch: strided subviews read and write only the view",
                   "[toeplitz][batched][strided]", float, double) {
  using T = TestType;
  const std::size_t nsys = 23, n = 41;
  const auto d = bstest::random_rhs<T>(nsys, n, 3);
  const auto ref = reference(d, nsys, n);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const auto f =
      bandsolve::factorize(Kokkos::DefaultHostExecutionSpace(), toeplitz{}, T(t1), T(t2), T(t3), n);
  // Gathered rows (system stride n + 2, row stride 2) and lane rows (system stride 1).
  Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace> big("big", nsys, n + 2, 2);
  Kokkos::View<T**, Kokkos::LayoutLeft, Kokkos::HostSpace> wide("wide", nsys + 5, n);
  Kokkos::deep_copy(big, nan);
  Kokkos::deep_copy(wide, nan);
  Kokkos::View<T**, Kokkos::LayoutStride, Kokkos::HostSpace> a =
      Kokkos::subview(big, Kokkos::ALL, std::make_pair(std::size_t(1), n + 1), 1);
  Kokkos::View<T**, Kokkos::LayoutStride, Kokkos::HostSpace> b =
      Kokkos::subview(wide, std::make_pair(std::size_t(3), nsys + 3), Kokkos::ALL);
  for (const auto& v : {a, b}) {
    bstest::fill(v, d, nsys);
    f.solve(Kokkos::DefaultHostExecutionSpace(), v);
    Kokkos::fence();
    CHECK(bstest::max_rel_diff(bstest::to_host(v, nsys), ref, nsys, n) <= bstest::lapack_tol<T>());
  }
  std::size_t outside_nan = 0;
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n + 2; ++i)
      outside_nan += (i == 0 || i == n + 1) ? std::isnan(big(s, i, 1)) + std::isnan(big(s, i, 0))
                                            : std::isnan(big(s, i, 0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t s : {0u, 1u, 2u, 26u, 27u}) outside_nan += std::isnan(wide(s, i));
  CHECK(outside_nan == nsys * (n + 4) + 5 * n);
}

TEST_CASE("toeplitz batch: bad pivots give the LAPACK-style row, bad arguments throw",
          "[toeplitz][batched]") {
  const Kokkos::DefaultHostExecutionSpace exec;
  CHECK(bandsolve::factorize(exec, toeplitz{}, 1.0, 0.0, 1.0, 5).info() == 1);
  CHECK(bandsolve::factorize(exec, toeplitz{}, 1.0, 1.0, 1.0, 5).info() == 2);
  CHECK(bandsolve::factorize(exec, toeplitz{}, 1.0, 1.0, 1.0, 1).info() == 0);

  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> d("d", 4, 6);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", 4), short_info("info", 3);
  bandsolve::solve(exec, toeplitz{}, 1.0, 1.0, 1.0, d, info);
  exec.fence();
  for (int s = 0; s < 4; ++s) CHECK(info(s) == 2);

  const auto f = bandsolve::factorize(exec, toeplitz{}, 1.0, 4.0, 1.0, 7);
  CHECK_THROWS_WITH(f.solve(exec, d),
                    "bandsolve::toeplitz_batch_factorization::solve: d has 6 rows but the "
                    "factorization has 7");
  CHECK_THROWS_WITH(bandsolve::solve(exec, toeplitz{}, 1.0, 4.0, 1.0, d, short_info),
                    "bandsolve::solve(toeplitz): info.extent(0) = 3 but d holds 4 systems");
  bandsolve::toeplitz_batch_factorization<double, Kokkos::DefaultHostExecutionSpace> empty;
  CHECK_THROWS_WITH(empty.solve(exec, d),
                    "bandsolve::toeplitz_batch_factorization::solve: this factorization is empty "
                    "(default-constructed)");
}

TEMPLATE_TEST_CASE("toeplitz batch: complex T in every layout against LAPACK ?gtsv",
                   "[toeplitz][batched][complex]", bandsolve::layout::row, bandsolve::layout::column,
                   bandsolve::layout::interleaved<4>, bandsolve::layout::interleaved<8>) {
  using C = bstest::cplx<double>;
  const complex_coefficients<double> k;
  check_complex_layout<TestType, C, C>(k.t1, k.t2, k.t3);
  // Real T with complex d: the real factors act on both parts.
  check_complex_layout<TestType, double, C>(t1, t2, t3);
  if constexpr (std::is_same_v<TestType, bandsolve::layout::row> ||
                std::is_same_v<TestType, bandsolve::layout::column>) {
    const complex_coefficients<float> kf;
    check_complex_layout<TestType, bstest::cplx<float>, bstest::cplx<float>>(kf.t1, kf.t2, kf.t3);
    check_complex_layout<TestType, float, bstest::cplx<float>>(float(t1), float(t2), float(t3));
  }
}

TEST_CASE("toeplitz batch: complex strided subviews read and write only the view",
          "[toeplitz][batched][strided][complex]") {
  using C = bstest::cplx<double>;
  const complex_coefficients<double> k;
  const Kokkos::DefaultHostExecutionSpace exec;
  const std::size_t nsys = 19, n = 33;
  const auto d = bstest::random_complex_rhs<C>(nsys * n, 5);
  std::vector<C> ref(d.size());
  for (std::size_t s = 0; s < nsys; ++s) {
    const std::vector<C> one(d.begin() + s * n, d.begin() + (s + 1) * n);
    const auto xs = bstest::lapack_toeplitz<C>(k.t1, k.t2, k.t3, one);
    std::copy(xs.begin(), xs.end(), ref.begin() + s * n);
  }
  const auto f = bandsolve::factorize(exec, toeplitz{}, k.t1, k.t2, k.t3, n);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Gathered rows (row stride 2) and lane rows (system stride 1).
  Kokkos::View<C***, Kokkos::LayoutRight, Kokkos::HostSpace> big("big", nsys, n, 2);
  Kokkos::View<C**, Kokkos::LayoutLeft, Kokkos::HostSpace> wide("wide", nsys + 4, n);
  Kokkos::deep_copy(big, C(nan, nan));
  Kokkos::deep_copy(wide, C(nan, nan));
  Kokkos::View<C**, Kokkos::LayoutStride, Kokkos::HostSpace> a =
      Kokkos::subview(big, Kokkos::ALL, Kokkos::ALL, 1);
  Kokkos::View<C**, Kokkos::LayoutStride, Kokkos::HostSpace> b =
      Kokkos::subview(wide, std::make_pair(std::size_t(2), nsys + 2), Kokkos::ALL);
  for (const auto& v : {a, b}) {
    bstest::fill(v, d, nsys);
    f.solve(exec, v);
    exec.fence();
    CHECK(bstest::max_rel_diff1(bstest::to_host(v, nsys), ref, nsys, n) <=
          bstest::complex_tol<C>());
  }
  std::size_t outside_nan = 0;
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i) outside_nan += std::isnan(big(s, i, 0).real());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t s : {0u, 1u, 21u, 22u}) outside_nan += std::isnan(wide(s, i).imag());
  CHECK(outside_nan == nsys * n + 4 * n);
}

TEST_CASE("toeplitz batch: complex pivots give the LAPACK-style row", "[toeplitz][batched][complex]") {
  using C = bstest::cplx<double>;
  const Kokkos::DefaultHostExecutionSpace exec;
  CHECK(bandsolve::factorize(exec, toeplitz{}, C(1, 0), C(0, 0), C(1, 0), 5).info() == 1);
  // p_1 = t2 - t1 t3 / t2 = i - (i i) / i = 0.
  CHECK(bandsolve::factorize(exec, toeplitz{}, C(0, 1), C(0, 1), C(0, 1), 5).info() == 2);
  CHECK(bandsolve::factorize(exec, toeplitz{}, C(0, 1), C(0, 1), C(0, 1), 1).info() == 0);
  Kokkos::View<C**, Kokkos::LayoutLeft, Kokkos::HostSpace> d("d", 3, 4);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", 3);
  bandsolve::solve(exec, toeplitz{}, C(0, 1), C(0, 1), C(0, 1), d, info);
  exec.fence();
  for (int s = 0; s < 3; ++s) CHECK(info(s) == 2);
  const auto real = bandsolve::factorize(exec, toeplitz{}, 1.0, 4.0, 1.0, 5);
  CHECK_THROWS_WITH(real.solve(exec, d),
                    "bandsolve::toeplitz_batch_factorization::solve: d has 4 rows but the "
                    "factorization has 5");
}

}  // namespace test_batched_toeplitz
