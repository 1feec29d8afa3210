// Well-scaled systems must not underflow anywhere in a solve: the pivot screen of the hot loops
// (core/pivot.hpp) once multiplied every |1/pivot| by the smallest normal number, a subnormal
// product on every row that x86 without fused multiply-adds handles in microcode (one-shot
// Thomas ran 5-6x slower in builds for plain x86-64). The floating-point underflow flag
// (<cfenv>) shows such products whatever the build, so no timing is involved. Kokkos::Serial runs
// every kernel on the calling thread, whose flags fetestexcept reads.
#include <bandsolve/bandsolve.hpp>
#include <test_support.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace test_no_underflow {  // units compile in groups: tests/CMakeLists.txt

namespace {

// The screen on its own: zero, or a normal number, for every pivot of magnitude 2^-e .. 2^e
// that is good, and never below the limit for a bad one.
template <class T>
void check_screen() {
  using limits = bandsolve::detail::pivot_limits<T>;
  const int top = std::is_same_v<T, float> ? 100 : 1000;
  for (int e = -top; e <= top; e += 3) {
    for (const T sign : {T(1), T(-1)}) {
      const T pivot = sign * std::ldexp(T(1.25), e);
      const T risk = bandsolve::detail::pivot_risk(pivot, T(1) / pivot, T(0));
      CAPTURE(pivot, risk);
      CHECK(std::fpclassify(risk) != FP_SUBNORMAL);
      CHECK(bandsolve::detail::risk_is_low(risk));
    }
  }
  const T denormal = limits::tiny / T(4);
  for (const T bad : {T(0), denormal, -denormal, std::numeric_limits<T>::infinity(),
                      std::numeric_limits<T>::quiet_NaN()}) {
    CAPTURE(bad);
    CHECK_FALSE(bandsolve::detail::risk_is_low(bandsolve::detail::pivot_risk(bad, T(1) / bad, T(0))));
  }
  // A good pivot just above the smallest normal number passes; the sum of the screen stays exact
  // in powers of two, so the threshold is where it was meant to be.
  CHECK(bandsolve::detail::risk_is_low(
      bandsolve::detail::pivot_risk(limits::tiny * T(2), T(1) / (limits::tiny * T(2)), T(0))));
}

// Runs f() and reports whether it raised the underflow flag on this thread.
template <class F>
bool underflows(const F& f) {
  std::feclearexcept(FE_ALL_EXCEPT);
  f();
  return std::fetestexcept(FE_UNDERFLOW) != 0;
}

}  // namespace

TEMPLATE_TEST_CASE("the pivot screen yields no subnormal numbers", "[pivot]", float, double) {
  check_screen<TestType>();
}

#if defined(KOKKOS_ENABLE_SERIAL)
TEMPLATE_TEST_CASE("solves of well-scaled systems raise no underflow", "[pivot]", float, double) {
  using T = TestType;
  using exec_space = Kokkos::Serial;
  using bandsolve::layout::column;
  using bandsolve::layout::interleaved;
  using bandsolve::layout::row;
  const exec_space exec;
  // 40 systems: full SIMD packs and a partial one; one system of 5000 rows: the hybrid's chunks.
  const std::size_t shapes[2][2] = {{40, 300}, {1, 5000}};
  for (const auto& shape : shapes) {
    const std::size_t nsys = shape[0], n = shape[1];
    CAPTURE(nsys, n);
    const auto p = bstest::random_dominant<T>(nsys, n, 11);
    // Diagonal systems (a = c = 0) for the families whose own arithmetic underflows on well-scaled
    // systems (the partition's spikes and PCR's off-diagonals decay towards zero as they should):
    // there every product is zero or a normal number, and only the screens could underflow.
    auto diagonal = p;
    std::fill(diagonal.a.begin(), diagonal.a.end(), T(0));
    std::fill(diagonal.c.begin(), diagonal.c.end(), T(0));
    Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
    const auto run = [&](auto layout_tag, auto algo, const bstest::host_batch<T>& systems) {
      using Layout = decltype(layout_tag);
      const auto v = bstest::upload<Layout, exec_space>(systems);
      return underflows([&] {
        bandsolve::solve(exec, algo, v.a, v.b, v.c, v.d, info);
        exec.fence();
      });
    };
    CHECK_FALSE(run(row{}, bandsolve::algo::thomas{}, p));
    CHECK_FALSE(run(column{}, bandsolve::algo::thomas{}, p));
    CHECK_FALSE(run(interleaved<8>{}, bandsolve::algo::thomas{}, p));
    CHECK_FALSE(run(row{}, bandsolve::algo::thomas_pcr{}, diagonal));
    CHECK_FALSE(run(column{}, bandsolve::algo::thomas_pcr{}, diagonal));
    CHECK_FALSE(run(row{}, bandsolve::algo::pcr{}, diagonal));
    CHECK_FALSE(run(row{}, bandsolve::algo::periodic{}, diagonal));
    CHECK_FALSE(run(row{}, bandsolve::algo::automatic{}, diagonal));

    const auto v = bstest::upload<row, exec_space>(p);
    CHECK_FALSE(underflows([&] {
      auto f = bandsolve::factorize(exec, bandsolve::algo::thomas{}, v.a, v.b, v.c);
      f.solve(exec, v.d);
      exec.fence();
    }));

    // Symmetric positive definite: e = c, b = |e_{i-1}| + |e_i| + 1.
    auto b = p.b;
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 0; i < n; ++i)
        b[p.idx(s, i)] = std::abs(p.c[p.idx(s, i)]) + (i ? std::abs(p.c[p.idx(s, i - 1)]) : T(0)) +
                         T(1);
    const auto diag = bstest::to_device<row, T>("b", b, nsys, n);
    CHECK_FALSE(underflows([&] {
      bandsolve::solve(exec, bandsolve::algo::symmetric{}, diag, v.c, v.d, info);
      exec.fence();
    }));
  }
}
#endif

}  // namespace test_no_underflow
