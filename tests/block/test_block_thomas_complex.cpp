// Block Thomas in Kokkos::complex<float> and Kokkos::complex<double> against LAPACK ?gbsv (cgbsv,
// zgbsv) on the same systems written as band matrices: one-shot and factored, without and with
// pivoting inside the diagonal blocks (pivots chosen by |re| + |im|), every block size m = 2..8,
// row, column, interleaved and strided Views, n = 1, 2, 3 and odd n, batches that are not
// multiples of the group width, one and several right-hand sides; info codes of singular and
// non-finite blocks; complex right-hand sides of real matrices.
#include "block_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <limits>
#include <tuple>
#include <type_traits>
#include <vector>

namespace test_block_thomas_complex {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::algo::block_thomas;
using Exec = Kokkos::DefaultHostExecutionSpace;
using Mem = Exec::memory_space;
using cdouble = Kokkos::complex<double>;
using cfloat = Kokkos::complex<float>;
using device = bandsolve::backend::device;

namespace {

// Groups of 4 complex<double> or 8 complex<float> (a cache line) for row and column Views.
using layout_scalar_list =
    std::tuple<std::tuple<bl::row, cdouble>, std::tuple<bl::column, cfloat>,
               std::tuple<bl::interleaved<2>, cdouble>, std::tuple<bl::interleaved<4>, cfloat>>;

constexpr block_thomas no_pivoting{};
constexpr block_thomas partial_pivoting{block_thomas::pivoting::partial};

// One-shot solve of p in Layout (one right-hand side per system unless Multiple); info gets the
// codes, the coefficients are checked untouched.
template <class Layout, bool Multiple, class T>
std::vector<T> one_shot(const bstest::host_block_batch<T>& p, block_thomas algorithm,
                        std::vector<int>& info) {
  const auto a = bstest::block_to_device<Layout, T, Mem>("a", p.a, p.nsys, p.n, p.m);
  const auto b = bstest::block_to_device<Layout, T, Mem>("b", p.b, p.nsys, p.n, p.m);
  const auto c = bstest::block_to_device<Layout, T, Mem>("c", p.c, p.nsys, p.n, p.m);
  const auto d = bstest::rhs_to_device<Layout, T, Mem, Multiple>(p.d, p.nsys, p.n, p.m, p.nrhs);
  const auto info_v = bstest::make_info<Mem>(p.nsys);
  const auto before = bstest::raw_copy(b);
  bandsolve::solve(Exec(), algorithm, a, b, c, d, info_v);
  Exec().fence();
  CHECK(bstest::bitwise_equal(bstest::raw_copy(b), before));
  info = bstest::info_to_host(info_v);
  return bstest::rhs_to_host<Multiple>(d, p.nsys, p.n, p.m, p.nrhs);
}

// Factorization of p's matrices, then a solve of p.d; info gets the factorization's codes.
template <class Layout, bool Multiple, class T>
std::vector<T> factored(const bstest::host_block_batch<T>& p, block_thomas algorithm,
                        std::vector<int>& info) {
  const auto a = bstest::block_to_device<Layout, T, Mem>("a", p.a, p.nsys, p.n, p.m);
  const auto b = bstest::block_to_device<Layout, T, Mem>("b", p.b, p.nsys, p.n, p.m);
  const auto c = bstest::block_to_device<Layout, T, Mem>("c", p.c, p.nsys, p.n, p.m);
  const auto f = bandsolve::factorize(Exec(), algorithm, a, b, c, p.nsys);
  const auto d = bstest::rhs_to_device<Layout, T, Mem, Multiple>(p.d, p.nsys, p.n, p.m, p.nrhs);
  f.solve(Exec(), d);
  Exec().fence();
  info = bstest::info_to_host(f.info());
  return bstest::rhs_to_host<Multiple>(d, p.nsys, p.n, p.m, p.nrhs);
}

template <class Layout, bool Multiple, class T>
void check_against_lapack(const bstest::host_block_batch<T>& p, block_thomas algorithm) {
  const auto ref = bstest::gbsv_reference(p);
  std::vector<int> info, factored_info;
  const auto x = one_shot<Layout, Multiple>(p, algorithm, info);
  const auto y = factored<Layout, Multiple>(p, algorithm, factored_info);
  CHECK(info == std::vector<int>(p.nsys, 0));
  CHECK(factored_info == info);
  CHECK(bstest::block_max_rel_diff(p, x, ref) <= bstest::block_lapack_tol<T>(p.m));
  CHECK(bstest::block_max_residual(p, x) <= bstest::block_residual_tol<T>(p.m));
  // The factored solve does the one-shot's operations in the same order (contractions into fused
  // multiply-adds may differ).
  CHECK(bstest::block_max_rel_diff(p, y, x) <= bstest::block_lapack_tol<T>(p.m) / 2);
}

// Real matrices with complex right-hand sides: rank-4 Views (row and column differ only in
// their strides) and packs.
using real_layout_scalar_list =
    std::tuple<std::tuple<bl::column, double>, std::tuple<bl::interleaved<8>, float>>;

// The complex batch with p's (real) matrices and the right-hand sides of rhs.
template <class R>
bstest::host_block_batch<Kokkos::complex<R>> with_complex_rhs(
    const bstest::host_block_batch<R>& p, const bstest::host_block_batch<Kokkos::complex<R>>& rhs) {
  auto q = rhs;
  const auto widen = [](const std::vector<R>& v) {
    return std::vector<Kokkos::complex<R>>(v.begin(), v.end());
  };
  q.a = widen(p.a), q.b = widen(p.b), q.c = widen(p.c);
  return q;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("complex block_thomas matches LAPACK gbsv for every block size",
                        "[block_thomas][complex][lapack]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  struct shape {
    std::size_t n, nsys, nrhs;
  };
  // nsys: 1, and counts that are not multiples of 2, 4 or 8 (several groups: 9, 11).
  const std::vector<shape> shapes = {{1, 1, 1}, {1, 7, 1}, {2, 5, 2}, {3, 9, 1},
                                     {7, 6, 3}, {40, 11, 1}};
  for (std::size_t m = 2; m <= 8; ++m)
    for (const shape& sh : shapes)
      for (const block_thomas algorithm : {no_pivoting, partial_pivoting}) {
        const auto seed = static_cast<std::uint32_t>(1000 * m + 10 * sh.n + sh.nsys);
        const auto p = bstest::random_block_dominant<T>(sh.nsys, sh.n, m, sh.nrhs, seed);
        INFO(bstest::layout_name<Layout>() << " sizeof(T) = " << sizeof(T) << " m = " << m
                                           << " n = " << sh.n << " nsys = " << sh.nsys
                                           << " nrhs = " << sh.nrhs << " pivoting = "
                                           << (algorithm.pivot != no_pivoting.pivot));
        if (sh.nrhs == 1) check_against_lapack<Layout, false>(p, algorithm);
        else check_against_lapack<Layout, true>(p, algorithm);
      }
}

TEMPLATE_LIST_TEST_CASE("complex block_thomas with partial pivoting solves systems that need it",
                        "[block_thomas][complex][pivoting]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  const std::size_t nsys = 9, n = 6;
  for (std::size_t m = 2; m <= 8; ++m) {
    INFO(bstest::layout_name<Layout>() << " sizeof(T) = " << sizeof(T) << " m = " << m);
    // As in the real robustness test: A and C scaled by 0.05, B_0's entry (1, 0) zeroed and the
    // rows of every B_i rotated (row r takes row r + 1), so S_0 has a zero (0, 0) pivot while the
    // scalar matrix, its rows put back in order, stays diagonally dominant (cond at most 5 times
    // that of the unrotated systems, hence 5 times the tolerances). The interchanges chosen by
    // |re| + |im| match ?gbtrf's (izamax measures the same way) wherever the order is strict.
    auto p = bstest::random_block_dominant<T>(nsys, n, m, 1, static_cast<std::uint32_t>(31 * m));
    for (auto& v : p.a) v *= T(0.05);
    for (auto& v : p.c) v *= T(0.05);
    for (std::size_t s = 0; s < nsys; ++s) {
      p.b[p.blk(s, 0, 1, 0)] = T(0);
      for (std::size_t i = 0; i < n; ++i) {
        const std::vector<T> block(p.b.begin() + p.blk(s, i, 0, 0),
                                   p.b.begin() + p.blk(s, i, 0, 0) + m * m);
        for (std::size_t r = 0; r < m; ++r)
          for (std::size_t c = 0; c < m; ++c)
            p.b[p.blk(s, i, r, c)] = block[((r + 1) % m) * m + c];
      }
    }
    const auto ref = bstest::gbsv_reference(p);
    std::vector<int> info, factored_info;
    const auto x = one_shot<Layout, false>(p, partial_pivoting, info);
    const auto y = factored<Layout, false>(p, partial_pivoting, factored_info);
    CHECK(info == std::vector<int>(nsys, 0));
    CHECK(factored_info == info);
    CHECK(bstest::block_max_rel_diff(p, x, ref) <= 5 * bstest::block_lapack_tol<T>(m));
    CHECK(bstest::block_max_residual(p, x) <= 5 * bstest::block_residual_tol<T>(m));
    CHECK(bstest::block_max_rel_diff(p, y, x) <= 5 * bstest::block_lapack_tol<T>(m) / 2);
    // Without pivoting the first diagonal block is rejected.
    one_shot<Layout, false>(p, no_pivoting, info);
    factored<Layout, false>(p, no_pivoting, factored_info);
    CHECK(info == std::vector<int>(nsys, 1));
    CHECK(factored_info == info);
  }
}

TEMPLATE_LIST_TEST_CASE("complex block_thomas info names the block row of a bad block",
                        "[block_thomas][complex][info]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  using R = bandsolve::real_type_t<T>;
  const std::size_t nsys = 7, n = 5, m = 3;
  auto p = bstest::random_block_dominant<T>(nsys, n, m, 1, 2024);
  const auto set_block = [&](std::vector<T>& v, std::size_t s, std::size_t i, T value) {
    for (std::size_t k = 0; k < m * m; ++k) v[p.blk(s, i, 0, 0) + k] = value;
  };
  // System 2: block row 3 all zero (A_2 = B_2 = 0, so S_2 = 0).
  set_block(p.a, 2, 2, T(0));
  set_block(p.b, 2, 2, T(0));
  // System 4: a zero column in B_0 (elimination keeps it exactly zero, with or without pivoting).
  for (std::size_t r = 0; r < m; ++r) p.b[p.blk(4, 0, r, 1)] = T(0);
  // System 5: NaN in the imaginary part of an entry of B_3.
  p.b[p.blk(5, 3, 1, 1)] = T(1, std::numeric_limits<R>::quiet_NaN());
  // System 0: a pivot of modulus denorm_min in the last block row (its reciprocal overflows).
  set_block(p.a, 0, 4, T(0));
  set_block(p.b, 0, 4, T(0));
  for (std::size_t r = 0; r < m; ++r) p.b[p.blk(0, 4, r, r)] = T(0, 1);
  p.b[p.blk(0, 4, 1, 1)] = T(0, std::numeric_limits<R>::denorm_min());
  const std::vector<int> expected = {5, 0, 3, 0, 1, 4, 0};
  std::vector<bool> failed(nsys);
  for (std::size_t s = 0; s < nsys; ++s) failed[s] = expected[s] != 0;
  const auto ref = bstest::gbsv_reference(p);
  for (const block_thomas algorithm : {no_pivoting, partial_pivoting}) {
    INFO("pivoting = " << (algorithm.pivot != no_pivoting.pivot));
    std::vector<int> info, factored_info;
    const auto x = one_shot<Layout, false>(p, algorithm, info);
    const auto y = factored<Layout, false>(p, algorithm, factored_info);
    CHECK(info == expected);
    CHECK(factored_info == expected);
    // The other systems of the same groups are solved.
    CHECK(bstest::block_max_rel_diff(p, x, ref, failed) <= bstest::block_lapack_tol<T>(m));
    CHECK(bstest::block_max_rel_diff(p, y, ref, failed) <= bstest::block_lapack_tol<T>(m));
  }
}

TEST_CASE("complex block_thomas reads strided rank-4 Views", "[block_thomas][complex][strided]") {
  using T = cdouble;
  const std::size_t nsys = 13, n = 9, m = 4;
  const auto p = bstest::random_block_dominant<T>(nsys, n, m, 1, 99);
  const auto ref = bstest::gbsv_reference(p);
  // Every other system of LayoutRight arrays: strided subviews.
  Kokkos::View<T****, Kokkos::LayoutRight, Mem> a2("a2", 2 * nsys, n, m, m),
      b2("b2", 2 * nsys, n, m, m), c2("c2", 2 * nsys, n, m, m);
  Kokkos::View<T***, Kokkos::LayoutRight, Mem> d2("d2", 2 * nsys, n, m);
  const Kokkos::LayoutStride blocks(nsys, 2 * n * m * m, n, m * m, m, m, m, 1);
  Kokkos::View<T****, Kokkos::LayoutStride, Mem> as(a2.data(), blocks), bs(b2.data(), blocks),
      cs(c2.data(), blocks);
  const Kokkos::LayoutStride rows(nsys, 2 * n * m, n, m, m, 1);
  Kokkos::View<T***, Kokkos::LayoutStride, Mem> ds(d2.data(), rows);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r) {
        for (std::size_t col = 0; col < m; ++col) {
          const std::size_t k = p.blk(s, i, r, col);
          as(s, i, r, col) = p.a[k];
          bs(s, i, r, col) = p.b[k];
          cs(s, i, r, col) = p.c[k];
        }
        ds(s, i, r) = p.d[p.vec(s, i, r, 0)];
        d2(2 * s + 1, i, r) = T(42, -42);  // between two strided systems
      }
  const auto info = bstest::make_info<Mem>(nsys);
  bandsolve::solve(Exec(), partial_pivoting, as, bs, cs, ds, info);
  Exec().fence();
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
  CHECK(bstest::block_max_rel_diff(p, bstest::rhs_to_host<false>(ds, nsys, n, m, 1), ref) <=
        bstest::block_lapack_tol<T>(m));
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r) CHECK(d2(2 * s + 1, i, r) == T(42, -42));
}

// On the host backend and on the device backend (its kernels run on the host space here).
TEMPLATE_LIST_TEST_CASE("block_thomas solves complex right-hand sides of real matrices",
                        "[block_thomas][complex][mixed]", real_layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using R = std::tuple_element_t<1, TestType>;
  using T = Kokkos::complex<R>;
  struct shape {
    std::size_t n, nsys, nrhs;
  };
  const std::vector<shape> shapes = {{1, 5, 1}, {3, 9, 2}, {17, 11, 1}};
  for (std::size_t m = 2; m <= 8; ++m)
    for (const shape& sh : shapes)
      for (const block_thomas algorithm : {no_pivoting, partial_pivoting}) {
        const auto seed = static_cast<std::uint32_t>(500 * m + sh.n);
        const auto p = bstest::random_block_dominant<R>(sh.nsys, sh.n, m, sh.nrhs, seed);
        const auto q = with_complex_rhs(
            p, bstest::random_block_dominant<T>(sh.nsys, sh.n, m, sh.nrhs, seed + 1));
        INFO(bstest::layout_name<Layout>() << " sizeof(R) = " << sizeof(R) << " m = " << m
                                           << " n = " << sh.n << " nsys = " << sh.nsys
                                           << " nrhs = " << sh.nrhs << " pivoting = "
                                           << (algorithm.pivot != no_pivoting.pivot));
        const auto a = bstest::block_to_device<Layout, R, Mem>("a", p.a, p.nsys, p.n, m);
        const auto b = bstest::block_to_device<Layout, R, Mem>("b", p.b, p.nsys, p.n, m);
        const auto c = bstest::block_to_device<Layout, R, Mem>("c", p.c, p.nsys, p.n, m);
        const auto ref = bstest::gbsv_reference(q);
        const auto check = [&](auto backend_tag) {
          const bool on_device = std::is_same_v<decltype(backend_tag), device>;
          INFO("device backend: " << on_device);
          const auto info = bstest::make_info<Mem>(p.nsys);
          const auto f = bandsolve::factorize(Exec(), algorithm, a, b, c, p.nsys, backend_tag);
          std::vector<T> x, y;
          const auto run = [&](auto multiple) {
            constexpr bool Multiple = decltype(multiple)::value;
            const auto d =
                bstest::rhs_to_device<Layout, T, Mem, Multiple>(q.d, q.nsys, q.n, m, q.nrhs);
            const auto d2 =
                bstest::rhs_to_device<Layout, T, Mem, Multiple>(q.d, q.nsys, q.n, m, q.nrhs);
            bandsolve::solve(Exec(), algorithm, a, b, c, d, info, backend_tag);
            f.solve(Exec(), d2);
            Exec().fence();
            x = bstest::rhs_to_host<Multiple>(d, q.nsys, q.n, m, q.nrhs);
            y = bstest::rhs_to_host<Multiple>(d2, q.nsys, q.n, m, q.nrhs);
          };
          if (sh.nrhs == 1) run(std::false_type{});
          else run(std::true_type{});
          CHECK(bstest::info_to_host(info) == std::vector<int>(p.nsys, 0));
          CHECK(bstest::info_to_host(f.info()) == std::vector<int>(p.nsys, 0));
          CHECK(bstest::block_max_rel_diff(q, x, ref) <= bstest::block_lapack_tol<T>(m));
          CHECK(bstest::block_max_residual(q, x) <= bstest::block_residual_tol<T>(m));
          CHECK(bstest::block_max_rel_diff(q, y, x) <= bstest::block_lapack_tol<T>(m) / 2);
        };
        check(bandsolve::backend::default_for_t<Exec>{});
        check(device{});
      }
}

}  // namespace test_block_thomas_complex
