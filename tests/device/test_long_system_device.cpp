// Batched Thomas on the device backend, long systems (tridiag/thomas_long_device.hpp): the chunk
// method over many teams, forced here by lowering its thresholds, on Kokkos::DefaultExecutionSpace
// (and Kokkos::Serial when that is a device); in a CUDA build on the GPU. Compared with LAPACK
// ?gtsv and the host Thomas: n = 1, 2, 3, 63, 64, 65 (a one-row last chunk), 127, 1000, 4097 with
// 1 to 5 systems, n = 20000 (four levels of reduced systems; 5000 and three for float and complex),
// and 32 or 70 systems of 65 and 300 rows (teams across systems where they lie side by side);
// chunks of 16, 40 and 4 rows;
// row, column, interleaved<4> and three kinds of strided Views; float, double, complex and real
// coefficients with complex right-hand sides; info codes of bad pivots in chunk interiors, at chunk
// ends and in the last row; the threshold itself. The factorization of such batches (which keeps
// the coefficients and solves by the same method) in the same cases, and its refactor (with the
// refactor of short systems' packs of factors beside it).
#include "device_support.hpp"

#include <bandsolve/tridiag/thomas.hpp>

#include <catch2/catch_all.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace test_long_system_device {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::index_t;
using bandsolve::algo::thomas;

namespace {

using namespace devtest;
namespace dev = bandsolve::detail::device;

// Forces the chunk method for every batch while alive; chunk_rows: rows per chunk.
struct force_long_path {
  index_t rows = dev::long_system_min_rows, fill = dev::long_system_fill,
          chunk = dev::long_chunk_rows;
  explicit force_long_path(index_t chunk_rows = 16) {
    dev::long_system_min_rows = 0, dev::long_system_fill = 0, dev::long_chunk_rows = chunk_rows;
  }
  ~force_long_path() {
    dev::long_system_min_rows = rows, dev::long_system_fill = fill, dev::long_chunk_rows = chunk;
  }
};

// Row diagonally dominant systems: |b_i| = |a_i| + |c_i| + m, m ~ U(1, 2), random phase or sign.
template <class C, class D>
tridiag_batch<C, D> random_batch(std::size_t nsys, std::size_t n, std::uint32_t seed) {
  tridiag_batch<C, D> p{nsys, n, std::vector<C>(nsys * n), std::vector<C>(nsys * n),
                        std::vector<C>(nsys * n), std::vector<D>(nsys * n)};
  std::mt19937 gen(seed);
  bstest::uniform_real u12(1.0, 2.0), phase(0.0, 6.283185307179586);
  using R = bandsolve::real_type_t<C>;
  for (std::size_t k = 0; k < nsys * n; ++k) {
    const std::size_t i = k % n;
    // Ignored entries hold garbage: the solver must not read them.
    p.a[k] = i == 0 ? C(std::numeric_limits<R>::quiet_NaN()) : random_scalar<C>(gen);
    p.c[k] = i + 1 == n ? C(std::numeric_limits<R>::infinity()) : random_scalar<C>(gen);
    const double m = (i == 0 ? 0.0 : mag(p.a[k])) + (i + 1 == n ? 0.0 : mag(p.c[k])) + u12(gen);
    const double t = phase(gen);
    if constexpr (bandsolve::is_complex_v<C>)
      p.b[k] = C(static_cast<R>(m * std::cos(t)), static_cast<R>(m * std::sin(t)));
    else
      p.b[k] = static_cast<C>(std::cos(t) < 0 ? -m : m);
    p.d[k] = random_scalar<D>(gen);
  }
  return p;
}

template <class Layout, class C, class D, class Exec>
void check_batch(const Exec& exec, std::size_t nsys, std::size_t n, strides kind) {
  using mem = typename Exec::memory_space;
  const auto p = random_batch<C, D>(nsys, n, static_cast<std::uint32_t>(nsys * 7919 + n));
  INFO(Exec::name() << " " << bstest::layout_name<Layout>() << " strides kind "
                    << static_cast<int>(kind) << ", " << nsys << " systems of n = " << n
                    << ", sizeof(C) = " << sizeof(C) << ", sizeof(D) = " << sizeof(D));
  auto a = store<Layout, C, mem>(p.a, nsys, n, kind);
  auto b = store<Layout, C, mem>(p.b, nsys, n, kind);
  auto c = store<Layout, C, mem>(p.c, nsys, n, kind);
  auto d = store<Layout, D, mem>(p.d, nsys, n, kind);
  auto info = bstest::make_info<mem>(nsys);
  bandsolve::solve(exec, thomas{}, a.view, b.view, c.view, d.view, info, device_tag{});
  exec.fence();
  bool gaps_intact = false;
  const auto x = fetch(d, nsys, n, &gaps_intact);
  CHECK(gaps_intact);
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
  std::vector<int> host_info;
  const auto y = host_thomas(p, p.d, host_info);
  // Another order of operations than Thomas: a few ulps of ||x|| on these systems.
  CHECK(max_rel_diff(x, y, nsys, n) <= 32 * eps_of<C>());
  if constexpr (std::is_same_v<C, D>)
    if constexpr (!bandsolve::is_complex_v<C>)
      CHECK(max_rel_diff(x, lapack_thomas(p, p.d), nsys, n) <= 32 * eps_of<C>());
  // The factorization keeps the coefficients and solves by the same chunk method: the same
  // solution, twice, and the gaps of d still untouched.
  const auto f = bandsolve::factorize(exec, thomas{}, a.view, b.view, c.view, nsys, device_tag{});
  CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
  CHECK(f.storage_bytes() >= 3 * nsys * n * sizeof(C));
  for (int repeat = 0; repeat < 2; ++repeat) {
    auto d2 = store<Layout, D, mem>(p.d, nsys, n, kind);
    f.solve(exec, d2.view);
    exec.fence();
    bool intact = false;
    CHECK(max_rel_diff(fetch(d2, nsys, n, &intact), y, nsys, n) <= 32 * eps_of<C>());
    CHECK(intact);
  }
}

// long_n: rows of the longest systems, several levels of reduced systems (in chunks of 16 rows,
// 20000 make four, 5000 three; the levels run the same kernels, so more add time, not paths).
// In a GPU's teams on the host (gpu_teams_on_host) three levels and every other batch size.
constexpr std::size_t default_long_n = gpu_teams_on_host ? 5000 : 20000;

template <class Layout, class C, class D, class Exec>
void check_sizes(const Exec& exec, strides kind, int nsys_step,
                 std::size_t long_n = default_long_n) {
  if (gpu_teams_on_host) nsys_step *= 2;
  for (std::size_t n : {1, 2, 3, 63, 64, 65, 127, 1000, 4097})
    for (std::size_t nsys = 1; nsys <= 5; nsys += std::size_t(nsys_step))
      check_batch<Layout, C, D>(exec, nsys, n, kind);
  check_batch<Layout, C, D>(exec, nsys_step == 1 ? 4 : 3, long_n, kind);
  // 32 systems or more: teams on one chunk of 32 systems where they lie side by side (300 rows:
  // three levels, the last chunk of each a partial one).
  for (std::size_t nsys : {32, 70})
    for (std::size_t n : {65, 300}) check_batch<Layout, C, D>(exec, nsys, n, kind);
}

template <class C, class D, class Exec>
void check_every_layout(const Exec& exec, int nsys_step, std::size_t long_n = default_long_n) {
  check_sizes<bl::row, C, D>(exec, strides::plain, nsys_step, long_n);
  check_sizes<bl::column, C, D>(exec, strides::plain, nsys_step, long_n);
  check_sizes<bl::interleaved<4>, C, D>(exec, strides::plain, nsys_step, long_n);
  check_sizes<bl::strided, C, D>(exec, strides::neither_unit, nsys_step, long_n);
  // Strided Views of unit row or system stride take the work shapes of row and column batches
  // (only their addressing differs): in a GPU's teams on the host, where time is dear, those
  // two suffice.
  if (gpu_teams_on_host) return;
  check_sizes<bl::strided, C, D>(exec, strides::padded_rows, nsys_step, long_n);
  check_sizes<bl::strided, C, D>(exec, strides::unit_system_stride, nsys_step, long_n);
}

template <class C, class D, class Exec>
void check_scalar_layouts(const Exec& exec, int nsys_step, std::size_t long_n) {
  if (!gpu_teams_on_host) return check_every_layout<C, D>(exec, nsys_step, long_n);
  check_sizes<bl::row, C, D>(exec, strides::plain, nsys_step, long_n);
  check_sizes<bl::column, C, D>(exec, strides::plain, nsys_step, long_n);
}

}  // namespace

TEST_CASE("device long systems: double in every layout against LAPACK and the host Thomas",
          "[device][thomas][long]") {
  const force_long_path forced;
  for_each_device_exec([](const auto& exec) { check_every_layout<double, double>(exec, 1); });
}

TEST_CASE("device long systems: teams across systems however few lie side by side",
          "[device][thomas][long]") {
  const force_long_path forced;
  const index_t saved = dev::long_across_min_systems;
  dev::long_across_min_systems = 1;
  const Kokkos::DefaultExecutionSpace exec;
  check_sizes<bl::column, double, double>(exec, strides::plain, 1);
  if (!gpu_teams_on_host) {  // the same teams across systems; in a GPU's teams column suffices
    check_sizes<bl::interleaved<4>, double, double>(exec, strides::plain, 2);
    check_sizes<bl::strided, double, double>(exec, strides::unit_system_stride, 2);
  }
  dev::long_across_min_systems = saved;
}

TEST_CASE("device long systems: chunks of 40 and 4 rows (not multiples of the row blocks)",
          "[device][thomas][long]") {
  const Kokkos::DefaultExecutionSpace exec;
  for (const index_t chunk : {40, 4}) {
    const force_long_path forced(chunk);
    for (std::size_t n : {2, 4, 5, 39, 40, 41, 81, 4097, 20000}) {
      check_batch<bl::row, double, double>(exec, 3, n, strides::plain);
      check_batch<bl::strided, double, double>(exec, 2, n, strides::neither_unit);
      check_batch<bl::row, float, float>(exec, 1, n, strides::plain);
    }
  }
}

TEST_CASE("device long systems: float, complex and complex right-hand sides",
          "[device][thomas][long]") {
  const force_long_path forced;
  const Kokkos::DefaultExecutionSpace exec;
  // Three levels of reduced systems, as the double case's 20000 rows have one more (the scalar
  // types change the arithmetic, not the levels; the long rows took most of the sanitizer run).
  // In a GPU's teams on the host, row and column batches (a team's rows from one system, or
  // from systems side by side): the other layouts' teams are the double case's.
  check_scalar_layouts<float, float>(exec, 2, 5000);
  check_scalar_layouts<cplx<double>, cplx<double>>(exec, 2, 5000);
  check_scalar_layouts<double, cplx<double>>(exec, 2, 5000);
}

// ---------------------------------------------------------------------------------------------
// Info codes: the host Thomas's codes, at the rows where the pivots were spoiled.

namespace {

template <class Layout, class T, class Exec>
void check_info(const Exec& exec, strides kind, std::size_t nsys = 6) {
  using mem = typename Exec::memory_space;
  const std::size_t n = 5000;  // chunks of 16 rows, three levels of reduced systems
  auto p = random_batch<T, T>(nsys, n, 11);
  using R = bandsolve::real_type_t<T>;
  const R nan = std::numeric_limits<R>::quiet_NaN();
  std::vector<int> expected(nsys, 0);
  // System, row (0-based), what: 0 zero pivot (a = b = 0), 1 NaN in b, 2 zero b.
  // Rows: the first, a chunk's second, a chunk's first, a chunk's interior, the last.
  const int spoil[][3] = {{0, 0, 2}, {1, 17, 0}, {2, 160, 0}, {3, 1234, 0}, {5, 4999, 1}};
  for (const auto& w : spoil) {
    const std::size_t k = std::size_t(w[0]) * n + std::size_t(w[1]);
    if (w[2] == 0) p.a[k] = T(0), p.b[k] = T(0);
    if (w[2] == 1) p.b[k] = T(nan);
    if (w[2] == 2) p.b[k] = T(0);
    expected[std::size_t(w[0])] = w[1] + 1;
  }
  INFO(Exec::name() << " " << bstest::layout_name<Layout>() << ", sizeof(T) = " << sizeof(T));
  std::vector<int> host_info;
  const auto y = host_thomas(p, p.d, host_info);
  REQUIRE(host_info == expected);

  auto a = store<Layout, T, mem>(p.a, nsys, n, kind);
  auto b = store<Layout, T, mem>(p.b, nsys, n, kind);
  auto c = store<Layout, T, mem>(p.c, nsys, n, kind);
  auto d = store<Layout, T, mem>(p.d, nsys, n, kind);
  auto info = bstest::make_info<mem>(nsys);
  bandsolve::solve(exec, thomas{}, a.view, b.view, c.view, d.view, info, device_tag{});
  CHECK(bstest::info_to_host(info) == expected);
  // System 4 has good pivots and is still solved.
  const auto x = fetch(d, nsys, n);
  const std::vector<T> x4(x.begin() + long(4 * n), x.begin() + long(5 * n));
  const std::vector<T> y4(y.begin() + long(4 * n), y.begin() + long(5 * n));
  CHECK(max_rel_diff(x4, y4, 1, n) <= 32 * eps_of<T>());
  // The factorization of the same systems reports the same codes and solves system 4.
  const auto f = bandsolve::factorize(exec, thomas{}, a.view, b.view, c.view, nsys, device_tag{});
  CHECK(bstest::info_to_host(f.info()) == expected);
  auto d2 = store<Layout, T, mem>(p.d, nsys, n, kind);
  f.solve(exec, d2.view);
  const auto x2 = fetch(d2, nsys, n);
  const std::vector<T> x24(x2.begin() + long(4 * n), x2.begin() + long(5 * n));
  CHECK(max_rel_diff(x24, y4, 1, n) <= 32 * eps_of<T>());
}

}  // namespace

TEST_CASE("device long systems: info codes of zero and NaN pivots at known rows",
          "[device][thomas][long]") {
  const force_long_path forced;
  for_each_device_exec([](const auto& exec) {
    check_info<bl::row, double>(exec, strides::plain);
    check_info<bl::column, double>(exec, strides::plain);
    check_info<bl::strided, double>(exec, strides::neither_unit);
    check_info<bl::column, double>(exec, strides::plain, 40);  // teams across systems
  });
  check_info<bl::interleaved<4>, float>(Kokkos::DefaultExecutionSpace(), strides::plain);
}

TEST_CASE("device long systems: taken for few long systems only", "[device][thomas][long]") {
  const Kokkos::DefaultExecutionSpace exec;
  const index_t threads = static_cast<index_t>(exec.concurrency());
  CHECK_FALSE(dev::long_system_pays(exec, dev::long_system_min_rows - 1, 1));
  CHECK(dev::long_system_pays(exec, index_t(1) << 22, 1) == (threads >= dev::long_system_fill));
  CHECK_FALSE(dev::long_system_pays(exec, index_t(1) << 22, threads + 1));
  {
    const force_long_path forced;
    CHECK(dev::long_system_pays(exec, 1, threads + 1));
  }
  CHECK(dev::long_system_min_rows == 4096);
  CHECK(dev::long_chunk_rows == 16);
}

// ---------------------------------------------------------------------------------------------
// refactor: new matrices into the factorization's packs of factors, or into its kept copies of
// the coefficients (few long systems).

namespace {

template <class Layout, class T, class Exec>
void check_refactor(const Exec& exec, strides kind) {
  using mem = typename Exec::memory_space;
  const std::size_t shapes[][2] = {{1, 3}, {3, 33}, {65, 5}, {1000, 2}};
  for (const auto& shape : shapes) {
    const std::size_t n = shape[0], nsys = shape[1];
    INFO(Exec::name() << " " << bstest::layout_name<Layout>() << " strides kind "
                      << static_cast<int>(kind) << ", " << nsys << " systems of n = " << n);
    const auto p1 = random_batch<T, T>(nsys, n, static_cast<std::uint32_t>(n + nsys));
    auto p2 = random_batch<T, T>(nsys, n, static_cast<std::uint32_t>(3 * n + nsys));
    p2.b[1 * n] = T(0);  // system 1's first pivot
    auto a1 = store<Layout, T, mem>(p1.a, nsys, n, kind);
    auto b1 = store<Layout, T, mem>(p1.b, nsys, n, kind);
    auto c1 = store<Layout, T, mem>(p1.c, nsys, n, kind);
    auto a2 = store<Layout, T, mem>(p2.a, nsys, n, kind);
    auto b2 = store<Layout, T, mem>(p2.b, nsys, n, kind);
    auto c2 = store<Layout, T, mem>(p2.c, nsys, n, kind);
    auto f = bandsolve::factorize(exec, thomas{}, a1.view, b1.view, c1.view, nsys, device_tag{});
    const auto shared = f;
    f.refactor(exec, a2.view, b2.view, c2.view);
    const auto g = bandsolve::factorize(exec, thomas{}, a2.view, b2.view, c2.view, nsys,
                                        device_tag{});
    exec.fence();
    CHECK(shared.storage_bytes() == g.storage_bytes());
    const auto codes = bstest::info_to_host(g.info());
    CHECK(bstest::info_to_host(shared.info()) == codes);
    CHECK(codes[1] == 1);
    auto d_shared = store<Layout, T, mem>(p2.d, nsys, n, kind);
    auto d_fresh = store<Layout, T, mem>(p2.d, nsys, n, kind);
    shared.solve(exec, d_shared.view);
    g.solve(exec, d_fresh.view);
    exec.fence();
    CHECK(bstest::bitwise_equal(fetch(d_shared, nsys, n), fetch(d_fresh, nsys, n)));
    f.refactor(exec, a1.view, b1.view, c1.view);  // back to the first matrices: no code left
    auto d1 = store<Layout, T, mem>(p1.d, nsys, n, kind);
    f.solve(exec, d1.view);
    exec.fence();
    CHECK(bstest::info_to_host(shared.info()) == std::vector<int>(nsys, 0));
    std::vector<int> host_info;
    bool intact = false;
    CHECK(max_rel_diff(fetch(d1, nsys, n, &intact), host_thomas(p1, p1.d, host_info), nsys, n) <=
          32 * eps_of<T>());
    CHECK(intact);
  }
}

template <class Exec>
void check_refactor_layouts(const Exec& exec) {
  check_refactor<bl::row, double>(exec, strides::plain);
  check_refactor<bl::column, float>(exec, strides::plain);
  check_refactor<bl::interleaved<4>, double>(exec, strides::plain);
  check_refactor<bl::strided, cplx<double>>(exec, strides::neither_unit);
}

}  // namespace

TEST_CASE("device thomas: refactor into the packs of factors and into the kept coefficients",
          "[device][thomas][long][refactor]") {
  const Kokkos::DefaultExecutionSpace exec;
  check_refactor_layouts(exec);
  const force_long_path forced;
  check_refactor_layouts(exec);
}

TEST_CASE("device thomas: refactor checks its arguments against what was factored",
          "[device][thomas][refactor][errors]") {
  using Catch::Matchers::Equals;
  using V = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const Kokkos::DefaultHostExecutionSpace exec;
  const std::string fn = "bandsolve::thomas_device_factorization::refactor: ";
  V a("a", 4, 9), b("b", 4, 9), c("c", 4, 9), a8("a8", 4, 8), b8("b8", 4, 8), b5("b5", 5, 9);
  Kokkos::deep_copy(b, 4.0);
  auto f = bandsolve::factorize(exec, thomas{}, a, b, c, device_tag{});
  CHECK_THROWS_WITH(f.refactor(exec, a8, b8, a8),
                    Equals(fn + "b has 8 rows but the factorization has 9"));
  CHECK_THROWS_WITH(f.refactor(exec, b5, b5, b5),
                    Equals(fn + "b holds 5 systems but the factorization has 4"));
  CHECK_THROWS_WITH(f.refactor(exec, a8, b, c), Equals(fn + "a has 8 rows but b has 9"));
  decltype(f) empty;
  CHECK_THROWS_WITH(empty.refactor(exec, a, b, c),
                    Equals(fn + "this factorization is empty (default-constructed)"));
  V d("d", 4, 9);  // the refused calls left the factors of b = 4
  Kokkos::deep_copy(d, 8.0);
  f.solve(exec, d);
  exec.fence();
  CHECK(d(3, 4) == 2.0);
}

}  // namespace test_long_system_device
