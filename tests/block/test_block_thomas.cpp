// Block Thomas one-shot solve against LAPACK ?gbsv (the same systems as band matrices,
// kl = ku = 2m - 1) for every block size m = 2..8, layout and precision, on the tests' host
// space: n = 1, 2, 3 and larger, batches that are not multiples of the group width,
// one and several right-hand sides, untouched coefficients and padding lanes.
#include "block_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <string>
#include <tuple>
#include <vector>

namespace test_block_thomas {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::algo::block_thomas;

namespace {

using layout_scalar_list =
    std::tuple<std::tuple<bl::row, double>, std::tuple<bl::row, float>,
               std::tuple<bl::column, double>, std::tuple<bl::column, float>,
               std::tuple<bl::interleaved<4>, double>, std::tuple<bl::interleaved<8>, double>,
               std::tuple<bl::interleaved<16>, float>>;

// Solves p on the device in Layout with one (Multiple = false) or p.nrhs right-hand sides and
// returns x in host order; info gets the codes.
template <class Layout, bool Multiple, class Exec, class T>
std::vector<T> device_solve(const Exec& exec, const bstest::host_block_batch<T>& p,
                            std::vector<int>& info, block_thomas algorithm = {}) {
  using Mem = typename Exec::memory_space;
  const auto a = bstest::block_to_device<Layout, T, Mem>("a", p.a, p.nsys, p.n, p.m);
  const auto b = bstest::block_to_device<Layout, T, Mem>("b", p.b, p.nsys, p.n, p.m);
  const auto c = bstest::block_to_device<Layout, T, Mem>("c", p.c, p.nsys, p.n, p.m);
  const auto d = bstest::rhs_to_device<Layout, T, Mem, Multiple>(p.d, p.nsys, p.n, p.m, p.nrhs);
  const auto info_v = bstest::make_info<Mem>(p.nsys);
  const auto before = bstest::raw_copy(b);
  bandsolve::solve(exec, algorithm, a, b, c, d, info_v);
  exec.fence();
  CHECK(bstest::bitwise_equal(bstest::raw_copy(b), before));
  info = bstest::info_to_host(info_v);
  return bstest::rhs_to_host<Multiple>(d, p.nsys, p.n, p.m, p.nrhs);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("block_thomas matches LAPACK gbsv for every block size",
                        "[block_thomas][lapack]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  struct shape {
    std::size_t n, nsys, nrhs;
  };
  // nsys: 1, and counts that are not multiples of 4, 8 or 16 (several groups: 19, 37).
  const std::vector<shape> shapes = {{1, 1, 1}, {1, 19, 1}, {2, 5, 1}, {2, 37, 2},
                                     {3, 19, 1}, {3, 1, 3}, {7, 19, 1}, {40, 37, 1},
                                     {17, 9, 3}};
  bstest::for_each_exec([&](auto exec) {
    for (std::size_t m = 2; m <= 8; ++m)
      for (const shape& sh : shapes) {
        const auto seed = static_cast<std::uint32_t>(1000 * m + 10 * sh.n + sh.nsys);
        const auto p = bstest::random_block_dominant<T>(sh.nsys, sh.n, m, sh.nrhs, seed);
        const auto ref = bstest::gbsv_reference(p);
        std::vector<int> info;
        const auto x = sh.nrhs == 1 ? device_solve<Layout, false>(exec, p, info)
                                    : device_solve<Layout, true>(exec, p, info);
        INFO(bstest::layout_name<Layout>() << " " << typeid(T).name() << " " << exec.name()
                                           << " m = " << m << " n = " << sh.n
                                           << " nsys = " << sh.nsys << " nrhs = " << sh.nrhs);
        CHECK(info == std::vector<int>(sh.nsys, 0));
        CHECK(bstest::block_max_rel_diff(p, x, ref) <= bstest::block_lapack_tol<T>(m));
        CHECK(bstest::block_max_residual(p, x) <= bstest::block_residual_tol<T>(m));
      }
  });
}

TEMPLATE_LIST_TEST_CASE("block_thomas ignores A_0 and C_{n-1} and leaves padding lanes alone",
                        "[block_thomas]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using Mem = Exec::memory_space;
  const std::size_t nsys = 11, n = 6, m = 3;
  auto p = bstest::random_block_dominant<T>(nsys, n, m, 1, 7);
  const auto ref = bstest::gbsv_reference(p);
  // NaN where the solver must not look: A_0 and C_{n-1}.
  auto poisoned = p;
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t k = 0; k < m * m; ++k) {
      poisoned.a[p.blk(s, 0, 0, 0) + k] = std::numeric_limits<T>::quiet_NaN();
      poisoned.c[p.blk(s, n - 1, 0, 0) + k] = std::numeric_limits<T>::quiet_NaN();
    }
  const auto a = bstest::block_to_device<Layout, T, Mem>("a", poisoned.a, nsys, n, m);
  const auto b = bstest::block_to_device<Layout, T, Mem>("b", p.b, nsys, n, m);
  const auto c = bstest::block_to_device<Layout, T, Mem>("c", poisoned.c, nsys, n, m);
  const auto d = bstest::rhs_to_device<Layout, T, Mem, false>(p.d, nsys, n, m, 1);
  // Padding lanes (interleaved packs) and a sentinel value there that must survive.
  const std::size_t slots = d.span() / (n * m);
  for (std::size_t s = nsys; s < slots; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r) bandsolve::block_at(d, s, i, r) = T(42);
  const auto info = bstest::make_info<Mem>(nsys);
  bandsolve::solve(Exec(), block_thomas{}, a, b, c, d, info);
  Exec().fence();
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
  CHECK(bstest::block_max_rel_diff(p, bstest::rhs_to_host<false>(d, nsys, n, m, 1), ref) <=
        bstest::block_lapack_tol<T>(m));
  for (std::size_t s = nsys; s < slots; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r) CHECK(bandsolve::block_at(d, s, i, r) == T(42));
}

TEST_CASE("block_thomas reads any rank-4 View: LayoutLeft and strided subviews",
          "[block_thomas][strided]") {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using T = double;
  const std::size_t nsys = 13, n = 9, m = 4;
  const auto p = bstest::random_block_dominant<T>(nsys, n, m, 1, 99);
  const auto ref = bstest::gbsv_reference(p);
  // LayoutLeft: systems contiguous for every entry (SIMD loads).
  Kokkos::View<T****, Kokkos::LayoutLeft, Kokkos::HostSpace> a("a", nsys, n, m, m),
      b("b", nsys, n, m, m), c("c", nsys, n, m, m);
  Kokkos::View<T***, Kokkos::LayoutLeft, Kokkos::HostSpace> d("d", nsys, n, m);
  // Every other system of a padded LayoutRight array (a strided subview).
  Kokkos::View<T****, Kokkos::LayoutRight, Kokkos::HostSpace> a2("a2", 2 * nsys, n, m, m),
      b2("b2", 2 * nsys, n, m, m), c2("c2", 2 * nsys, n, m, m);
  Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace> d2("d2", 2 * nsys, n, m);
  Kokkos::View<T****, Kokkos::LayoutStride, Kokkos::HostSpace> as(
      a2.data(), Kokkos::LayoutStride(nsys, 2 * n * m * m, n, m * m, m, m, m, 1));
  Kokkos::View<T****, Kokkos::LayoutStride, Kokkos::HostSpace> bs(
      b2.data(), Kokkos::LayoutStride(nsys, 2 * n * m * m, n, m * m, m, m, m, 1));
  Kokkos::View<T****, Kokkos::LayoutStride, Kokkos::HostSpace> cs(
      c2.data(), Kokkos::LayoutStride(nsys, 2 * n * m * m, n, m * m, m, m, m, 1));
  Kokkos::View<T***, Kokkos::LayoutStride, Kokkos::HostSpace> ds(
      d2.data(), Kokkos::LayoutStride(nsys, 2 * n * m, n, m, m, 1));
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r) {
        for (std::size_t col = 0; col < m; ++col) {
          const std::size_t k = p.blk(s, i, r, col);
          a(s, i, r, col) = as(s, i, r, col) = p.a[k];
          b(s, i, r, col) = bs(s, i, r, col) = p.b[k];
          c(s, i, r, col) = cs(s, i, r, col) = p.c[k];
        }
        d(s, i, r) = ds(s, i, r) = p.d[p.vec(s, i, r, 0)];
      }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t r = 0; r < m; ++r) d2(1, i, r) = 42;  // between two strided systems
  const auto info = bstest::make_info<Kokkos::HostSpace>(nsys);
  bandsolve::solve(Exec(), block_thomas{}, a, b, c, d, info);
  Exec().fence();
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
  CHECK(bstest::block_max_rel_diff(p, bstest::rhs_to_host<false>(d, nsys, n, m, 1), ref) <=
        bstest::block_lapack_tol<T>(m));
  bandsolve::solve(Exec(), block_thomas{}, as, bs, cs, ds, info);
  Exec().fence();
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
  CHECK(bstest::block_max_rel_diff(p, bstest::rhs_to_host<false>(ds, nsys, n, m, 1), ref) <=
        bstest::block_lapack_tol<T>(m));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t r = 0; r < m; ++r) CHECK(d2(1, i, r) == 42);
}

}  // namespace test_block_thomas
