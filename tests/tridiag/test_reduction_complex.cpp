// PCR, cyclic reduction, the Thomas-PCR hybrid and algo::automatic on Kokkos::complex<float> and
// Kokkos::complex<double> against LAPACK cgtsv/zgtsv: every layout and strided subviews, every
// work shape of the hybrid (a pack of whole systems, a team per system, one system per work
// item, the partition path), its factorization, the device kernels run on the host space, info
// codes of complex pivots, and automatic with real coefficients and complex right-hand sides
// (one-shot and factored).
#include "complex_support.hpp"
#include "pcr_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace test_reduction_complex {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
namespace algo = bandsolve::algo;
namespace det = bandsolve::detail;
using bstest::cplx;
using bstest::host_batch;
using bstest::lapack_solve;
using bstest::max_rel_diff1;
using bstest::random_dominant_any;

namespace {

// The reductions' bound (reduction_tol: 1 + log2 n steps, each within lapack_tol) with the
// complex tests' constant in place of lapack_tol's.
template <class T>
double complex_reduction_tol(std::size_t n) {
  using R = bandsolve::real_type_t<T>;
  return bstest::complex_tol<T>() * bstest::reduction_tol<R>(n) / bstest::lapack_tol<R>();
}

template <class Layout, class Exec, class T, class D = T>
struct uploaded {
  using Mem = typename Exec::memory_space;
  decltype(bstest::to_device<Layout, T, Mem>("", {}, 0, 0)) a, b, c;
  decltype(bstest::to_device<Layout, D, Mem>("", {}, 0, 0)) d;
  uploaded(const host_batch<T>& p, const std::vector<D>& rhs)
      : a(bstest::to_device<Layout, T, Mem>("a", p.a, p.nsys, p.n)),
        b(bstest::to_device<Layout, T, Mem>("b", p.b, p.nsys, p.n)),
        c(bstest::to_device<Layout, T, Mem>("c", p.c, p.nsys, p.n)),
        d(bstest::to_device<Layout, D, Mem>("d", rhs, p.nsys, p.n)) {}
};

// Solves p with Algo (and Backend, if given) in Layout; returns x and the info codes.
template <class Layout, class Algo, class Exec, class T, class... Backend>
std::pair<std::vector<T>, std::vector<int>> solve_with(const Exec& exec, const host_batch<T>& p,
                                                       Backend... backend) {
  uploaded<Layout, Exec, T> v(p, p.d);
  auto info = bstest::make_info<typename Exec::memory_space>(p.nsys);
  bandsolve::solve(exec, Algo{}, v.a, v.b, v.c, v.d, info, backend...);
  exec.fence();
  return {bstest::to_host(v.d, p.nsys), bstest::info_to_host(info)};
}

// Row, column and one interleaved width (the kernels see interleaved<W> only through the lane
// stride; interleaved<8> is in the partition path's test).
using layout_list = std::tuple<bl::row, bl::column, bl::interleaved<4>>;

}  // namespace

// nsys = 1 and 3 run a team per system, 37 packs of whole systems (4 complex doubles or 8
// complex floats per pack, the last one partial); n = 300 and 1025 are the hybrid's chunked
// systems (128-row chunks), on the partition path in column and interleaved layouts.
TEMPLATE_LIST_TEST_CASE("complex pcr, cr, thomas_pcr and automatic match LAPACK ?gtsv",
                        "[pcr][complex][lapack]", layout_list) {
  using Layout = TestType;
  bstest::for_each_exec([&](auto exec) {
    std::uint32_t seed = 300;
    auto check = [&](auto method, auto scalar, std::size_t nsys, std::size_t n) {
      using Algo = decltype(method);
      using T = decltype(scalar);
      INFO(Algo::name << ", " << bstest::layout_name<Layout>() << ", " << sizeof(T)
                      << "-byte complex, n = " << n << ", nsys = " << nsys);
      const auto p = random_dominant_any<T>(nsys, n, seed++);
      const auto [x, info] = solve_with<Layout, Algo>(exec, p);
      CHECK(info == std::vector<int>(nsys, 0));
      CHECK(max_rel_diff1(x, lapack_solve(p, p.d), nsys, n) <= complex_reduction_tol<T>(n));
    };
    bstest::for_each_reduction_algo([&](auto method) {
      for (std::size_t n : {1, 2, 3, 5, 8, 13, 64, 129, 300, 1025})
        for (std::size_t nsys : {1, 3, 37}) {
          if (n * nsys > 12000) continue;
          check(method, cplx<double>(), nsys, n);
          // complex<float>: packs of 8 lanes; the kernels are the same templates in every
          // layout, so one layout (row: gathered) holds them.
          if constexpr (std::is_same_v<Layout, bl::row>) check(method, cplx<float>(), nsys, n);
        }
    });
  });
}

// Full batches of long systems with contiguous rows: one system per work item (its chunks as
// SIMD lanes); strided subviews of a padded array: only the view is written.
TEST_CASE("complex thomas_pcr: one system per work item, strided subviews",
          "[thomas_pcr][complex]") {
  using T = cplx<double>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    const std::size_t n = 1100, nsys = static_cast<std::size_t>(exec.concurrency()) * 4 + 1;
    REQUIRE(det::one_system_per_item<T>(static_cast<bandsolve::index_t>(n)));
    const auto p = random_dominant_any<T>(nsys, n, 41);
    const auto [x, info] = solve_with<bl::row, algo::thomas_pcr>(exec, p);
    CHECK(info == std::vector<int>(nsys, 0));
    CHECK(max_rel_diff1(x, lapack_solve(p, p.d), nsys, n) <= complex_reduction_tol<T>(n));
    // Strided: PCR and the hybrid (CR reads rows as PCR does; automatic hands them to these or
    // to Thomas, whose complex strided solve test_thomas_complex checks).
    auto strided = [&](auto method) {
      using Algo = decltype(method);
      for (const auto& [m, ms] : {std::pair<std::size_t, std::size_t>{29, 13}, {700, 2}}) {
        INFO(Algo::name << ", strided, n = " << m << ", nsys = " << ms);
        const auto q = random_dominant_any<T>(ms, m, 42);
        bstest::padded_rows<T, Mem> v(q);
        auto qinfo = bstest::make_info<Mem>(ms);
        bandsolve::solve(exec, method, v.a, v.b, v.c, v.d, qinfo);
        exec.fence();
        CHECK(bstest::info_to_host(qinfo) == std::vector<int>(ms, 0));
        CHECK(max_rel_diff1(bstest::to_host(v.d, ms), lapack_solve(q, q.d), ms, m) <=
              complex_reduction_tol<T>(m));
        CHECK(v.written_outside() == 0);
      }
    };
    strided(algo::pcr{});
    strided(algo::thomas_pcr{});
  });
}

// Row-layout systems long enough for full groups of chunks (4 complex doubles, 8 complex floats
// of 128 rows), which CPU builds sweep in registers as their real and imaginary parts: results,
// a zero pivot and a NaN named as Thomas names them, and systems scaled far up and down (whose
// pivots' |p|^2 leave the range, so that the generic sweeps redo their groups).
TEMPLATE_TEST_CASE("complex thomas_pcr: full groups of chunks, pivots and scaled systems",
                   "[thomas_pcr][complex]", cplx<double>, cplx<float>) {
  using T = TestType;
  using R = bandsolve::real_type_t<T>;
  const std::size_t n = std::is_same_v<R, double> ? 1100 : 2100, nsys = 3;
  const R up = std::is_same_v<R, double> ? R(1e200) : R(1e30);
  bstest::for_each_exec([&](auto exec) {
    const auto p = random_dominant_any<T>(nsys, n, 77);
    const auto expected = lapack_solve(p, p.d);
    const double tol = complex_reduction_tol<T>(n);
    const auto [x, info] = solve_with<bl::row, algo::thomas_pcr>(exec, p);
    CHECK(info == std::vector<int>(nsys, 0));
    CHECK(max_rel_diff1(x, expected, nsys, n) <= tol);
    for (const R factor : {up, R(1) / up}) {
      INFO("coefficients and right-hand sides scaled by " << factor);
      auto q = p;
      for (auto* v : {&q.a, &q.b, &q.c, &q.d})
        for (auto& e : *v) e *= factor;
      const auto [y, yinfo] = solve_with<bl::row, algo::thomas_pcr>(exec, q);
      CHECK(yinfo == std::vector<int>(nsys, 0));
      CHECK(max_rel_diff1(y, expected, nsys, n) <= tol);
    }
    // System 0: row 383 all zero (the last row of a chunk in the first group, where nothing
    // after it in the sweep meets the infinite reciprocal). System 2: NaN in b of row 517.
    auto bad = p;
    bad.a[bad.idx(0, 383)] = bad.b[bad.idx(0, 383)] = bad.c[bad.idx(0, 383)] = T(0);
    bad.b[bad.idx(2, 517)] = T(1, std::numeric_limits<R>::quiet_NaN());
    const auto [z, zinfo] = solve_with<bl::row, algo::thomas_pcr>(exec, bad);
    CHECK(zinfo == std::vector<int>{384, 0, 518});
    const std::vector<T> z1(z.begin() + static_cast<std::ptrdiff_t>(n),
                            z.begin() + 2 * static_cast<std::ptrdiff_t>(n));
    const std::vector<T> x1(expected.begin() + static_cast<std::ptrdiff_t>(n),
                            expected.begin() + 2 * static_cast<std::ptrdiff_t>(n));
    CHECK(max_rel_diff1(z1, x1, 1, n) <= tol);
  });
}

// The partition path with 5-row chunks (many chunks on small systems) and the factorization of
// the partition method, solved for two right-hand sides.
TEMPLATE_TEST_CASE("complex thomas_pcr: the partition path and its factorization",
                   "[thomas_pcr][complex][factorize]", bl::column, bl::interleaved<8>) {
  using Layout = TestType;
  using T = cplx<double>;
  const bandsolve::index_t saved = det::partition_chunk_rows;
  det::partition_chunk_rows = 5;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    std::uint32_t seed = 900;
    for (std::size_t n : {9, 23, 60})
      for (std::size_t nsys : {1, 5, 19}) {
        INFO(bstest::layout_name<Layout>() << ", n = " << n << ", nsys = " << nsys);
        const auto p = random_dominant_any<T>(nsys, n, seed++);
        const double tol = complex_reduction_tol<T>(n);
        const auto [x, info] = solve_with<Layout, algo::thomas_pcr>(exec, p);
        CHECK(info == std::vector<int>(nsys, 0));
        CHECK(max_rel_diff1(x, lapack_solve(p, p.d), nsys, n) <= tol);
        uploaded<Layout, Exec, T> v(p, p.d);
        const auto f = bandsolve::factorize(exec, algo::thomas_pcr{}, v.a, v.b, v.c, nsys);
        f.solve(exec, v.d);
        exec.fence();
        CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
        CHECK(max_rel_diff1(bstest::to_host(v.d, nsys), lapack_solve(p, p.d), nsys, n) <= tol);
        const auto rhs = bstest::random_complex_rhs<T>(nsys * n, seed++);
        bstest::fill(v.d, rhs, nsys);
        f.solve(exec, v.d);
        exec.fence();
        CHECK(max_rel_diff1(bstest::to_host(v.d, nsys), lapack_solve(p, rhs), nsys, n) <= tol);
        const auto g = bandsolve::factorize(exec, algo::automatic{}, v.a, v.b, v.c, nsys);
        bstest::fill(v.d, rhs, nsys);
        g.solve(exec, v.d);
        exec.fence();
        CHECK(max_rel_diff1(bstest::to_host(v.d, nsys), lapack_solve(p, rhs), nsys, n) <= tol);
      }
  });
  det::partition_chunk_rows = saved;
}

// The partition path's passes on the values' parts (tridiag/partition_lanes_complex.hpp and
// partition_factor_complex.hpp), one-shot and factored, at its own 128-row chunks: lane blocks of 2, 4, 8 (and 16 floats) systems, a column batch's partial
// last block (generic passes), interleaved packs with fewer systems than lanes (their padding
// lanes' d must keep its values), systems scaled by 1e+-200 (1e+-30 for float), whose pivots the
// parts' unscaled reciprocal cannot take (the generic passes redo them), and a zero pivot.
TEMPLATE_TEST_CASE("complex thomas_pcr: the partition path on real and imaginary parts",
                   "[thomas_pcr][complex]", cplx<double>, cplx<float>) {
  using T = TestType;
  using R = bandsolve::real_type_t<T>;
  const R up = std::is_same_v<R, double> ? R(1e200) : R(1e30);
  const std::size_t n = 300;
  const double tol = complex_reduction_tol<T>(n);
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    std::uint32_t seed = 400;
    const auto check = [&](auto layout, std::size_t nsys) {
      using Layout = decltype(layout);
      INFO(bstest::layout_name<Layout>() << ", nsys = " << nsys);
      const auto p = random_dominant_any<T>(nsys, n, seed++);
      const auto expected = lapack_solve(p, p.d);
      for (const R factor : {R(1), up, R(1) / up}) {
        INFO("scaled by " << factor);
        auto q = p;
        for (auto* v : {&q.a, &q.b, &q.c, &q.d})
          for (auto& e : *v) e *= factor;
        uploaded<Layout, Exec, T> v(q, q.d);
        // Interleaved packs' lanes past the last system: a sentinel the solve must leave alone.
        const T sentinel(-777, 555);
        auto hd = Kokkos::create_mirror_view(v.d);
        const auto for_padding = [&](auto&& f) {
          if constexpr (!std::is_same_v<Layout, bl::column>)
            for (std::size_t s = nsys; s < hd.extent(0) * hd.extent(2); ++s)
              for (std::size_t i = 0; i < n; ++i) f(hd(s / hd.extent(2), i, s % hd.extent(2)));
        };
        // One-shot, then factored (the factored passes on parts: partition_factor_complex.hpp).
        const auto run = [&](const char* kind, auto&& solve) {
          INFO(kind);
          bstest::fill(v.d, q.d, nsys);
          Kokkos::deep_copy(hd, v.d);
          for_padding([&](T& e) { e = sentinel; });
          Kokkos::deep_copy(v.d, hd);
          const std::vector<int> info = solve();
          CHECK(info == std::vector<int>(nsys, 0));
          CHECK(max_rel_diff1(bstest::to_host(v.d, nsys), expected, nsys, n) <= tol);
          Kokkos::deep_copy(hd, v.d);
          std::size_t changed = 0;
          for_padding([&](const T& e) { changed += e != sentinel ? 1 : 0; });
          CHECK(changed == 0);
        };
        run("one-shot", [&] {
          auto info = bstest::make_info<typename Exec::memory_space>(nsys);
          bandsolve::solve(exec, algo::thomas_pcr{}, v.a, v.b, v.c, v.d, info);
          exec.fence();
          return bstest::info_to_host(info);
        });
        const auto f = bandsolve::factorize(exec, algo::thomas_pcr{}, v.a, v.b, v.c, nsys);
        run("factored", [&] {
          f.solve(exec, v.d);
          exec.fence();
          return bstest::info_to_host(f.info());
        });
      }
      auto bad = p;  // row 200 of system 1 all zero
      bad.a[bad.idx(1, 200)] = bad.b[bad.idx(1, 200)] = bad.c[bad.idx(1, 200)] = T(0);
      const auto [x, info] = solve_with<Layout, algo::thomas_pcr>(exec, bad);
      std::vector<int> want(nsys, 0);
      want[1] = 201;
      CHECK(info == want);
      const std::vector<T> x0(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n));
      const std::vector<T> e0(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(n));
      CHECK(max_rel_diff1(x0, e0, 1, n) <= tol);
    };
    for (std::size_t nsys : {2, 4, 8, 11, 16}) check(bl::column{}, nsys);
    for (std::size_t nsys : {3, 8, 13}) check(bl::interleaved<8>{}, nsys);
  });
}

TEST_CASE("complex pcr, cr and thomas_pcr on the device kernels", "[pcr][complex][device]") {
  bstest::for_each_exec([&](auto exec) {
    std::uint32_t seed = 1200;
    auto check = [&](auto method, auto scalar, std::size_t nsys, std::size_t n) {
      using Algo = decltype(method);
      using T = decltype(scalar);
      INFO(Algo::name << ", " << sizeof(T) << "-byte complex, n = " << n << ", nsys = " << nsys);
      const auto p = random_dominant_any<T>(nsys, n, seed++);
      const auto [x, info] =
          solve_with<bl::column, Algo>(exec, p, bandsolve::backend::device{});
      CHECK(info == std::vector<int>(nsys, 0));
      CHECK(max_rel_diff1(x, lapack_solve(p, p.d), nsys, n) <= complex_reduction_tol<T>(n));
    };
    for (std::size_t n : {1, 2, 7, 100, 5000})
      for (std::size_t nsys : {1, 6}) {
        check(algo::pcr{}, cplx<double>(), nsys, n);
        check(algo::cr{}, cplx<float>(), nsys, n);
        check(algo::thomas_pcr{}, cplx<double>(), nsys, n);
      }
  });
}

// Zero and non-finite complex pivots: every algorithm names the row Thomas names; the other
// systems are solved.
TEST_CASE("complex pivots give Thomas's info codes in pcr, cr, thomas_pcr and automatic",
          "[pcr][complex][info]") {
  using T = cplx<double>;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  bstest::for_each_exec([&](auto exec) {
    for (std::size_t n : {12, 600}) {
      auto p = random_dominant_any<T>(9, n, 5);
      // System 2: b_0 = 0. System 4: row 6 all zero. System 7: NaN in an imaginary part.
      p.b[p.idx(2, 0)] = T(0, 0);
      p.a[p.idx(4, 5)] = T(0, 0);
      p.b[p.idx(4, 5)] = T(0, 0);
      p.c[p.idx(4, 5)] = T(0, 0);
      p.b[p.idx(7, 8)] = T(1, nan);
      const std::vector<int> expected = {0, 0, 1, 0, 6, 0, 0, 9, 0};
      bstest::for_each_reduction_algo([&](auto method) {
        using Algo = decltype(method);
        INFO(Algo::name << ", n = " << n);
        const auto [x, info] = solve_with<bl::interleaved<4>, Algo>(exec, p);
        CHECK(info == expected);
        host_batch<T> q(1, n);
        for (std::size_t i = 0; i < n; ++i) {
          q.a[i] = p.a[p.idx(3, i)];
          q.b[i] = p.b[p.idx(3, i)];
          q.c[i] = p.c[p.idx(3, i)];
          q.d[i] = p.d[p.idx(3, i)];
        }
        const std::vector<T> x3(x.begin() + 3 * n, x.begin() + 4 * n);
        CHECK(max_rel_diff1(x3, lapack_solve(q, q.d), 1, n) <= complex_reduction_tol<T>(n));
      });
    }
  });
}

// Real coefficients with complex right-hand sides (the Fourier modes of a real operator):
// automatic hands them to Thomas, or to symmetric when told the matrices are symmetric.
TEMPLATE_TEST_CASE("automatic with real coefficients and complex right-hand sides",
                   "[automatic][complex]", bl::row, bl::column) {
  using Layout = TestType;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    std::uint32_t seed = 1500;
    auto check = [&](auto scalar, std::size_t nsys, std::size_t n, bool symmetric) {
      using R = decltype(scalar);
      using D = cplx<R>;
      INFO(bstest::layout_name<Layout>() << ", " << sizeof(R) << "-byte real, n = " << n
                                         << ", nsys = " << nsys << ", symmetric " << symmetric);
      auto p = random_dominant_any<R>(nsys, n, seed++);
      if (symmetric)  // a_i = c_{i-1} (|.| < 1) and b_i = |b_i|: dominant, positive definite
        for (std::size_t s = 0; s < nsys; ++s)
          for (std::size_t i = 0; i < n; ++i) {
            if (i > 0) p.a[p.idx(s, i)] = p.c[p.idx(s, i - 1)];
            p.b[p.idx(s, i)] = std::abs(p.b[p.idx(s, i)]);
          }
      const auto rhs = bstest::random_complex_rhs<D>(nsys * n, seed++);
      uploaded<Layout, Exec, R, D> v(p, rhs);
      auto info = bstest::make_info<typename Exec::memory_space>(nsys);
      bandsolve::solve(exec, algo::automatic{symmetric}, v.a, v.b, v.c, v.d, info);
      exec.fence();
      CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
      CHECK(max_rel_diff1(bstest::to_host(v.d, nsys), lapack_solve(p, rhs), nsys, n) <=
            bstest::complex_tol<D>());
    };
    for (std::size_t n : {1, 3, 40, 2000})
      for (std::size_t nsys : {1, 37}) {
        check(double(), nsys, n, false);
        check(float(), nsys, n, false);
        check(double(), nsys, n, true);
      }
  });
}

// factorize(automatic) of real matrices, then f.solve with complex right-hand sides: Thomas's
// factors for full packs and short batches, the partition method's for few long systems (whose
// solve takes the real and imaginary parts of d in turn), in row and column layouts; the
// partition method's factorization itself (factorize(thomas_pcr), what automatic holds there) in
// interleaved<4> (3 systems in 4 lanes, the padding lane untouched) and strided views of padded
// rows and of padded columns (padding untouched). Two solves per factorization.
TEMPLATE_TEST_CASE("factorize(automatic) of real lines solves complex right-hand sides",
                   "[automatic][complex][factor]", float, double) {
  using R = TestType;
  using D = cplx<R>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    std::uint32_t seed = 1700;
    // Returns whether the partition method's factors solved (always for algo::thomas_pcr).
    auto check = [&](auto layout, auto method, std::size_t nsys, std::size_t n) {
      using Layout = decltype(layout);
      const auto p = random_dominant_any<R>(nsys, n, seed++);
      uploaded<Layout, Exec, R, D> v(p, std::vector<D>(nsys * n));
      auto f = bandsolve::factorize(exec, method, v.a, v.b, v.c, nsys);
      bool hybrid = true;
      if constexpr (std::is_same_v<decltype(method), algo::automatic>)
        hybrid = f.choice() == bandsolve::tridiag_choice::thomas_pcr;
      INFO(bstest::layout_name<Layout>() << ", n = " << n << ", nsys = " << nsys
                                         << (hybrid ? ", the partition method" : ", Thomas"));
      CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
      for (int k = 0; k < 2; ++k) {
        const auto rhs = bstest::random_complex_rhs<D>(nsys * n, seed++);
        uploaded<Layout, Exec, R, D> w(p, rhs);
        f.solve(exec, w.d);
        exec.fence();
        CHECK(max_rel_diff1(bstest::to_host(w.d, nsys), lapack_solve(p, rhs), nsys, n) <=
              complex_reduction_tol<D>(n));
        if constexpr (std::is_same_v<Layout, bl::interleaved<4>>) {
          const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w.d);
          for (std::size_t i = 0; i < n; ++i) CHECK(h(0, i, 3) == D(0));  // the padding lane
        }
      }
      return hybrid;
    };
    // 3 systems of 5000 rows: more than one pack's worth of unknowns, fewer systems than a pack.
    CHECK(check(bl::row{}, algo::automatic{}, 3, 5000));
    CHECK(check(bl::column{}, algo::automatic{}, 3, 5000));
    CHECK(check(bl::row{}, algo::automatic{}, 1, 9001));
    CHECK_FALSE(check(bl::row{}, algo::automatic{}, 37, 40));
    CHECK_FALSE(check(bl::column{}, algo::automatic{}, 2, 100));
    check(bl::interleaved<4>{}, algo::thomas_pcr{}, 3, 5000);
    // Strided: padded rows (3 values of padding after each system: each system its own block,
    // d read in place) and padded columns (3 systems' worth of padding after each row: the
    // systems side by side, d copied into two real batches), coefficients alike.
    const std::size_t nsys = 3, n = 3001;
    const auto p = random_dominant_any<R>(nsys, n, seed++);
    const auto rhs = bstest::random_complex_rhs<D>(nsys * n, seed++);
    auto strided = [&](auto array_layout) {
      using ArrayLayout = decltype(array_layout);
      constexpr bool rows = std::is_same_v<ArrayLayout, Kokkos::LayoutRight>;
      INFO("strided, " << (rows ? "padded rows" : "padded columns"));
      // Element (s, i) at full(s, i): extents (nsys, n + 3) in LayoutRight (padded rows), or
      // (nsys + 3, n) in LayoutLeft (padded columns, the systems side by side).
      auto padded = [&](const char* label, auto value, const auto& values) {
        using V = decltype(value);
        using full_view = Kokkos::View<V**, ArrayLayout, Mem>;
        const full_view full = rows ? full_view(std::string(label), nsys, n + 3)
                                    : full_view(std::string(label), nsys + 3, n);
        for (std::size_t s = 0; s < full.extent(0); ++s)
          for (std::size_t i = 0; i < full.extent(1); ++i)
            full(s, i) = s < nsys && i < n ? values[s * n + i] : V(7);
        const Kokkos::View<V**, Kokkos::LayoutStride, Mem> view(
            full.data(), Kokkos::LayoutStride(nsys, rows ? n + 3 : 1, n, rows ? 1 : nsys + 3));
        return std::make_pair(full, view);
      };
      const auto a = padded("a", R(), p.a), b = padded("b", R(), p.b), c = padded("c", R(), p.c);
      const auto d = padded("d", D(), rhs);
      CHECK(det::lanes_adjacent(d.second) == !rows);
      auto f = bandsolve::factorize(exec, algo::thomas_pcr{}, a.second, b.second, c.second);
      CHECK((f.lanes() > 1) == !rows);
      f.solve(exec, d.second);
      exec.fence();
      std::vector<D> x(nsys * n);
      for (std::size_t s = 0; s < nsys; ++s)
        for (std::size_t i = 0; i < n; ++i) x[s * n + i] = d.first(s, i);
      CHECK(max_rel_diff1(x, lapack_solve(p, rhs), nsys, n) <= complex_reduction_tol<D>(n));
      std::size_t touched = 0;
      for (std::size_t s = 0; s < d.first.extent(0); ++s)
        for (std::size_t i = 0; i < d.first.extent(1); ++i)
          touched += (s >= nsys || i >= n) && d.first(s, i) != D(7);
      CHECK(touched == 0);
    };
    strided(Kokkos::LayoutRight{});
    strided(Kokkos::LayoutLeft{});
  });
}

// The rule for complex systems: in row layout the hybrid where Thomas leaves threads idle (fewer
// systems than threads) and for long systems (2^15 rows, as for real ones); in column layout for
// long systems as for real ones; the factored form for fewer systems than threads, and for up to 32 systems with
// contiguous rows.
TEST_CASE("automatic's choice for complex systems, one-shot and factored",
          "[automatic][complex]") {
  using T = cplx<double>;
  using bandsolve::tridiag_choice;
  CHECK(bandsolve::choose_tridiag<bl::row, T>(1, 5000, 2) == tridiag_choice::thomas_pcr);
  CHECK(bandsolve::choose_tridiag<bl::row, T>(1, 5000, 1) == tridiag_choice::thomas);
  CHECK(bandsolve::choose_tridiag<bl::row, T>(4, 5000, 2) == tridiag_choice::thomas);
  CHECK(bandsolve::choose_tridiag<bl::row, T>(4, (1 << 15) - 1, 2) == tridiag_choice::thomas);
  CHECK(bandsolve::choose_tridiag<bl::row, T>(4, 1 << 15, 2) == tridiag_choice::thomas_pcr);
  CHECK(bandsolve::choose_tridiag<bl::row, T>(8, 1 << 18, 2) == tridiag_choice::thomas_pcr);
  CHECK(bandsolve::choose_tridiag<bl::row, T>(1, 2000, 2) == tridiag_choice::thomas);
  CHECK(bandsolve::choose_tridiag<bl::row, T>(1, 4096, 2) == tridiag_choice::thomas);
  CHECK(bandsolve::choose_tridiag<bl::column, T>(8, 1 << 18, 2) == tridiag_choice::thomas_pcr);
  CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(1, 5000, 2) == tridiag_choice::thomas_pcr);
  CHECK(bandsolve::choose_factored_tridiag<bl::column, T>(1, 5000, 4) ==
        tridiag_choice::thomas_pcr);
  // Lane-contiguous rows: the partition method's factors below Thomas's factor pack.
  CHECK(bandsolve::choose_factored_tridiag<bl::column, T>(4, 5000, 2) ==
        tridiag_choice::thomas_pcr);
  CHECK(bandsolve::choose_factored_tridiag<bl::column, T>(16, 5000, 2) ==
        tridiag_choice::thomas_pcr);
  CHECK(bandsolve::choose_factored_tridiag<bl::column, T>(64, 5000, 2) == tridiag_choice::thomas);
  CHECK(bandsolve::choose_factored_tridiag<bl::interleaved<8>, T>(8, 5000, 2) ==
        tridiag_choice::thomas_pcr);
  CHECK(bandsolve::choose_factored_tridiag<bl::interleaved<8>, T>(64, 5000, 2) ==
        tridiag_choice::thomas);
  // Contiguous rows: the partition method's factors up to 32 systems.
  CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(32, 5000, 2) == tridiag_choice::thomas_pcr);
  CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(33, 5000, 2) == tridiag_choice::thomas);
  CHECK(bandsolve::choose_factored_tridiag<bl::strided, T>(32, 5000, 2, false) ==
        tridiag_choice::thomas_pcr);
  CHECK(bandsolve::choose_factored_tridiag<bl::strided, T>(32, 5000, 2, true) ==
        tridiag_choice::thomas);
  CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(1, 200, 2) == tridiag_choice::thomas);
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    const int threads = static_cast<int>(exec.concurrency());
    for (std::size_t nsys : {1, 2}) {
      const std::size_t n = 5000;
      INFO("nsys = " << nsys << ", " << threads << " threads");
      const auto p = random_dominant_any<T>(nsys, n, 77);
      const auto expected = lapack_solve(p, p.d);
      const double tol = complex_reduction_tol<T>(n);
      const auto [x, info] = solve_with<bl::row, algo::automatic>(exec, p);
      CHECK(info == std::vector<int>(nsys, 0));
      CHECK(max_rel_diff1(x, expected, nsys, n) <= tol);
      uploaded<bl::row, Exec, T> v(p, p.d);
      const auto f = bandsolve::factorize(exec, algo::automatic{}, v.a, v.b, v.c);
      CHECK(f.choice() == bandsolve::choose_factored_tridiag<bl::row, T>(nsys, n, threads));
      f.solve(exec, v.d);
      exec.fence();
      CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
      CHECK(max_rel_diff1(bstest::to_host(v.d, nsys), expected, nsys, n) <= tol);
    }
  });
}

}  // namespace test_reduction_complex
