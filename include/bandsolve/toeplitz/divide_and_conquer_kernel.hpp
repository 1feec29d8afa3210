#pragma once
// Kernels of the Toeplitz divide and conquer (divide_and_conquer.hpp has the algorithm and API).
// Notation: blocks b = 0..nblocks-1 of s rows (the last one has last_rows), z = y / delta,
//   forward  z_k = f_k / delta - a z_{k-1}    carry_l[b] = z just before block b
//   backward x_k = z_k + g x_{k+1}            carry_r[b] = x just after block b
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/host_simd/transposed_blocks.hpp>
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/scalar_traits.hpp>

#include <type_traits>

namespace bandsolve::detail {

// Blocks solved side by side in SIMD lanes by one work item: the host backend's cache-line lanes
// of T's real type (complex blocks pass through the register transposes as their parts).
template <class T>
inline constexpr int toeplitz_dc_lanes = cache_line_lanes_v<real_type_t<T>>;

template <class T>
struct toeplitz_dc_constants {
  index_t n = 0, s = 1, nblocks = 0, last_rows = 0;
  index_t k = 1;       // truncation length
  index_t u_rows = 0;  // stored rows of u
  T a = 0, g = 0, inv_delta = 0;
  T w_s = 0;           // (-a)^s: how a forward carry reaches the end of a full block
  T g_s = 0;           // g^s: how a backward carry reaches the start of a full block
  T sm_factor = 0;     // gamma / (1 + gamma u_0)
};

template <class T>
KOKKOS_INLINE_FUNCTION index_t block_rows_of(const toeplitz_dc_constants<T>& c, index_t b) {
  return b + 1 == c.nblocks ? c.last_rows : c.s;
}

// One row of each recurrence: z_k = f_k / delta - a z_{k-1} and x_k = z_k + g x_{k+1}. Complex
// values multiply on their parts (core/scalar_traits.hpp): Kokkos::complex's operators kept GCC
// from vectorizing the lane loops.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T dc_forward_step(const T& f, const T& inv_delta, const T& a,
                                              const T& z) {
  if constexpr (is_complex_v<T>)
    return minus_product(product(f, inv_delta), a, z);
  else
    return f * inv_delta - a * z;
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T dc_backward_step(const T& z, const T& g, const T& x) {
  if constexpr (is_complex_v<T>)
    return T(z.real() + (g.real() * x.real() - g.imag() * x.imag()),
             z.imag() + (g.real() * x.imag() + g.imag() * x.real()));
  else
    return z + g * x;
}

// One block solved by one lane: forward from carry_l, backward from carry_r, in place.
template <class T>
KOKKOS_INLINE_FUNCTION void toeplitz_dc_block(const toeplitz_dc_constants<T>& c, T* x, index_t len,
                                              T zl, T xr) {
  for (index_t k = 0; k < len; ++k) {
    zl = dc_forward_step(x[k], c.inv_delta, c.a, zl);
    x[k] = zl;
  }
  for (index_t k = len - 1; k >= 0; --k) {
    xr = dc_backward_step(x[k], c.g, xr);
    x[k] = xr;
  }
}

// V full blocks side by side: lane l is block b0 + l, rows s apart in memory.
template <int V, class T>
KOKKOS_INLINE_FUNCTION void toeplitz_dc_lanes_solve(const toeplitz_dc_constants<T>& c, T* base,
                                                    const T* carry_l, const T* carry_r) {
  const index_t s = c.s;
  const T a = c.a, g = c.g, inv = c.inv_delta;
  T z[static_cast<std::size_t>(V)], xr[static_cast<std::size_t>(V)];
  for (int l = 0; l < V; ++l) z[l] = carry_l[l];
  for (index_t k = 0; k < s; ++k) {
    T* row = base + k;
    BANDSOLVE_SIMD
    for (int l = 0; l < V; ++l) {
      z[l] = dc_forward_step(row[l * s], inv, a, z[l]);
      row[l * s] = z[l];
    }
  }
  for (int l = 0; l < V; ++l) xr[l] = carry_r[l];
  for (index_t k = s - 1; k >= 0; --k) {
    T* row = base + k;
    BANDSOLVE_SIMD
    for (int l = 0; l < V; ++l) {
      xr[l] = dc_backward_step(row[l * s], g, xr[l]);
      row[l * s] = xr[l];
    }
  }
}

// The same with V x V register transposes (s a multiple of V; transposed_blocks_sweep): the
// forward sweep reads V rows of each block (one cache line per block) as V lane rows kept in
// `work` (s V values, cache-resident); the backward sweep writes them back into x. No strided
// loads or scatters: one contiguous load and one store per cache line of x.
template <int V, class T>
KOKKOS_INLINE_FUNCTION void toeplitz_dc_tiles_solve(const toeplitz_dc_constants<T>& c, T* base,
                                                    const T* carry_l, const T* carry_r, T* work) {
  const T a = c.a, g = c.g, inv = c.inv_delta;
  T z[static_cast<std::size_t>(V)], xr[static_cast<std::size_t>(V)];
  for (int l = 0; l < V; ++l) {
    z[l] = carry_l[l];
    xr[l] = carry_r[l];
  }
  transposed_blocks_sweep<V>(
      base, c.s, work,
      [&](T* row) {
        BANDSOLVE_SIMD
        for (int l = 0; l < V; ++l) row[l] = z[l] = row[l] * inv - a * z[l];
      },
      [&](T* row) {
        BANDSOLVE_SIMD
        for (int l = 0; l < V; ++l) row[l] = xr[l] = row[l] + g * xr[l];
      });
}

// The same for complex blocks (transposed_complex_blocks_sweep): each lane's carries as two real
// values, products on the parts. work: s V complex values.
template <int V, class T>
KOKKOS_INLINE_FUNCTION void toeplitz_dc_complex_tiles_solve(const toeplitz_dc_constants<T>& c,
                                                            T* base, const T* carry_l,
                                                            const T* carry_r,
                                                            real_type_t<T>* work) {
  using R = real_type_t<T>;
  constexpr auto lane_count = static_cast<std::size_t>(V);  // an array bound
  const R ar = c.a.real(), ai = c.a.imag(), gr = c.g.real(), gi = c.g.imag();
  const R vr = c.inv_delta.real(), vi = c.inv_delta.imag();
  R zr[lane_count], zi[lane_count], xr[lane_count], xi[lane_count];
  for (int l = 0; l < V; ++l) {
    zr[l] = carry_l[l].real();
    zi[l] = carry_l[l].imag();
    xr[l] = carry_r[l].real();
    xi[l] = carry_r[l].imag();
  }
  transposed_complex_blocks_sweep<V>(
      reinterpret_cast<R*>(base), c.s, work,
      [&](R* re, R* im) {
        BANDSOLVE_SIMD
        for (int l = 0; l < V; ++l) {
          const R fr = re[l] * vr - im[l] * vi, fi = re[l] * vi + im[l] * vr;
          const R nr = fr - (ar * zr[l] - ai * zi[l]), ni = fi - (ar * zi[l] + ai * zr[l]);
          re[l] = zr[l] = nr;
          im[l] = zi[l] = ni;
        }
      },
      [&](R* re, R* im) {
        BANDSOLVE_SIMD
        for (int l = 0; l < V; ++l) {
          const R nr = re[l] + (gr * xr[l] - gi * xi[l]), ni = im[l] + (gr * xi[l] + gi * xr[l]);
          re[l] = xr[l] = nr;
          im[l] = xi[l] = ni;
        }
      });
}

// Whether V blocks of s rows of T go through register transposes (real rows, or complex rows
// as their 2s parts).
template <int V, class T>
KOKKOS_INLINE_FUNCTION constexpr bool toeplitz_dc_tiles_fit(index_t s) {
  return transposed_blocks_fit<V>(is_complex_v<T> ? 2 * s : s);
}

// V full blocks from their carries: through register transposes where `tiles`, else with
// strided lane loops.
template <int V, class T>
KOKKOS_INLINE_FUNCTION void toeplitz_dc_full_blocks(const toeplitz_dc_constants<T>& c, T* base,
                                                    const T* carry_l, const T* carry_r, void* work,
                                                    bool tiles) {
  if (tiles) {
    if constexpr (is_complex_v<T>)
      toeplitz_dc_complex_tiles_solve<V>(c, base, carry_l, carry_r,
                                         static_cast<real_type_t<T>*>(work));
    else
      toeplitz_dc_tiles_solve<V>(c, base, carry_l, carry_r, static_cast<T*>(work));
    return;
  }
  toeplitz_dc_lanes_solve<V>(c, base, carry_l, carry_r);
}

// The phases before (A3), each a kernel enqueued on exec (not fenced), device code shared by the
// host and the device backend. (A1) ends(b + 1) = the forward value at the end of every block
// b but the last with zero carry-in, from its last k rows (earlier rows change it by less than
// eps/4 of its size); ends(0) = 0.
template <class T, class ExecutionSpace, class WorkView>
void toeplitz_dc_forward_ends(const ExecutionSpace& exec, const toeplitz_dc_constants<T>& c,
                              const T* x, const WorkView& ends) {
  const index_t nb = c.nblocks;
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "bandsolve::toeplitz_dc forward ends",
      range(exec, 0, static_cast<typename range::member_type>(nb)),
      KOKKOS_LAMBDA(const index_t b) {
        if (b + 1 == nb) {
          ends(0) = T(0);
          return;
        }
        const index_t first = c.s > c.k ? c.s - c.k : 0;
        const T* xb = x + b * c.s;
        T z = 0;
        for (index_t k = first; k < c.s; ++k) z = dc_forward_step(xb[k], c.inv_delta, c.a, z);
        ends(b + 1) = z;
      });
}

// (B1) starts(b - 1) = the backward value at the start of every block b but the first with zero
// carry-in, x_start = sum_k g^k z_k over its first k rows, z from the forward carry carry_l(b);
// starts(nb - 1) = 0 (the short last block passes on no carry).
template <class T, class ExecutionSpace, class WorkView>
void toeplitz_dc_backward_starts(const ExecutionSpace& exec, const toeplitz_dc_constants<T>& c,
                                 const T* x, const WorkView& carry_l, const WorkView& starts) {
  const index_t nb = c.nblocks;
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "bandsolve::toeplitz_dc backward starts",
      range(exec, 0, static_cast<typename range::member_type>(nb)),
      KOKKOS_LAMBDA(const index_t b) {
        if (b == 0) {
          starts(nb - 1) = T(0);
          return;
        }
        const index_t len = block_rows_of(c, b), rows = len < c.k ? len : c.k;
        const T* xb = x + b * c.s;
        T z = carry_l(b), sum = 0, gk = 1;
        for (index_t k = 0; k < rows; ++k) {
          z = dc_forward_step(xb[k], c.inv_delta, c.a, z);
          sum += gk * z;
          gk *= c.g;
        }
        starts(b - 1) = sum;
      });
}

// (A1, A2, B1, B2) on the host backends, in place: the carries one after another in block order
// (A2) and in reverse block order (B2), one thread each. carry_l, carry_r: nblocks values.
template <class T, class ExecutionSpace, class WorkView>
void toeplitz_dc_carries(const ExecutionSpace& exec, const toeplitz_dc_constants<T>& c, T* x,
                         const WorkView& carry_l, const WorkView& carry_r) {
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  const index_t nb = c.nblocks;
  toeplitz_dc_forward_ends(exec, c, x, carry_l);
  Kokkos::parallel_for(
      "bandsolve::toeplitz_dc forward carries", range(exec, 0, 1), KOKKOS_LAMBDA(const index_t) {
        for (index_t b = 1; b < nb; ++b) carry_l(b) += c.w_s * carry_l(b - 1);
      });
  toeplitz_dc_backward_starts(exec, c, x, carry_l, carry_r);
  Kokkos::parallel_for(
      "bandsolve::toeplitz_dc backward carries", range(exec, 0, 1), KOKKOS_LAMBDA(const index_t) {
        for (index_t b = nb - 2; b >= 0; --b)
          carry_r(b) += c.g_s * carry_r(b + 1);  // block b + 1 < nb - 1 is full when it matters
      });
}

// Sherman-Morrison: x -= gamma x_0 / (1 + gamma u_0) * u on the rows where u is not negligible.
// Device code, shared by the host and the device backend; u: u_rows values, scale: 1 value.
template <class T, class ExecutionSpace, class WorkView, class UView>
void toeplitz_dc_correct(const ExecutionSpace& exec, const toeplitz_dc_constants<T>& c, T* x,
                         const UView& u, const WorkView& scale) {
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "bandsolve::toeplitz_dc correction scale", range(exec, 0, 1),
      KOKKOS_LAMBDA(const index_t) { scale(0) = c.sm_factor * x[0]; });
  Kokkos::parallel_for(
      "bandsolve::toeplitz_dc correction",
      range(exec, 0, static_cast<typename range::member_type>(c.u_rows)),
      KOKKOS_LAMBDA(const index_t i) { x[i] -= scale(0) * u(i); });
}

// The whole solve on the host backends, enqueued on exec (not fenced). carry_l, carry_r: nblocks
// values; u: u_rows values; scale: 1 value.
template <class T, int V, class ExecutionSpace, class WorkView, class UView>
void toeplitz_dc_run(const ExecutionSpace& exec, const toeplitz_dc_constants<T>& c, T* x,
                     const WorkView& carry_l, const WorkView& carry_r, const UView& u,
                     const WorkView& scale) {
  toeplitz_dc_carries(exec, c, x, carry_l, carry_r);
  const index_t nb = c.nblocks;
  // (A3, B3) every block from its carries: V full blocks per work item in SIMD lanes; the item
  // holding the last block (which may be short) and any partial group go lane by lane.
  const index_t items = (nb + V - 1) / V;
  const bool tiles = toeplitz_dc_tiles_fit<V, T>(c.s);
  const std::size_t scratch = tiles ? static_cast<std::size_t>(c.s) * V * sizeof(T) : 0;
  for_each_pack(
      exec, "bandsolve::toeplitz_dc blocks", items, scratch, KOKKOS_LAMBDA(const index_t p, void* work) {
        const index_t b0 = p * V;
        const bool full = b0 + V < nb || (b0 + V == nb && c.last_rows == c.s);
        if (full) {
          toeplitz_dc_full_blocks<V>(c, x + b0 * c.s, &carry_l(b0), &carry_r(b0), work, tiles);
        } else {
          for (index_t b = b0; b < nb; ++b)
            toeplitz_dc_block(c, x + b * c.s, block_rows_of(c, b), carry_l(b), carry_r(b));
        }
      });
  toeplitz_dc_correct(exec, c, x, u, scale);
}

}  // namespace bandsolve::detail
