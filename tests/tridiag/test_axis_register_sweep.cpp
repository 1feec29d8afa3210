// The double cases of test_axis.cpp again, with the register sweeps of
// tridiag/thomas_register_sweep.hpp switched on whatever the CPU (see
// test_thomas_register_sweep.cpp): lines along a unit-stride axis, double, 8 per pack.
#define BANDSOLVE_REGISTER_SWEEPS 1
#define BSTEST_DOUBLES_ONLY
#include "test_axis.cpp"
