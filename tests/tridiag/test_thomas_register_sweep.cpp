// The double cases of test_thomas.cpp again, with the register sweeps of
// tridiag/thomas_register_sweep.hpp switched on whatever the CPU: by default they are compiled
// only where AVX-512 is enabled (-march=native on such a CPU), which the test builds are not.
// Here row-layout double packs of 8 full systems with n a multiple of 8 go through them; flagged
// pivots, partial packs and other n fall back to the gathered sweeps as in production.
#define BANDSOLVE_REGISTER_SWEEPS 1
#define BSTEST_DOUBLES_ONLY
#include "test_thomas.cpp"

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
#endif
