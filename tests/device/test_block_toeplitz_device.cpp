// Batched Toeplitz on the device backend (backend::device): the kernels that run on GPUs,
// here on Kokkos::DefaultExecutionSpace (and Kokkos::Serial when that is a device). In a CUDA
// build the same file runs on the GPU with device Views; results come back through host mirrors.
// Compared with LAPACK ?gtsv and with the host path (the execution space's own backend on the
// default host space): n = 1, 2, 3, 17, 1031; batches of 1, 31, 33 and 100 systems; row, column,
// interleaved<4>, interleaved<32> and three kinds of strided Views; float and double; info codes;
// a factorization solved twice; argument checks. Block Thomas: m = 2, 3, 8 with and without
// pivoting, one and two right-hand sides, row, column and interleaved<4> Views (rank 3 to 5 d), against LAPACK
// ?gbsv and the host block Thomas, one-shot and factored; info codes; argument checks. Shared
// off-diagonals: n = 1, 2, 3, 17, 1001, batches of 1, 31, 33, every layout, float, double and
// complex d, a functor and a View diagonal, both singular_last_row options, against ?gtsv and the
// host path. Toeplitz divide and conquer: device plans against the host plan of the same block
// length, ?gtsv and the known solution, n = 1 to 10000, the Thomas path, argument checks.
//
// Only the block sizes the tests solve are compiled (in the host trees and by nvcc); a size left
// out must be a clear error.
#define BANDSOLVE_BLOCK_SIZES 2, 3, 8
#include "block_support.hpp"
#include "device_support.hpp"
#include "toeplitz_support.hpp"

#include <bandsolve/block/block_thomas.hpp>
#include <bandsolve/toeplitz/batched.hpp>
#include <bandsolve/toeplitz/divide_and_conquer.hpp>
#include <bandsolve/toeplitz/shared_offdiag.hpp>

#include <catch2/catch_all.hpp>

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

using bandsolve::algo::toeplitz;

namespace {

using namespace devtest;

// Coefficients of a diagonally dominant T (|t2| > |t1| + |t3|), float-exact.
constexpr double toeplitz_t1 = -0.75, toeplitz_t2 = 2.5, toeplitz_t3 = 1.125;

template <class T>
std::vector<T> random_rhs(std::size_t nsys, std::size_t n, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<T> d(nsys * n);
  for (auto& v : d) v = random_scalar<T>(gen);
  return d;
}

// The host path: row layout on the host space, the execution space's own backend.
template <class T>
std::vector<T> host_toeplitz(T t1, T t2, T t3, const std::vector<T>& rhs, std::size_t nsys,
                             std::size_t n, std::vector<int>& info) {
  using mem = Kokkos::HostSpace;
  auto d = bstest::to_device<bl::row, T, mem>("d", rhs, nsys, n);
  auto inf = bstest::make_info<mem>(nsys);
  bandsolve::solve(host_exec(), toeplitz{}, t1, t2, t3, d, inf);
  host_exec().fence();
  info = bstest::info_to_host(inf);
  return bstest::to_host(d, nsys);
}

template <class T>
std::vector<T> lapack_batch(T t1, T t2, T t3, const std::vector<T>& rhs, std::size_t nsys,
                            std::size_t n) {
  std::vector<T> x(rhs.size());
  for (std::size_t s = 0; s < nsys; ++s) {
    const auto xs = bstest::lapack_toeplitz(
        t1, t2, t3, std::vector<T>(rhs.begin() + long(s * n), rhs.begin() + long((s + 1) * n)));
    std::copy(xs.begin(), xs.end(), x.begin() + long(s * n));
  }
  return x;
}

template <class Layout, class T, class Exec>
void check_toeplitz_batch(const Exec& exec, std::size_t nsys, std::size_t n, strides kind) {
  using mem = typename Exec::memory_space;
  const T t1 = T(toeplitz_t1), t2 = T(toeplitz_t2), t3 = T(toeplitz_t3);
  INFO(Exec::name() << " " << bstest::layout_name<Layout>() << " strides kind "
                    << static_cast<int>(kind) << ", " << nsys << " systems of n = " << n
                    << ", sizeof(T) = " << sizeof(T));
  const auto rhs = random_rhs<T>(nsys, n, static_cast<std::uint32_t>(nsys * 7919 + n));
  auto d = store<Layout, T, mem>(rhs, nsys, n, kind);
  auto info = bstest::make_info<mem>(nsys);
  bandsolve::solve(exec, toeplitz{}, t1, t2, t3, d.view, info, device_tag{});
  exec.fence();
  bool gaps_intact = false;
  const auto x = fetch(d, nsys, n, &gaps_intact);
  CHECK(gaps_intact);
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
  std::vector<int> host_info;
  // The same factors and recurrences: the host path's result to a few ulps (contractions).
  CHECK(max_rel_diff(x, host_toeplitz(t1, t2, t3, rhs, nsys, n, host_info), nsys, n) <=
        4 * eps_of<T>());
  CHECK(max_rel_diff(x, lapack_batch(t1, t2, t3, rhs, nsys, n), nsys, n) <= 40 * eps_of<T>());

  // Factored: two right-hand sides through one factorization.
  const auto f = bandsolve::factorize(exec, toeplitz{}, t1, t2, t3, n);
  CHECK(f.info() == 0);
  for (std::uint32_t round = 0; round < 2; ++round) {
    const auto q = random_rhs<T>(nsys, n, 1000 + round);
    auto d2 = store<Layout, T, mem>(q, nsys, n, kind);
    f.solve(exec, d2.view, device_tag{});
    exec.fence();
    const auto x2 = fetch(d2, nsys, n, &gaps_intact);
    CHECK(gaps_intact);
    CHECK(max_rel_diff(x2, host_toeplitz(t1, t2, t3, q, nsys, n, host_info), nsys, n) <=
          4 * eps_of<T>());
  }
}

template <class Layout, class T, class Exec>
void check_toeplitz_sizes(const Exec& exec, strides kind = strides::plain) {
  for (std::size_t n : {1, 2, 3, 17})
    for (std::size_t nsys : {1, 31, 33, 100}) check_toeplitz_batch<Layout, T>(exec, nsys, n, kind);
  for (std::size_t nsys : {1, 33}) check_toeplitz_batch<Layout, T>(exec, nsys, 1031, kind);
}

template <class T, class Exec>
void check_toeplitz_layouts(const Exec& exec) {
  check_toeplitz_sizes<bl::row, T>(exec);
  check_toeplitz_sizes<bl::column, T>(exec);
  check_toeplitz_sizes<bl::interleaved<4>, T>(exec);
  check_toeplitz_sizes<bl::interleaved<32>, T>(exec);
  check_toeplitz_sizes<bl::strided, T>(exec, strides::padded_rows);
  check_toeplitz_sizes<bl::strided, T>(exec, strides::unit_system_stride);
  check_toeplitz_sizes<bl::strided, T>(exec, strides::neither_unit);
}

}  // namespace

TEST_CASE("device toeplitz: every layout against LAPACK and the host path", "[device][toeplitz]") {
  for_each_device_exec([](const auto& exec) {
    check_toeplitz_layouts<double>(exec);
    check_toeplitz_layouts<float>(exec);
  });
}

TEST_CASE("device toeplitz: info codes, argument checks and the default backend",
          "[device][toeplitz]") {
  using exec_type = Kokkos::DefaultExecutionSpace;
  using mem = exec_type::memory_space;
  const exec_type exec;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // (t1, t2, t3, n): expected info as on the host (zero first pivot, zero second pivot
  // t2 - t1 t3 / t2, NaN, n = 1 with the same coefficients).
  const double cases[][5] = {{1, 0, 1, 5, 1}, {2, 2, 2, 5, 2}, {1, nan, 1, 5, 1}, {2, 2, 2, 1, 0}};
  for (const auto& w : cases) {
    const std::size_t nsys = 33, n = static_cast<std::size_t>(w[3]);
    INFO("t1 = " << w[0] << ", t2 = " << w[1] << ", t3 = " << w[2] << ", n = " << n);
    const auto rhs = random_rhs<double>(nsys, n, 3);
    std::vector<int> host_info;
    host_toeplitz(w[0], w[1], w[2], rhs, nsys, n, host_info);
    REQUIRE(host_info == std::vector<int>(nsys, static_cast<int>(w[4])));
    auto d = store<bl::row, double, mem>(rhs, nsys, n, strides::plain);
    auto info = bstest::make_info<mem>(nsys);
    bandsolve::solve(exec, toeplitz{}, w[0], w[1], w[2], d.view, info, device_tag{});
    CHECK(bstest::info_to_host(info) == host_info);
  }

  using V = Kokkos::View<double**, Kokkos::LayoutRight, mem>;
  const V d("d", 5, 8), d7("d7", 5, 7);
  using Catch::Matchers::StartsWith;
  CHECK_THROWS_AS(bandsolve::solve(exec, toeplitz{}, 1.0, 4.0, 1.0, d, bstest::make_info<mem>(4),
                                   device_tag{}),
                  std::invalid_argument);
  const auto f = bandsolve::factorize(exec, toeplitz{}, 1.0, 4.0, 1.0, 8);
  CHECK_THROWS_WITH(f.solve(exec, d7, device_tag{}),
                    StartsWith("bandsolve::toeplitz_batch_factorization::solve"));
  const decltype(f) empty;
  CHECK_THROWS_AS(empty.solve(exec, d, device_tag{}), std::invalid_argument);

  // Without a backend: the execution space's own (the device one on a GPU).
  const std::size_t nsys = 33, n = 65;
  const auto rhs = random_rhs<double>(nsys, n, 5);
  auto d1 = store<bl::strided, double, mem>(rhs, nsys, n, strides::padded_rows);
  auto d2 = store<bl::strided, double, mem>(rhs, nsys, n, strides::padded_rows);
  const auto g = bandsolve::factorize(exec, toeplitz{}, 1.0, 4.0, 1.0, n);
  g.solve(exec, d1.view);
  g.solve(exec, d2.view, device_tag{});
  CHECK(max_rel_diff(fetch(d1, nsys, n), fetch(d2, nsys, n), nsys, n) <= 4 * eps_of<double>());
}

// ---------------------------------------------------------------------------------------------
// Block Thomas: against LAPACK ?gbsv and the host block Thomas, one-shot and factored, with and
// without pivoting, m = 2, 3 and 8 (the kernels are compiled for every m = 2..8 alike), real and
// complex.

using bandsolve::algo::block_thomas;

namespace {

template <class Layout, bool Multiple, class Exec, class T, class Backend>
std::vector<T> block_solve(const Exec& exec, const bstest::host_block_batch<T>& p,
                           const std::vector<T>& rhs, block_thomas algorithm, Backend tag,
                           std::vector<int>& info) {
  using Mem = typename Exec::memory_space;
  const auto a = bstest::block_to_device<Layout, T, Mem>("a", p.a, p.nsys, p.n, p.m);
  const auto b = bstest::block_to_device<Layout, T, Mem>("b", p.b, p.nsys, p.n, p.m);
  const auto c = bstest::block_to_device<Layout, T, Mem>("c", p.c, p.nsys, p.n, p.m);
  const auto d = bstest::rhs_to_device<Layout, T, Mem, Multiple>(rhs, p.nsys, p.n, p.m, p.nrhs);
  const auto info_v = bstest::make_info<Mem>(p.nsys);
  bandsolve::solve(exec, algorithm, a, b, c, d, info_v, tag);
  exec.fence();
  info = bstest::info_to_host(info_v);
  return bstest::rhs_to_host<Multiple>(d, p.nsys, p.n, p.m, p.nrhs);
}

template <class Layout, bool Multiple, class T, class Exec>
void check_block_batch(const Exec& exec, std::size_t nsys, std::size_t n, std::size_t m,
                       bool pivoting) {
  using Mem = typename Exec::memory_space;
  const std::size_t nrhs = Multiple ? 2 : 1;
  const block_thomas algorithm =
      pivoting ? block_thomas{block_thomas::pivoting::partial} : block_thomas{};
  const auto p = bstest::random_block_dominant<T>(
      nsys, n, m, nrhs, static_cast<std::uint32_t>(1000 * m + 10 * n + nsys));
  INFO(Exec::name() << " " << bstest::layout_name<Layout>() << ", " << nsys << " systems of n = "
                    << n << ", m = " << m << ", nrhs = " << nrhs << ", pivoting " << pivoting
                    << ", sizeof(T) = " << sizeof(T));
  std::vector<int> info, host_info;
  const auto x = block_solve<Layout, Multiple>(exec, p, p.d, algorithm, device_tag{}, info);
  CHECK(info == std::vector<int>(nsys, 0));
  const auto y = block_solve<Layout, Multiple>(host_exec(), p, p.d, algorithm,
                                               bandsolve::backend::default_for_t<host_exec>{},
                                               host_info);
  CHECK(host_info == info);
  // The same routines on one lane: the host path's result to a few ulps (contractions).
  CHECK(bstest::block_max_rel_diff(p, x, y) <= 16 * eps_of<T>());
  CHECK(bstest::block_max_rel_diff(p, x, bstest::gbsv_reference(p)) <=
        bstest::block_lapack_tol<T>(m));
  CHECK(bstest::block_max_residual(p, x) <= bstest::block_residual_tol<T>(m));

  // Factored: two right-hand sides through one factorization.
  const auto a = bstest::block_to_device<Layout, T, Mem>("a", p.a, nsys, n, m);
  const auto b = bstest::block_to_device<Layout, T, Mem>("b", p.b, nsys, n, m);
  const auto c = bstest::block_to_device<Layout, T, Mem>("c", p.c, nsys, n, m);
  const auto f = bandsolve::factorize(exec, algorithm, a, b, c, nsys, device_tag{});
  CHECK(f.nsys() == nsys);
  CHECK(f.m() == m);
  CHECK(f.pivoting() == pivoting);
  CHECK(f.storage_bytes() == nsys * n * (3 * m * m + m) * sizeof(T));
  for (std::uint32_t round = 0; round < 2; ++round) {
    auto q = bstest::random_block_dominant<T>(nsys, n, m, nrhs, 77 + round);
    q.a = p.a, q.b = p.b, q.c = p.c;
    const auto d = bstest::rhs_to_device<Layout, T, Mem, Multiple>(q.d, nsys, n, m, nrhs);
    f.solve(exec, d);
    exec.fence();
    const auto x2 = bstest::rhs_to_host<Multiple>(d, nsys, n, m, nrhs);
    const auto y2 = block_solve<Layout, Multiple>(
        host_exec(), q, q.d, algorithm, bandsolve::backend::default_for_t<host_exec>{}, host_info);
    CHECK(bstest::block_max_rel_diff(q, x2, y2) <= 16 * eps_of<T>());
  }
  CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
}

template <class Layout, bool Multiple, class T, class Exec>
void check_block_sizes(const Exec& exec) {
  for (std::size_t m : {2, 3, 8})
    for (bool pivoting : {false, true}) {
      for (std::size_t n : {1, 2, 3, 17})
        for (std::size_t nsys : {1, 31, 33})
          check_block_batch<Layout, Multiple, T>(exec, nsys, n, m, pivoting);
      if (m == 3) check_block_batch<Layout, Multiple, T>(exec, 33, 1001, m, pivoting);
    }
}

}  // namespace

TEST_CASE("device block_thomas: layouts, m = 2, 3, 8, pivoting, against LAPACK and the host",
          "[device][block_thomas]") {
  for_each_device_exec([](const auto& exec) {
    check_block_sizes<bl::row, false, double>(exec);
    check_block_sizes<bl::row, true, double>(exec);
    check_block_sizes<bl::column, false, double>(exec);
    check_block_sizes<bl::interleaved<4>, true, double>(exec);
    check_block_sizes<bl::column, false, Kokkos::complex<double>>(exec);
  });
  check_block_sizes<bl::interleaved<4>, false, float>(Kokkos::DefaultExecutionSpace());
}

TEST_CASE("device block_thomas: info codes and argument checks as on the host",
          "[device][block_thomas]") {
  using exec_type = Kokkos::DefaultExecutionSpace;
  using Mem = exec_type::memory_space;
  const exec_type exec;
  const std::size_t nsys = 40, n = 9, m = 3;
  auto p = bstest::random_block_dominant<double>(nsys, n, m, 1, 11);
  // Singular S_i: B_i = 0 and A_i = 0 (block row i, 0-based) in some systems.
  const std::size_t spoil[][2] = {{0, 0}, {5, 4}, {32, 8}, {39, 1}};
  std::vector<int> expected(nsys, 0);
  for (const auto& w : spoil) {
    for (std::size_t r = 0; r < m; ++r)
      for (std::size_t col = 0; col < m; ++col)
        p.a[p.blk(w[0], w[1], r, col)] = 0, p.b[p.blk(w[0], w[1], r, col)] = 0;
    expected[w[0]] = static_cast<int>(w[1] + 1);
  }
  for (bool pivoting : {false, true}) {
    const block_thomas algorithm =
        pivoting ? block_thomas{block_thomas::pivoting::partial} : block_thomas{};
    std::vector<int> info, host_info;
    block_solve<bl::row, false>(host_exec(), p, p.d, algorithm,
                                bandsolve::backend::default_for_t<host_exec>{}, host_info);
    REQUIRE(host_info == expected);
    block_solve<bl::row, false>(exec, p, p.d, algorithm, device_tag{}, info);
    CHECK(info == expected);
    const auto a = bstest::block_to_device<bl::column, double, Mem>("a", p.a, nsys, n, m);
    const auto b = bstest::block_to_device<bl::column, double, Mem>("b", p.b, nsys, n, m);
    const auto c = bstest::block_to_device<bl::column, double, Mem>("c", p.c, nsys, n, m);
    const auto f = bandsolve::factorize(exec, algorithm, a, b, c, device_tag{});
    CHECK(bstest::info_to_host(f.info()) == expected);
  }
  const auto b = bstest::block_to_device<bl::row, double, Mem>("b", p.b, nsys, n, m);
  const auto d = bstest::rhs_to_device<bl::row, double, Mem, false>(p.d, nsys, n, m, 1);
  const auto d8 = bandsolve::make_block_rhs<bl::row, double, Mem>("d8", nsys, n + 1, m);
  using Catch::Matchers::StartsWith;
  CHECK_THROWS_WITH(bandsolve::solve(exec, block_thomas{}, b, b, b, d8, bstest::make_info<Mem>(nsys),
                                     device_tag{}),
                    StartsWith("bandsolve::solve(block_thomas)"));
  CHECK_THROWS_AS(bandsolve::solve(exec, block_thomas{}, b, b, b, d, bstest::make_info<Mem>(nsys - 1),
                                   device_tag{}),
                  std::invalid_argument);
  CHECK_THROWS_AS(bandsolve::factorize(exec, block_thomas{}, b, b, b, nsys + 1, device_tag{}),
                  std::invalid_argument);
  const auto f = bandsolve::factorize(exec, block_thomas{}, b, b, b, device_tag{});
  CHECK_THROWS_WITH(f.solve(exec, d8), StartsWith("bandsolve::block_thomas_factorization::solve"));
  const decltype(f) empty;
  CHECK_THROWS_AS(empty.solve(exec, d), std::invalid_argument);
  const auto b9 = bandsolve::make_block_batch<bl::row, double, Mem>("b9", 2, 3, 9);
  CHECK_THROWS_AS(bandsolve::factorize(exec, block_thomas{}, b9, b9, b9, device_tag{}),
                  std::invalid_argument);
  const auto b4 = bandsolve::make_block_batch<bl::row, double, Mem>("b4", 2, 3, 4);
  const auto d4 = bandsolve::make_block_rhs<bl::row, double, Mem>("d4", 2, 3, 4);
  using Catch::Matchers::ContainsSubstring;
  const char* const left_out =
      "block size m = 4 is not compiled in this program: BANDSOLVE_BLOCK_SIZES = 2, 3, 8";
  CHECK_THROWS_WITH(bandsolve::factorize(exec, block_thomas{}, b4, b4, b4, device_tag{}),
                    ContainsSubstring(left_out));
  CHECK_THROWS_WITH(bandsolve::solve(exec, block_thomas{}, b4, b4, b4, d4,
                                     bstest::make_info<Mem>(2), device_tag{}),
                    ContainsSubstring(left_out));
}

// ---------------------------------------------------------------------------------------------
// Shared off-diagonals: against LAPACK ?gtsv (on the real and imaginary parts of complex data)
// and the host path, the diagonal from a functor and from a View, both singular_last_row options.

using bandsolve::algo::shared_offdiag;

namespace {

constexpr double so_lower = 0.7, so_upper = -1.2, so_first_upper = 0.5, so_last_lower = -0.9;

struct so_diagonal {  // |b| >= |a| + |c| + 1, sign alternating with the system
  KOKKOS_INLINE_FUNCTION double operator()(index_t s, index_t i) const {
    const double m = 1 + static_cast<double>((s * 7919 + i) * 2654435761u % 1000u) / 1000.0;
    return (s % 2 ? -1.0 : 1.0) * (2.0 + m);
  }
};

template <class Real>
auto so_matrix() {
  return bandsolve::make_shared_offdiag(Real(so_lower), Real(so_upper), Real(so_first_upper),
                                        Real(so_last_lower), so_diagonal{});
}

template <class D>
tridiag_batch<double, D> so_describe(std::size_t nsys, std::size_t n) {
  tridiag_batch<double, D> p{nsys, n, {}, {}, {}, {}};
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i) {
      p.a.push_back(i + 1 == n ? so_last_lower : so_lower);
      p.b.push_back(so_diagonal{}(index_t(s), index_t(i)));
      p.c.push_back(i == 0 ? so_first_upper : so_upper);
    }
  return p;
}

// LAPACK in double on the right-hand sides widened to double, rounded back to D.
template <class D>
std::vector<D> so_lapack(const std::vector<D>& rhs, std::size_t nsys, std::size_t n) {
  using Dd = std::conditional_t<bandsolve::is_complex_v<D>, cplx<double>, double>;
  const std::vector<Dd> wide(rhs.begin(), rhs.end());
  const auto x = lapack_thomas(so_describe<Dd>(nsys, n), wide);
  std::vector<D> out;
  for (const auto& v : x) out.push_back(D(v));
  return out;
}

// The host path: row layout on the host space, the execution space's own backend.
template <class Real, class D, class Diagonal>
std::vector<D> so_host(const bandsolve::shared_offdiag_matrix<Real, Diagonal>& m,
                       const std::vector<D>& rhs, std::size_t nsys, std::size_t n,
                       std::vector<int>& info, bandsolve::shared_offdiag_options options = {}) {
  using mem = Kokkos::HostSpace;
  auto d = bstest::to_device<bl::row, D, mem>("d", rhs, nsys, n);
  auto inf = bstest::make_info<mem>(nsys);
  bandsolve::solve(host_exec(), shared_offdiag{}, m, d, inf, options);
  host_exec().fence();
  info = bstest::info_to_host(inf);
  return bstest::to_host(d, nsys);
}

// FromView: the diagonal read through diagonal_from (a template argument: each kind of diagonal
// compiles its own kernels).
template <class Layout, class D, class Real, bool FromView, class Exec>
void check_so_batch(const Exec& exec, std::size_t nsys, std::size_t n, strides kind) {
  using mem = typename Exec::memory_space;
  INFO(Exec::name() << " " << bstest::layout_name<Layout>() << " strides kind "
                    << static_cast<int>(kind) << ", " << nsys << " systems of n = " << n
                    << ", sizeof(D) = " << sizeof(D) << ", sizeof(Real) = " << sizeof(Real)
                    << ", diagonal from a View " << FromView);
  const auto rhs = random_rhs<D>(nsys, n, static_cast<std::uint32_t>(nsys * 131 + n));
  auto d = store<Layout, D, mem>(rhs, nsys, n, kind);
  auto info = bstest::make_info<mem>(nsys);
  Kokkos::deep_copy(info, -1);
  const auto m = so_matrix<Real>();
  if constexpr (FromView) {
    const auto p = so_describe<D>(nsys, n);
    const auto b = store<Layout, Real, mem>(std::vector<Real>(p.b.begin(), p.b.end()), nsys, n,
                                            kind);
    const auto mv = bandsolve::make_shared_offdiag(m.lower, m.upper, m.first_upper, m.last_lower,
                                                   bandsolve::diagonal_from(b.view));
    bandsolve::solve(exec, shared_offdiag{}, mv, d.view, info, device_tag{});
  } else {
    bandsolve::solve(exec, shared_offdiag{}, m, d.view, info, device_tag{});
  }
  exec.fence();
  bool gaps_intact = false;
  const auto x = fetch(d, nsys, n, &gaps_intact);
  CHECK(gaps_intact);
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
  std::vector<int> host_info;
  // The same recurrences: the host path's result to a few ulps (contractions).
  CHECK(max_rel_diff(x, so_host(m, rhs, nsys, n, host_info), nsys, n) <= 4 * eps_of<D>());
  // The diagonal is at least 1 above the off-diagonals: cond_inf <= 5.
  CHECK(max_rel_diff(x, so_lapack(rhs, nsys, n), nsys, n) <=
        bstest::lapack_tol<bandsolve::real_type_t<D>>());
}

template <class Layout, class D, class Real = bandsolve::real_type_t<D>, bool FromView = false,
          class Exec>
void check_so_sizes(const Exec& exec, strides kind = strides::plain) {
  for (std::size_t n : {1, 2, 3, 17})
    for (std::size_t nsys : {1, 31, 33})
      check_so_batch<Layout, D, Real, FromView>(exec, nsys, n, kind);
  check_so_batch<Layout, D, Real, FromView>(exec, 33, 1001, kind);
}

// The Neumann systems of a Poisson solver along z: rows (-1, 1), (1, cc, 1), (1, -1) with
// cc = -2.5, -2 (the zero mode: singular, constant null vector), -2.1 by system.
struct so_neumann {
  index_t n;
  KOKKOS_INLINE_FUNCTION double operator()(index_t s, index_t i) const {
    const double cc = s % 3 == 0 ? -2.5 : (s % 3 == 1 ? -2.0 : -2.1);
    return i == 0 || i + 1 == n ? -1.0 - (cc + 2.0) / 2 : cc;
  }
};

}  // namespace

TEST_CASE("device shared_offdiag: every layout and scalar against LAPACK and the host path",
          "[device][shared_offdiag]") {
  const Kokkos::DefaultExecutionSpace exec;
  check_so_sizes<bl::row, double>(exec);
  check_so_sizes<bl::row, double, double, true>(exec);
  check_so_sizes<bl::column, double>(exec);
  check_so_sizes<bl::column, double, double, true>(exec);
  check_so_sizes<bl::interleaved<4>, double>(exec);
  check_so_sizes<bl::strided, double>(exec, strides::padded_rows);
  check_so_sizes<bl::strided, double>(exec, strides::unit_system_stride);
  check_so_sizes<bl::strided, double>(exec, strides::neither_unit);
  check_so_sizes<bl::row, float>(exec);
  check_so_sizes<bl::interleaved<4>, float, double>(exec);  // the pivot chain in double
  check_so_sizes<bl::row, cplx<double>>(exec);
  check_so_sizes<bl::column, cplx<float>, double>(exec);
}

TEST_CASE("device shared_offdiag: the singular zero mode reported or pinned, argument checks",
          "[device][shared_offdiag]") {
  using exec_type = Kokkos::DefaultExecutionSpace;
  using mem = exec_type::memory_space;
  const exec_type exec;
  const std::size_t n = 40;
  for (std::size_t nsys : {3, 35}) {
    // A consistent right-hand side for the singular systems: entries summing to zero.
    std::vector<double> rhs(nsys * n);
    for (std::size_t s = 0; s < nsys; ++s) {
      double sum = 0;
      for (std::size_t i = 0; i < n; ++i) sum += rhs[s * n + i] = std::cos(0.37 * double(i + s));
      if (s % 3 == 1)
        for (std::size_t i = 0; i < n; ++i) rhs[s * n + i] -= sum / double(n);
    }
    const auto m = bandsolve::make_shared_offdiag(1.0, 1.0, 1.0, 1.0, so_neumann{index_t(n)});
    for (bool pin : {false, true}) {
      const bandsolve::shared_offdiag_options options{
          pin ? bandsolve::singular_last_row::pin : bandsolve::singular_last_row::report, 0.25};
      INFO(nsys << " systems, pin " << pin);
      std::vector<int> host_info;
      const auto y = so_host(m, rhs, nsys, n, host_info, options);
      for (std::size_t s = 0; s < nsys; ++s)
        REQUIRE(host_info[s] == (s % 3 == 1 && !pin ? int(n) : 0));
      for (bool rows : {true, false}) {  // row tiles and per-system threads
        auto d = store<bl::row, double, mem>(rhs, nsys, n, strides::plain);
        auto dc = store<bl::column, double, mem>(rhs, nsys, n, strides::plain);
        auto info = bstest::make_info<mem>(nsys);
        if (rows) bandsolve::solve(exec, shared_offdiag{}, m, d.view, info, options, device_tag{});
        else bandsolve::solve(exec, shared_offdiag{}, m, dc.view, info, options, device_tag{});
        exec.fence();
        CHECK(bstest::info_to_host(info) == host_info);
        const auto x = rows ? fetch(d, nsys, n) : fetch(dc, nsys, n);
        if (pin) {
          for (std::size_t s = 1; s < nsys; s += 3) CHECK(x[s * n + n - 1] == 0.25);
          // Pinned and untouched systems alike: the host path's result to a few ulps.
          CHECK(max_rel_diff(x, y, nsys, n) <= 4 * eps_of<double>());
        } else {
          std::vector<double> xr, yr;  // the regular systems
          for (std::size_t s = 0; s < nsys; ++s)
            if (s % 3 != 1)
              for (std::size_t i = 0; i < n; ++i) xr.push_back(x[s * n + i]), yr.push_back(y[s * n + i]);
          CHECK(max_rel_diff(xr, yr, xr.size() / n, n) <= 4 * eps_of<double>());
        }
      }
    }
  }

  using Catch::Matchers::StartsWith;
  auto d = store<bl::row, double, mem>(std::vector<double>(3 * 8, 1.0), 3, 8, strides::plain);
  const auto m = so_matrix<double>();
  CHECK_THROWS_WITH(
      bandsolve::solve(exec, shared_offdiag{}, m, d.view, bstest::make_info<mem>(2), device_tag{}),
      "bandsolve::solve(shared_offdiag): info.extent(0) = 2 but d holds 3 systems");
  const Kokkos::View<int*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> aliased(
      reinterpret_cast<int*>(d.view.data()), 3);
  CHECK_THROWS_WITH(bandsolve::solve(exec, shared_offdiag{}, m, d.view, aliased,
                                     bandsolve::shared_offdiag_options{}, device_tag{}),
                    StartsWith("bandsolve::solve(shared_offdiag)"));

  // Without a backend: the execution space's own (the device one on a GPU).
  const std::size_t nsys = 33, n2 = 65;
  const auto rhs = random_rhs<double>(nsys, n2, 9);
  auto d1 = store<bl::strided, double, mem>(rhs, nsys, n2, strides::padded_rows);
  auto d2 = store<bl::strided, double, mem>(rhs, nsys, n2, strides::padded_rows);
  auto info = bstest::make_info<mem>(nsys);
  bandsolve::solve(exec, shared_offdiag{}, m, d1.view, info);
  bandsolve::solve(exec, shared_offdiag{}, m, d2.view, info, device_tag{});
  CHECK(max_rel_diff(fetch(d1, nsys, n2), fetch(d2, nsys, n2), nsys, n2) <= 4 * eps_of<double>());
}

// ---------------------------------------------------------------------------------------------
// Toeplitz divide and conquer: device plans against the host plan (the same block length),
// LAPACK ?gtsv and the known solution; a plan solved twice; the Thomas path; argument checks.

using bandsolve::algo::toeplitz_dc;

namespace {

// Solves f through plan on exec (a View in exec's memory space), times times in a row with the
// right-hand sides fs.
template <class Plan, class Exec, class T>
std::vector<std::vector<T>> dc_apply(const Exec& exec, const Plan& plan,
                                     const std::vector<std::vector<T>>& fs) {
  std::vector<std::vector<T>> out;
  for (const auto& f : fs) {
    Kokkos::View<T*, typename Exec::memory_space> x("x", f.size());
    auto h = Kokkos::create_mirror_view(x);
    for (std::size_t i = 0; i < f.size(); ++i) h(i) = f[i];
    Kokkos::deep_copy(x, h);
    plan.solve(exec, x);
    exec.fence();
    Kokkos::deep_copy(h, x);
    out.emplace_back(h.data(), h.data() + f.size());
  }
  return out;
}

template <class T, class Exec>
void check_dc(const Exec& exec, double t1d, double t2d, double t3d, std::size_t n,
              std::size_t block_rows, bool thomas = false) {
  const T t1 = T(t1d), t2 = T(t2d), t3 = T(t3d);
  const auto p = bstest::make_toeplitz_problem<T>(t1, t2, t3, n, static_cast<std::uint32_t>(n));
  const auto q = bstest::make_toeplitz_problem<T>(t1, t2, t3, n, static_cast<std::uint32_t>(n + 1));
  const auto plan = bandsolve::factorize(exec, toeplitz_dc{}, t1, t2, t3, n, block_rows, device_tag{});
  static_assert(std::is_same_v<typename decltype(plan)::backend_type, device_tag>);
  const auto host_plan = bandsolve::factorize(host_exec(), toeplitz_dc{}, t1, t2, t3, n,
                                              block_rows == 0 ? plan.block_rows() : block_rows);
  INFO(Exec::name() << " T = (" << t1d << ", " << t2d << ", " << t3d << "), n = " << n
                    << ", block_rows " << block_rows << " -> " << plan.block_rows() << ", "
                    << plan.blocks() << " blocks, sizeof(T) = " << sizeof(T));
  CHECK(plan.uses_thomas() == thomas);
  CHECK(host_plan.uses_thomas() == thomas);
  CHECK(plan.info() == 0);
  if (!thomas && n > 0) CHECK(plan.block_rows() == host_plan.block_rows());
  // A plan solved twice: the second right-hand side sees no state of the first.
  const auto x = dc_apply(exec, plan, std::vector<std::vector<T>>{p.f, q.f});
  const auto y = dc_apply(host_exec(), host_plan, std::vector<std::vector<T>>{p.f, q.f});
  // The same blocks and recurrences: the host plan's result to a few ulps (contractions).
  CHECK(bstest::max_rel_error(x[0], y[0]) <= 16 * eps_of<T>());
  CHECK(bstest::max_rel_error(x[1], y[1]) <= 16 * eps_of<T>());
  const double thomas_err = bstest::max_rel_error(bstest::sequential_thomas(t1, t2, t3, p.f), p.x);
  const auto lapack = bstest::lapack_toeplitz(t1, t2, t3, p.f);
  const double lapack_err = bstest::max_rel_error(lapack, p.x);
  const double tol = 10 * std::max({thomas_err, lapack_err, eps_of<T>()});
  CHECK(bstest::max_rel_error(x[0], p.x) <= tol);
  CHECK(bstest::max_rel_error(x[0], lapack) <= tol + lapack_err);
  CHECK(bstest::max_rel_error(x[1], q.x) <= tol);
}

template <class T>
void check_dc_sizes() {
  const Kokkos::DefaultExecutionSpace exec;
  const double sets[][3] = {{-1.0, 4.0, -1.0}, {0.3, 1.0, -0.6}, {-0.45, 1.0, -0.5}};
  for (const auto& t : sets) {
    for (std::size_t n : {1, 2, 3, 17, 4800, 5003}) check_dc<T>(exec, t[0], t[1], t[2], n, 0);
    // Blocks not a multiple of the tile rows, more than a tile of them, a short last block.
    check_dc<T>(exec, t[0], t[1], t[2], 5003, 100);
    check_dc<T>(exec, t[0], t[1], t[2], 2000, 7);
  }
  // Near the edge of diagonal dominance: the carries do not decay within the system, Thomas.
  check_dc<T>(exec, -1.0, 2.0 + 1e-6, -1.0, 10000, 0, true);
}

}  // namespace

TEST_CASE("device toeplitz_dc: against the host plan, LAPACK and the known solution",
          "[device][toeplitz_dc]") {
  check_dc_sizes<double>();
  check_dc_sizes<float>();
}

TEST_CASE("device toeplitz_dc: the one-shot solve, argument checks and the default backend",
          "[device][toeplitz_dc]") {
  using exec_type = Kokkos::DefaultExecutionSpace;
  using mem = exec_type::memory_space;
  const exec_type exec;
  const std::size_t n = 3001;
  const auto p = bstest::make_toeplitz_problem<double>(-1, 3, 0.5, n, 9);
  const auto plan = bandsolve::factorize(exec, toeplitz_dc{}, -1.0, 3.0, 0.5, n, device_tag{});
  const auto x = dc_apply(exec, plan, std::vector<std::vector<double>>{p.f})[0];
  Kokkos::View<double*, mem> y("y", n);
  auto h = Kokkos::create_mirror_view(y);
  for (std::size_t i = 0; i < n; ++i) h(i) = p.f[i];
  Kokkos::deep_copy(y, h);
  bandsolve::solve(exec, toeplitz_dc{}, -1.0, 3.0, 0.5, y, device_tag{});
  Kokkos::deep_copy(h, y);
  CHECK(bstest::max_rel_error(std::vector<double>(h.data(), h.data() + n), x) == 0);
  // Without a backend: the execution space's own (the device one on a GPU).
  for (std::size_t i = 0; i < n; ++i) h(i) = p.f[i];
  Kokkos::deep_copy(y, h);
  bandsolve::solve(exec, toeplitz_dc{}, -1.0, 3.0, 0.5, y);
  Kokkos::deep_copy(h, y);
  CHECK(bstest::max_rel_error(std::vector<double>(h.data(), h.data() + n), p.x) <=
        100 * eps_of<double>());

  using Catch::Matchers::ContainsSubstring;
  CHECK_THROWS_WITH(bandsolve::factorize(exec, toeplitz_dc{}, -1.0, 2.0, -1.0, 100, device_tag{}),
                    ContainsSubstring("bandsolve::factorize(toeplitz_dc): T = tridiag(-1, 2, -1) "
                                      "cannot be split into contractive bidiagonal recurrences"));
  CHECK_THROWS_AS(bandsolve::factorize(exec, toeplitz_dc{}, 1.0f, 1.0f, 1.0f, 10, device_tag{}),
                  std::invalid_argument);
  Kokkos::View<double*, mem> wrong("wrong", n - 1);
  CHECK_THROWS_WITH(plan.solve(exec, wrong),
                    "bandsolve::toeplitz_dc_plan::solve: x.extent(0) = 3000 but the plan has n = 3001");
  Kokkos::View<double**, Kokkos::LayoutRight, mem> m("m", n, 2);
  CHECK_THROWS_WITH(plan.solve(exec, Kokkos::subview(m, Kokkos::ALL, 0)),
                    ContainsSubstring("x.stride(0) = 2; the divide and conquer needs unit stride"));
  const decltype(plan) empty;
  CHECK_THROWS_WITH(empty.solve(exec, y), ContainsSubstring("this plan is empty"));
}
