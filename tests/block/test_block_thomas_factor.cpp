// Block Thomas factorize / solve: the stored factorization against LAPACK ?gbsv and against the
// one-shot solve, for every block size, several layouts and both precisions, with one and several
// right-hand sides, solved repeatedly; info from the factorization.
#include "block_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <string>
#include <tuple>
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

}  // namespace test_block_thomas_factor
