// Calls that misuse the API, each behind its own macro BANDSOLVE_MISUSE_<name>: each must fail to
// compile, and the compiler's first error must carry the text of its "expect:" comment, the
// message of the library's static_assert (tests/diagnostics/CMakeLists.txt compiles each case
// with -Wfatal-errors and matches its output). With no case defined the file compiles: every call
// below is valid but for what its case changes, so a case fails for that change alone.
#include <bandsolve/bandsolve.hpp>

#include <vector>

namespace {

using exec_space = Kokkos::DefaultHostExecutionSpace;
using row = bandsolve::layout::row;
using column = bandsolve::layout::column;
using cplx = Kokkos::complex<double>;

[[maybe_unused]] void misuse() {
  const exec_space exec;
  const std::size_t nsys = 4, n = 8;
  auto a = bandsolve::make_batch<row, double>("a", nsys, n);
  auto b = bandsolve::make_batch<row, double>("b", nsys, n);
  auto c = bandsolve::make_batch<row, double>("c", nsys, n);
  auto d = bandsolve::make_batch<row, double>("d", nsys, n);
  Kokkos::View<int*, exec_space> info("info", nsys);
  bandsolve::solve(exec, bandsolve::algo::thomas{}, a, b, c, d, info);

#if defined(BANDSOLVE_MISUSE_exec_not_a_space)
  // expect: the first argument must be a Kokkos execution space instance
  bandsolve::solve(42, bandsolve::algo::thomas{}, a, b, c, d, info);
#endif
#if defined(BANDSOLVE_MISUSE_coefficients_not_views)
  // expect: a, b, c and d must be Kokkos::Views
  const std::vector<double> va(n * nsys);
  bandsolve::solve(exec, bandsolve::algo::thomas{}, va, b, c, d, info);
#endif
#if defined(BANDSOLVE_MISUSE_unsupported_view)
  // expect: use Kokkos::View<T\*\*, LayoutRight> \(layout::row\)
  Kokkos::View<double***, exec_space> d3("d3", nsys, n, 2);
  bandsolve::solve(exec, bandsolve::algo::thomas{}, d3, d3, d3, d3, info);
#endif
#if defined(BANDSOLVE_MISUSE_mixed_layouts)
  // expect: a, b, c and d must use the same layout
  auto dc = bandsolve::make_batch<column, double>("d", nsys, n);
  bandsolve::solve(exec, bandsolve::algo::periodic{}, a, b, c, dc, info);
#endif
#if defined(BANDSOLVE_MISUSE_integer_scalar)
  // expect: the scalar type must be float, double, Kokkos::complex<float> or
  auto ai = bandsolve::make_batch<row, int>("a", nsys, n);
  bandsolve::solve(exec, bandsolve::algo::partial_pivoting{}, ai, ai, ai, ai, info);
#endif
#if defined(BANDSOLVE_MISUSE_mixed_coefficient_types)
  // expect: a, b and c must have the same scalar type
  auto af = bandsolve::make_batch<row, float>("a", nsys, n);
  bandsolve::solve(exec, bandsolve::algo::thomas{}, af, b, c, d, info);
#endif
#if defined(BANDSOLVE_MISUSE_complex_coefficients_real_d)
  // expect: d must have the scalar type of a, b and c, or be Kokkos::complex<R>
  auto az = bandsolve::make_batch<row, cplx>("a", nsys, n);
  bandsolve::solve(exec, bandsolve::algo::thomas{}, az, az, az, d, info);
#endif
#if defined(BANDSOLVE_MISUSE_info_not_int)
  // expect: info must be a rank-1 Kokkos::View<int\*>
  Kokkos::View<long*, exec_space> info_long("info", nsys);
  bandsolve::solve(exec, bandsolve::algo::periodic{}, a, b, c, d, info_long);
#endif
#if defined(BANDSOLVE_MISUSE_const_d)
  // expect: d receives the solution and cannot be a View of const
  const Kokkos::View<const double**, Kokkos::LayoutRight, exec_space> dk = d;
  bandsolve::solve(exec, bandsolve::algo::thomas{}, a, b, c, dk, info);
#endif
#if defined(BANDSOLVE_MISUSE_pcr_complex_d_over_real)
  // expect: a, b, c and d must have the same scalar type
  auto dz = bandsolve::make_batch<row, cplx>("d", nsys, n);
  bandsolve::solve(exec, bandsolve::algo::pcr{}, a, b, c, dz, info);
#endif
#if defined(BANDSOLVE_MISUSE_host_backend_on_another_space)
  // expect: a host backend runs only on its own execution space
  bandsolve::solve(Kokkos::Serial(), bandsolve::algo::thomas{}, a, b, c, d, info,
                   bandsolve::backend::openmp_simd{});
#endif

  auto f = bandsolve::factorize(exec, bandsolve::algo::thomas{}, a, b, c);
  f.solve(exec, d);
#if defined(BANDSOLVE_MISUSE_factored_other_layout)
  // expect: a factorization's solve: d must use the layout that was factored
  auto dc = bandsolve::make_batch<column, double>("d", nsys, n);
  f.solve(exec, dc);
#endif
#if defined(BANDSOLVE_MISUSE_factored_other_scalar)
  // expect: a factorization's solve: d must hold the factored scalar type
  auto df = bandsolve::make_batch<row, float>("d", nsys, n);
  f.solve(exec, df);
#endif
#if defined(BANDSOLVE_MISUSE_factored_const_d)
  // expect: a factorization's solve: d receives the solution and cannot be a View of const
  const Kokkos::View<const double**, Kokkos::LayoutRight, exec_space> dk = d;
  f.solve(exec, dk);
#endif
#if defined(BANDSOLVE_MISUSE_refactor_other_scalar)
  // expect: refactor takes a, b and c of the layout and scalar type that were factored
  auto af = bandsolve::make_batch<row, float>("a", nsys, n);
  f.refactor(exec, af, af, af);
#endif
#if defined(BANDSOLVE_MISUSE_factorize_not_a_backend)
  // expect: the last argument must be a backend tag
  bandsolve::factorize(exec, bandsolve::algo::periodic{}, a, b, c, nsys, 3.0);
#endif

  auto diag = bandsolve::make_batch<row, double>("diag", nsys, n);
  bandsolve::solve(exec, bandsolve::algo::symmetric{}, diag, c, d, info);
#if defined(BANDSOLVE_MISUSE_symmetric_offdiag_not_a_view)
  // expect: diag, offdiag and d must be Kokkos::Views
  const std::vector<double> offdiag(n * nsys);
  bandsolve::solve(exec, bandsolve::algo::symmetric{}, diag, offdiag, d, info);
#endif
#if defined(BANDSOLVE_MISUSE_symmetric_complex_diagonal)
  // expect: diag must be real \(float or double\)
  auto dz = bandsolve::make_batch<row, cplx>("diag", nsys, n);
  bandsolve::solve(exec, bandsolve::algo::symmetric{}, dz, dz, dz, info);
#endif

  Kokkos::View<double***, Kokkos::LayoutRight, exec_space> u("u", 3, 4, 5);
  Kokkos::View<int*, exec_space> line_info("info", 12);
  bandsolve::solve_along(exec, bandsolve::algo::thomas{}, 2, u, u, u, u, line_info);
#if defined(BANDSOLVE_MISUSE_along_rank_5)
  // expect: d must be a View of rank 2, 3 or 4
  Kokkos::View<double*****, Kokkos::LayoutRight, exec_space> u5("u", 1, 1, 1, 1, 5);
  bandsolve::solve_along(exec, bandsolve::algo::thomas{}, 4, u5, u5, u5, u5, line_info);
#endif
#if defined(BANDSOLVE_MISUSE_along_exec_not_a_space)
  // expect: the first argument must be a Kokkos execution space instance
  bandsolve::solve_along(7, bandsolve::algo::thomas{}, 2, u, u, u, u, line_info);
#endif
#if defined(BANDSOLVE_MISUSE_along_coefficient_not_a_view)
  // expect: a, b, c, d \(and u\) must be Kokkos::Views
  const std::vector<double> shared_vector(5);
  bandsolve::solve_along(exec, bandsolve::algo::thomas{}, 2, shared_vector, u, u, u, line_info);
#endif
#if defined(BANDSOLVE_MISUSE_along_coefficient_rank)
  // expect: a, b and c must all be rank-1 Views of length n
  Kokkos::View<double*, exec_space> shared("a", 5);
  bandsolve::solve_along(exec, bandsolve::algo::thomas{}, 2, shared, u, u, u, line_info);
#endif

  auto fa = bandsolve::factorize_along(exec, bandsolve::algo::periodic{}, 2, u, u, u);
  fa.solve(exec, u);
#if defined(BANDSOLVE_MISUSE_along_factored_other_scalar)
  // expect: d must be a non-const View of the factored scalar type
  Kokkos::View<float***, Kokkos::LayoutRight, exec_space> uf("u", 3, 4, 5);
  fa.solve(exec, uf);
#endif
#if defined(BANDSOLVE_MISUSE_along_factored_rank_1)
  // expect: d must be a View of rank 2, 3 or 4
  Kokkos::View<double*, exec_space> u1("u", 5);
  fa.solve(exec, u1);
#endif

  auto toeplitz = bandsolve::factorize(exec, bandsolve::algo::toeplitz{}, -1.0, 4.0, -1.0, n);
  toeplitz.solve(exec, d);
#if defined(BANDSOLVE_MISUSE_toeplitz_integer_coefficients)
  // expect: the scalar type must be float, double, Kokkos::complex<float> or
  bandsolve::factorize(exec, bandsolve::algo::toeplitz{}, -1, 4, -1, n);
#endif
#if defined(BANDSOLVE_MISUSE_toeplitz_const_d)
  // expect: d must be a non-const View of the factored scalar type
  const Kokkos::View<const double**, Kokkos::LayoutRight, exec_space> dk = d;
  toeplitz.solve(exec, dk);
#endif
  Kokkos::View<double*, exec_space> x("x", n);
  bandsolve::solve(exec, bandsolve::algo::toeplitz_dc{}, -1.0, 4.0, -1.0, x);
#if defined(BANDSOLVE_MISUSE_toeplitz_dc_rank_2)
  // expect: x must be a rank-1 Kokkos::View
  bandsolve::solve(exec, bandsolve::algo::toeplitz_dc{}, -1.0, 4.0, -1.0, d);
#endif
  const auto m =
      bandsolve::make_shared_offdiag(-1.0, -1.0, -1.0, -1.0, bandsolve::diagonal_from(b));
  bandsolve::solve(exec, bandsolve::algo::shared_offdiag{}, m, d, info);
#if defined(BANDSOLVE_MISUSE_shared_offdiag_rank_3)
  // expect: bandsolve::solve\(shared_offdiag\): use Kokkos::View
  Kokkos::View<double***, exec_space> d3("d3", nsys, n, 2);
  bandsolve::solve(exec, bandsolve::algo::shared_offdiag{}, m, d3, info);
#endif

  auto ab = bandsolve::banded::make_band<row, double>("ab", nsys, n, 2, 2);
  auto rhs = bandsolve::banded::make_rhs<row, double>("rhs", nsys, n, 1);
  bandsolve::solve(exec, bandsolve::algo::banded_lu{2, 2}, ab, rhs, info);
#if defined(BANDSOLVE_MISUSE_banded_exec_not_a_space)
  // expect: the first argument must be a Kokkos execution space instance
  bandsolve::solve(1.5, bandsolve::algo::banded_lu{2, 2}, ab, rhs, info);
#endif
#if defined(BANDSOLVE_MISUSE_banded_band_not_a_view)
  // expect: ab must be a Kokkos::View
  const std::vector<double> band_vector(n * nsys * 7);
  bandsolve::solve(exec, bandsolve::algo::banded_lu{2, 2}, band_vector, rhs, info);
#endif
#if defined(BANDSOLVE_MISUSE_banded_rhs_of_other_scalar)
  // expect: b must be a non-const View of the scalar type of ab
  auto rhs_f = bandsolve::banded::make_rhs<row, float>("rhs", nsys, n, 1);
  bandsolve::solve(exec, bandsolve::algo::banded_lu{2, 2}, ab, rhs_f, info);
#endif

  auto ba = bandsolve::make_block_batch<row, double>("a", nsys, n, 2);
  auto bd = bandsolve::make_block_rhs<row, double>("d", nsys, n, 2);
  bandsolve::solve(exec, bandsolve::algo::block_thomas{}, ba, ba, ba, bd, info);
#if defined(BANDSOLVE_MISUSE_block_coefficients_not_views)
  // expect: a, b and c must be Kokkos::Views
  const std::vector<double> block_vector(n * nsys * 4);
  bandsolve::solve(exec, bandsolve::algo::block_thomas{}, ba, block_vector, ba, bd, info);
#endif
#if defined(BANDSOLVE_MISUSE_block_rank_3_coefficients)
  // expect: coefficients must be View<T\*\*\*\*>\(nsys, n, m, m\)
  Kokkos::View<double***, exec_space> b3("b", nsys, n, 4);
  bandsolve::solve(exec, bandsolve::algo::block_thomas{}, b3, b3, b3, bd, info);
#endif
#if defined(BANDSOLVE_MISUSE_block_d_of_other_scalar)
  // expect: d must be a non-const View \(it receives the solution\) of the coefficients' scalar
  auto bd_f = bandsolve::make_block_rhs<row, float>("d", nsys, n, 2);
  bandsolve::solve(exec, bandsolve::algo::block_thomas{}, ba, ba, ba, bd_f, info);
#endif
}

}  // namespace

int main() { return 0; }
