// Block Thomas factorize / solve: the stored factorization against LAPACK ?gbsv and against the
// one-shot solve, for every block size, several layouts and both precisions, with one and several
// right-hand sides, solved repeatedly; info from the factorization. refactor (host and device
// backends) against a fresh factorize, and its argument errors.
#include "block_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace test_block_thomas_factor {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::algo::block_thomas;

namespace {

using layout_scalar_list =
    std::tuple<std::tuple<bl::row, double>, std::tuple<bl::column, float>,
               std::tuple<bl::interleaved<8>, double>, std::tuple<bl::interleaved<4>, float>>;

}  // namespace

TEMPLATE_LIST_TEST_CASE("block_thomas factorization solves match LAPACK gbsv and the one-shot solve",
                        "[block_thomas][factorize][lapack]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  struct shape {
    std::size_t n, nsys, nrhs;
  };
  const std::vector<shape> shapes = {{1, 3, 1}, {2, 19, 2}, {3, 5, 1}, {25, 21, 3}};
  bstest::for_each_exec([&](auto exec) {
    using Mem = typename decltype(exec)::memory_space;
    for (std::size_t m = 2; m <= 8; ++m)
      for (const shape& sh : shapes)
        for (const bool pivoting : {false, true}) {
          INFO(bstest::layout_name<Layout>() << " " << typeid(T).name() << " " << exec.name()
                                             << " m = " << m << " n = " << sh.n << " nsys = "
                                             << sh.nsys << " nrhs = " << sh.nrhs
                                             << " pivoting = " << pivoting);
          const block_thomas algorithm{pivoting ? block_thomas::pivoting::partial
                                                : block_thomas::pivoting::none};
          auto p = bstest::random_block_dominant<T>(sh.nsys, sh.n, m, sh.nrhs,
                                                    static_cast<std::uint32_t>(77 * m + sh.n));
          const auto a = bstest::block_to_device<Layout, T, Mem>("a", p.a, p.nsys, p.n, m);
          const auto b = bstest::block_to_device<Layout, T, Mem>("b", p.b, p.nsys, p.n, m);
          const auto c = bstest::block_to_device<Layout, T, Mem>("c", p.c, p.nsys, p.n, m);
          const auto f = bandsolve::factorize(exec, algorithm, a, b, c, p.nsys);
          exec.fence();
          CHECK(f.nsys() == p.nsys);
          CHECK(f.n() == p.n);
          CHECK(f.m() == m);
          CHECK(f.pivoting() == pivoting);
          CHECK(bstest::info_to_host(f.info()) == std::vector<int>(p.nsys, 0));
          // Two different sets of right-hand sides with the same factorization.
          for (std::uint32_t round = 0; round < 2; ++round) {
            if (round == 1)
              p = [&] {
                auto q = bstest::random_block_dominant<T>(sh.nsys, sh.n, m, sh.nrhs, 5 + round);
                q.a = p.a;
                q.b = p.b;
                q.c = p.c;
                return q;
              }();
            const auto ref = bstest::gbsv_reference(p);
            std::vector<T> x;
            if (sh.nrhs == 1) {
              const auto d = bstest::rhs_to_device<Layout, T, Mem, false>(p.d, p.nsys, p.n, m, 1);
              f.solve(exec, d);
              exec.fence();
              x = bstest::rhs_to_host<false>(d, p.nsys, p.n, m, 1);
              // The one-shot solve does the same operations in the same order (contractions into
              // fused multiply-adds may differ).
              const auto d1 = bstest::rhs_to_device<Layout, T, Mem, false>(p.d, p.nsys, p.n, m, 1);
              const auto info = bstest::make_info<Mem>(p.nsys);
              bandsolve::solve(exec, algorithm, a, b, c, d1, info);
              exec.fence();
              CHECK(bstest::block_max_rel_diff(p, bstest::rhs_to_host<false>(d1, p.nsys, p.n, m, 1),
                                               x) <= bstest::block_lapack_tol<T>(m) / 2);
            } else {
              const auto d =
                  bstest::rhs_to_device<Layout, T, Mem, true>(p.d, p.nsys, p.n, m, sh.nrhs);
              f.solve(exec, d);
              exec.fence();
              x = bstest::rhs_to_host<true>(d, p.nsys, p.n, m, sh.nrhs);
            }
            CHECK(bstest::block_max_rel_diff(p, x, ref) <= bstest::block_lapack_tol<T>(m));
            CHECK(bstest::block_max_residual(p, x) <= bstest::block_residual_tol<T>(m));
          }
        }
  });
}

namespace {

// The solution of f for p's right-hand sides (one per system).
template <class Layout, class T, class Mem, class Exec, class F>
std::vector<T> refactor_solve(const Exec& exec, const F& f, const bstest::host_block_batch<T>& p) {
  const auto d = bstest::rhs_to_device<Layout, T, Mem, false>(p.d, p.nsys, p.n, p.m, 1);
  f.solve(exec, d);
  exec.fence();
  return bstest::rhs_to_host<false>(d, p.nsys, p.n, p.m, 1);
}

// refactor with new matrices (one system singular) matches a fresh factorize bitwise, a copy made
// before sees the new factors, and refactoring back clears the info code.
template <class Layout, class T, bool Device>
void check_refactor() {
  bstest::for_each_exec([&](auto exec) {
    using Mem = typename decltype(exec)::memory_space;
    using Backend = std::conditional_t<Device, bandsolve::backend::device,
                                       bandsolve::backend::default_for_t<decltype(exec)>>;
    const Backend backend_tag;
    for (const std::size_t m : {2, 3})
      for (const std::size_t n : {1, 2, 3, 11})
        for (const std::size_t nsys : {1, 13})
          for (const bool pivoting : {false, true}) {
            INFO(bstest::layout_name<Layout>() << " " << typeid(T).name() << " " << exec.name()
                                               << " m = " << m << " n = " << n << " nsys = "
                                               << nsys << " pivoting = " << pivoting);
            const block_thomas algorithm{pivoting ? block_thomas::pivoting::partial
                                                  : block_thomas::pivoting::none};
            const auto seed = static_cast<std::uint32_t>(31 * m + n);
            const auto p1 = bstest::random_block_dominant<T>(nsys, n, m, 1, seed);
            auto p2 = bstest::random_block_dominant<T>(nsys, n, m, 1, seed + 1000);
            const std::size_t bad = nsys / 2;
            for (std::size_t r = 0; r < m; ++r)
              for (std::size_t col = 0; col < m; ++col) p2.b[p2.blk(bad, 0, r, col)] = T(0);
            const auto dev = [&](const char* label, const std::vector<T>& h) {
              return bstest::block_to_device<Layout, T, Mem>(label, h, nsys, n, m);
            };
            const auto a1 = dev("a1", p1.a), b1 = dev("b1", p1.b), c1 = dev("c1", p1.c);
            const auto a2 = dev("a2", p2.a), b2 = dev("b2", p2.b), c2 = dev("c2", p2.c);
            auto f = bandsolve::factorize(exec, algorithm, a1, b1, c1, nsys, backend_tag);
            const auto copy = f;
            f.refactor(exec, a2, b2, c2);
            const auto fresh = bandsolve::factorize(exec, algorithm, a2, b2, c2, nsys, backend_tag);
            exec.fence();
            std::vector<int> expected(nsys, 0);
            expected[bad] = 1;
            CHECK(bstest::info_to_host(f.info()) == expected);
            CHECK(bstest::info_to_host(copy.info()) == expected);
            CHECK(bstest::info_to_host(fresh.info()) == expected);
            const auto x = refactor_solve<Layout, T, Mem>(exec, f, p2);
            const auto xc = refactor_solve<Layout, T, Mem>(exec, copy, p2);
            const auto xf = refactor_solve<Layout, T, Mem>(exec, fresh, p2);
            CHECK(bstest::bitwise_equal(x, xf));
            CHECK(bstest::bitwise_equal(xc, xf));
            // Back to the first matrices: info cleared, LAPACK's solution.
            f.refactor(exec, a1, b1, c1);
            exec.fence();
            CHECK(bstest::info_to_host(copy.info()) == std::vector<int>(nsys, 0));
            const auto x1 = refactor_solve<Layout, T, Mem>(exec, copy, p1);
            CHECK(bstest::block_max_rel_diff(p1, x1, bstest::gbsv_reference(p1)) <=
                  bstest::block_lapack_tol<T>(m));
          }
  });
}

// refactor's refusals, with exact messages; the factorization keeps its first matrices.
template <class Backend>
void check_refactor_errors(Backend backend_tag, const std::string& cls) {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using V = Kokkos::View<double****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const Exec exec;
  const auto p = bstest::random_block_dominant<double>(4, 9, 2, 1, 7);
  const auto a = bstest::block_to_device<bl::row, double, Kokkos::HostSpace>("a", p.a, 4, 9, 2);
  const auto b = bstest::block_to_device<bl::row, double, Kokkos::HostSpace>("b", p.b, 4, 9, 2);
  const auto c = bstest::block_to_device<bl::row, double, Kokkos::HostSpace>("c", p.c, 4, 9, 2);
  auto f = bandsolve::factorize(exec, block_thomas{}, a, b, c, backend_tag);
  const std::string fn = "bandsolve::" + cls + "::refactor: ";
  using Catch::Matchers::Equals;
  const V r8("r8", 4, 8, 2, 2), r5("r5", 5, 9, 2, 2), r3("r3", 4, 9, 3, 3);
  CHECK_THROWS_WITH(f.refactor(exec, r8, r8, r8),
                    Equals(fn + "b has 8 block rows but the factorization has 9"));
  CHECK_THROWS_WITH(f.refactor(exec, r5, r5, r5),
                    Equals(fn + "b holds 5 systems but the factorization has 4"));
  CHECK_THROWS_WITH(f.refactor(exec, r3, r3, r3),
                    Equals(fn + "b has blocks of 3 x 3 but the factorization has blocks of 2 x 2"));
  CHECK_THROWS_WITH(f.refactor(exec, r8, b, c),
                    Equals(fn + "a.extent(1) = 8 but b.extent(1) = 9"));
  decltype(f) empty;
  CHECK_THROWS_WITH(empty.refactor(exec, a, b, c),
                    Equals(fn + "this factorization is empty (default-constructed)"));
  const auto x = refactor_solve<bl::row, double, Kokkos::HostSpace>(exec, f, p);
  CHECK(bstest::block_max_rel_diff(p, x, bstest::gbsv_reference(p)) <=
        bstest::block_lapack_tol<double>(2));
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("block_thomas refactor matches a fresh factorize",
                        "[block_thomas][factorize][refactor]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  check_refactor<Layout, T, false>();
}

TEST_CASE("block_thomas refactor errors", "[block_thomas][factorize][refactor]") {
  check_refactor_errors(bandsolve::backend::default_for_t<Kokkos::DefaultHostExecutionSpace>{},
                        "block_thomas_factorization");
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("block_thomas refactor on the device backend matches a fresh factorize",
          "[block_thomas][factorize][refactor][device]") {
  check_refactor<bl::row, double, true>();
  check_refactor<bl::interleaved<4>, float, true>();
  check_refactor_errors(bandsolve::backend::device{}, "block_thomas_device_factorization");
}
#endif

}  // namespace test_block_thomas_factor
