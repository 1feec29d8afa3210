// ThreadSanitizer's defaults for BandSolve's test and example executables
// (BANDSOLVE_SANITIZE_THREAD, cmake/BandSolveDevFlags.cmake): TSan reads these two functions at
// start-up, so the tests need no environment. TSAN_OPTIONS still adds or overrides options.

extern "C" {

// Any report fails the program at its end (TSan's exit code 66). These add the second stack of
// lock-order reports and a longer history, so that the earlier access of a race keeps its stack;
// and, as tridiag/test_robust_inputs asks of ASan, an allocation larger than memory returns null
// (as malloc does) instead of aborting, so that Kokkos's failure path and ours above it run.
const char* __tsan_default_options() {
  return "second_deadlock_stack=1:history_size=4:allocator_may_return_null=1";
}

// Races inside code that is not BandSolve's: libomp's own locks, which it initializes and takes
// in code TSan does not instrument; the OpenMP synchronization that matters reaches TSan through
// the Archer tool instead.
const char* __tsan_default_suppressions() { return "called_from_lib:libomp.so\n"; }
}
