// Batched banded LU (partial pivoting and no pivoting) in float and double against LAPACK
// ?gbsv / ?gbtrf: solutions, pivots and factors, info codes of singular and zero-pivot matrices,
// several right-hand sides, n smaller than the bandwidth, compiled and run-time bandwidths,
// batches that are not multiples of the pack width (banded_lu_cases.hpp), and argument errors;
// refactor (host and device backends) against a fresh factorize, and its errors.
// Every check runs on the tests' host space (bstest::for_each_exec).
// banded_lu_cases.hpp, included below inside this unit's namespace, finds its headers here.
#include "banded_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace test_banded_lu {  // units compile in groups: tests/CMakeLists.txt

namespace {
// Pack widths in the solver: interleaved<W> packs of W; row and column blocks of 64 bytes of
// systems (8 double, 16 float).
using layout_scalar_list =
    std::tuple<std::tuple<bandsolve::layout::row, double>,
               std::tuple<bandsolve::layout::column, double>,
               std::tuple<bandsolve::layout::interleaved<8>, double>,
               std::tuple<bandsolve::layout::row, float>,
               std::tuple<bandsolve::layout::interleaved<4>, float>>;
// refactor's cases: fewer instantiations.
using refactor_layout_list =
    std::tuple<std::tuple<bandsolve::layout::row, double>,
               std::tuple<bandsolve::layout::column, float>,
               std::tuple<bandsolve::layout::interleaved<8>, double>>;
}  // namespace

#include "banded_lu_cases.hpp"

using Catch::Matchers::Equals;

TEST_CASE("banded_lu: bad bandwidths and shapes throw, naming the values", "[banded][errors]") {
  using Mem = Kokkos::HostSpace;
  Kokkos::DefaultHostExecutionSpace exec;
  auto ab = bandsolve::banded::make_band<bl::row, double, Mem>("ab", 3, 6, 2, 1);  // ldab = 6
  auto b = bandsolve::make_batch<bl::row, double, Mem>("b", 3, 6);
  auto info = bstest::make_info<Mem>(3);
  CHECK_THROWS_WITH(bandsolve::solve(exec, banded_lu{-1, 2}, ab, b, info),
                    Equals("bandsolve::solve(banded_lu): kl = -1 and ku = 2 must both be >= 0"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, banded_lu{1, -3}, ab),
                    Equals("bandsolve::factorize(banded_lu): kl = 1 and ku = -3 must both be >= 0"));
  CHECK_THROWS_WITH(
      bandsolve::solve(exec, banded_lu{2, 2}, ab, b, info),
      Equals("bandsolve::solve(banded_lu): ab has ldab = 6 band rows but kl = 2, ku = 2 need "
             "2*kl+ku+1 = 7 (LAPACK band storage with the kl fill-in rows)"));
  auto b5 = bandsolve::make_batch<bl::row, double, Mem>("b", 3, 5);
  CHECK_THROWS_WITH(bandsolve::solve(exec, banded_lu{2, 1}, ab, b5, info),
                    Equals("bandsolve::solve(banded_lu): b has 5 rows but ab has n = 6 columns"));
  auto b4s = bandsolve::make_batch<bl::row, double, Mem>("b", 4, 6);
  CHECK_THROWS_WITH(bandsolve::solve(exec, banded_lu{2, 1}, ab, b4s, info),
                    Equals("bandsolve::solve(banded_lu): b holds 4 systems but ab holds 3"));
  auto info2 = bstest::make_info<Mem>(2);
  CHECK_THROWS_WITH(bandsolve::solve(exec, banded_lu{2, 1}, ab, b, info2),
                    Equals("bandsolve::solve(banded_lu): info.extent(0) = 2 but ab holds 3 systems"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, banded_lu{2, 1}, ab, 5),
                    Equals("bandsolve::factorize(banded_lu): nsys = 5 does not match the 3 system "
                           "slots of ab (row layout)"));

  // Interleaved packs: the number of systems must fit the packs.
  auto abi = bandsolve::banded::make_band<bl::interleaved<4>, double, Mem>("ab", 6, 5, 1, 1);
  auto bi = bandsolve::make_batch<bl::interleaved<4>, double, Mem>("b", 6, 5);
  auto info9 = bstest::make_info<Mem>(9);
  CHECK_THROWS_WITH(bandsolve::solve(exec, banded_lu{1, 1}, abi, bi, info9),
                    Equals("bandsolve::solve(banded_lu): info.extent(0) = 9 systems need 3 packs "
                           "of 4 but ab has 2 packs"));

  // The factorization checks its right-hand sides, and an empty one refuses to solve.
  const auto f = bandsolve::factorize(exec, banded_lu{2, 1}, ab);
  auto several = bandsolve::banded::make_rhs<bl::row, double, Mem>("b", 3, 4, 2);
  CHECK_THROWS_WITH(f.solve(exec, several),
                    Equals("bandsolve::banded_lu_factorization::solve: b has 4 rows but ab has "
                           "n = 6 columns"));
  bandsolve::banded_lu_factorization<double, bl::row, Kokkos::DefaultHostExecutionSpace> empty;
  CHECK_THROWS_WITH(empty.solve(exec, b),
                    Equals("bandsolve::banded_lu_factorization::solve: this factorization is "
                           "empty (default-constructed)"));
  // The solution may not overwrite the band.
  Kokkos::View<double**, Kokkos::LayoutRight, Mem> alias(ab.data(), 3, 6);
  CHECK_THROWS_WITH(bandsolve::solve(exec, banded_lu{2, 1}, ab, alias, info),
                    Catch::Matchers::StartsWith("bandsolve::solve(banded_lu): b overlaps ab in memory"));
}

// Band storage addresses: A(i, j) is band row kl+ku+i-j of column j in every layout, and row
// layout's band of system s is a LAPACK AB array.
TEST_CASE("banded_lu with no right-hand sides reports info and touches nothing of b",
          "[banded][errors]") {
  // b with nrhs = 0 and no memory (a null pointer, as an empty allocation may give): the
  // one-shot solve still factors and reports the singular column, on both backends, and forms no
  // pointer into b (UBSan: arithmetic on null).
  using Mem = Kokkos::HostSpace;
  Kokkos::DefaultHostExecutionSpace exec;
  const std::size_t nsys = 3, n = 5;
  const int kl = 1, ku = 1;
  auto ab = bandsolve::banded::make_band<bl::row, double, Mem>("ab", nsys, n, kl, ku);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t j = 0; j < n; ++j) bandsolve::banded::band_at(ab, kl, ku, s, j, j) = 4.0;
  bandsolve::banded::band_at(ab, kl, ku, 2, 3, 3) = 0.0;  // system 2: column 4 singular
  const auto shaped = bandsolve::banded::make_rhs<bl::row, double, Mem>("b", nsys, n, 0);
  using shape = decltype(shaped);
  const Kokkos::View<shape::data_type, shape::array_layout, Mem, Kokkos::MemoryUnmanaged> none(
      nullptr, shaped.layout());
  for (const bool pivoting : {true, false}) {
    const banded_lu alg{kl, ku, pivoting};
    auto info = bstest::make_info<Mem>(nsys);
    bandsolve::solve(exec, alg, ab, none, info);
    exec.fence();
    CHECK(bstest::info_to_host(info) == std::vector<int>{0, 0, 4});
    auto info_device = bstest::make_info<Mem>(nsys);
    bandsolve::solve(exec, alg, ab, none, info_device, bandsolve::backend::device{});
    exec.fence();
    CHECK(bstest::info_to_host(info_device) == std::vector<int>{0, 0, 4});
  }
}

TEST_CASE("banded: band_at, rhs_at and the row layout's LAPACK addresses", "[banded][layout]") {
  using Mem = Kokkos::HostSpace;
  auto ab = bandsolve::banded::make_band<bl::row, double, Mem>("ab", 2, 5, 1, 2);
  CHECK(ab.extent(2) == 5);
  bandsolve::banded::band_at(ab, 1, 2, 1, 3, 4) = 9.0;  // A(3, 4) of system 1
  CHECK(ab.data()[1 * 5 * 5 + 4 * 5 + (1 + 2 + 3 - 4)] == 9.0);
  auto abi = bandsolve::banded::make_band<bl::interleaved<4>, float, Mem>("ab", 5, 3, 1, 1);
  CHECK(abi.extent(0) == 2);
  bandsolve::banded::band_at(abi, 1, 1, 5, 2, 1) = 3.0f;
  CHECK(abi(1, 1, 3, 1) == 3.0f);
  auto bs = bandsolve::banded::make_rhs<bl::column, double, Mem>("b", 3, 4, 2);
  bandsolve::banded::rhs_at(bs, 2, 1, 1) = 5.0;
  CHECK(bs(2, 1, 1) == 5.0);
  CHECK(bs.data()[2 + 3 * 1 + 12 * 1] == 5.0);
}

namespace {

// f's solution for one right-hand side per system.
template <class Layout, class Exec, class F, class T>
std::vector<T> refactor_solve(const Exec& exec, const F& f, const std::vector<T>& rhs,
                              std::size_t nsys, std::size_t n) {
  using Mem = typename Exec::memory_space;
  auto b = bstest::rhs_to_device<Layout, T, Mem, false>(rhs, nsys, n, 1);
  f.solve(exec, b);
  exec.fence();
  return bstest::rhs_to_host(b, nsys, n, 1);
}

// refactor with new matrices (one system singular) matches a fresh factorize bitwise, a copy made
// before sees the new factors, and refactoring back clears the info code.
template <class Layout, class T, bool Device>
void check_banded_refactor() {
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    using Backend = std::conditional_t<Device, bandsolve::backend::device,
                                       bandsolve::backend::default_for_t<Exec>>;
    std::uint32_t seed = 3000;
    for (const bands bw : {bands{1, 1}, bands{2, 1}})
      for (const std::size_t n : {1, 2, 3, 20})
        for (const std::size_t nsys : {1, 13})
          for (const bool pivoting : {true, false}) {
            INFO(case_name<T>(nsys, n, bw, pivoting) << " " << exec.name());
            const banded_lu alg{bw.kl, bw.ku, pivoting};
            const double dom = dominance_for(bw, pivoting);
            const auto h1 = bstest::random_band<T>(nsys, n, bw.kl, bw.ku, ++seed, dom);
            auto h2 = bstest::random_band<T>(nsys, n, bw.kl, bw.ku, ++seed, dom);
            const std::size_t bad = nsys / 2;
            for (std::size_t i = 0; i < n && i <= std::size_t(bw.kl); ++i) h2.at(bad, i, 0) = T(0);
            const auto rhs = bstest::random_values<T>(nsys * n, ++seed);
            const auto ab1 = bstest::band_to_device<Layout, T, Mem>(h1);
            const auto ab2 = bstest::band_to_device<Layout, T, Mem>(h2);
            auto f = bandsolve::factorize(exec, alg, ab1, nsys, Backend{});
            const auto copy = f;
            f.refactor(exec, ab2);
            const auto fresh = bandsolve::factorize(exec, alg, ab2, nsys, Backend{});
            exec.fence();
            std::vector<int> expected(nsys, 0);
            expected[bad] = 1;
            CHECK(bstest::info_to_host(f.info()) == expected);
            CHECK(bstest::info_to_host(copy.info()) == expected);
            CHECK(bstest::info_to_host(fresh.info()) == expected);
            CHECK(bstest::bitwise_equal(bstest::band_to_host(copy.lu(), nsys),
                                        bstest::band_to_host(fresh.lu(), nsys)));
            const auto x = refactor_solve<Layout>(exec, f, rhs, nsys, n);
            CHECK(bstest::bitwise_equal(x, refactor_solve<Layout>(exec, fresh, rhs, nsys, n)));
            // Back to the first matrices: info cleared, LAPACK's solution.
            f.refactor(exec, ab1);
            exec.fence();
            const auto info = bstest::info_to_host(copy.info());
            CHECK(info == std::vector<int>(nsys, 0));
            check_against_lapack(h1, rhs, 1, refactor_solve<Layout>(exec, copy, rhs, nsys, n), info,
                                 dom > 0);
          }
  });
}

// refactor's refusals, with exact messages; the factorization keeps its first matrices.
template <class Backend>
void check_banded_refactor_errors() {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using Mem = Kokkos::HostSpace;
  using V = Kokkos::View<double***, Kokkos::LayoutRight, Mem>;
  const Exec exec;
  const auto h = bstest::random_band<double>(4, 9, 1, 2, 11, 1.0);
  const auto ab = bstest::band_to_device<bandsolve::layout::row, double, Mem>(h);
  auto f = bandsolve::factorize(exec, banded_lu{1, 2}, ab, Backend{});
  const std::string fn = "bandsolve::banded_lu_factorization::refactor: ";
  CHECK_THROWS_WITH(f.refactor(exec, V("r8", 4, 8, 5)),
                    Equals(fn + "ab has 8 rows but the factorization has 9"));
  CHECK_THROWS_WITH(f.refactor(exec, V("r5", 5, 9, 5)),
                    Equals(fn + "ab holds 5 systems but the factorization has 4"));
  CHECK_THROWS_WITH(f.refactor(exec, V("r6", 4, 9, 6)),
                    Equals(fn + "ab has ldab = 6 but the factorization has ldab = 2kl+ku+1 = 5 "
                                "(kl = 1, ku = 2)"));
  CHECK_THROWS_WITH(f.refactor(exec, f.lu()), Catch::Matchers::StartsWith(fn + "ab "));
  decltype(f) empty;
  CHECK_THROWS_WITH(empty.refactor(exec, ab),
                    Equals(fn + "this factorization is empty (default-constructed)"));
  const auto rhs = bstest::random_values<double>(4 * 9, 12);
  check_against_lapack(h, rhs, 1, refactor_solve<bandsolve::layout::row>(exec, f, rhs, 4, 9),
                       bstest::info_to_host(f.info()), true);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("banded_lu refactor matches a fresh factorize", "[banded][refactor]",
                        refactor_layout_list) {
  check_banded_refactor<std::tuple_element_t<0, TestType>, std::tuple_element_t<1, TestType>,
                        false>();
}

TEST_CASE("banded_lu refactor errors", "[banded][refactor][errors]") {
  check_banded_refactor_errors<
      bandsolve::backend::default_for_t<Kokkos::DefaultHostExecutionSpace>>();
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("banded_lu refactor on the device backend matches a fresh factorize",
          "[banded][refactor][device]") {
  check_banded_refactor<bandsolve::layout::row, double, true>();
  check_banded_refactor<bandsolve::layout::interleaved<4>, float, true>();
  check_banded_refactor_errors<bandsolve::backend::device>();
}
#endif

}  // namespace test_banded_lu
