#pragma once
// Where the host side of a distributed call runs. The local passes run on the call's execution
// space (on Kokkos::Cuda on the device); the exchanges and the reduced solves run on the host,
// on the call's space where it runs on host memory, else on Kokkos::DefaultHostExecutionSpace.
#include <Kokkos_Core.hpp>

#include <type_traits>

namespace bandsolve::mpi::detail {

// Whether ExecutionSpace runs on host memory (Serial, OpenMP).
template <class ExecutionSpace>
inline constexpr bool runs_on_host_v =
    Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible;

// Whether ExecutionSpace can read every View's memory.
template <class ExecutionSpace, class... Views>
inline constexpr bool exec_reads_views_v =
    (Kokkos::SpaceAccessibility<ExecutionSpace, typename Views::memory_space>::accessible && ...);

// Where the host side of ExecutionSpace's calls runs: itself on the host, else the default host
// space.
template <class ExecutionSpace>
using host_execution_t = std::conditional_t<runs_on_host_v<ExecutionSpace>, ExecutionSpace,
                                            Kokkos::DefaultHostExecutionSpace>;

// exec itself on host spaces, else a default host execution space instance.
template <class ExecutionSpace>
host_execution_t<ExecutionSpace> host_execution_of(const ExecutionSpace& exec) {
  if constexpr (runs_on_host_v<ExecutionSpace>)
    return exec;
  else
    return host_execution_t<ExecutionSpace>();
}

}  // namespace bandsolve::mpi::detail
