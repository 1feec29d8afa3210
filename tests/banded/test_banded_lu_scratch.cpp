// Scratch of the banded LU for batches smaller than a work item's pack: one long system, and 3
// systems of a layout whose packs hold 8, take the scratch of the systems solved
// (solve_scratch_bytes), and solve as LAPACK ?gbsv does and as the same systems at the head of a
// batch of 9 (a full pack and a last pack of one system, which is solved on its own: run under
// valgrind at -O3, a pack with fewer lanes than its width read past the end of the Views).
#include "banded_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <tuple>
#include <vector>

namespace test_banded_lu_scratch {  // units compile in groups: tests/CMakeLists.txt

namespace {

namespace bl = bandsolve::layout;
using bandsolve::algo::banded_lu;

// Bytes of one system's work rows and reciprocal pivots.
std::size_t one_system_bytes(std::size_t n, int kl, int ku) {
  const std::size_t ldw = static_cast<std::size_t>(2 * kl + ku + 1);
  return ((n + static_cast<std::size_t>(kl)) * ldw + n) * sizeof(double);
}

// One-shot solve and factorize + factored solve of h in Layout; x of both in host order.
template <class Layout, class Exec>
std::tuple<std::vector<double>, std::vector<double>, std::vector<int>> solve_both(
    const Exec& exec, const bstest::host_band<double>& h, const std::vector<double>& rhs,
    const banded_lu alg) {
  using Mem = typename Exec::memory_space;
  const auto ab = bstest::band_to_device<Layout, double, Mem>(h);
  auto b = bstest::rhs_to_device<Layout, double, Mem, false>(rhs, h.nsys, h.n, 1);
  auto info = bstest::make_info<Mem>(h.nsys);
  bandsolve::solve(exec, alg, ab, b, info);
  const auto f = bandsolve::factorize(exec, alg, ab, h.nsys);
  auto bf = bstest::rhs_to_device<Layout, double, Mem, false>(rhs, h.nsys, h.n, 1);
  f.solve(exec, bf);
  exec.fence();
  auto codes = bstest::info_to_host(info);
  const auto fcodes = bstest::info_to_host(f.info());
  codes.insert(codes.end(), fcodes.begin(), fcodes.end());
  return {bstest::rhs_to_host(b, h.nsys, h.n, 1), bstest::rhs_to_host(bf, h.nsys, h.n, 1),
          codes};
}

}  // namespace

TEST_CASE("banded_lu scratch grows with the systems solved", "[banded][scratch]") {
  const int threads = static_cast<int>(Kokkos::DefaultHostExecutionSpace().concurrency());
  const std::size_t t = static_cast<std::size_t>(threads);
  const std::size_t n = std::size_t(1) << 22;
  for (const auto& bw : {std::pair<int, int>{2, 2}, std::pair<int, int>{3, 1}}) {
    const banded_lu alg{bw.first, bw.second};
    const std::size_t per = one_system_bytes(n, bw.first, bw.second);
    // Above 1 MiB an item's scratch is an allocated slice, one per item running at once.
    for (std::size_t nsys : {1, 2, 3}) {
      const std::size_t slice = (per + 63) / 64 * 64;
      const std::size_t expected = (nsys < t ? nsys : t) * slice + 64;
      CAPTURE(nsys, threads, bw.first, bw.second);
      CHECK(bandsolve::solve_scratch_bytes<bl::row, double>(alg, n, nsys, threads) == expected);
      CHECK(bandsolve::solve_scratch_bytes<bl::column, double>(alg, n, nsys, threads) == expected);
      CHECK(bandsolve::solve_scratch_bytes<bl::strided, double>(alg, n, nsys, threads) ==
            expected);
    }
    // Full packs of 8 doubles: never more than min(items, threads) items of 8 systems.
    const std::size_t m = 1000, full = 8 * one_system_bytes(m, bw.first, bw.second);
    CHECK(bandsolve::solve_scratch_bytes<bl::row, double>(alg, m, 4096, threads) ==
          t * (full + 64));
  }
}

TEMPLATE_TEST_CASE("banded_lu: one long system and 3 systems solve as LAPACK and as in a batch of 9",
                   "[banded][scratch]", bl::row, bl::column) {
  using Layout = TestType;
  bstest::for_each_exec([&](auto exec) {
    std::uint32_t seed = 4100;
    for (const bool pivoting : {true, false})
      for (const auto& bw : {std::pair<int, int>{2, 2}, std::pair<int, int>{3, 1}}) {
        const banded_lu alg{bw.first, bw.second, pivoting};
        const double dominance = pivoting ? -0.1 : 1.0;
        const double backward_tol = 16.0 * (bw.first + bw.second + 2) * bstest::band_eps<double>;
        const double tol = (pivoting ? 1e3 : 1e2) * backward_tol;
        INFO(exec.name() << " kl=" << bw.first << " ku=" << bw.second
                         << (pivoting ? " pivoting" : " no pivoting"));
        // One long system (over 1 MiB of scratch: the allocated path where threads > 1), with
        // dominant rows: small diagonals over so many rows would make it near singular.
        {
          const std::size_t n = 30000;
          const auto h = bstest::random_band<double>(1, n, bw.first, bw.second, ++seed, 1.0);
          const auto rhs = bstest::random_values<double>(n, ++seed);
          const auto ref = bstest::reference_gbsv(h, rhs, 1);
          REQUIRE(ref.info[0] == 0);
          const auto [x, xf, codes] = solve_both<Layout>(exec, h, rhs, alg);
          CHECK(codes == std::vector<int>{0, 0});
          CHECK(bstest::vec_rel_diff(x, ref.x, 0, n) <= tol);
          CHECK(bstest::vec_rel_diff(xf, ref.x, 0, n) <= tol);
        }
        // 3 systems (packs of 8): the same results as those systems at the head of 9. With
        // pivoting, their small diagonals over 600 rows make them too ill-conditioned to match
        // LAPACK's x once the rounding differs (contracted multiply-adds under -march=native):
        // they are held to LAPACK's backward error instead.
        const auto agrees = [&](const bstest::host_band<double>& h, const std::vector<double>& x,
                                const std::vector<double>& b, const std::vector<double>& ref,
                                std::size_t s) {
          return pivoting ? bstest::band_residual(h, x, b, s, 0, 1) <= backward_tol
                          : bstest::vec_rel_diff(x, ref, s * h.n, h.n) <= tol;
        };
        {
          const std::size_t n = 600, big = 9, nsys = 3;
          const auto hb = bstest::random_band<double>(big, n, bw.first, bw.second, ++seed,
                                                       dominance);
          const auto rb = bstest::random_values<double>(big * n, ++seed);
          bstest::host_band<double> h(nsys, n, bw.first, bw.second);
          h.ab.assign(hb.ab.begin(), hb.ab.begin() + static_cast<std::ptrdiff_t>(h.ab.size()));
          const std::vector<double> rhs(rb.begin(), rb.begin() + static_cast<std::ptrdiff_t>(nsys * n));
          const auto ref = bstest::reference_gbsv(h, rhs, 1);
          const auto [x, xf, codes] = solve_both<Layout>(exec, h, rhs, alg);
          const auto [xb, xbf, codesb] = solve_both<Layout>(exec, hb, rb, alg);
          CHECK(codes == std::vector<int>(2 * nsys, 0));
          for (std::size_t s = 0; s < nsys; ++s) {
            CAPTURE(s);
            REQUIRE(ref.info[s] == 0);
            CHECK(codesb[s] == 0);
            CHECK(agrees(h, x, rhs, ref.x, s));
            CHECK(agrees(h, xf, rhs, ref.x, s));
            CHECK(bstest::vec_rel_diff(x, xb, s * n, n) <= 100 * bstest::band_eps<double>);
            CHECK(bstest::vec_rel_diff(xf, xbf, s * n, n) <= 100 * bstest::band_eps<double>);
          }
          // The batch of 9 itself, its last pack (one system) included.
          const auto refb = bstest::reference_gbsv(hb, rb, 1);
          for (std::size_t s = 0; s < big; ++s) {
            CAPTURE(s);
            REQUIRE(refb.info[s] == 0);
            CHECK(codesb[s] == 0);
            CHECK(codesb[big + s] == 0);
            CHECK(agrees(hb, xb, rb, refb.x, s));
            CHECK(agrees(hb, xbf, rb, refb.x, s));
          }
        }
      }
  });
}

}  // namespace test_banded_lu_scratch
