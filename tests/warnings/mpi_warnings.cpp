// Compile-only check: the MPI component's header, included as a project header, instantiates the
// distributed solves (scalar and periodic lines, factored and refactored, along an axis, block
// lines factored and refactored, block lines along an axis) for float and double, and block
// lines for Kokkos::complex<double> and with complex right-hand sides over real ones, without a
// warning under -Wall -Wextra -Wconversion -Wshadow -Werror. Nothing here is run.
#include <bandsolve/mpi.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <cstddef>

namespace {

// D: the right-hand sides' type (T, or Kokkos::complex<T> over real T).
template <class T, class D = T>
void instantiate_mpi_block() {
  namespace algo = bandsolve::algo;
  namespace bmpi = bandsolve::mpi;
  const Kokkos::DefaultHostExecutionSpace exec;
  const MPI_Comm comm = MPI_COMM_WORLD;
  const std::size_t nsys = 3, n = 5, m = 3;
  using host = Kokkos::HostSpace;
  Kokkos::View<int*, host> info("info", nsys);
  Kokkos::View<T****, Kokkos::LayoutRight, host> ba("ba", nsys, n, m, m), bb("bb", nsys, n, m, m),
      bc("bc", nsys, n, m, m);
  Kokkos::View<D***, Kokkos::LayoutRight, host> bd("bd", nsys, n, m);
  bmpi::solve(exec, comm, algo::block_thomas{}, ba, bb, bc, bd, info);
  auto fb = bmpi::factorize(exec, comm, algo::block_thomas{}, ba, bb, bc);
  fb.solve(exec, bd);
  fb.refactor(exec, ba, bb, bc);
  Kokkos::View<T****, Kokkos::LayoutLeft, host> la("la", nsys, n, m, m), lb("lb", nsys, n, m, m),
      lc("lc", nsys, n, m, m);
  fb.refactor(exec, la, lb, lc);
  Kokkos::View<T****[4], Kokkos::LayoutRight, host> pa("pa", 1, n, m, m),
      pb("pb", 1, n, m, m), pc("pc", 1, n, m, m);
  bmpi::factorize(exec, comm, algo::block_thomas{}, pa, pb, pc, nsys).refactor(exec, pa, pb, pc);
  // Block lines along axis 1 of a 3 x n x 2 grid: full blocks, and shared (n, m, m) ones.
  Kokkos::View<T*****, Kokkos::LayoutRight, host> ga("ga", 3, n, 2, m, m);
  Kokkos::View<T***, Kokkos::LayoutLeft, host> gs("gs", n, m, m);
  Kokkos::View<D****, Kokkos::LayoutLeft, host> gd("gd", 3, n, 2, m);
  Kokkos::View<int*, host> lines("lines", 6);
  bmpi::solve_along(exec, comm, algo::block_thomas{}, 1, ga, ga, gs, gd, lines);
  auto fg = bmpi::factorize_along(exec, comm, algo::block_thomas{}, 1, ga, ga, ga);
  fg.solve(exec, gd);
  fg.refactor(exec, gs, ga, gs);
  bmpi::factorize_along(exec, comm, algo::block_thomas{}, 1, gs, gs, gs, gd).solve(exec, gd);
}

template <class T>
void instantiate_mpi() {
  namespace algo = bandsolve::algo;
  namespace bmpi = bandsolve::mpi;
  const Kokkos::DefaultHostExecutionSpace exec;
  const MPI_Comm comm = MPI_COMM_WORLD;
  const std::size_t nsys = 3, n = 5;
  using host = Kokkos::HostSpace;
  Kokkos::View<T**, Kokkos::LayoutRight, host> a("a", nsys, n), b("b", nsys, n), c("c", nsys, n),
      d("d", nsys, n);
  Kokkos::View<T**, Kokkos::LayoutLeft, host> al("al", nsys, n), bl("bl", nsys, n),
      cl("cl", nsys, n), dl("dl", nsys, n);
  Kokkos::View<int*, host> info("info", nsys);
  bmpi::solve(exec, comm, a, b, c, d, info);
  bmpi::solve(exec, comm, algo::periodic{}, al, bl, cl, dl, info);
  auto f = bmpi::factorize(exec, comm, a, b, c);
  f.solve(exec, d);
  f.refactor(exec, a, b, c);
  auto fl = bmpi::factorize(exec, comm, algo::periodic{}, al, bl, cl);
  fl.refactor(exec, al, bl, cl);

  Kokkos::View<T***, Kokkos::LayoutRight, host> u("u", 2, 3, 4), v("v", 2, 3, 4),
      w("w", 2, 3, 4), x("x", 2, 3, 4);
  Kokkos::View<int*, host> info_axis("info_axis", 8);
  bmpi::solve_along(exec, comm, 1, u, v, w, x, info_axis);
  auto fa = bmpi::factorize_along(exec, comm, 1, u, v, w);
  fa.solve(exec, x);
  fa.refactor(exec, u, v, w);
  Kokkos::View<T*, host> u1("u1", 3);
  bmpi::factorize_along(exec, comm, 1, u1, u1, u1, x).refactor(exec, u1, u1, u1, x);

  instantiate_mpi_block<T>();
}

}  // namespace

// Referenced so that the instantiations are compiled; never called.
void bandsolve_mpi_warnings() {
  instantiate_mpi<float>();
  instantiate_mpi<double>();
  instantiate_mpi_block<Kokkos::complex<double>>();
  instantiate_mpi_block<float, Kokkos::complex<float>>();
}
