// The double cases of test_thomas.cpp again, with the register sweeps of
// tridiag/thomas_register_sweep.hpp switched on whatever the CPU: by default they are compiled
// only where AVX-512 is enabled (-march=native on such a CPU), which the test builds are not.
// Here row-layout double packs of 8 full systems with n a multiple of 8 go through them; flagged
// pivots, partial packs and other n fall back to the gathered sweeps as in production.
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
