// The double cases of test_axis.cpp again, with the packs an AVX2 build chooses (32 double
// lines per pack along a unit-stride axis with full coefficients, instead of 8), whatever this
// build's target (see test_thomas_avx2_packing.cpp).
#define BANDSOLVE_HOST_VECTOR_BYTES 32
#define BSTEST_DOUBLES_ONLY
#include "test_axis.cpp"

namespace test_axis {  // test_axis.cpp's names: these cases extend that unit

static_assert(bandsolve::detail::axis_packing<double, false>::L == 32,
              "AVX2 sizes: 32 double lines per full-coefficient pack");

}  // namespace test_axis
