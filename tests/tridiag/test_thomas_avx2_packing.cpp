// The double cases of test_thomas.cpp again, with the work items an AVX2 build chooses (32
// row-layout doubles per one-shot item instead of 8), whatever this build's target: otherwise only
// builds for AVX2 machines would run those items. Floats and the other layouts pack the same way
// in every build and run in test_thomas.cpp.
#define BANDSOLVE_HOST_VECTOR_BYTES 32
#define BSTEST_DOUBLES_ONLY
#include "test_thomas.cpp"

namespace test_thomas {  // test_thomas.cpp's names: these cases extend that unit

static_assert(bandsolve::detail::row_one_shot_lanes_v<double> == 32,
              "AVX2 sizes: 32 row-layout doubles per one-shot item");
static_assert(bandsolve::detail::row_one_shot_lanes_v<float> == 64,
              "floats keep 64 systems per one-shot item");

}  // namespace test_thomas
