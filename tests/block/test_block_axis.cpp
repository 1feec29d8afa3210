// solve_along(block_thomas): the block lines along every axis of 2-D, 3-D and 4-D grids against
// LAPACK ?gbsv on the same systems, for arrays in LayoutRight order, LayoutLeft order (each
// unknown's field apart) and padded strided subviews (padding untouched), full and shared
// coefficients, real, complex and complex d over real coefficients, with and without pivoting,
// on the host and the device backends; info codes on their lines' numbers and bad input.
// Three block sizes are compiled (the kernels are block Thomas's, tested for every m elsewhere).
#define BANDSOLVE_BLOCK_SIZES 2, 3, 5
#include "block_axis_cases.hpp"

#include <array>
#include <string>
#include <vector>

namespace test_block_axis {  // units compile in groups: tests/CMakeLists.txt

TEST_CASE("solve_along(block_thomas) matches LAPACK gbsv on every axis, host backend",
          "[block_thomas][axis][lapack]") {
  bstest::for_each_exec([](auto exec) {
    for (std::size_t m : {2, 3, 5}) {
      check_every_axis<double, double, false>(exec, m, block_thomas{});
      check_every_axis<double, double, true>(exec, m, block_thomas{});
    }
    check_every_axis<float, float, false, false, false>(exec, 3, block_thomas{});
    check_every_axis<double, double, false>(
        exec, 5, block_thomas{block_thomas::pivoting::partial});
    check_every_axis<Kokkos::complex<double>, Kokkos::complex<double>, false, false, false>(
        exec, 2,
                                                                             block_thomas{});
    check_every_axis<double, Kokkos::complex<double>, false, false, false>(exec, 3,
                                                                        block_thomas{});
    check_every_axis<float, Kokkos::complex<float>, true, false, false>(exec, 2, block_thomas{});
    // b per line, a and c shared (a constant-coefficient coupling with a varying diagonal).
    check_case<double, double, 3, true, false, true>(exec, {6, 4, 9}, 1, 3, order::left,
                                                     order::right, 5, block_thomas{});
  });
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("solve_along(block_thomas) matches LAPACK gbsv on every axis, device backend",
          "[block_thomas][axis][lapack][device]") {
  bstest::for_each_exec([](auto exec) {
    const bandsolve::backend::device dev;
    for (std::size_t m : {2, 5}) {
      check_every_axis<double, double, false>(exec, m, block_thomas{}, dev);
      check_every_axis<double, double, true>(exec, m, block_thomas{}, dev);
    }
    check_every_axis<float, float, false, false, false>(
        exec, 3, block_thomas{block_thomas::pivoting::partial},
                                          dev);
    check_every_axis<double, Kokkos::complex<double>, false, false, false>(exec, 3, block_thomas{},
                                                                        dev);
  });
}
#endif

TEST_CASE("solve_along_add(block_thomas) adds x into u on every axis, d left as it was",
          "[block_thomas][axis][add][lapack]") {
  bstest::for_each_exec([](auto exec) {
    check_every_add<false>(exec);
  });
}

TEST_CASE("solve_along(block_thomas) takes LayoutRight and LayoutLeft Views directly",
          "[block_thomas][axis]") {
  using right5 = Kokkos::View<double*****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using left4 = Kokkos::View<double****, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  const std::size_t nx = 4, ny = 6, nz = 3, m = 2;
  bstest::for_each_exec([&](auto exec) {
    for (int axis = 0; axis < 3; ++axis) {
      const right5 a("a", nx, ny, nz, m, m), b("b", nx, ny, nz, m, m), c("c", nx, ny, nz, m, m);
      const left4 d("d", nx, ny, nz, m), expected("x", nx, ny, nz, m);
      // Tridiagonal-of-blocks diag(4) with -1 couplings and an off-diagonal 0.5 in B: the same
      // matrix on every line, x = 1 everywhere, so d = A 1.
      const std::size_t n = d.extent(axis);
      for (std::size_t i = 0; i < nx; ++i)
        for (std::size_t j = 0; j < ny; ++j)
          for (std::size_t k = 0; k < nz; ++k) {
            const std::size_t row = axis == 0 ? i : axis == 1 ? j : k;
            for (std::size_t r = 0; r < m; ++r) {
              for (std::size_t q = 0; q < m; ++q) {
                a(i, j, k, r, q) = r == q ? -1.0 : 0.0;
                c(i, j, k, r, q) = r == q ? -1.0 : 0.0;
                b(i, j, k, r, q) = r == q ? 4.0 : 0.5;
              }
              d(i, j, k, r) = 4.0 + 0.5 * double(m - 1) - (row > 0 ? 1.0 : 0.0) -
                              (row + 1 < n ? 1.0 : 0.0);
            }
          }
      const auto info = bstest::make_info(nx * ny * nz / n);
      bandsolve::solve_along(exec, block_thomas{}, axis, a, b, c, d, info);
      exec.fence();
      double worst = 0;
      for (std::size_t e = 0; e < d.span(); ++e)
        worst = std::max(worst, std::abs(d.data()[e] - 1.0));
      INFO("axis " << axis);
      CHECK(worst <= 1e-14);
      CHECK(bstest::info_to_host(info) == std::vector<int>(nx * ny * nz / n, 0));
    }
  });
}

TEST_CASE("solve_along(block_thomas) reports a singular block on its line's number",
          "[block_thomas][axis][info]") {
  // Grid (3, 5, 4) along axis 1: line (ix, :, iz) is ix*4 + iz. Line (2, :, 1) = 9 has a zero
  // diagonal block at block row 3 (A zero there too, so S_3 = 0): info 4 there, 0 elsewhere.
  const std::array<std::size_t, 3> grid = {3, 5, 4};
  const int axis = 1;
  const std::size_t m = 3, n = 5, nlines = 12, bad = 9, bad_row = 3;
  const auto run = [&](auto exec, block_thomas alg, auto... backend) {
    auto p = bstest::random_block_dominant<double>(nlines, n, m, 1, 99);
    for (std::size_t r = 0; r < m; ++r)
      for (std::size_t q = 0; q < m; ++q) {
        p.b[p.blk(bad, bad_row, r, q)] = 0;
        p.a[p.blk(bad, bad_row, r, q)] = 0;
      }
    using co = coefficient<double, 3, false>;
    const auto a = co::make("a", grid, axis, m, order::right);
    const auto b = co::make("b", grid, axis, m, order::right);
    const auto c = co::make("c", grid, axis, m, order::right);
    const auto d = make_array<double, 4>("d", extend(grid, m), order::left);
    scatter_lines<3, co, co, co>(p, grid, axis, a, b, c, d);
    const auto info = bstest::make_info(nlines);
    bandsolve::solve_along(exec, alg, axis, a, b, c, d, info, backend...);
    exec.fence();
    std::vector<int> expected(nlines, 0);
    expected[bad] = int(bad_row) + 1;
    CHECK(bstest::info_to_host(info) == expected);
  };
  bstest::for_each_exec([&](auto exec) {
    for (const auto alg : {block_thomas{}, block_thomas{block_thomas::pivoting::partial}}) {
      run(exec, alg);
      run(exec, alg, bandsolve::backend::device{});
    }
  });
}

TEST_CASE("solve_along(block_thomas) rejects bad input with the function and the values",
          "[block_thomas][axis][checks]") {
  using V5 = Kokkos::View<double*****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V4 = Kokkos::View<double****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const V5 a("a", 2, 3, 4, 3, 3), b("b", 2, 3, 4, 3, 3), c("c", 2, 3, 4, 3, 3);
  const V4 d("d", 2, 3, 4, 3);
  const auto info = bstest::make_info(8);  // along axis 1: 2 x 4 lines
  const Kokkos::DefaultHostExecutionSpace exec;
  const auto throws = [&](auto&& call, const std::string& text) {
    CHECK_THROWS_WITH(call(), Catch::Matchers::ContainsSubstring(
                                  "bandsolve::solve_along(block_thomas)") &&
                                  Catch::Matchers::ContainsSubstring(text));
  };
  throws([&] { bandsolve::solve_along(exec, block_thomas{}, 3, a, b, c, d, info); },
         "axis = 3 but d has 3 grid axes");
  throws([&] { bandsolve::solve_along(exec, block_thomas{}, -1, a, b, c, d, info); },
         "axis = -1");
  throws([&] { bandsolve::solve_along(exec, block_thomas{}, 0, a, b, c, d, info); },
         "info.extent(0) = 8 but d has 12 lines along axis 0");
  const V5 wide("wide", 2, 3, 5, 3, 3);
  throws([&] { bandsolve::solve_along(exec, block_thomas{}, 1, a, wide, c, d, info); },
         "b.extent(2) = 5 but d.extent(2) = 4");
  const V5 small_blocks("small", 2, 3, 4, 2, 2);
  throws([&] { bandsolve::solve_along(exec, block_thomas{}, 1, small_blocks, b, c, d, info); },
         "a.extent(3) = 2 but d.extent(3) = 3");
  const V3 shared_short("shared", 2, 3, 3);
  throws([&] { bandsolve::solve_along(exec, block_thomas{}, 1, a, b, shared_short, d, info); },
         "c.extent(0) = 2 but d.extent(1) = 3");
  const V5 a4("a4", 2, 3, 4, 4, 4), b4("b4", 2, 3, 4, 4, 4), c4("c4", 2, 3, 4, 4, 4);
  const V4 d4("d4", 2, 3, 4, 4);
  throws([&] { bandsolve::solve_along(exec, block_thomas{}, 1, a4, b4, c4, d4, info); },
         "block size m = 4 is not compiled in this program: BANDSOLVE_BLOCK_SIZES = 2, 3, 5");
  const V5 a9("a9", 2, 3, 4, 9, 9);
  const V4 d9("d9", 2, 3, 4, 9);
  throws([&] { bandsolve::solve_along(exec, block_thomas{}, 1, a9, a9, a9, d9, info); },
         "block size m = 9 is not supported");
  // d made of a's memory: column 1 of every block of a.
  const auto d_in_a = Kokkos::subview(a, Kokkos::ALL, Kokkos::ALL, Kokkos::ALL, Kokkos::ALL, 1);
  throws([&] { bandsolve::solve_along(exec, block_thomas{}, 1, a, b, c, d_in_a, info); },
         "d overlaps a");
  throws([&] {
    bandsolve::solve_along(exec, block_thomas{}, 0, a, b, c, d, info,
                           bandsolve::backend::device{});
  },
         "info.extent(0) = 8 but d has 12 lines along axis 0");
  // solve_along_add: u against d, and u written where it must not be.
  const auto throws_add = [&](auto&& call, const std::string& text) {
    CHECK_THROWS_WITH(call(), Catch::Matchers::ContainsSubstring(
                                  "bandsolve::solve_along_add(block_thomas)") &&
                                  Catch::Matchers::ContainsSubstring(text));
  };
  const V4 u("u", 2, 3, 4, 3), u_short("u_short", 2, 3, 3, 3);
  throws_add(
      [&] { bandsolve::solve_along_add(exec, block_thomas{}, 1, a, b, c, d, u_short, info); },
      "u.extent(2) = 3 but d.extent(2) = 4");
  throws_add([&] { bandsolve::solve_along_add(exec, block_thomas{}, 1, a, b, c, d, d, info); },
             "u overlaps d");
  throws_add([&] { bandsolve::solve_along_add(exec, block_thomas{}, 1, a, b, c, d, d_in_a, info); },
             "u overlaps a");
  throws_add([&] { bandsolve::solve_along_add(exec, block_thomas{}, 1, a, wide, c, d, u, info); },
             "b.extent(2) = 5 but d.extent(2) = 4");
  throws_add([&] { bandsolve::solve_along_add(exec, block_thomas{}, 0, a, b, c, d, u, info); },
             "info.extent(0) = 8 but d has 12 lines along axis 0");
}

}  // namespace test_block_axis
