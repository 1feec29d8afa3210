// Batched Thomas on the device backend (backend::device): the kernels that run on GPUs,
// here on Kokkos::DefaultExecutionSpace (and Kokkos::Serial when that is a device). In a CUDA
// build the same file runs on the GPU with device Views; results come back through host mirrors.
// Compared with LAPACK ?gtsv and with the host Thomas (the execution space's own backend on the
// default host space): n = 1, 2, 3, 17, 200, 1031 (up to 512 in register chunks); batches of 1,
// 31, 33 and 100 systems (not multiples of the 32-system tiles); row, column, interleaved<4>,
// interleaved<32> and three kinds of strided Views (padded rows, unit system stride, neither
// stride 1); float, double, complex and real coefficients with complex right-hand sides; info
// codes of zero, NaN and Inf pivots at known rows, with register chunks and without; a
// factorization solved twice; register chunks in teams of several sizes, rows contiguous through
// tiles in team scratch and not; row scratch in each of its places; argument checks.
#include "device_support.hpp"

#include <bandsolve/tridiag/thomas.hpp>

#include <catch2/catch_all.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace test_thomas_device {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::index_t;
using bandsolve::algo::thomas;

namespace {

using namespace devtest;

// ---------------------------------------------------------------------------------------------
// Batches on the host in plain row order (system s, row i at s*n + i).

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
    p.a[k] = i == 0 ? C(0) : random_scalar<C>(gen);
    p.c[k] = i + 1 == n ? C(0) : random_scalar<C>(gen);
    const double m = mag(p.a[k]) + mag(p.c[k]) + u12(gen), t = phase(gen);
    if constexpr (bandsolve::is_complex_v<C>)
      p.b[k] = C(static_cast<R>(m * std::cos(t)), static_cast<R>(m * std::sin(t)));
    else
      p.b[k] = static_cast<C>(std::cos(t) < 0 ? -m : m);
    p.d[k] = random_scalar<D>(gen);
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// References.

// Largest normwise residual ||A x - d|| / (||A|| ||x|| + ||d||) over the systems.
template <class C, class D>
double max_residual(const tridiag_batch<C, D>& p, const std::vector<D>& x,
                    const std::vector<D>& rhs) {
  double worst = 0;
  const std::size_t n = p.n;
  for (std::size_t s = 0; s < p.nsys; ++s) {
    double r = 0, an = 0, xn = 0, dn = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = s * n + i;
      D ax = p.b[k] * x[k];
      if (i > 0) ax += p.a[k] * x[k - 1];
      if (i + 1 < n) ax += p.c[k] * x[k + 1];
      r = std::max(r, mag(ax - rhs[k]));
      an = std::max(an, (i > 0 ? mag(p.a[k]) : 0.0) + mag(p.b[k]) + (i + 1 < n ? mag(p.c[k]) : 0.0));
      xn = std::max(xn, mag(x[k]));
      dn = std::max(dn, mag(rhs[k]));
    }
    worst = std::max(worst, r / (an * xn + dn));
  }
  return worst;
}

// ---------------------------------------------------------------------------------------------
// One batch through the one-shot and the factored device solves, checked against the references.

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
  // Same arithmetic in another order of operations (SIMD, contractions): a few ulps of ||x||.
  CHECK(max_rel_diff(x, y, nsys, n) <= 16 * eps_of<C>());
  CHECK(max_residual(p, x, p.d) <= 16 * eps_of<C>());
  if constexpr (!bandsolve::is_complex_v<C>)
    CHECK(max_rel_diff(x, lapack_thomas(p, p.d), nsys, n) <= 160 * eps_of<C>());

  // Factored: two right-hand sides, each against the one-shot host solve of the same.
  auto f = bandsolve::factorize(exec, thomas{}, a.view, b.view, c.view, nsys, device_tag{});
  static_assert(std::is_same_v<typename decltype(f)::scalar_type, C>);
  CHECK(f.nsys() == nsys);
  CHECK(f.n() == n);
  CHECK(f.storage_bytes() == 3 * ((nsys + 31) / 32) * 32 * n * sizeof(C));
  for (std::uint32_t round = 0; round < 2; ++round) {
    tridiag_batch<C, D> q = random_batch<C, D>(nsys, n, 1000 + round);
    auto d2 = store<Layout, D, mem>(q.d, nsys, n, kind);
    f.solve(exec, d2.view);
    exec.fence();
    const auto x2 = fetch(d2, nsys, n, &gaps_intact);
    CHECK(gaps_intact);
    const auto y2 = host_thomas(p, q.d, host_info);
    CHECK(max_rel_diff(x2, y2, nsys, n) <= 16 * eps_of<C>());
    CHECK(max_residual(p, x2, q.d) <= 16 * eps_of<C>());
  }
  CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
}

template <class Layout, class C, class D, class Exec>
void check_sizes(const Exec& exec, strides kind = strides::plain) {
  for (std::size_t n : {1, 2, 3, 17})
    for (std::size_t nsys : {1, 31, 33, 100}) check_batch<Layout, C, D>(exec, nsys, n, kind);
  for (std::size_t n : {200, 1031})
    for (std::size_t nsys : {1, 33}) check_batch<Layout, C, D>(exec, nsys, n, kind);
}

template <class C, class D, class Exec>
void check_every_layout(const Exec& exec) {
  check_sizes<bl::row, C, D>(exec);
  check_sizes<bl::column, C, D>(exec);
  check_sizes<bl::interleaved<4>, C, D>(exec);
  check_sizes<bl::interleaved<32>, C, D>(exec);
  check_sizes<bl::strided, C, D>(exec, strides::padded_rows);
  check_sizes<bl::strided, C, D>(exec, strides::unit_system_stride);
  check_sizes<bl::strided, C, D>(exec, strides::neither_unit);
}

}  // namespace

TEST_CASE("device thomas: double in every layout against LAPACK and the host Thomas",
          "[device][thomas]") {
  for_each_device_exec([](const auto& exec) { check_every_layout<double, double>(exec); });
}

TEST_CASE("device thomas: float, complex and complex right-hand sides in every layout",
          "[device][thomas]") {
  const Kokkos::DefaultExecutionSpace exec;
  check_every_layout<float, float>(exec);
  check_every_layout<cplx<float>, cplx<float>>(exec);
  check_every_layout<cplx<double>, cplx<double>>(exec);
  check_every_layout<double, cplx<double>>(exec);
  check_every_layout<float, cplx<float>>(exec);
}

TEST_CASE("device thomas: short systems in register chunks, teams of every size",
          "[device][thomas]") {
  // n up to 32 chunks of 128 bytes per array (512 doubles, 1024 floats) take the chunked path; chunks that end early, one system per team and many, batches that end inside a
  // team.
  namespace dev = bandsolve::detail::device;
  const int saved = dev::chunk_team_threads, saved_rows = dev::chunk_team_threads_rows;
  const Kokkos::DefaultExecutionSpace exec;
  CHECK(dev::chunked_thomas_fits<double, double>(512));
  CHECK(!dev::chunked_thomas_fits<double, double>(513));
  CHECK(dev::chunked_thomas_fits<float, float>(1024));
  CHECK(!dev::chunked_thomas_fits<float, float>(1025));
  CHECK(dev::chunked_thomas_fits<double, cplx<double>>(256));
  CHECK(!dev::chunked_thomas_fits<double, cplx<double>>(257));
  // The one-shot solve leaves tiny systems, and floats side by side, to a thread per system.
  CHECK(!dev::chunked_one_shot_pays<double, double>(3, false));
  CHECK(dev::chunked_one_shot_pays<double, double>(4, true));
  CHECK(!dev::chunked_one_shot_pays<float, float>(256, true));
  CHECK(dev::chunked_one_shot_pays<float, float>(256, false));
  CHECK(dev::chunked_one_shot_pays<cplx<float>, cplx<float>>(256, true));
  for (const int threads : {1, 96, 256}) {
    dev::chunk_team_threads = dev::chunk_team_threads_rows = threads;
    INFO("chunk_team_threads = " << threads);
    for (std::size_t n : {5, 64, 255, 256, 511, 512})
      for (std::size_t nsys : {3, 70}) {
        check_batch<bl::column, double, double>(exec, nsys, n, strides::plain);
        check_batch<bl::row, double, double>(exec, nsys, n, strides::plain);
      }
    check_batch<bl::interleaved<4>, cplx<double>, cplx<double>>(exec, 33, 256, strides::plain);
    check_batch<bl::strided, float, cplx<float>>(exec, 33, 1000, strides::neither_unit);
    check_batch<bl::strided, float, float>(exec, 33, 1000, strides::padded_rows);
  }
  dev::chunk_team_threads = saved;
  dev::chunk_team_threads_rows = saved_rows;
  // Systems whose rows are contiguous, through tiles in team scratch and not (on host spaces
  // the tiles are taken only when asked for, as here).
  for (const bool staged : {false, true}) {
    dev::chunk_stage_rows = dev::chunk_stage_rows_on_host = staged;
    INFO("chunk_stage_rows = " << staged);
    for (std::size_t n : {4, 17, 256, 300})
      check_batch<bl::row, double, double>(exec, 70, n, strides::plain);
    check_batch<bl::row, float, float>(exec, 70, 1000, strides::plain);
    check_batch<bl::row, double, cplx<double>>(exec, 33, 100, strides::plain);
    check_batch<bl::strided, cplx<float>, cplx<float>>(exec, 33, 200, strides::padded_rows);
  }
  dev::chunk_stage_rows = true;
  dev::chunk_stage_rows_on_host = false;
}

TEST_CASE("device thomas: row scratch in team scratch level 0, level 1 and allocated",
          "[device][thomas]") {
  namespace dev = bandsolve::detail::device;
  dev::chunked_thomas = false;  // the one-shot solve of a thread per system takes row scratch
  const std::size_t saved_tile = dev::device_row_scratch_max, saved_pool = dev::device_level1_pool_max;
  const Kokkos::DefaultExecutionSpace exec;
  // (per-tile level 1 limit, level 1 pool limit): level 1; allocated (per tile limit, twice);
  // allocated when the pool is larger than the call's own buffer (one tile, several teams).
  const std::size_t limits[][2] = {{saved_tile, saved_pool}, {1024, saved_pool}, {0, saved_pool},
                                   {saved_tile, 0}};
  for (const auto& limit : limits) {
    dev::device_row_scratch_max = limit[0];
    dev::device_level1_pool_max = limit[1];
    INFO("device_row_scratch_max = " << limit[0] << ", device_level1_pool_max = " << limit[1]);
    for (std::size_t n : {2, 300, 1031})
      for (std::size_t nsys : {31, 100}) {
        check_batch<bl::row, double, double>(exec, nsys, n, strides::plain);
        check_batch<bl::column, double, double>(exec, nsys, n, strides::plain);
      }
  }
  dev::device_row_scratch_max = saved_tile;
  dev::device_level1_pool_max = saved_pool;
  dev::chunked_thomas = true;
  // Where the row scratch goes: beside the tiles while small, level 1, then one allocation.
  CHECK(dev::row_scratch_place(0, 1024, 10, 4) == 0);
  CHECK(dev::row_scratch_place(0, dev::device_level0_max, 10, 4) == 1);
  CHECK(dev::row_scratch_place(0, dev::device_row_scratch_max + 1, 10, 4) == 2);
  const std::size_t big = std::size_t(1) << 20;  // a pool of 8192 teams x 1 MiB is over the limit
  CHECK(dev::row_scratch_place(0, big, 100, 8192) == 2);
  CHECK(dev::row_scratch_place(0, big, 10000, 8192) == 1);
  CHECK(dev::row_scratch_bytes(0, big, 100, 8192) >= 100 * big);
  CHECK(dev::row_scratch_bytes(0, big, 10000, 8192) >= 8192 * big);
  CHECK(dev::row_scratch_bytes(0, big, 10000, 8192) < 10000 * big);
}

// ---------------------------------------------------------------------------------------------
// Info codes: the host Thomas's codes exactly, at the rows where the pivots were spoiled.

namespace {

template <class Layout, class T, class Exec>
void check_info(const Exec& exec, strides kind) {
  using mem = typename Exec::memory_space;
  const std::size_t nsys = 70, n = 40;
  auto p = random_batch<T, T>(nsys, n, 7);
  using R = bandsolve::real_type_t<T>;
  const R nan = std::numeric_limits<R>::quiet_NaN(), inf = std::numeric_limits<R>::infinity();
  std::vector<int> expected(nsys, 0);
  // System, row (0-based), what: 0 zero pivot (a = b = 0), 1 NaN in b, 2 Inf in b, 3 NaN in a
  // (pivot b - a c' is NaN), 4 zero b in row 0.
  const int spoil[][3] = {{0, 0, 4}, {1, 5, 0}, {31, 39, 1}, {32, 20, 2}, {33, 1, 3},
                          {64, 17, 0}, {69, 39, 2}};
  for (const auto& w : spoil) {
    const std::size_t k = std::size_t(w[0]) * n + std::size_t(w[1]);
    if (w[2] == 0) p.a[k] = T(0), p.b[k] = T(0);
    if (w[2] == 1) p.b[k] = T(nan);
    if (w[2] == 2) p.b[k] = T(inf);
    if (w[2] == 3) p.a[k] = T(nan);
    if (w[2] == 4) p.b[k] = T(0);
    expected[std::size_t(w[0])] = w[1] + 1;
  }
  INFO(Exec::name() << " " << bstest::layout_name<Layout>() << " strides kind "
                    << static_cast<int>(kind) << ", sizeof(T) = " << sizeof(T));
  std::vector<int> host_info;
  host_thomas(p, p.d, host_info);
  REQUIRE(host_info == expected);

  auto a = store<Layout, T, mem>(p.a, nsys, n, kind);
  auto b = store<Layout, T, mem>(p.b, nsys, n, kind);
  auto c = store<Layout, T, mem>(p.c, nsys, n, kind);
  auto d = store<Layout, T, mem>(p.d, nsys, n, kind);
  auto info = bstest::make_info<mem>(nsys);
  bandsolve::solve(exec, thomas{}, a.view, b.view, c.view, d.view, info, device_tag{});
  CHECK(bstest::info_to_host(info) == expected);
  // Systems with good pivots are still solved.
  const auto x = fetch(d, nsys, n);
  const auto y = host_thomas(p, p.d, host_info);
  for (std::size_t s = 0; s < nsys; ++s)
    if (expected[s] == 0) {
      std::vector<T> xs(x.begin() + long(s * n), x.begin() + long((s + 1) * n));
      std::vector<T> ys(y.begin() + long(s * n), y.begin() + long((s + 1) * n));
      CHECK(max_rel_diff(xs, ys, 1, n) <= 16 * eps_of<T>());
    }

  auto f = bandsolve::factorize(exec, thomas{}, a.view, b.view, c.view, nsys, device_tag{});
  CHECK(bstest::info_to_host(f.info()) == expected);
}

}  // namespace

TEST_CASE("device thomas: info codes of zero, NaN and Inf pivots at known rows",
          "[device][thomas]") {
  // Register chunks (n = 40 fits them) and, switched off, a thread per system.
  for (const bool chunked : {true, false}) {
    bandsolve::detail::device::chunked_thomas = chunked;
    INFO("chunked_thomas = " << chunked);
    for_each_device_exec([](const auto& exec) {
      check_info<bl::row, double>(exec, strides::plain);
      check_info<bl::column, double>(exec, strides::plain);
      check_info<bl::interleaved<4>, double>(exec, strides::plain);
      check_info<bl::strided, double>(exec, strides::padded_rows);
      check_info<bl::strided, double>(exec, strides::neither_unit);
    });
  }
  bandsolve::detail::device::chunked_thomas = true;
  const Kokkos::DefaultExecutionSpace exec;
  check_info<bl::row, float>(exec, strides::plain);
  check_info<bl::column, cplx<double>>(exec, strides::plain);
  check_info<bl::row, cplx<float>>(exec, strides::plain);
}

TEST_CASE("device thomas: argument checks throw as on the host", "[device][thomas]") {
  using mem = Kokkos::DefaultExecutionSpace::memory_space;
  const Kokkos::DefaultExecutionSpace exec;
  using V = Kokkos::View<double**, Kokkos::LayoutRight, mem>;
  const V a("a", 5, 8), b("b", 5, 8), c("c", 5, 8), d("d", 5, 8), d7("d7", 5, 7), d4("d4", 4, 8);
  const auto info = bstest::make_info<mem>(5);
  const auto info4 = bstest::make_info<mem>(4);
  using Catch::Matchers::StartsWith;
  CHECK_THROWS_WITH(bandsolve::solve(exec, thomas{}, a, b, c, d7, info, device_tag{}),
                    StartsWith("bandsolve::solve(thomas)"));
  CHECK_THROWS_AS(bandsolve::solve(exec, thomas{}, a, b, c, d, info4, device_tag{}),
                  std::invalid_argument);
  CHECK_THROWS_AS(bandsolve::solve(exec, thomas{}, a, b, c, a, info, device_tag{}),
                  std::invalid_argument);
  CHECK_THROWS_WITH(bandsolve::factorize(exec, thomas{}, a, b, d7, device_tag{}),
                    StartsWith("bandsolve::factorize(thomas)"));
  CHECK_THROWS_AS(bandsolve::factorize(exec, thomas{}, a, b, c, 4, device_tag{}),
                  std::invalid_argument);
  const auto f = bandsolve::factorize(exec, thomas{}, a, b, c, device_tag{});
  CHECK_THROWS_WITH(f.solve(exec, d7), StartsWith("bandsolve::thomas_factorization::solve"));
  CHECK_THROWS_AS(f.solve(exec, d4), std::invalid_argument);
  const decltype(f) empty;
  CHECK_THROWS_AS(empty.solve(exec, d), std::invalid_argument);
  // n = 0 and nsys = 0 are no-ops that still write info (n = 0: every system solved).
  const V z("z", 5, 0);
  bandsolve::solve(exec, thomas{}, z, z, z, V("dz", 5, 0), info, device_tag{});
  CHECK(bstest::info_to_host(info) == std::vector<int>(5, 0));
}

TEST_CASE("device thomas: calls without a backend take the execution space's own",
          "[device][thomas]") {
  // On a GPU (Kokkos::Cuda, HIP) that is the device backend; on host spaces the host one. Either
  // way the results agree with the explicit device backend.
  using exec_type = Kokkos::DefaultExecutionSpace;
  using mem = exec_type::memory_space;
  using own = bandsolve::backend::default_for_t<exec_type>;
  static_assert(bandsolve::backend::is_gpu_space_v<exec_type> == std::is_same_v<own, device_tag>);
  static_assert(bandsolve::backend::is_backend_v<own>);
  const exec_type exec;
  const std::size_t nsys = 33, n = 65;
  const auto p = random_batch<double, double>(nsys, n, 5);
  for (const strides kind : {strides::padded_rows, strides::unit_system_stride}) {
    auto a = store<bl::strided, double, mem>(p.a, nsys, n, kind);
    auto b = store<bl::strided, double, mem>(p.b, nsys, n, kind);
    auto c = store<bl::strided, double, mem>(p.c, nsys, n, kind);
    auto d1 = store<bl::strided, double, mem>(p.d, nsys, n, kind);
    auto d2 = store<bl::strided, double, mem>(p.d, nsys, n, kind);
    auto info = bstest::make_info<mem>(nsys);
    bandsolve::solve(exec, thomas{}, a.view, b.view, c.view, d1.view, info);
    bandsolve::solve(exec, thomas{}, a.view, b.view, c.view, d2.view, info, device_tag{});
    CHECK(max_rel_diff(fetch(d1, nsys, n), fetch(d2, nsys, n), nsys, n) <= 16 * eps_of<double>());
    const auto f = bandsolve::factorize(exec, thomas{}, a.view, b.view, c.view);
    f.solve(exec, d1.view);
    CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
  }
}

namespace {

// Each team of a device::for_each_tile launch counts its threads in its tile scratch, between
// team barriers, and its first thread records the count and the team's size.
template <class Memory>
struct count_team_threads {
  Kokkos::View<int* [2], Memory> seen;
  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t tile, void* tiles,
                                         void*) const {
    int* const count = static_cast<int*>(tiles);
    if (team.team_rank() == 0) *count = 0;
    team.team_barrier();
    Kokkos::atomic_add(count, 1);
    team.team_barrier();
    if (team.team_rank() == 0) seen(tile, 0) = *count, seen(tile, 1) = team.team_size();
  }
};

}  // namespace

TEST_CASE("device kernels: a GPU's teams of 32 threads, on a threaded host space where built so",
          "[device]") {
  // On a GPU, and on Kokkos::OpenMP in the builds that define BANDSOLVE_DEVICE_TEAMS_ON_HOST
  // (tests/CMakeLists.txt), every team of the device kernels is tile_systems threads that share
  // its scratch; elsewhere on the host a team is one thread that runs every thread's share.
  namespace dev = bandsolve::detail::device;
  using exec_type = Kokkos::DefaultExecutionSpace;
  using mem = exec_type::memory_space;
  const exec_type exec;
  // What the build asked for (tests/CMakeLists.txt), against what the library does.
#if defined(BANDSOLVE_DEVICE_TEAMS_ON_HOST)
  constexpr bool asked = !dev::is_serial_space<exec_type>();
#else
  constexpr bool asked = false;
#endif
  constexpr bool gpu_teams = asked || !std::is_same_v<mem, Kokkos::HostSpace>;
  CHECK(gpu_teams_on_host == (asked && std::is_same_v<mem, Kokkos::HostSpace>));
  const int threads = gpu_teams ? dev::tile_systems : 1;
  CHECK(dev::team_threads<exec_type>() == threads);
  CHECK(dev::one_thread_teams<exec_type>() == !gpu_teams);
  INFO(exec_type::name() << " runs " << exec.concurrency() << " threads");
  REQUIRE(exec.concurrency() >= threads);
  const index_t tiles = 5;
  const count_team_threads<mem> body{Kokkos::View<int* [2], mem>("seen", tiles)};
  dev::for_each_tile(exec, "count_team_threads", tiles, sizeof(int), 0, body);
  const auto seen = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), body.seen);
  for (index_t t = 0; t < tiles; ++t) {
    CHECK(seen(t, 0) == threads);
    CHECK(seen(t, 1) == threads);
  }
#if defined(KOKKOS_ENABLE_SERIAL)
  CHECK(dev::one_thread_teams<Kokkos::Serial>());
#endif
}

}  // namespace test_thomas_device
