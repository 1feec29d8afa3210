// Batched banded LU in Kokkos::complex<float> and Kokkos::complex<double> against LAPACK
// ?gbsv / ?gbtrf (zgbsv, cgbsv): the cases of banded_lu_cases.hpp. Pivots are chosen by
// |re| + |im| as izamax does, so they match LAPACK's exactly.
// banded_lu_cases.hpp, included below inside this unit's namespace, finds its headers here.
#include "banded_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <tuple>
#include <vector>

namespace test_banded_lu_complex {  // units compile in groups: tests/CMakeLists.txt

namespace {
// Pack widths of row and column blocks: 4 complex<double>, 8 complex<float>.
using layout_scalar_list =
    std::tuple<std::tuple<bandsolve::layout::interleaved<4>, Kokkos::complex<double>>,
               std::tuple<bandsolve::layout::row, Kokkos::complex<double>>,
               std::tuple<bandsolve::layout::column, Kokkos::complex<float>>,
               std::tuple<bandsolve::layout::interleaved<2>, Kokkos::complex<float>>>;
}  // namespace

#include "banded_lu_cases.hpp"

}  // namespace test_banded_lu_complex
