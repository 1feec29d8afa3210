// Scratch of the block Thomas one-shot solve for batches smaller than a work item's group: one
// long system, and 3 systems of a layout whose groups hold 8, take the scratch of the systems
// solved (solve_scratch_bytes), and solve as LAPACK ?gbsv does and as the same systems in a full
// batch. Only the block sizes solved here (3 and 4) are compiled.
#define BANDSOLVE_BLOCK_SIZES 3, 4
#include "block_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <vector>

namespace test_block_thomas_scratch {  // units compile in groups: tests/CMakeLists.txt

namespace {

namespace bl = bandsolve::layout;
using bandsolve::algo::block_thomas;

template <class Layout, class Exec>
std::vector<double> device_solve(const Exec& exec, const bstest::host_block_batch<double>& p,
                                 std::vector<int>& info, block_thomas algorithm) {
  using Mem = typename Exec::memory_space;
  const auto a = bstest::block_to_device<Layout, double, Mem>("a", p.a, p.nsys, p.n, p.m);
  const auto b = bstest::block_to_device<Layout, double, Mem>("b", p.b, p.nsys, p.n, p.m);
  const auto c = bstest::block_to_device<Layout, double, Mem>("c", p.c, p.nsys, p.n, p.m);
  const auto d = bstest::rhs_to_device<Layout, double, Mem, false>(p.d, p.nsys, p.n, p.m, 1);
  const auto info_v = bstest::make_info<Mem>(p.nsys);
  bandsolve::solve(exec, algorithm, a, b, c, d, info_v);
  exec.fence();
  info = bstest::info_to_host(info_v);
  return bstest::rhs_to_host<false>(d, p.nsys, p.n, p.m, 1);
}

// The first nsys systems of p.
bstest::host_block_batch<double> head(const bstest::host_block_batch<double>& p, std::size_t nsys) {
  bstest::host_block_batch<double> h(nsys, p.n, p.m, p.nrhs);
  const auto copy = [](const std::vector<double>& from, std::vector<double>& to) {
    to.assign(from.begin(), from.begin() + static_cast<std::ptrdiff_t>(to.size()));
  };
  copy(p.a, h.a);
  copy(p.b, h.b);
  copy(p.c, h.c);
  copy(p.d, h.d);
  return h;
}

}  // namespace

TEST_CASE("block_thomas scratch grows with the systems solved", "[block_thomas][scratch]") {
  const int threads = static_cast<int>(Kokkos::DefaultHostExecutionSpace().concurrency());
  const std::size_t t = static_cast<std::size_t>(threads);
  const std::size_t n = std::size_t(1) << 20, m = 4;
  const std::size_t per = n * m * m * sizeof(double);  // a multiple of 64
  // Above 1 MiB an item's scratch is an allocated slice, one per item running at once.
  for (std::size_t nsys : {1, 2, 3}) {
    const std::size_t expected = (nsys < t ? nsys : t) * per + 64;
    CAPTURE(nsys, threads);
    CHECK(bandsolve::solve_scratch_bytes<double>(block_thomas{}, n, m, nsys, threads) == expected);
  }
  // Full groups of 8 doubles, and interleaved packs of 4 (the user's packs, even for one system).
  const std::size_t small = 100;
  CHECK(bandsolve::solve_scratch_bytes<double>(block_thomas{}, small, m, 4096, threads) ==
        t * (8 * small * m * m * sizeof(double) + 64));
  CHECK(bandsolve::solve_scratch_bytes<double, 4>(block_thomas{}, small, m, 1, threads) ==
        t * (4 * small * m * m * sizeof(double) + 64));
}

TEMPLATE_TEST_CASE("block_thomas: one long system and 3 systems solve as LAPACK and as a full "
                   "batch",
                   "[block_thomas][scratch]", bl::row, bl::column) {
  using Layout = TestType;
  bstest::for_each_exec([&](auto exec) {
    std::uint32_t seed = 5200;
    for (const auto pivot : {block_thomas::pivoting::none, block_thomas::pivoting::partial}) {
      const block_thomas algorithm{pivot};
      INFO(exec.name() << (pivot == block_thomas::pivoting::partial ? " pivoting" : ""));
      // One long system (over 1 MiB of scratch: the allocated path where threads > 1).
      {
        const auto p = bstest::random_block_dominant<double>(1, 20000, 4, 1, ++seed);
        std::vector<int> info, ref_info;
        const auto x = device_solve<Layout>(exec, p, info, algorithm);
        const auto ref = bstest::gbsv_reference(p, &ref_info);
        REQUIRE(ref_info[0] == 0);
        CHECK(info[0] == 0);
        CHECK(bstest::block_max_rel_diff(p, x, ref) <= bstest::block_lapack_tol<double>(4));
      }
      // 3 systems (groups of 8): the same results as those systems at the head of 11.
      {
        const auto big = bstest::random_block_dominant<double>(11, 33, 3, 1, ++seed);
        const auto p = head(big, 3);
        std::vector<int> info, info_big, ref_info;
        const auto x = device_solve<Layout>(exec, p, info, algorithm);
        const auto xb = device_solve<Layout>(exec, big, info_big, algorithm);
        const auto ref = bstest::gbsv_reference(p, &ref_info);
        CHECK(info == std::vector<int>(3, 0));
        CHECK(ref_info == std::vector<int>(3, 0));
        CHECK(bstest::block_max_rel_diff(p, x, ref) <= bstest::block_lapack_tol<double>(3));
        const std::vector<double> xb_head(xb.begin(), xb.begin() + static_cast<std::ptrdiff_t>(x.size()));
        CHECK(bstest::block_max_rel_diff(p, x, xb_head) <= 100 * bstest::eps<double>);
      }
    }
  });
}

}  // namespace test_block_thomas_scratch
