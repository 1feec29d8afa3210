// The double cases of test_axis.cpp again, with the register sweeps of
// tridiag/thomas_register_sweep.hpp switched on whatever the CPU (see
// test_thomas_register_sweep.cpp): lines along a unit-stride axis, double, 8 per pack; and float
// lines along it, 16 per pack.
#define BANDSOLVE_REGISTER_SWEEPS 1
#define BSTEST_DOUBLES_ONLY
#include "test_axis.cpp"

namespace test_axis {  // test_axis.cpp's names: these cases extend that unit

// Float lines along the unit-stride axis take packs of 16 where the register sweeps are built:
// 37 lines a plane (two full packs through the sweeps, then a partial one gathered), n a
// multiple of 16 and not, dense and padded arrays, solve_along and solve_along_add.
TEST_CASE("float lines along the unit-stride axis run in register tiles of 16",
          "[axis][registers]") {
  std::uint32_t seed = 900;
  bstest::for_each_exec([&](auto exec) {
    for (const std::size_t n : {64, 40}) {
      const extents e = {3, 37, n, 0};
      check_case<float, 3, kind::right, kind::right, false, false>(exec, e, 2, seed++);
      check_case<float, 3, kind::padded_right, kind::padded_right, false, false>(exec, e, 2,
                                                                                seed++);
      check_case<float, 3, kind::right, kind::right, false, true>(exec, e, 2, seed++);
    }
  });
}

// The factored solves along the unit-stride axis through the register sweeps: factorize_along
// (thomas) and (symmetric) of double lines along the last axis of a LayoutRight array (rows of
// unit stride, n a multiple of 8; 70 lines a plane: whole packs, then a partial one for the
// gathered sweeps), solved twice and checked against the one-shot solve_along of the same lines.
TEST_CASE("factored lines along the unit-stride axis run in registers as the one-shot solve",
          "[axis][factor][registers]") {
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const std::size_t nx = 3, ny = 70, n = 64, lines = nx * ny;
  std::mt19937 gen(2024);
  bstest::uniform_real u(-1.0, 1.0), margin(1.0, 2.0);
  const V3 a("a", nx, ny, n), b("b", nx, ny, n), c("c", nx, ny, n), e("e", nx, ny, n);
  const V3 s("s", nx, ny, n), d("d", nx, ny, n), x("x", nx, ny, n);
  for (std::size_t i = 0; i < nx; ++i)
    for (std::size_t j = 0; j < ny; ++j)
      for (std::size_t k = 0; k < n; ++k) {
        a(i, j, k) = u(gen), c(i, j, k) = u(gen), e(i, j, k) = u(gen), d(i, j, k) = u(gen);
        b(i, j, k) = std::abs(a(i, j, k)) + std::abs(c(i, j, k)) + margin(gen);
        const double e_prev = k == 0 ? 0.0 : std::abs(e(i, j, k - 1));
        s(i, j, k) = e_prev + std::abs(e(i, j, k)) + margin(gen);
      }
  const auto same = [&](const V3& got, const V3& want) {
    double worst = 0;
    for (std::size_t k = 0; k < got.size(); ++k)
      worst = std::max(worst, std::abs(got.data()[k] - want.data()[k]) /
                                  (1 + std::abs(want.data()[k])));
    return worst;
  };
  bstest::for_each_exec([&](auto exec) {
    Kokkos::View<int*, Kokkos::HostSpace> info("info", lines);
    const auto thomas_lines = bandsolve::factorize_along(exec, thomas{}, 2, a, b, c);
    const auto spd_lines =
        bandsolve::factorize_along(exec, bandsolve::algo::symmetric{}, 2, s, e);
    for (int repeat = 0; repeat < 2; ++repeat) {
      Kokkos::deep_copy(x, d);
      thomas_lines.solve(exec, x);
      const V3 want("want", nx, ny, n);
      Kokkos::deep_copy(want, d);
      bandsolve::solve_along(exec, thomas{}, 2, a, b, c, want, info);
      exec.fence();
      CHECK(same(x, want) < 1e-13);
      Kokkos::deep_copy(x, d);
      spd_lines.solve(exec, x);
      Kokkos::deep_copy(want, d);
      bandsolve::solve_along(exec, bandsolve::algo::symmetric{}, 2, s, e, want, info);
      exec.fence();
      CHECK(same(x, want) < 1e-13);
    }
  });
}

}  // namespace test_axis
