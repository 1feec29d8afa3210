// Batched PCR, cyclic reduction, the Thomas-PCR hybrid and algo::automatic against LAPACK ?gtsv
// and batched Thomas: every layout, float and double, Serial and OpenMP, batches small enough to
// run one team per system and large enough to run SIMD across systems; strided subviews, info
// codes, ignored a[0]/c[n-1], untouched inputs and argument errors.
#include "pcr_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace test_pcr {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
namespace algo = bandsolve::algo;
using bandsolve::index_t;
using bstest::host_batch;

namespace {

using layout_scalar_list =
    std::tuple<std::tuple<bl::row, float>, std::tuple<bl::row, double>,
               std::tuple<bl::column, float>, std::tuple<bl::column, double>,
               std::tuple<bl::interleaved<1>, double>, std::tuple<bl::interleaved<4>, float>,
               std::tuple<bl::interleaved<8>, double>, std::tuple<bl::interleaved<16>, float>>;

// Solves p with algorithm Algo in layout Layout; returns x and the info codes.
template <class Layout, class Algo, class Exec, class T>
std::pair<std::vector<T>, std::vector<int>> solve_with(Exec exec, Algo, const host_batch<T>& p,
                                                       bool check_inputs_untouched = true) {
  auto D = bstest::upload<Layout, Exec>(p);
  const auto a0 = bstest::raw_copy(D.a), b0 = bstest::raw_copy(D.b), c0 = bstest::raw_copy(D.c);
  auto info = bstest::make_info<typename Exec::memory_space>(p.nsys);
  bandsolve::solve(exec, Algo{}, D.a, D.b, D.c, D.d, info);
  exec.fence();
  if (check_inputs_untouched) {
    CHECK(bstest::bitwise_equal(bstest::raw_copy(D.a), a0));
    CHECK(bstest::bitwise_equal(bstest::raw_copy(D.b), b0));
    CHECK(bstest::bitwise_equal(bstest::raw_copy(D.c), c0));
  }
  return {bstest::to_host(D.d, p.nsys), bstest::info_to_host(info)};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Against LAPACK and Thomas on random diagonally dominant batches.

TEMPLATE_LIST_TEST_CASE("pcr, cr, thomas_pcr and automatic match LAPACK gtsv and Thomas",
                        "[pcr][lapack]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  // n: powers of two and not; nsys 1 and 3 run one team per system, 37 and 70 SIMD across
  // systems with a partial last pack (8 doubles / 16 floats per pack).
  const std::vector<std::size_t> ns = {1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64, 100, 129, 300, 1025};
  const std::vector<std::size_t> nsys_list = {1, 3, 37, 70};
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    std::uint32_t seed = 10;
    bstest::for_each_reduction_algo([&](auto method) {
      using Algo = decltype(method);
      double worst = 0;
      for (std::size_t n : ns)
        for (std::size_t nsys : nsys_list) {
          if (n * nsys > 40000) continue;
          INFO(Algo::name << ", " << bstest::layout_name<Layout>() << ", "
                          << bstest::exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys);
          const auto p = bstest::random_dominant<T>(nsys, n, seed++);
          const auto [x, info] = solve_with<Layout>(exec, method, p);
          const auto [xt, info_t] = solve_with<Layout>(exec, algo::thomas{}, p, false);
          const auto ref = bstest::reference_solve(p);
          CHECK(info == std::vector<int>(nsys, 0));
          const double tol = bstest::reduction_tol<T>(n);
          const double cmp = bstest::max_rel_diff(x, ref, nsys, n);
          CHECK(cmp <= tol);
          CHECK(bstest::max_rel_diff(x, xt, nsys, n) <= tol);
          CHECK(bstest::max_residual(p, x) <= tol);
          worst = std::max(worst, cmp);
        }
      UNSCOPED_INFO(Algo::name << ": worst difference to LAPACK " << worst / bstest::eps<T>
                               << " eps");
      CHECK(worst > 0);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Strided subviews: every other system of a padded row array; the padding is never touched.

TEMPLATE_TEST_CASE("pcr, cr and thomas_pcr on strided subviews touch only the view",
                   "[pcr][strided]", float, double) {
  using T = TestType;
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1, 1}, {2, 1}, {9, 2}, {70, 3}, {33, 40}, {300, 1}, {5, 100}};
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    std::uint32_t seed = 700;
    bstest::for_each_reduction_algo([&](auto method) {
      using Algo = decltype(method);
      for (const auto& [n, nsys] : shapes) {
        INFO(Algo::name << ", " << bstest::exec_name<Exec>() << ", n = " << n
                        << ", nsys = " << nsys);
        const auto p = bstest::random_dominant<T>(nsys, n, seed++);
        bstest::padded_rows<T, Mem> v(p);
        auto info = bstest::make_info<Mem>(nsys);
        bandsolve::solve(exec, method, v.a, v.b, v.c, v.d, info);
        exec.fence();
        CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
        const auto x = bstest::to_host(v.d, nsys);
        CHECK(bstest::max_rel_diff(x, bstest::reference_solve(p), nsys, n) <=
              bstest::reduction_tol<T>(n));
        CHECK(v.written_outside() == 0);  // the padding still holds the sentinel
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Info codes.

TEMPLATE_LIST_TEST_CASE("a zero row gives info = its 1-based row, other systems are solved",
                        "[pcr][info]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  // Row k of system `bad` is all zero (singular): every algorithm meets a zero pivot there
  // first (its diagonal, or the elimination pivot b - a c' = 0 in a Thomas sweep).
  struct shape {
    std::size_t n, nsys, bad, row;
  };
  const std::vector<shape> shapes = {{1, 1, 0, 0},   {2, 3, 1, 1},    {7, 3, 2, 4},
                                     {300, 1, 0, 0}, {300, 2, 1, 129}, {300, 2, 1, 299},
                                     {40, 37, 20, 17}, {1, 37, 36, 0}};
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    std::uint32_t seed = 900;
    bstest::for_each_reduction_algo([&](auto method) {
      using Algo = decltype(method);
      for (const auto& sh : shapes) {
        INFO(Algo::name << ", " << bstest::layout_name<Layout>() << ", "
                        << bstest::exec_name<Exec>() << ", n = " << sh.n << ", nsys = " << sh.nsys
                        << ", zero row " << sh.row << " in system " << sh.bad);
        auto p = bstest::random_dominant<T>(sh.nsys, sh.n, seed++);
        const std::size_t k = p.idx(sh.bad, sh.row);
        p.a[k] = p.b[k] = p.c[k] = T(0);
        const auto [x, info] = solve_with<Layout>(exec, method, p);
        std::vector<int> expected(sh.nsys, 0);
        expected[sh.bad] = static_cast<int>(sh.row + 1);
        CHECK(info == expected);
        std::vector<bool> skip(sh.nsys, false);
        skip[sh.bad] = true;
        CHECK(bstest::max_rel_diff(x, bstest::reference_solve(p), sh.nsys, sh.n, skip) <=
              bstest::reduction_tol<T>(sh.n));
      }
    });
  });
}

TEMPLATE_TEST_CASE("tiny, infinite and NaN diagonals are reported", "[pcr][info]", float,
                   double) {
  using T = TestType;
  const T values[] = {std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::infinity(),
                      std::numeric_limits<T>::quiet_NaN()};
  bstest::for_each_exec([&](auto exec) {
    bstest::for_each_reduction_algo([&](auto method) {
      using Algo = decltype(method);
      for (const T v : values)
        for (std::size_t nsys : {std::size_t(1), std::size_t(40)}) {
          INFO(Algo::name << ", b[3] = " << v << ", nsys = " << nsys);
          auto p = bstest::random_dominant<T>(nsys, 9, 1234);
          p.b[p.idx(0, 3)] = v;
          p.a[p.idx(0, 3)] = p.c[p.idx(0, 3)] = T(0);
          const auto [x, info] = solve_with<bl::row>(exec, method, p);
          CHECK(info[0] == 4);
          CHECK(std::count(info.begin(), info.end(), 0) == static_cast<long>(nsys - 1));
        }
    });
  });
}

TEMPLATE_LIST_TEST_CASE("pcr: a[0] and c[n-1] are ignored, even when NaN",
                        "[pcr][edges]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([&](auto exec) {
    bstest::for_each_reduction_algo([&](auto method) {
      using Algo = decltype(method);
      // n = 4096: 32 chunks of 128 rows, the last one inside a full SIMD group of chunks.
      for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(5), std::size_t(300),
                            std::size_t(4096)})
        for (std::size_t nsys : {std::size_t(2), std::size_t(33)}) {
          if (n == 4096 && nsys != 2) continue;
          INFO(Algo::name << ", n = " << n << ", nsys = " << nsys);
          auto p = bstest::random_dominant<T>(nsys, n, 77);
          const auto ref = bstest::reference_solve(p);
          for (std::size_t s = 0; s < nsys; ++s) {
            p.a[p.idx(s, 0)] = std::numeric_limits<T>::quiet_NaN();
            p.c[p.idx(s, n - 1)] = std::numeric_limits<T>::quiet_NaN();
          }
          const auto [x, info] = solve_with<Layout>(exec, method, p);
          CHECK(info == std::vector<int>(nsys, 0));
          CHECK(bstest::max_rel_diff(x, ref, nsys, n) <= bstest::reduction_tol<T>(n));
        }
    });
  });
}

TEMPLATE_TEST_CASE("interleaved padding lanes are left untouched", "[pcr][edges]", float,
                   double) {
  using T = TestType;
  using Layout = bl::interleaved<8>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    // Not automatic: it may pick Thomas, which computes the (allocated) padding lanes.
    auto run = [&](auto method) {
      using Algo = decltype(method);
      for (std::size_t nsys : {std::size_t(3), std::size_t(45)}) {
        INFO(Algo::name << ", nsys = " << nsys);
        const std::size_t n = 20;
        const auto p = bstest::random_dominant<T>(nsys, n, 5);
        auto D = bstest::upload<Layout, Exec>(p);
        // Padding lanes of d hold a marker the solver must not change.
        auto dh = Kokkos::create_mirror_view(D.d);
        Kokkos::deep_copy(dh, D.d);
        for (std::size_t s = nsys; s < bandsolve::capacity(D.d); ++s)
          for (std::size_t i = 0; i < n; ++i) bandsolve::at(dh, s, i) = T(42);
        Kokkos::deep_copy(D.d, dh);
        auto info = bstest::make_info<Mem>(nsys);
        bandsolve::solve(exec, method, D.a, D.b, D.c, D.d, info);
        exec.fence();
        CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
        Kokkos::deep_copy(dh, D.d);
        std::size_t changed = 0;
        for (std::size_t s = nsys; s < bandsolve::capacity(D.d); ++s)
          for (std::size_t i = 0; i < n; ++i) changed += bandsolve::at(dh, s, i) == T(42) ? 0 : 1;
        CHECK(changed == 0);
        CHECK(bstest::max_rel_diff(bstest::to_host(D.d, nsys), bstest::reference_solve(p), nsys,
                                   n) <= bstest::reduction_tol<T>(n));
      }
    };
    run(algo::pcr{});
    run(algo::cr{});
    run(algo::thomas_pcr{});
  });
}

TEST_CASE("pcr: empty batches: no systems, or systems of no rows", "[pcr][edges]") {
  bstest::for_each_exec([&](auto exec) {
    using Mem = typename decltype(exec)::memory_space;
    bstest::for_each_reduction_algo([&](auto method) {
      Kokkos::View<double**, Kokkos::LayoutRight, Mem> a("a", 0, 5), b("b", 0, 5), c("c", 0, 5),
          d("d", 0, 5);
      Kokkos::View<int*, Mem> none("info", 0);
      bandsolve::solve(exec, method, a, b, c, d, none);
      Kokkos::View<double**, Kokkos::LayoutRight, Mem> a0("a", 4, 0), b0("b", 4, 0),
          c0("c", 0 + 4, 0), d0("d", 4, 0);
      auto info = bstest::make_info<Mem>(4);
      bandsolve::solve(exec, method, a0, b0, c0, d0, info);
      exec.fence();
      CHECK(bstest::info_to_host(info) == std::vector<int>(4, 0));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The automatic rule, as documented in tridiag/automatic.hpp.

TEST_CASE("automatic picks Thomas for full batches and the hybrid for few long systems",
          "[pcr][automatic]") {
  using bandsolve::choose_tridiag;
  using bandsolve::tridiag_choice;
  // Row layout, double: Thomas work items hold 32 systems; 2 threads need 64.
  CHECK(choose_tridiag<bl::row, double>(64, 1000, 2) == tridiag_choice::thomas);
  CHECK(choose_tridiag<bl::row, double>(63, 1000, 2) == tridiag_choice::thomas_pcr);
  CHECK(choose_tridiag<bl::row, double>(1, 1 << 22, 2) == tridiag_choice::thomas_pcr);
  CHECK(choose_tridiag<bl::row, double>(1, 255, 2) == tridiag_choice::thomas);
  CHECK(choose_tridiag<bl::row, double>(1, 256, 1) == tridiag_choice::thomas);  // on the caller
  CHECK(choose_tridiag<bl::row, double>(1, 4097, 1) == tridiag_choice::thomas_pcr);
  CHECK(choose_tridiag<bl::row, double>(16, 256, 2) == tridiag_choice::thomas);
  CHECK(choose_tridiag<bl::row, double>(17, 256, 2) == tridiag_choice::thomas_pcr);
  CHECK(choose_tridiag<bl::row, double>(32, 256, 1) == tridiag_choice::thomas);
  // Column blocks hold 64 doubles, 128 floats.
  CHECK(choose_tridiag<bl::column, double>(127, 300, 2) == tridiag_choice::thomas_pcr);
  CHECK(choose_tridiag<bl::column, double>(128, 300, 2) == tridiag_choice::thomas);
  CHECK(choose_tridiag<bl::column, float>(255, 300, 2) == tridiag_choice::thomas_pcr);
  // Interleaved: the one-shot solve's items of two packs (interleaved<16> floats: 32 systems,
  // interleaved<8> doubles 16, interleaved<4> 8), long systems.
  CHECK(choose_tridiag<bl::interleaved<16>, float>(64, 1 << 18, 2) == tridiag_choice::thomas);
  CHECK(choose_tridiag<bl::interleaved<16>, float>(63, 1 << 18, 2) ==
        tridiag_choice::thomas_pcr);
  CHECK(choose_tridiag<bl::interleaved<8>, double>(32, 1 << 19, 2) == tridiag_choice::thomas);
  CHECK(choose_tridiag<bl::interleaved<8>, double>(31, 1 << 19, 2) ==
        tridiag_choice::thomas_pcr);
  CHECK(choose_tridiag<bl::interleaved<4>, float>(16, 1 << 20, 2) == tridiag_choice::thomas);
  CHECK(choose_tridiag<bl::interleaved<4>, double>(15, 1 << 20, 2) ==
        tridiag_choice::thomas_pcr);
  CHECK(std::string(bandsolve::name_of(tridiag_choice::thomas_pcr)) == "thomas_pcr");
}

// ---------------------------------------------------------------------------------------------
// Argument errors.

TEST_CASE("bad shapes throw std::invalid_argument naming the algorithm and the values",
          "[pcr][errors]") {
  using V = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  V a("a", 4, 9), b("b", 4, 9), c("c", 4, 9), d("d", 4, 9), d7("d7", 4, 7), b3("b3", 3, 9);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", 4), info5("info5", 5);
  const Kokkos::DefaultHostExecutionSpace exec;
  using Catch::Matchers::Equals;
  CHECK_THROWS_WITH(bandsolve::solve(exec, algo::pcr{}, a, b, c, d7, info),
                    Equals("bandsolve::solve(pcr): a has 9 rows but d has 7"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, algo::cr{}, a, b3, c, d, info),
                    Equals("bandsolve::solve(cr): b holds 3 systems but d holds 4"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, algo::thomas_pcr{}, a, b, c, d, info5),
                    Equals("bandsolve::solve(thomas_pcr): info.extent(0) = 5 but d holds 4 "
                           "systems"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, algo::pcr{}, a, b, c, a, info),
                    Catch::Matchers::StartsWith("bandsolve::solve(pcr): d overlaps a in memory"));
  CHECK_THROWS_AS(bandsolve::solve(exec, algo::automatic{}, a, b, c, d7, info),
                  std::invalid_argument);
}

}  // namespace test_pcr
