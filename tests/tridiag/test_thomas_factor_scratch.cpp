// Storage of factorize(thomas) for batches smaller than a pack: one long system, and 3 systems
// of a layout whose packs hold more, store 3 n values per system (storage_bytes), and their
// factored solves match LAPACK ?gtsv and the same systems solved in a full batch.
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <vector>

namespace test_thomas_factor_scratch {  // units compile in groups: tests/CMakeLists.txt

namespace {

namespace bl = bandsolve::layout;

// Factorize + factored solve of p in Layout; x in host order, info codes in `info`.
template <class Layout, class Exec>
std::vector<double> factored_solve(const Exec& exec, const bstest::host_batch<double>& p,
                                   std::vector<int>& info, std::size_t& bytes) {
  auto v = bstest::upload<Layout, Exec>(p);
  const auto f = bandsolve::factorize(exec, bandsolve::algo::thomas{}, v.a, v.b, v.c);
  f.solve(exec, v.d);
  exec.fence();
  info = bstest::info_to_host(f.info());
  bytes = f.storage_bytes();
  return bstest::to_host(v.d, p.nsys);
}

bstest::host_batch<double> head(const bstest::host_batch<double>& p, std::size_t nsys) {
  bstest::host_batch<double> h(nsys, p.n);
  const auto count = static_cast<std::ptrdiff_t>(nsys * p.n);
  h.a.assign(p.a.begin(), p.a.begin() + count);
  h.b.assign(p.b.begin(), p.b.begin() + count);
  h.c.assign(p.c.begin(), p.c.begin() + count);
  h.d.assign(p.d.begin(), p.d.begin() + count);
  return h;
}

}  // namespace

TEMPLATE_TEST_CASE("factorize(thomas) stores the systems factored: one long system and 3 systems",
                   "[thomas][factorize][scratch]", bl::row, bl::column) {
  using Layout = TestType;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    constexpr std::size_t pack = static_cast<std::size_t>(
        bandsolve::thomas_factorization<double, Layout, Exec>::pack_width);
    STATIC_REQUIRE(pack > 3);
    INFO(exec.name());
    {
      const std::size_t n = 100000;
      const auto p = bstest::random_dominant<double>(1, n, 11);
      std::vector<int> info;
      std::size_t bytes = 0;
      const auto x = factored_solve<Layout>(exec, p, info, bytes);
      CHECK(bytes == 3 * n * sizeof(double));
      CHECK(info == std::vector<int>{0});
      CHECK(bstest::rel_diff(x, bstest::reference_solve(p), n, 0) <= bstest::lapack_tol<double>());
    }
    {
      const std::size_t n = 61, nsys = 3;
      const auto big = bstest::random_dominant<double>(2 * pack + 1, n, 12);
      const auto p = head(big, nsys);
      std::vector<int> info, info_big;
      std::size_t bytes = 0, bytes_big = 0;
      const auto x = factored_solve<Layout>(exec, p, info, bytes);
      const auto xb = factored_solve<Layout>(exec, big, info_big, bytes_big);
      CHECK(bytes == 3 * nsys * n * sizeof(double));
      CHECK(bytes_big == 3 * 3 * pack * n * sizeof(double));
      CHECK(info == std::vector<int>(nsys, 0));
      const auto ref = bstest::reference_solve(p);
      for (std::size_t s = 0; s < nsys; ++s) {
        CAPTURE(s);
        CHECK(bstest::rel_diff(x, ref, n, s) <= bstest::lapack_tol<double>());
        CHECK(bstest::rel_diff(x, xb, n, s) <= bstest::factored_tol<double>());
      }
    }
  });
}

}  // namespace test_thomas_factor_scratch
