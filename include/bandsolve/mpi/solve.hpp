#pragma once
// Distributed one-shot solve of a batch of scalar tridiagonal systems whose rows are split over
// the ranks of an MPI communicator:
//
//   bandsolve::mpi::solve(exec, comm, a, b, c, d, info[, opts]);
//
// Rank r holds a contiguous part of every system (line): rows offsets[r] .. offsets[r] + n_r - 1,
// in rank order, where n_r = rows(d) on rank r (at least 1; the parts may differ in size). a, b,
// c, d are this rank's rows in any batch layout of the single-process API (row, column,
// interleaved<W>, strided; float or double), info has one entry per system and the same number
// of systems on every rank. a[0] of the first rank and c[n_r - 1] of the last are ignored. x
// overwrites d (each rank its own rows); every rank gets the same info codes (info_reduce.hpp).
// Collective over comm: every rank calls it with the same options. The arguments are checked on
// every rank and agreed before any exchange (collective_checks.hpp): bad arguments on any rank
// make every rank throw the same std::invalid_argument. Host execution spaces (Serial, OpenMP);
// the call fences exec. One rank: the single-process Thomas solve. See docs/distributed.md.
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/mpi/collective_checks.hpp>
#include <bandsolve/mpi/datatype.hpp>
#include <bandsolve/mpi/info_reduce.hpp>
#include <bandsolve/mpi/options.hpp>
#include <bandsolve/mpi/partition_kernel.hpp>
#include <bandsolve/mpi/reduced_exchange.hpp>
#include <bandsolve/tridiag/batch_checks.hpp>
#include <bandsolve/tridiag/thomas.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <type_traits>
#include <utility>
#include <vector>

namespace bandsolve::mpi {

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, MPI_Comm comm, const AView& a, const BView& b,
           const CView& c, const DView& d, const InfoView& info, const options& opts = {}) {
  using Layout = layout_of_t<DView>;
  using T = typename DView::non_const_value_type;
  using memory_space = typename DView::memory_space;
  bandsolve::detail::tridiag_static_checks<algo::thomas, ExecutionSpace, DView, AView, BView,
                                           CView>();
  bandsolve::detail::info_static_checks<ExecutionSpace, InfoView>();
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "bandsolve::mpi::solve: the scalar type must be float or double (a, b, c, d alike)");
  static_assert(std::is_same_v<typename AView::non_const_value_type, T>,
                "bandsolve::mpi::solve: a, b, c and d must have the same scalar type");
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                               typename InfoView::memory_space>::accessible,
                "bandsolve::mpi::solve: host execution spaces and host memory only for now");
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible,
                "bandsolve::mpi::solve: host execution spaces (Serial, OpenMP) only for now");

  const std::string fn = "bandsolve::mpi::solve";
  const detail::partition p = detail::agree_on_arguments(fn, comm, sizeof(T), [&] {
    const std::size_t nsys = bandsolve::detail::check_one_shot<Layout>(fn, a, b, c, d, info);
    return std::pair<std::size_t, std::size_t>(nsys, rows(d));
  }, &opts);
  if (p.nsys == 0) return;
  if (p.size == 1) {
    bandsolve::solve(exec, algo::thomas{}, a, b, c, d, info);
    exec.fence();
    return;
  }

  const auto me = static_cast<std::size_t>(p.rank);
  detail::local_part part;
  part.m = p.rows[me];
  part.offset = p.offsets[me];
  part.first = p.rank == 0;
  part.last = p.rank == p.size - 1;
  const index_t nsys = static_cast<index_t>(p.nsys);
  const int k = part.reduced_rows();

  const Kokkos::View<T*, memory_space> red(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "bandsolve::mpi reduced rows"), nsys * k * 3);
  const Kokkos::View<T*, memory_space> iface(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "bandsolve::mpi interface"), nsys * k);
  const Kokkos::View<int*, memory_space> codes("bandsolve::mpi local info", nsys);

  detail::reduce_parts(exec, a, b, c, d, red, codes, nsys, part);
  exec.fence();  // red is complete
  const detail::reduced_router<T, memory_space> router(
      comm, p, detail::chosen_scheme(opts, p.nsys, p.size));
  const auto rows_in = router.to_solvers(red, 3);
  std::vector<int> reduced_codes(p.nsys, 0);
  auto rd = router.allocate_batch("bandsolve::mpi reduced d");
  if (router.lines_solved_here() > 0) {
    const auto ra = router.allocate_batch("bandsolve::mpi reduced a"),
               rb = router.allocate_batch("bandsolve::mpi reduced b"),
               rc = router.allocate_batch("bandsolve::mpi reduced c");
    router.for_each_received(exec, rows_in, 3, KOKKOS_LAMBDA(int t, int i, const T* w) {
      ra(t, i) = w[0];
      rb(t, i) = T(1);
      rc(t, i) = w[1];
      rd(t, i) = w[2];
    });
    const Kokkos::View<int*, memory_space> rinfo("bandsolve::mpi reduced info",
                                                 static_cast<std::size_t>(router.lines_solved_here()));
    bandsolve::solve(exec, algo::thomas{}, ra, rb, rc, rd, rinfo);
    exec.fence();
    router.record_codes(rinfo, reduced_codes);
  }
  router.to_owners(exec, rd, iface);
  detail::finish_parts(exec, a, b, c, d, iface, nsys, part);
  exec.fence();
  detail::reduce_info(comm, p.nsys, codes, reduced_codes, info);
}

}  // namespace bandsolve::mpi
