#pragma once
// The Toeplitz divide and conquer on the device backend (backend/device/): (A1, B1) and the
// Sherman-Morrison correction are the shared kernels of divide_and_conquer_kernel.hpp (a thread
// per block), (A2, B2) a thread per block summing the block ends that can still change its carry
// (no carry passed from block to block by one thread); (A3, B3) runs a team per tile of
// 32 blocks, one thread per block, the blocks' rows passing through padded team scratch in
// blocks of tile_rows_v rows (tile_transpose.hpp: a block's rows are contiguous, so the loads and
// stores are coalesced), the forward sweep written back tile by tile and read again by the
// backward one. A short last block is swept in place by one thread of a team of its own. Runs on
// Kokkos::Cuda and, for tests, on host execution spaces (factorize(..., backend::device{})).
// Scratch: team scratch level 0 only (32 (tile_rows_v + 2) sizeof(T) bytes per team); no
// allocation (the plan holds nblocks values of workspace for the block ends).
#include <bandsolve/backend/device/launch.hpp>
#include <bandsolve/backend/device/systems.hpp>
#include <bandsolve/backend/device/tile_transpose.hpp>
#include <bandsolve/backend/device/work_shape.hpp>
#include <bandsolve/toeplitz/divide_and_conquer_kernel.hpp>

namespace bandsolve::detail {

// Block length of a device plan when the caller leaves it to the library: four truncation
// lengths (the (A1, B1) reads stay a quarter of f) and at least 64 rows, a multiple of the tile
// rows, no longer than the system rounded up to them. Short blocks keep many threads busy: a
// system of n rows has n / s blocks, a thread each. Not yet tuned on a GPU.
template <class T>
index_t toeplitz_dc_device_block_rows(long truncation, index_t n) {
  constexpr index_t rows = device::tile_rows_v<T>;
  const long cap = 1L << 30;
  index_t s = static_cast<index_t>(4 * truncation < cap ? 4 * truncation : cap);
  if (s < 64) s = 64;
  s = (s + rows - 1) / rows * rows;
  const index_t whole = (n + rows - 1) / rows * rows;
  return s > whole && whole > 0 ? whole : s;
}

// (A3, B3) on tiles of 32 full blocks (full: blocks of s rows), and the short last block, if
// any, by the team after them.
template <class T, class CarryView>
struct toeplitz_dc_device_blocks {
  static constexpr int TW = device::tile_systems, TR = device::tile_rows_v<T>,
                       LD = device::tile_ld_v<T>;
  toeplitz_dc_constants<T> c;
  T* x;
  CarryView carry_l, carry_r;
  index_t full;

  // A tile of TR rows of 32 blocks and the carry of each block.
  static std::size_t tile_bytes() { return sizeof(T) * (TW * LD + TW); }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void* scratch,
                                         void*) const {
    const index_t b0 = t * TW, s = c.s;
    if (b0 >= full) {  // the short last block
      device::for_each_system_of_tile(team, 1, [&](const int) {
        const index_t b = c.nblocks - 1;
        toeplitz_dc_block(c, x + b * s, c.last_rows, carry_l(b), carry_r(b));
      });
      return;
    }
    const int ns = static_cast<int>(full - b0 < TW ? full - b0 : TW);
    const device::systems<T> blocks{x, s, 1, 1};  // row k of block b at x[b * s + k]
    T* const tile = static_cast<T*>(scratch);
    T* const carry = tile + TW * LD;
    const T a = c.a, g = c.g, inv = c.inv_delta;
    device::for_each_system_of_tile(team, ns, [&](const int k) { carry[k] = carry_l(b0 + k); });
    const index_t steps = (s + TR - 1) / TR;
    for (index_t q = 0; q < steps; ++q) {
      const index_t i0 = q * TR;
      const int nr = static_cast<int>(s - i0 < TR ? s - i0 : TR);
      device::load_tile(team, blocks, b0, ns, i0, nr, tile, LD);
      team.team_barrier();
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        T z = carry[k];
        for (int j = 0; j < nr; ++j) tile[k * LD + j] = z = dc_forward_step(tile[k * LD + j], inv, a, z);
        carry[k] = z;
      });
      team.team_barrier();
      if (q + 1 < steps) {  // the last rows stay in the tile for the backward sweep
        device::store_tile(team, tile, LD, blocks, b0, ns, i0, nr);
        team.team_barrier();
      }
    }
    device::for_each_system_of_tile(team, ns, [&](const int k) { carry[k] = carry_r(b0 + k); });
    team.team_barrier();
    for (index_t q = steps - 1; q >= 0; --q) {
      const index_t i0 = q * TR;
      const int nr = static_cast<int>(s - i0 < TR ? s - i0 : TR);
      if (q + 1 < steps) {
        device::load_tile(team, blocks, b0, ns, i0, nr, tile, LD);
        team.team_barrier();
      }
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        T xr = carry[k];
        for (int j = nr - 1; j >= 0; --j)
          tile[k * LD + j] = xr = dc_backward_step(tile[k * LD + j], g, xr);
        carry[k] = xr;
      });
      team.team_barrier();
      device::store_tile(team, tile, LD, blocks, b0, ns, i0, nr);
      team.team_barrier();
    }
  }
};

// (A1, A2, B1, B2) on the device backend: (A2) and (B2) a thread per block too, each carry the
// sum of the block ends that can still change it, carry_l(b) = sum_j w_s^j ends(b - j) and
// carry_r(b) = sum_j g_s^j starts(b + j) over j < ceil(k / s) + 1 (beyond, w_s^j and g_s^j are
// below eps/4), instead of the host's recurrences one block after another (the same sums,
// truncated as (A1) truncates the blocks). ends: nblocks values of workspace.
template <class T, class ExecutionSpace, class WorkView>
void toeplitz_dc_device_carries(const ExecutionSpace& exec, const toeplitz_dc_constants<T>& c,
                                const T* x, const WorkView& carry_l, const WorkView& carry_r,
                                const WorkView& ends) {
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  const index_t nb = c.nblocks, terms = (c.k + c.s - 1) / c.s + 1;
  const auto blocks = static_cast<typename range::member_type>(nb);
  toeplitz_dc_forward_ends(exec, c, x, ends);
  Kokkos::parallel_for(
      "bandsolve::toeplitz_dc forward carries(device)", range(exec, 0, blocks),
      KOKKOS_LAMBDA(const index_t b) {
        T sum = 0, wj = 1;
        for (index_t j = 0; j < terms && j < b; ++j, wj *= c.w_s) sum += wj * ends(b - j);
        carry_l(b) = sum;
      });
  toeplitz_dc_backward_starts(exec, c, x, carry_l, ends);
  Kokkos::parallel_for(
      "bandsolve::toeplitz_dc backward carries(device)", range(exec, 0, blocks),
      KOKKOS_LAMBDA(const index_t b) {
        T sum = 0, gj = 1;
        for (index_t j = 0; j < terms && b + j < nb - 1; ++j, gj *= c.g_s) sum += gj * ends(b + j);
        carry_r(b) = sum;
      });
}

// The whole solve on the device backend, enqueued on exec (not fenced); the arguments as for
// toeplitz_dc_run (divide_and_conquer_kernel.hpp), and ends: nblocks values of workspace.
template <class T, class ExecutionSpace, class WorkView, class UView>
void toeplitz_dc_device_run(const ExecutionSpace& exec, const toeplitz_dc_constants<T>& c, T* x,
                            const WorkView& carry_l, const WorkView& carry_r, const WorkView& ends,
                            const UView& u, const WorkView& scale) {
  toeplitz_dc_device_carries(exec, c, x, carry_l, carry_r, ends);
  using kernel = toeplitz_dc_device_blocks<T, WorkView>;
  const index_t full = c.last_rows == c.s ? c.nblocks : c.nblocks - 1;
  const index_t ntiles = device::tile_count(full) + (full < c.nblocks ? 1 : 0);
  device::for_each_tile(exec, "bandsolve::toeplitz_dc blocks(device)", ntiles, kernel::tile_bytes(),
                        0, kernel{c, x, carry_l, carry_r, full});
  toeplitz_dc_correct(exec, c, x, u, scale);
}

}  // namespace bandsolve::detail
