#pragma once
// The one-shot launch shared by the tridiagonal families whose kernel solves one block of L
// systems per work item (partial pivoting, periodic): packing P (lane_packing, or
// one_lane_packing for batches smaller than a pack), scratch per item, the info of the block's
// real systems written back. The family passes its block kernel as a function object.
#include <bandsolve/backend/host_simd/lane_block.hpp>
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/core/config.hpp>

#include <cstddef>

namespace bandsolve::detail {

template <class P, class T, class D, class BlockKernel, class ExecutionSpace, class AView,
          class BView, class CView, class DView, class InfoView>
void one_shot_block_launch(const ExecutionSpace& exec, const char* label, std::size_t scratch,
                           BlockKernel kernel, const AView& a, const BView& b, const CView& c,
                           const DView& d, const InfoView& info, index_t n, index_t nsys,
                           index_t slots) {
  constexpr int L = P::L;
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  for_each_pack(
      exec, label, (nsys + L - 1) / L, scratch, KOKKOS_LAMBDA(const index_t p, void* work) {
        int info_l[lane_count];
        kernel(n, block_of<P, const T>(a, p, slots), block_of<P, const T>(b, p, slots),
               block_of<P, const T>(c, p, slots), block_of<P, D>(d, p, slots), work, info_l);
        const index_t real = nsys - p * L < L ? nsys - p * L : L;
        for (index_t l = 0; l < real; ++l) info(p * L + l) = info_l[l];
      });
}

}  // namespace bandsolve::detail
