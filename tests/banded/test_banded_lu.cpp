// Batched banded LU (partial pivoting and no pivoting) in float and double against LAPACK
// ?gbsv / ?gbtrf: solutions, pivots and factors, info codes of singular and zero-pivot matrices,
// several right-hand sides, n smaller than the bandwidth, compiled and run-time bandwidths,
// batches that are not multiples of the pack width (banded_lu_cases.hpp), and argument errors.
// Every check runs on the tests' host space (bstest::for_each_exec).
// banded_lu_cases.hpp, included below inside this unit's namespace, finds its headers here.
#include "banded_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <tuple>
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

}  // namespace test_banded_lu
