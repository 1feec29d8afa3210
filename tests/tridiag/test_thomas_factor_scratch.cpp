// Storage of factorize(thomas) for batches smaller than a pack: one long system, and 3 systems
// of a layout whose packs hold more, store 3 n values per system (storage_bytes), and their
// factored solves match LAPACK ?gtsv and the same systems solved in a full batch. Column batches
// of fewer systems than threads x a pack store packs of one cache line (Thomas and symmetric).
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <cmath>
#include <tuple>
#include <type_traits>
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
      // Three packs of the layout, or narrow column packs where three are fewer than threads.
      using F = bandsolve::thomas_factorization<double, Layout, Exec>;
      constexpr bool column = std::is_same_v<Layout, bl::column>;
      const auto width = static_cast<std::size_t>(F::factor_pack_width(
          big.nsys, static_cast<bandsolve::index_t>(n), column, !column,
          static_cast<int>(exec.concurrency())));
      CHECK(bytes == 3 * nsys * n * sizeof(double));
      CHECK(bytes_big == 3 * ((big.nsys + width - 1) / width) * width * n * sizeof(double));
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

// Column packs of one cache line or of 32 lanes, interleaved items of the packs that fill one
// (the wide ones hold up to four packs): interleaved<4> doubles in items of two.
using narrow_cases =
    std::tuple<std::tuple<bl::column, float>, std::tuple<bl::column, double>,
               std::tuple<bl::interleaved<16>, float>, std::tuple<bl::interleaved<8>, double>,
               std::tuple<bl::interleaved<4>, double>>;

TEMPLATE_LIST_TEST_CASE("column and interleaved batches of fewer systems than threads x a pack "
                        "factor in narrow packs",
                        "[thomas][symmetric][factorize][scratch]", narrow_cases) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  constexpr bool interleaved = !std::is_same_v<Layout, bl::column>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using F = bandsolve::thomas_factorization<T, Layout, Exec>;
    using S = bandsolve::symmetric_factorization<T, Layout, Exec>;
    constexpr std::size_t wide = F::pack_width, narrow = F::narrow_pack_width;
    STATIC_REQUIRE(F::has_narrow_packs);
    STATIC_REQUIRE(S::has_narrow_packs);
    const bandsolve::index_t n = 300;
    const auto width = [&](std::size_t nsys, int threads) {
      return static_cast<std::size_t>(F::factor_pack_width(nsys, n, true, false, threads));
    };
    CHECK(width(narrow - 1, 1) == (interleaved ? wide : 1));  // interleaved: whole packs
    CHECK(width(narrow, 1) == narrow);
    CHECK(width(wide, 1) == wide);
    CHECK(width(2 * wide, 2) == wide);
    // Column batches take packs of 32 lanes where every thread gets one (column_mid_packing).
    STATIC_REQUIRE(F::has_mid_packs == !interleaved);
    STATIC_REQUIRE(S::has_mid_packs == !interleaved);
    constexpr std::size_t mid = interleaved ? narrow : std::size_t(F::mid_pack_width);
    if constexpr (!interleaved) {
      STATIC_REQUIRE(narrow < mid);
      STATIC_REQUIRE(mid < wide);
      CHECK(width(mid - 1, 1) == narrow);
      CHECK(width(mid, 1) == mid);
      CHECK(width(2 * mid - 1, 2) == narrow);
      CHECK(width(2 * mid, 2) == mid);
    }
    CHECK(width(wide - 1, 1) == mid);
    CHECK(width(wide, 2) == mid);
    CHECK(width(2 * wide - 1, 2) == mid);
    CHECK(static_cast<std::size_t>(S::factor_pack_width(wide, n, true, false, 2)) == mid);
    const int threads = static_cast<int>(exec.concurrency());
    std::uint32_t seed = 700;
    // Narrow packs (a partial one), column packs of 32 on one thread, wide or 32 on two.
    for (const std::size_t nsys : {narrow, narrow + 3, mid + 3, wide + 5}) {
      INFO(exec.name() << ", nsys = " << nsys);
      // Symmetric and diagonally dominant: a[i] = c[i-1], so both factorizations apply.
      auto p = bstest::random_dominant<T>(nsys, static_cast<std::size_t>(n), seed++);
      for (std::size_t s = 0; s < nsys; ++s)
        for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
          const std::size_t k = s * static_cast<std::size_t>(n) + i;
          p.a[k] = i == 0 ? T(0) : p.c[k - 1];
          p.b[k] = std::abs(p.a[k]) + std::abs(p.c[k]) + T(1);
        }
      const auto ref = bstest::reference_solve(p);
      const std::size_t w = width(nsys, threads);
      const std::size_t slots = (nsys + w - 1) / w * w * static_cast<std::size_t>(n);
      // Stores `words` values per slot; solves d (uploaded afresh) against LAPACK.
      const auto check = [&](const auto& f, auto d, std::size_t words) {
        CHECK(f.storage_bytes() == words * slots * sizeof(T));
        f.solve(exec, d);
        exec.fence();
        CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
        CHECK(bstest::max_rel_diff(bstest::to_host(d, nsys), ref, nsys,
                                   static_cast<std::size_t>(n)) <= bstest::lapack_tol<T>());
      };
      const auto v = bstest::upload<Layout, Exec>(p);
      check(bandsolve::factorize(exec, bandsolve::algo::thomas{}, v.a, v.b, v.c, nsys), v.d, 3);
      const auto u = bstest::upload<Layout, Exec>(p);
      check(bandsolve::factorize(exec, bandsolve::algo::symmetric{}, u.b, u.c, nsys), u.d, 2);
    }
  });
}

}  // namespace test_thomas_factor_scratch
