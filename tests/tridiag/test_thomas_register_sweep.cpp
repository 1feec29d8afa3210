// The double cases of test_thomas.cpp again, with the register sweeps of
// tridiag/thomas_register_sweep.hpp switched on whatever the CPU: by default they are compiled
// only where AVX-512 is enabled (-march=native on such a CPU), which the test builds are not.
// Here row-layout double packs of 8 full systems with n a multiple of 8, and float tiles of 16
// with n a multiple of 16, go through them; flagged pivots, partial packs and other n fall back
// to the gathered sweeps as in production.
#define BANDSOLVE_REGISTER_SWEEPS 1
#define BSTEST_DOUBLES_ONLY
#include "test_thomas.cpp"

namespace test_thomas {  // test_thomas.cpp's names: these cases extend that unit

#if BANDSOLVE_HAS_SIMD_TRANSPOSE
// The dispatcher itself: which packs it takes, that it solves them (bit for bit as the gathered
// sweeps do: same arithmetic), and that a pack it hands back (flagged pivot) is left untouched
// for the gathered sweeps.
TEST_CASE("register sweeps take full double packs and hand back flagged ones untouched",
          "[thomas][registers]") {
  using bandsolve::detail::gathered_lanes;
  using bandsolve::detail::next_pack_prefetch;
  constexpr int L = 8;
  const auto solve_pack = [](bstest::host_batch<double>& p, int nl, std::vector<double>& scratch) {
    const index_t n = static_cast<index_t>(p.n);
    const auto in = [&](const std::vector<double>& v) {
      return gathered_lanes<const double>{v.data(), n, 1};
    };
    next_pack_prefetch<4> none;
    return bandsolve::detail::solve_pack_in_registers<L>(
        n, nl, in(p.a), in(p.b), in(p.c), in(p.d), gathered_lanes<double>{p.d.data(), n, 1},
        scratch.data(), none);
  };
  for (const std::size_t n : {8, 16, 64, 256}) {
    INFO("n = " << n);
    auto p = bstest::random_dominant<double>(L, n, 7 + static_cast<std::uint32_t>(n));
    const auto ref = bstest::reference_solve(p);
    std::vector<double> scratch(2 * n * L);
    auto g = p;  // the same pack through the gathered sweeps
    REQUIRE(solve_pack(p, L, scratch));
    CHECK(bstest::max_rel_diff(p.d, ref, L, n) <= bstest::lapack_tol<double>());
    const index_t ni = static_cast<index_t>(n);
    const auto in = [&](const std::vector<double>& v) {
      return gathered_lanes<const double>{v.data(), ni, 1};
    };
    int info[L] = {};
    bandsolve::detail::thomas_solve_gather<L, L>(
        ni, L, in(g.a), in(g.b), in(g.c), gathered_lanes<double>{g.d.data(), ni, 1},
        scratch.data(), scratch.data() + n * L, info, next_pack_prefetch<4>{});
    CHECK(bstest::bitwise_equal(p.d, g.d));
  }
  {
    // Not taken: partial packs, n not a multiple of 8; d untouched.
    auto p = bstest::random_dominant<double>(L, 12, 3);
    const auto d0 = p.d;
    std::vector<double> scratch(2 * 12 * L);
    CHECK_FALSE(solve_pack(p, L, scratch));
    auto q = bstest::random_dominant<double>(L, 16, 4);
    const auto q0 = q.d;
    std::vector<double> scratch16(2 * 16 * L);
    CHECK_FALSE(solve_pack(q, L - 1, scratch16));
    CHECK(bstest::bitwise_equal(p.d, d0));
    CHECK(bstest::bitwise_equal(q.d, q0));
  }
  for (const double bad : {0.0, 1e-310, std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN()}) {
    // A zero, subnormal or non-finite pivot in system 5, row 10: handed back, d untouched.
    INFO("b = " << bad);
    auto p = bstest::random_dominant<double>(L, 32, 11);
    p.a[p.idx(5, 10)] = 0;
    p.b[p.idx(5, 10)] = bad;
    const auto d0 = p.d;
    std::vector<double> scratch(2 * 32 * L);
    CHECK_FALSE(solve_pack(p, L, scratch));
    CHECK(bstest::bitwise_equal(p.d, d0));
  }
}

// One-shot row floats whose rows fill whole tiles of 16 go through the register sweeps in tiles
// of 16 systems at every length: the dispatcher takes a full tile (bit for bit as the gathered
// sweeps of the same tile), hands back partial tiles, other n and flagged pivots untouched; the
// solve of full and partial tiles, n a multiple of 16 and not, matches the reference in row
// layout and in strided Views of padded rows, with the exact info code of a singular system.
TEST_CASE("one-shot float tiles go through the register sweeps", "[thomas][registers]") {
  using bandsolve::detail::gathered_lanes;
  using bandsolve::detail::next_pack_prefetch;
  constexpr int L = 16;
  const auto in = [](const std::vector<float>& v, index_t n) {
    return gathered_lanes<const float>{v.data(), n, 1};
  };
  const auto solve_pack = [&](bstest::host_batch<float>& p, int nl, std::vector<float>& scratch) {
    const index_t n = static_cast<index_t>(p.n);
    return bandsolve::detail::solve_pack_in_registers<L>(
        n, nl, in(p.a, n), in(p.b, n), in(p.c, n), in(p.d, n),
        gathered_lanes<float>{p.d.data(), n, 1}, scratch.data(), next_pack_prefetch<4>{});
  };
  for (const std::size_t n : {16, 48, 320}) {
    INFO("n = " << n);
    auto p = bstest::random_dominant<float>(L, n, 40 + static_cast<std::uint32_t>(n));
    std::vector<float> scratch(2 * n * L);
    auto g = p;
    REQUIRE(solve_pack(p, L, scratch));
    CHECK(bstest::max_rel_diff(p.d, bstest::reference_solve(g), L, n) <=
          bstest::lapack_tol<float>());
    const index_t ni = static_cast<index_t>(n);
    int info[L] = {};
    bandsolve::detail::thomas_solve_gather<L, L>(
        ni, L, in(g.a, ni), in(g.b, ni), in(g.c, ni), gathered_lanes<float>{g.d.data(), ni, 1},
        scratch.data(), scratch.data() + n * L, info, next_pack_prefetch<4>{});
    CHECK(bstest::bitwise_equal(p.d, g.d));
  }
  {
    // Coefficients of 1e12 (pivots whose products over four rows leave the float range): taken,
    // row by row, and solved.
    auto p = bstest::random_dominant<float>(L, 64, 13);
    for (auto* v : {&p.a, &p.b, &p.c})
      for (float& x : *v) x *= 1e12f;
    const auto ref = bstest::reference_solve(p);
    std::vector<float> scratch(2 * 64 * L);
    REQUIRE(solve_pack(p, L, scratch));
    CHECK(bstest::max_rel_diff(p.d, ref, L, 64) <= bstest::lapack_tol<float>());
  }
  {
    auto p = bstest::random_dominant<float>(L, 40, 5);  // n not a multiple of 16
    auto q = bstest::random_dominant<float>(L, 32, 6);  // a partial tile
    const auto p0 = p.d, q0 = q.d;
    std::vector<float> scratch(2 * 40 * L);
    CHECK_FALSE(solve_pack(p, L, scratch));
    CHECK_FALSE(solve_pack(q, L - 3, scratch));
    CHECK(bstest::bitwise_equal(p.d, p0));
    CHECK(bstest::bitwise_equal(q.d, q0));
  }
  for (const float bad : {0.0f, 1e-40f, std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN()}) {
    INFO("b = " << bad);
    auto p = bstest::random_dominant<float>(L, 32, 12);
    p.a[p.idx(11, 17)] = 0;
    p.b[p.idx(11, 17)] = bad;
    const auto d0 = p.d;
    std::vector<float> scratch(2 * 32 * L);
    CHECK_FALSE(solve_pack(p, L, scratch));
    CHECK(bstest::bitwise_equal(p.d, d0));
  }
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    std::uint32_t seed = 4200;
    for (const std::size_t n : {16, 64, 40, 320})
      for (const std::size_t nsys : {16, 37}) {
        INFO(exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys);
        const auto p = bstest::random_dominant<float>(nsys, n, seed++);
        const auto [codes, x] = solve_on<bl::row>(exec, p);
        CHECK(codes == std::vector<int>(nsys, 0));
        CHECK(bstest::max_rel_diff(x, bstest::reference_solve(p), nsys, n) <=
              bstest::lapack_tol<float>());
        check_padded_rows<float>(exec, nsys, n, seed++);
      }
    // A zero pivot at row 20 of system 19 (second tile): its code, the others solved.
    auto p = bstest::random_dominant<float>(37, 64, seed++);
    p.a[p.idx(19, 20)] = 0;
    p.b[p.idx(19, 20)] = 0;
    const auto [codes, x] = solve_on<bl::row>(exec, p);
    std::vector<int> expect(37, 0);
    expect[19] = 21;
    CHECK(codes == expect);
  });
}

// Factored floats of long rows (row layout, more than 256 rows) are stored in tiles of 16, which
// the register sweeps take as one vector of 16 lanes: the dispatcher takes a full tile with n a
// multiple of 16 and hands back a partial one or other n; the factored solve of full and partial
// tiles, n a multiple of 16 and not, matches the reference, in row layout and in strided Views of
// padded rows (unit row stride, rows not on cache-line boundaries; nothing outside written).
TEST_CASE("factored float tiles go through the register sweeps",
          "[thomas][registers][factorize]") {
  using bandsolve::detail::gathered_lanes;
  constexpr int L = 16;
  {
    const index_t n = 32;
    std::vector<float> r(n * L, 0.5f), lo(n * L, 0.25f), cp(n * L, 0.125f), d(n * L, 1.0f),
        scratch(n * L);
    const gathered_lanes<float> rows{d.data(), n, 1};
    CHECK(bandsolve::detail::thomas_factored_pack_in_registers<L>(n, L, r.data(), lo.data(),
                                                                  cp.data(), rows, scratch.data()));
    CHECK_FALSE(bandsolve::detail::thomas_factored_pack_in_registers<L>(
        n, L - 1, r.data(), lo.data(), cp.data(), rows, scratch.data()));
    CHECK_FALSE(bandsolve::detail::thomas_factored_pack_in_registers<L>(
        n - 8, L, r.data(), lo.data(), cp.data(), rows, scratch.data()));
  }
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    std::uint32_t seed = 4100;
    for (const std::size_t n : {320, 300})
      for (const std::size_t nsys : {16, 33}) {
        INFO(exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys);
        const auto p = bstest::random_dominant<float>(nsys, n, seed++);
        auto D = upload<bl::row, Exec>(p);
        const auto f = bandsolve::factorize(exec, thomas{}, D.a, D.b, D.c);
        for (int solve = 0; solve < 2; ++solve) {  // the second time on the solution
          const auto rhs = solve == 0 ? p.d : bstest::to_host(D.d, nsys);
          f.solve(exec, D.d);
          exec.fence();
          CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
          CHECK(bstest::max_rel_diff(bstest::to_host(D.d, nsys), bstest::reference_solve(p, &rhs),
                                     nsys, n) <= bstest::lapack_tol<float>());
        }
        check_padded_rows<float>(exec, nsys, n, seed++);
      }
  });
}
#endif

}  // namespace test_thomas
