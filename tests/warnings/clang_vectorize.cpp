// Lane loops that Clang vectorizes only because their carried arrays are sized by carried_lanes
// (backend/host_simd/lanes.hpp): the symmetric factorization (info codes), its factored solve
// (y_{i-1}, then Thomas's backward sweep with the carried x), Thomas's factorization (info codes)
// and the one-shot solves, for row and column doubles (packs of 8 lanes, one AVX-512 vector).
// Compiled by CMakeLists.txt with "loop not vectorized" as an error; nothing is linked or run.
#include <bandsolve/bandsolve.hpp>

namespace {

template <class Layout, class T>
void instantiate() {
  using exec = Kokkos::DefaultExecutionSpace;
  auto diag = bandsolve::make_batch<Layout, T>("diag", 8, 100);
  auto offdiag = bandsolve::make_batch<Layout, T>("offdiag", 8, 100);
  auto d = bandsolve::make_batch<Layout, T>("d", 8, 100);
  Kokkos::View<int*> info("info", 8);
  bandsolve::solve(exec(), bandsolve::algo::symmetric{}, diag, offdiag, d, info);
  auto f = bandsolve::factorize(exec(), bandsolve::algo::symmetric{}, diag, offdiag, 8);
  f.solve(exec(), d);
  bandsolve::solve(exec(), bandsolve::algo::thomas{}, offdiag, diag, offdiag, d, info);
  auto t = bandsolve::factorize(exec(), bandsolve::algo::thomas{}, offdiag, diag, offdiag, 8);
  t.solve(exec(), d);
}

}  // namespace

void bandsolve_clang_vectorize_check() {
  instantiate<bandsolve::layout::row, double>();
  instantiate<bandsolve::layout::column, double>();
}
