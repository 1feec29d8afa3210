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
// The dispatcher itself, on one tile of lanes (8 doubles, 16 floats): which packs it takes, that
// it solves them (bit for bit as the gathered sweeps do: doubles four rows per step as
// thomas_four_rows, floats row by row as thomas_next_row), and that a pack it hands back (partial,
// n not a multiple of the tile, flagged pivot) is left untouched for the gathered sweeps.
TEMPLATE_TEST_CASE("register sweeps take full tiles and hand back flagged ones untouched",
                   "[thomas][registers]", double, float) {
  using T = TestType;
  using bandsolve::detail::gathered_lanes;
  using bandsolve::detail::next_pack_prefetch;
  constexpr int L = static_cast<int>(64 / sizeof(T));
  constexpr std::size_t tile = 64 / sizeof(T);
  const auto in = [](const std::vector<T>& v, index_t n) {
    return gathered_lanes<const T>{v.data(), n, 1};
  };
  const auto solve_pack = [&](bstest::host_batch<T>& p, int nl) {
    const index_t n = static_cast<index_t>(p.n);
    std::vector<T> scratch(2 * p.n * tile);
    return bandsolve::detail::solve_pack_in_registers<L>(
        n, nl, in(p.a, n), in(p.b, n), in(p.c, n), in(p.d, n),
        gathered_lanes<T>{p.d.data(), n, 1}, scratch.data(), next_pack_prefetch<4>{});
  };
  for (const std::size_t n : {tile, 2 * tile, 8 * tile, 20 * tile}) {
    INFO("n = " << n);
    auto p = bstest::random_dominant<T>(L, n, 7 + static_cast<std::uint32_t>(n));
    auto g = p;  // the same pack through the gathered sweeps
    REQUIRE(solve_pack(p, L));
    CHECK(bstest::max_rel_diff(p.d, bstest::reference_solve(g), L, n) <= bstest::lapack_tol<T>());
    const index_t ni = static_cast<index_t>(n);
    std::vector<T> scratch(2 * n * tile);
    int info[L] = {};
    bandsolve::detail::thomas_solve_gather<L, L>(
        ni, L, in(g.a, ni), in(g.b, ni), in(g.c, ni), gathered_lanes<T>{g.d.data(), ni, 1},
        scratch.data(), scratch.data() + n * tile, info, next_pack_prefetch<4>{});
    CHECK(bstest::bitwise_equal(p.d, g.d));
  }
  {
    // Coefficients of 1e12 (for floats, pivots whose products over four rows would leave the
    // float range): taken and solved.
    auto p = bstest::random_dominant<T>(L, 4 * tile, 13);
    for (auto* v : {&p.a, &p.b, &p.c})
      for (T& x : *v) x *= T(1e12);
    const auto ref = bstest::reference_solve(p);
    REQUIRE(solve_pack(p, L));
    CHECK(bstest::max_rel_diff(p.d, ref, L, 4 * tile) <= bstest::lapack_tol<T>());
  }
  {
    // Not taken: n not a multiple of the tile, a partial pack; d untouched.
    auto p = bstest::random_dominant<T>(L, tile + tile / 2, 3);
    auto q = bstest::random_dominant<T>(L, 2 * tile, 4);
    const auto p0 = p.d, q0 = q.d;
    CHECK_FALSE(solve_pack(p, L));
    CHECK_FALSE(solve_pack(q, L - 1));
    CHECK(bstest::bitwise_equal(p.d, p0));
    CHECK(bstest::bitwise_equal(q.d, q0));
  }
  for (const T bad : {T(0), std::numeric_limits<T>::denorm_min() * 1000,
                      std::numeric_limits<T>::infinity(), std::numeric_limits<T>::quiet_NaN()}) {
    // A zero, subnormal or non-finite pivot in system 5, row 10: handed back, d untouched.
    INFO("b = " << bad);
    auto p = bstest::random_dominant<T>(L, 32, 11);
    p.a[p.idx(5, 10)] = 0;
    p.b[p.idx(5, 10)] = bad;
    const auto d0 = p.d;
    CHECK_FALSE(solve_pack(p, L));
    CHECK(bstest::bitwise_equal(p.d, d0));
  }
}

// One-shot row floats whose rows fill whole tiles of 16 go through the register sweeps in tiles
// of 16 systems at every length: the solve of full and partial tiles, n a multiple of 16 and not,
// matches the reference in row layout and in strided Views of padded rows, with the exact info
// code of a singular system.
TEST_CASE("one-shot float tiles go through the register sweeps", "[thomas][registers]") {
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
