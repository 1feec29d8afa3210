// Calls of the MPI component that misuse its API, as misuse.cpp does for the single-process API
// (the same macros, "expect:" lines and CMake checks; built where BandSolve::mpi exists). With no
// case defined the file compiles.
#include <bandsolve/mpi.hpp>

#include <vector>

namespace {

using exec_space = Kokkos::DefaultHostExecutionSpace;
using row = bandsolve::layout::row;
using column = bandsolve::layout::column;

[[maybe_unused]] void misuse(MPI_Comm comm) {
  const exec_space exec;
  const std::size_t nsys = 4, n = 8;
  auto a = bandsolve::make_batch<row, double>("a", nsys, n);
  auto d = bandsolve::make_batch<row, double>("d", nsys, n);
  Kokkos::View<int*, exec_space> info("info", nsys);
  bandsolve::mpi::solve(exec, comm, a, a, a, d, info);

#if defined(BANDSOLVE_MISUSE_mpi_exec_not_a_space)
  // expect: the first argument must be a Kokkos execution space instance
  bandsolve::mpi::solve(3, comm, a, a, a, d, info);
#endif
#if defined(BANDSOLVE_MISUSE_mpi_mixed_layouts)
  // expect: a, b, c and d must use the same layout
  auto dc = bandsolve::make_batch<column, double>("d", nsys, n);
  bandsolve::mpi::solve(exec, comm, a, a, a, dc, info);
#endif
#if defined(BANDSOLVE_MISUSE_mpi_const_d)
  // expect: d receives the solution and cannot be a View of const
  const Kokkos::View<const double**, Kokkos::LayoutRight, exec_space> dk = d;
  bandsolve::mpi::solve(exec, comm, bandsolve::algo::periodic{}, a, a, a, dk, info);
#endif
#if defined(BANDSOLVE_MISUSE_mpi_info_not_int)
  // expect: info must be a rank-1 Kokkos::View<int\*>
  Kokkos::View<unsigned*, exec_space> info_unsigned("info", nsys);
  bandsolve::mpi::solve(exec, comm, a, a, a, d, info_unsigned);
#endif

  auto f = bandsolve::mpi::factorize(exec, comm, a, a, a);
  f.solve(exec, d);
#if defined(BANDSOLVE_MISUSE_mpi_factorize_not_views)
  // expect: a, b, c and d must be Kokkos::Views
  const std::vector<double> b_vector(n * nsys);
  bandsolve::mpi::factorize(exec, comm, a, b_vector, a);
#endif
#if defined(BANDSOLVE_MISUSE_mpi_solve_not_views)
  // expect: a, b, c and d must be Kokkos::Views
  const std::vector<double> a_vector(n * nsys);
  bandsolve::mpi::solve(exec, comm, a_vector, a, a, d, info);
#endif
#if defined(BANDSOLVE_MISUSE_mpi_factored_other_scalar)
  // expect: d must be a non-const View of the factored scalar type
  auto df = bandsolve::make_batch<row, float>("d", nsys, n);
  f.solve(exec, df);
#endif

  Kokkos::View<double***, Kokkos::LayoutRight, exec_space> u("u", 3, 4, 5);
  Kokkos::View<int*, exec_space> line_info("info", 12);
  bandsolve::mpi::solve_along(exec, comm, 2, u, u, u, u, line_info);
#if defined(BANDSOLVE_MISUSE_mpi_along_rank_5)
  // expect: d must be a View of rank 2, 3 or 4
  Kokkos::View<double*****, Kokkos::LayoutRight, exec_space> u5("u", 1, 1, 1, 1, 5);
  bandsolve::mpi::solve_along(exec, comm, 4, u5, u5, u5, u5, line_info);
#endif

  auto ba = bandsolve::make_block_batch<row, double>("a", nsys, n, 2);
  auto bd = bandsolve::make_block_rhs<row, double>("d", nsys, n, 2);
  bandsolve::mpi::solve(exec, comm, bandsolve::algo::block_thomas{}, ba, ba, ba, bd, info);
#if defined(BANDSOLVE_MISUSE_mpi_block_d_of_other_scalar)
  // expect: d must be a non-const View \(it receives the solution\) of the coefficients' scalar
  auto bd_f = bandsolve::make_block_rhs<row, float>("d", nsys, n, 2);
  bandsolve::mpi::solve(exec, comm, bandsolve::algo::block_thomas{}, ba, ba, ba, bd_f, info);
#endif
}

}  // namespace

int main() { return 0; }
