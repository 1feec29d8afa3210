// factorize_along(block_thomas) and its solves: the block lines along every axis of 2-D, 3-D and
// 4-D grids, factored once and solved twice (the same x bit for bit), against LAPACK ?gbsv, for
// coefficients and right-hand sides in every order (d laid out unlike the coefficients too),
// full and shared blocks, with and without pivoting, real and complex d over real blocks, on the
// host and the device backends; the form without d, info codes on their lines' numbers, solves
// of a d laid out otherwise than at factorization, refactor, and bad input.
#define BANDSOLVE_BLOCK_SIZES 2, 3
#include "block_axis_cases.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace test_block_axis_factor {  // units compile in groups: tests/CMakeLists.txt

namespace {

// refactor along every axis of a (5, 3, 4) grid: factored from random lines in LayoutRight-like
// order, refactored with other lines in LayoutLeft-like order (one line's block row 2 singular;
// shared blocks: B_0 of every line), whose codes and two solves equal a fresh factorization's bit
// for bit; refactored back, the codes cleared and the solves again a fresh factorization's.
template <class T, bool Shared, class Exec, class... Backend>
void check_refactor(const Exec& exec, std::size_t m, block_thomas alg, Backend... backend) {
  const std::array<std::size_t, 3> grid = {5, 3, 4};
  using co = coefficient<T, 3, Shared>;
  for (int axis = 0; axis < 3; ++axis) {
    const std::size_t n = grid[std::size_t(axis)], nlines = 60 / n;
    const auto lines_of = [&](std::uint32_t seed) {
      auto p = bstest::random_block_dominant<T>(nlines, n, m, 1, seed);
      if (Shared)  // every line line 0's blocks
        for (std::size_t e = n * m * m; e < p.a.size(); ++e) {
          p.a[e] = p.a[e % (n * m * m)];
          p.b[e] = p.b[e % (n * m * m)];
          p.c[e] = p.c[e % (n * m * m)];
        }
      return p;
    };
    auto p1 = lines_of(40 + std::uint32_t(axis)), p2 = lines_of(50 + std::uint32_t(axis));
    const std::size_t bad_line = Shared ? 0 : 1;
    const std::size_t bad_row = Shared ? 0 : std::min<std::size_t>(2, n - 1);
    for (std::size_t s = bad_line; s < (Shared ? nlines : bad_line + 1); ++s)
      for (std::size_t r = 0; r < m; ++r)
        for (std::size_t q = 0; q < m; ++q)
          p2.b[p2.blk(s, bad_row, r, q)] = p2.a[p2.blk(s, bad_row, r, q)] = 0;
    std::vector<int> singular(nlines, 0);
    for (std::size_t s = bad_line; s < (Shared ? nlines : bad_line + 1); ++s)
      singular[s] = int(bad_row) + 1;
    const auto a1 = co::make("a1", grid, axis, m, order::right);
    const auto b1 = co::make("b1", grid, axis, m, order::right);
    const auto c1 = co::make("c1", grid, axis, m, order::right);
    const auto a2 = co::make("a2", grid, axis, m, order::left);
    const auto b2 = co::make("b2", grid, axis, m, order::left);
    const auto c2 = co::make("c2", grid, axis, m, order::left);
    const auto d1 = make_array<T, 4>("d1", extend(grid, m), order::right);
    const auto d2 = make_array<T, 4>("d2", extend(grid, m), order::right);
    scatter_lines<3, co, co, co>(p1, grid, axis, a1, b1, c1, d1);
    scatter_lines<3, co, co, co>(p2, grid, axis, a2, b2, c2, d2);
    const std::vector<T> rhs(d1.data(), d1.data() + d1.span());
    const auto same_solves = [&](const auto& f, const auto& fresh) {
      return bstest::same_solves(exec, f, fresh, d1, d2, rhs);
    };
    INFO("axis " << axis << ", m " << m << (Shared ? ", shared" : ""));
    auto f = bandsolve::factorize_along(exec, alg, axis, a1, b1, c1, d1, backend...);
    f.refactor(exec, a2, b2, c2);
    const auto fresh2 = bandsolve::factorize_along(exec, alg, axis, a2, b2, c2, d1, backend...);
    exec.fence();
    CHECK(bstest::info_to_host(f.info()) == singular);
    CHECK(bstest::info_to_host(fresh2.info()) == singular);
    CHECK(same_solves(f, fresh2));
    f.refactor(exec, a1, b1, c1);
    const auto fresh1 = bandsolve::factorize_along(exec, alg, axis, a1, b1, c1, d1, backend...);
    exec.fence();
    CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nlines, 0));
    CHECK(same_solves(f, fresh1));
  }
}

}  // namespace

TEST_CASE("factorize_along(block_thomas) solves match LAPACK gbsv on every axis",
          "[block_thomas][axis][factor][lapack]") {
  bstest::for_each_exec([](auto exec) {
    for (std::size_t m : {2, 3}) {
      check_every_axis<double, double, false, true>(exec, m, block_thomas{});
      check_every_axis<double, double, true, true>(exec, m, block_thomas{});
    }
    check_every_axis<double, double, false, true>(
        exec, 3, block_thomas{block_thomas::pivoting::partial});
    check_every_axis<double, Kokkos::complex<double>, true, true, false>(exec, 2, block_thomas{});
    check_every_axis<float, float, false, true, false>(exec, 2, block_thomas{});
    // b per line, a and c shared: factored per line.
    check_case<double, double, 3, true, false, true, true>(exec, {6, 4, 9}, 1, 3, order::left,
                                                           order::right, 5, block_thomas{});
  });
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("factorize_along(block_thomas) on the device backend matches LAPACK gbsv",
          "[block_thomas][axis][factor][lapack][device]") {
  bstest::for_each_exec([](auto exec) {
    const bandsolve::backend::device dev;
    check_every_axis<double, double, false, true>(exec, 3, block_thomas{}, dev);
    check_every_axis<double, double, true, true>(exec, 2, block_thomas{}, dev);
    check_every_axis<double, Kokkos::complex<double>, false, true, false>(
        exec, 2, block_thomas{block_thomas::pivoting::partial}, dev);
  });
}
#endif

TEST_CASE("block_axis_factorization::solve_add adds x into u on every axis, d left as it was",
          "[block_thomas][axis][factor][add][lapack]") {
  bstest::for_each_exec([](auto exec) {
    check_every_add<true>(exec);
  });
}

TEST_CASE("factorize_along(block_thomas) without d, and a d laid out otherwise",
          "[block_thomas][axis][factor]") {
  // The same matrix on every line (B = 4 I + 0.5 off the diagonal, A = C = -I) in full
  // LayoutRight arrays, factored without d; then solved for d = A 1 in LayoutLeft and in
  // LayoutRight: x = 1 both times.
  using right5 = Kokkos::View<double*****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const std::size_t e[3] = {5, 7, 3}, m = 2;
  const auto run = [&](auto exec, int axis, auto... backend) {
    const right5 a("a", e[0], e[1], e[2], m, m), b("b", e[0], e[1], e[2], m, m);
    const std::size_t n = e[axis];
    for (std::size_t i = 0; i < e[0]; ++i)
      for (std::size_t j = 0; j < e[1]; ++j)
        for (std::size_t k = 0; k < e[2]; ++k)
          for (std::size_t r = 0; r < m; ++r)
            for (std::size_t q = 0; q < m; ++q) {
              a(i, j, k, r, q) = r == q ? -1.0 : 0.0;
              b(i, j, k, r, q) = r == q ? 4.0 : 0.5;
            }
    const Kokkos::View<const double*****, Kokkos::LayoutRight, Kokkos::HostSpace> ac = a;
    const auto f = bandsolve::factorize_along(exec, block_thomas{}, axis, ac, b, ac, backend...);
    CHECK(!f.shared());
    CHECK(f.nsys() == e[0] * e[1] * e[2] / n);
    const auto fill_and_solve = [&](const auto& d) {
      for (std::size_t i = 0; i < e[0]; ++i)
        for (std::size_t j = 0; j < e[1]; ++j)
          for (std::size_t k = 0; k < e[2]; ++k) {
            const std::size_t row = axis == 0 ? i : axis == 1 ? j : k;
            for (std::size_t r = 0; r < m; ++r)
              d(i, j, k, r) = 4.0 + 0.5 * double(m - 1) - (row > 0 ? 1.0 : 0.0) -
                              (row + 1 < n ? 1.0 : 0.0);
          }
      f.solve(exec, d);
      exec.fence();
      double worst = 0;
      for (std::size_t x = 0; x < d.span(); ++x)
        worst = std::max(worst, std::abs(d.data()[x] - 1.0));
      return worst;
    };
    const Kokkos::View<double****, Kokkos::LayoutLeft, Kokkos::HostSpace> dl("dl", e[0], e[1],
                                                                             e[2], m);
    const Kokkos::View<double****, Kokkos::LayoutRight, Kokkos::HostSpace> dr("dr", e[0], e[1],
                                                                              e[2], m);
    INFO("axis " << axis);
    CHECK(fill_and_solve(dl) <= 1e-14);
    CHECK(fill_and_solve(dr) <= 1e-14);
    CHECK(bstest::info_to_host(f.info()) == std::vector<int>(f.nsys(), 0));
  };
  bstest::for_each_exec([&](auto exec) {
    for (int axis = 0; axis < 3; ++axis) {
      run(exec, axis);
      run(exec, axis, bandsolve::backend::device{});
    }
  });
}

TEST_CASE("factorize_along(block_thomas) reports singular blocks on their lines' numbers",
          "[block_thomas][axis][factor][info]") {
  // Grid (3, 5, 4) along axis 1: line (2, :, 1) = 9 has S_3 = 0 (info 4); shared blocks with a
  // zero B_0: every line reports 1.
  const std::array<std::size_t, 3> grid = {3, 5, 4};
  const std::size_t m = 2, n = 5, nlines = 12;
  const auto run = [&](auto exec, auto... backend) {
    auto p = bstest::random_block_dominant<double>(nlines, n, m, 1, 17);
    for (std::size_t r = 0; r < m; ++r)
      for (std::size_t q = 0; q < m; ++q) p.b[p.blk(9, 3, r, q)] = p.a[p.blk(9, 3, r, q)] = 0;
    using full = coefficient<double, 3, false>;
    const auto a = full::make("a", grid, 1, m, order::left);
    const auto b = full::make("b", grid, 1, m, order::left);
    const auto c = full::make("c", grid, 1, m, order::left);
    const auto d = make_array<double, 4>("d", extend(grid, m), order::right);
    scatter_lines<3, full, full, full>(p, grid, 1, a, b, c, d);
    const auto f = bandsolve::factorize_along(exec, block_thomas{}, 1, a, b, c, backend...);
    std::vector<int> expected(nlines, 0);
    expected[9] = 4;
    CHECK(bstest::info_to_host(f.info()) == expected);

    using one = coefficient<double, 3, true>;
    const auto sa = one::make("sa", grid, 1, m, order::right);
    const auto sb = one::make("sb", grid, 1, m, order::right);  // zero: B_0 singular
    const auto fs = bandsolve::factorize_along(exec, block_thomas{}, 1, sa, sb, sa, d,
                                               backend...);
    CHECK(fs.shared());
    CHECK(bstest::info_to_host(fs.info()) == std::vector<int>(nlines, 1));
  };
  bstest::for_each_exec([&](auto exec) {
    run(exec);
    run(exec, bandsolve::backend::device{});
  });
}

TEST_CASE("factorize_along(block_thomas) rejects bad input with the function and the values",
          "[block_thomas][axis][factor][checks]") {
  using V5 = Kokkos::View<double*****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V4 = Kokkos::View<double****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const V5 a("a", 2, 3, 4, 3, 3), b("b", 2, 3, 4, 3, 3), c("c", 2, 3, 4, 3, 3);
  const V4 d("d", 2, 3, 4, 3);
  const Kokkos::DefaultHostExecutionSpace exec;
  const auto throws = [&](auto&& call, const std::string& fn, const std::string& text) {
    CHECK_THROWS_WITH(call(), Catch::Matchers::ContainsSubstring(fn) &&
                                  Catch::Matchers::ContainsSubstring(text));
  };
  const std::string factorize = "bandsolve::factorize_along(block_thomas)";
  throws([&] { (void)bandsolve::factorize_along(exec, block_thomas{}, 3, a, b, c); }, factorize,
         "axis = 3 but b has 3 grid axes (0 to 2)");
  const V5 wide("wide", 2, 3, 5, 3, 3);
  throws([&] { (void)bandsolve::factorize_along(exec, block_thomas{}, 1, a, wide, c); },
         factorize, "a.extent(2) = 4 but b.extent(2) = 5");
  const V3 shared_short("shared", 2, 3, 3);
  throws([&] { (void)bandsolve::factorize_along(exec, block_thomas{}, 1, a, b, shared_short); },
         factorize, "c.extent(0) = 2 but b.extent(1) = 3");
  const V4 d2("d2", 2, 3, 4, 2);
  throws([&] { (void)bandsolve::factorize_along(exec, block_thomas{}, 1, a, b, c, d2); },
         factorize, "a.extent(3) = 3 but d.extent(3) = 2");
  const auto f = bandsolve::factorize_along(exec, block_thomas{}, 1, a, b, c);
  const std::string solve = "bandsolve::block_axis_factorization::solve";
  const V4 other("other", 2, 4, 4, 3);
  throws([&] { f.solve(exec, other); }, solve, "d.extent(1) = 4 but the factored grid has 3");
  const V4 blocks2("blocks2", 2, 3, 4, 2);
  throws([&] { f.solve(exec, blocks2); }, solve,
         "d.extent(3) = 2 but the factored blocks are 3 x 3");
  const Kokkos::View<double*****, Kokkos::LayoutRight, Kokkos::HostSpace> d5("d5", 2, 3, 4, 1, 3);
  throws([&] { f.solve(exec, d5); }, solve,
         "d has 4 grid axes (rank 5) but the factorization has 3");
  const bandsolve::block_axis_factorization<double, Kokkos::DefaultHostExecutionSpace,
                                            bandsolve::backend::default_for_t<
                                                Kokkos::DefaultHostExecutionSpace>>
      empty;
  throws([&] { empty.solve(exec, d); }, solve, "empty");
  const std::string solve_add = "bandsolve::block_axis_factorization::solve_add";
  const V4 u("u", 2, 3, 4, 3);
  throws([&] { f.solve_add(exec, other, u); }, solve_add,
         "d.extent(1) = 4 but the factored grid has 3");
  throws([&] { f.solve_add(exec, d, other); }, solve_add, "u.extent(1) = 4 but d.extent(1) = 3");
  throws([&] { f.solve_add(exec, d, d); }, solve_add, "u overlaps d");
  throws([&] { empty.solve_add(exec, d, u); }, solve_add, "empty");
}

TEST_CASE("block_axis_factorization::refactor factors new blocks into its storage",
          "[block_thomas][axis][factor][refactor]") {
  bstest::for_each_exec([](auto exec) {
    const block_thomas pivoting{block_thomas::pivoting::partial};
    for (std::size_t m : {2, 3}) {
      check_refactor<double, false>(exec, m, block_thomas{});
      check_refactor<double, true>(exec, m, pivoting);
      check_refactor<double, false>(exec, m, pivoting, bandsolve::backend::device{});
      check_refactor<double, true>(exec, m, block_thomas{}, bandsolve::backend::device{});
    }
    check_refactor<float, false>(exec, 3, pivoting);
  });
}

TEST_CASE("block_axis_factorization::refactor checks the blocks against the factored ones",
          "[block_thomas][axis][factor][refactor][checks]") {
  using V5 = Kokkos::View<double*****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V4 = Kokkos::View<double****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const V5 a("a", 2, 3, 4, 3, 3), b("b", 2, 3, 4, 3, 3);
  const V4 d("d", 2, 3, 4, 3);
  const V3 shared("shared", 3, 3, 3);
  const Kokkos::DefaultHostExecutionSpace exec;
  const std::string fn = "bandsolve::block_axis_factorization::refactor: ";
  const auto throws = [&](auto&& call, const std::string& text) {
    CHECK_THROWS_WITH(call(), fn + text);
  };
  auto f = bandsolve::factorize_along(exec, block_thomas{}, 1, a, b, a);
  throws([&] { f.refactor(exec, shared, shared, shared); },
         "a, b and c are all shared by every line (rank 3) but the factorization holds every "
         "line's factors");
  const V5 wide("wide", 2, 3, 5, 3, 3);
  throws([&] { f.refactor(exec, a, wide, a); }, "b.extent(2) = 5 but the factored grid has 4");
  const V5 blocks2("blocks2", 2, 3, 4, 2, 2);
  throws([&] { f.refactor(exec, a, b, blocks2); },
         "c.extent(3) = 2 but the factored blocks are 3 x 3");
  const V3 short_rows("short", 2, 3, 3);
  throws([&] { f.refactor(exec, short_rows, b, a); },
         "a.extent(0) = 2 but the factored lines have 3 block rows");
  const Kokkos::View<double******, Kokkos::LayoutRight, Kokkos::HostSpace> six("six", 2, 3, 4, 1,
                                                                               3, 3);
  throws([&] { f.refactor(exec, a, six, a); },
         "b has rank 6 but the factored grid has 3 axes (rank 5, or 3 where shared)");
  f.refactor(exec, shared, b, shared);  // a and c shared, b per line: accepted
  auto fs = bandsolve::factorize_along(exec, block_thomas{}, 1, shared, shared, shared, d);
  throws([&] { fs.refactor(exec, shared, b, shared); },
         "b has rank 5 but the factored blocks were shared by every line (rank 3)");
  bandsolve::block_axis_factorization<double, Kokkos::DefaultHostExecutionSpace,
                                      bandsolve::backend::default_for_t<
                                          Kokkos::DefaultHostExecutionSpace>>
      empty;
  throws([&] { empty.refactor(exec, a, b, a); },
         "this factorization is empty (default-constructed)");
}

}  // namespace test_block_axis_factor
