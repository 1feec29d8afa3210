#pragma once
// Batched Toeplitz solves on the device backend (backend/device/): the shared factors of
// toeplitz_batch_factorization (1/pivot r and c', n values each) swept by one thread per system,
// a team per tile of 32 systems. Where neighbouring systems are neighbours in memory (column,
// interleaved<W>, strided with unit system stride) each thread reads its system in place; where
// each system is contiguous (row layout, strided with unit row stride) blocks of tile_rows_v rows
// of the tile's systems pass through padded team scratch (tile_transpose.hpp), the forward
// sweep from the first block to the last and the backward one back. Runs on Kokkos::Cuda and,
// for tests, on host execution spaces (solve(..., backend::device{})). Called from batched.hpp
// after its argument checks. Scratch: team scratch level 0 only (32 (tile_rows_v + 2)
// sizeof(Scalar) bytes per team for row tiles); no allocation.
#include <bandsolve/backend/device/launch.hpp>
#include <bandsolve/backend/device/systems.hpp>
#include <bandsolve/backend/device/tile_transpose.hpp>
#include <bandsolve/backend/device/work_shape.hpp>
#include <bandsolve/core/scalar_traits.hpp>

namespace bandsolve::detail {

// One row of each recurrence: y_i = (x_i - t1 y_{i-1}) r_i forward, y_i = x_i - c'_i y_{i+1}
// backward. Complex factors multiply on the parts (core/scalar_traits.hpp): Kokkos::complex's
// operators kept GCC from vectorizing the lane loops. D is S, or complex over a real S.
template <class D, class S>
KOKKOS_FORCEINLINE_FUNCTION D toeplitz_forward_step(const D& x, const S& t1, const D& y,
                                                    const S& r) {
  if constexpr (is_complex_v<S>)
    return product(minus_product(x, t1, y), r);
  else
    return (x - t1 * y) * r;
}
template <class D, class S>
KOKKOS_FORCEINLINE_FUNCTION D toeplitz_backward_step(const D& x, const S& cp, const D& y) {
  if constexpr (is_complex_v<S>)
    return minus_product(x, cp, y);
  else
    return x - cp * y;
}

// The recurrences of toeplitz_batch_factorization::solve for one system (one lane): forward
// y_i = (x_i - t1 y_{i-1}) r_i over rows [i0, i1), backward y_i = x_i - c'_i y_{i+1} over rows
// (i1, i0] in descending order; x(i) is row i of the system, y carries across blocks.
template <class Scalar, class X, class R, class Factor>
KOKKOS_FORCEINLINE_FUNCTION Scalar toeplitz_forward_one(const X& x, const R& r, Factor t1,
                                                        index_t i0, index_t i1, Scalar y) {
  for (index_t i = i0; i < i1; ++i) x(i) = y = toeplitz_forward_step(x(i), t1, y, Factor(r(i)));
  return y;
}
template <class Scalar, class X, class R>
KOKKOS_FORCEINLINE_FUNCTION Scalar toeplitz_backward_one(const X& x, const R& cp, index_t i1,
                                                         index_t i0, Scalar y) {
  for (index_t i = i1; i >= i0; --i) {
    const auto c = cp(i);
    x(i) = y = toeplitz_backward_step(x(i), c, y);
  }
  return y;
}

// Row i of one system, in place (row_stride apart) or in a tile (rows of a block, offset i0).
template <class Scalar>
struct toeplitz_device_rows {
  Scalar* row0;
  index_t stride, i0;
  KOKKOS_FORCEINLINE_FUNCTION Scalar& operator()(index_t i) const {
    return row0[(i - i0) * stride];
  }
};

template <class Scalar, class FactorView>
struct toeplitz_device_kernel {
  using factor_type = typename FactorView::non_const_value_type;
  device::systems<Scalar> d;
  FactorView r, cp;
  factor_type t1;
  index_t n, slots;
  bool tiles;

  static constexpr int TW = device::tile_systems;
  static constexpr int TR = device::tile_rows_v<Scalar>;
  static constexpr int LD = device::tile_ld_v<Scalar>;
  // A tile of TR rows of 32 systems and the carried y of each system.
  static std::size_t tile_bytes() { return sizeof(Scalar) * (TW * LD + TW); }

  KOKKOS_FORCEINLINE_FUNCTION int systems_in(index_t t) const {
    const index_t left = slots - t * TW;
    return static_cast<int>(left < TW ? left : TW);
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void* scratch,
                                         void*) const {
    const int ns = systems_in(t);
    const index_t s0 = t * TW;
    if (!tiles) {
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        const toeplitz_device_rows<Scalar> x{d.system(s0 + k), d.row_stride, 0};
        const Scalar y = toeplitz_forward_one(x, r, t1, 0, n, Scalar(0));
        toeplitz_backward_one(x, cp, n - 2, 0, y);
      });
      return;
    }
    Scalar* const tile = static_cast<Scalar*>(scratch);
    Scalar* const carry = tile + TW * LD;
    device::for_each_system_of_tile(team, ns, [&](const int k) { carry[k] = Scalar(0); });
    const index_t blocks = (n + TR - 1) / TR;
    for (index_t b = 0; b < blocks; ++b) {
      const index_t i0 = b * TR;
      const int nr = static_cast<int>(n - i0 < TR ? n - i0 : TR);
      device::load_tile(team, d, s0, ns, i0, nr, tile, LD);
      team.team_barrier();
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        const toeplitz_device_rows<Scalar> x{tile + k * LD, 1, i0};
        carry[k] = toeplitz_forward_one(x, r, t1, i0, i0 + nr, carry[k]);
      });
      team.team_barrier();
      if (b + 1 < blocks) {  // the last block stays in the tile for the backward sweep
        device::store_tile(team, tile, LD, d, s0, ns, i0, nr);
        team.team_barrier();
      }
    }
    for (index_t b = blocks - 1; b >= 0; --b) {
      const index_t i0 = b * TR;
      const int nr = static_cast<int>(n - i0 < TR ? n - i0 : TR);
      if (b + 1 < blocks) {
        device::load_tile(team, d, s0, ns, i0, nr, tile, LD);
        team.team_barrier();
      }
      // Row n - 1 is final after the forward sweep; the backward one starts at n - 2.
      const index_t top = i0 + nr - 1 < n - 2 ? i0 + nr - 1 : n - 2;
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        const toeplitz_device_rows<Scalar> x{tile + k * LD, 1, i0};
        carry[k] = toeplitz_backward_one(x, cp, top, i0, carry[k]);
      });
      team.team_barrier();
      device::store_tile(team, tile, LD, d, s0, ns, i0, nr);
      team.team_barrier();
    }
  }
};

// Solves every system slot of d (padding lanes of interleaved packs included) with the shared
// factors (n, slots > 0, arguments checked). Enqueued on exec, not fenced.
template <class ExecutionSpace, class DView, class FactorView>
void toeplitz_device_solve(const ExecutionSpace& exec, const DView& d, const FactorView& r,
                           const FactorView& cp, typename FactorView::non_const_value_type t1,
                           index_t n,
                           index_t slots) {
  using Scalar = typename DView::value_type;
  using kernel = toeplitz_device_kernel<Scalar, FactorView>;
  const auto sys = device::systems_of(d);
  const bool tiles = sys.rows_contiguous();
  const index_t ntiles = device::tile_count(slots);
  device::for_each_tile(exec, "bandsolve::toeplitz_batch_factorization::solve(device)", ntiles,
                        tiles ? kernel::tile_bytes() : 0, 0,
                        kernel{sys, r, cp, t1, n, slots, tiles});
}

}  // namespace bandsolve::detail
