#pragma once
// Distributed calls on Kokkos::Cuda whose local passes run on the host (the block-tridiagonal
// lines, one-shot and factored; scalar lines have device passes, partition_device.hpp): such a
// call copies its Views to host memory, solves there on
// Kokkos::DefaultHostExecutionSpace and copies x (and info) back, fencing exec. The arrays cross
// the bus once each way (a, b, c, d in; d and info out); host copies are allocated per call. A
// View that is contiguous in LayoutRight or LayoutLeft is copied as one block; others
// (LayoutStride subviews) are first gathered into a LayoutRight View of the same extents in their
// own memory space, so the host solve sees the same batch (row layout for strided batches).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

namespace bandsolve::mpi::detail {

// Whether ExecutionSpace runs on host memory (Serial, OpenMP): its calls need no staging.
template <class ExecutionSpace>
inline constexpr bool runs_on_host_v =
    Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible;

// Whether ExecutionSpace can read every View's memory (then a solve needs no staging).
template <class ExecutionSpace, class... Views>
inline constexpr bool exec_reads_views_v =
    (Kokkos::SpaceAccessibility<ExecutionSpace, typename Views::memory_space>::accessible && ...);

// Where the distributed solves of ExecutionSpace run: itself on the host, else the default host
// space.
template <class ExecutionSpace>
using host_execution_t = std::conditional_t<runs_on_host_v<ExecutionSpace>, ExecutionSpace,
                                            Kokkos::DefaultHostExecutionSpace>;

// The layout of a staged copy: LayoutStride Views are gathered into LayoutRight.
template <class View>
using staged_layout_t =
    std::conditional_t<std::is_same_v<typename View::array_layout, Kokkos::LayoutStride>,
                       Kokkos::LayoutRight, typename View::array_layout>;

template <class View, class MemorySpace>
using staged_view_t =
    Kokkos::View<typename View::non_const_data_type, staged_layout_t<View>, MemorySpace>;

template <class Staged, class View, std::size_t... I>
Staged allocate_like(const std::string& label, const View& v, std::index_sequence<I...>) {
  return Staged(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), v.extent(I)...);
}

// A host copy of View v (staged_view_t in HostSpace) and, where v cannot be copied as one block,
// the contiguous View in v's memory space that the copies go through.
template <class View>
struct host_stage {
  using host_view = staged_view_t<View, Kokkos::HostSpace>;
  using gather_view = staged_view_t<View, typename View::memory_space>;
  static constexpr std::size_t dynamic = static_cast<std::size_t>(host_view::rank_dynamic);

  View original;
  host_view host;
  gather_view gathered;  // empty when v is copied as one block

  static bool one_block(const View& v) {
    return !std::is_same_v<typename View::array_layout, Kokkos::LayoutStride> &&
           v.span_is_contiguous();
  }

  template <class ExecutionSpace>
  host_stage(const ExecutionSpace& exec, const View& v, const std::string& label) : original(v) {
    host = allocate_like<host_view>(label + " (host copy)", v, std::make_index_sequence<dynamic>{});
    if (v.size() == 0) return;
    if (one_block(v)) {
      Kokkos::deep_copy(exec, host, v);
    } else {
      gathered = allocate_like<gather_view>(label + " (gathered)", v,
                                            std::make_index_sequence<dynamic>{});
      Kokkos::deep_copy(exec, gathered, v);
      Kokkos::deep_copy(exec, host, gathered);
    }
    exec.fence();
  }

  // Copies the host copy back into v (v's values are the solution's).
  template <class ExecutionSpace>
  void copy_back(const ExecutionSpace& exec) const {
    if (original.size() == 0) return;
    if (gathered.data() == nullptr) {
      Kokkos::deep_copy(exec, original, host);
    } else {
      Kokkos::deep_copy(exec, gathered, host);
      Kokkos::deep_copy(exec, original, gathered);
    }
    exec.fence();
  }
};

template <class ExecutionSpace, class View>
host_stage<View> stage_on_host(const ExecutionSpace& exec, const View& v, const char* name) {
  return host_stage<View>(exec, v, std::string("bandsolve::mpi staged ") + name);
}

// Runs solve(host execution space, a, b, c, d, info) on host copies of the five Views, then copies
// d and info back: the one-shot calls' path for execution spaces that cannot read host memory.
template <class ExecutionSpace, class Solve, class AView, class BView, class CView, class DView,
          class InfoView>
void solve_on_host_copies(const ExecutionSpace& exec, const Solve& solve, const AView& a,
                          const BView& b, const CView& c, const DView& d, const InfoView& info) {
  const auto ha = stage_on_host(exec, a, "a");
  const auto hb = stage_on_host(exec, b, "b");
  const auto hc = stage_on_host(exec, c, "c");
  const auto hd = stage_on_host(exec, d, "d");
  const auto hinfo = stage_on_host(exec, info, "info");
  solve(host_execution_t<ExecutionSpace>(), ha.host, hb.host, hc.host, hd.host, hinfo.host);
  hd.copy_back(exec);
  hinfo.copy_back(exec);
}

// Runs solve(host execution space, d) on d itself where exec runs on host memory, else on a host
// copy of d, copied back after: the factored solves' path (their factors live in host memory).
template <class ExecutionSpace, class Solve, class DView>
void solve_on_host_rhs(const ExecutionSpace& exec, const Solve& solve, const DView& d) {
  if constexpr (runs_on_host_v<ExecutionSpace>) {
    solve(exec, d);
  } else {
    const auto hd = stage_on_host(exec, d, "d");
    solve(host_execution_t<ExecutionSpace>(), hd.host);
    hd.copy_back(exec);
  }
}

}  // namespace bandsolve::mpi::detail
