// Batches sharing one Toeplitz matrix: every layout (row, column, interleaved<W>, strided
// subviews), float and double, batches that are not a multiple of the lane count, against LAPACK
// ?gtsv per system; info codes and argument errors.
#include "toeplitz_support.hpp"

#include <bandsolve/bandsolve.hpp>

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
