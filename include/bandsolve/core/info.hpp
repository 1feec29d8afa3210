#pragma once
// Per-system info codes (LAPACK convention): 0 = solved, i > 0 = zero, tiny or non-finite pivot
// at row i (1-based). Solvers always write them; these helpers read them back on the host.
#include <bandsolve/core/errors.hpp>

#include <Kokkos_Core.hpp>

#include <string>

namespace bandsolve {

// Default device-side type for info codes, one entry per system.
template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
using info_view = Kokkos::View<int*, MemorySpace>;

// Number of systems whose info code is not 0. Copies to the host, so it waits for the solve.
template <class InfoView>
std::size_t count_failed(const InfoView& info) {
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1,
                "bandsolve::count_failed: info must be a rank-1 Kokkos::View of int");
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
  std::size_t failed = 0;
  for (std::size_t s = 0; s < host.extent(0); ++s)
    if (host(s) != 0) ++failed;
  return failed;
}

// Throws bandsolve::numerical_error naming the first system whose info code is not 0,
// e.g. "heat step: system 17 of 4096 failed: bad pivot at row 3 (info = 3); 2 systems failed".
template <class InfoView>
void throw_if_failed(const std::string& context, const InfoView& info) {
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1,
                "bandsolve::throw_if_failed: info must be a rank-1 Kokkos::View of int");
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
  const std::size_t nsys = host.extent(0);
  std::size_t first = nsys, failed = 0;
  for (std::size_t s = 0; s < nsys; ++s) {
    if (host(s) != 0) {
      if (failed == 0) first = s;
      ++failed;
    }
  }
  if (failed == 0) return;
  const int code = host(first);
  const std::string what =
      code > 0 ? detail::concat("zero, tiny or non-finite pivot at row ", code)
               : detail::concat("invalid argument ", -code);
  throw numerical_error(detail::concat(context, ": system ", first, " of ", nsys, " failed: ",
                                       what, " (info = ", code, "); ", failed, " of ", nsys,
                                       " systems failed"),
                        first, code, failed);
}

namespace detail {

// A factorization shared by every line: its code, info(0), copied to every line's entry.
template <class ExecutionSpace, class InfoView>
void spread_first_code(const ExecutionSpace& exec, const InfoView& info) {
  using policy = Kokkos::RangePolicy<ExecutionSpace>;
  using index = typename policy::member_type;
  Kokkos::parallel_for("bandsolve: a shared factorization's code to every line",
                       policy(exec, 1, static_cast<index>(info.extent(0))),
                       KOKKOS_LAMBDA(const index s) { info(s) = info(0); });
}

}  // namespace detail

}  // namespace bandsolve
