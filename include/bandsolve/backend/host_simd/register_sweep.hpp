#pragma once
// Sweeps over a full pack of L systems (one tile: 8 doubles or 16 floats) with unit row stride
// (row layout, and lines along the unit-stride axis of an N-D array) with every tile transposed
// straight into SIMD registers: L x L blocks of each input array become L vectors (one system per
// lane), the family's forward elimination runs on them, its eliminated rows go through scratch,
// and the back substitution x_i = z_i - c'_i x_{i+1} transposes its result straight into the
// solution. The family passes its forward arithmetic in (a function object on the vectors); this
// file holds no family's arithmetic.
//
// Where it runs: BANDSOLVE_REGISTER_SWEEPS, 1 by default where AVX-512 is enabled (its 32 vector
// registers hold the transposed blocks), else 0; define it to choose. On the test machine (Zen 5,
// 2 threads, 65536 x 256 doubles) Thomas took 0.72-0.79 ns per unknown against 0.86-0.93 for the
// gathered sweeps, and 1.0-1.2 against 1.6-1.7 in L2 on one thread. With AVX2 only (16
// registers) the blocks spill: 2.4 against 1.6.
//
// Memory: a thread's software prefetches are bounded by its outstanding L1 misses (scattered
// lines: 8-14 GB/s on one thread, whatever the hint or distance), so the next pack's lines are
// requested a few at a time, one line of each array per row, over the whole forward sweep
// (spread_prefetch); issued as a burst per block, or during the (short) back substitution, the
// solve takes 0.93-1.27 ns per unknown. The current pack's lines four blocks ahead are requested
// as well.
#include <bandsolve/backend/host_simd/prefetch.hpp>
#include <bandsolve/backend/host_simd/simd_transpose.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/pivot.hpp>

#include <type_traits>

#ifndef BANDSOLVE_REGISTER_SWEEPS
#if defined(__AVX512F__)
#define BANDSOLVE_REGISTER_SWEEPS 1
#else
#define BANDSOLVE_REGISTER_SWEEPS 0
#endif
#endif

namespace bandsolve::detail {

// The next pack's blocks (see next_pack_prefetch), one line of each per call, at offsets
// `step` bytes apart: with step = bytes / n rounded up, n calls (one per row) walk the whole
// block. When a row of the pack spans more than a line (padded strides), a line is skipped now and
// then and left to the demand loads.
template <int MaxArrays>
struct spread_prefetch {
  const char* base[static_cast<std::size_t>(MaxArrays)] = {};
  int arrays = 0;
  index_t bytes = 0, step = 0, offset = 0;

  spread_prefetch() = default;
  // The blocks of `next` spread over the n rows of one forward sweep.
  KOKKOS_FORCEINLINE_FUNCTION spread_prefetch(const next_pack_prefetch<MaxArrays>& next, index_t n)
      : arrays(next.arrays), bytes(next.bytes), step((next.bytes + n - 1) / n) {
    for (int k = 0; k < next.arrays; ++k) base[k] = next.base[k];
  }

  KOKKOS_FORCEINLINE_FUNCTION void operator()() {
    if (offset < bytes)
      for (int k = 0; k < MaxArrays; ++k)
        if (k < arrays) BANDSOLVE_PREFETCH(base[k] + offset);
    offset += step;
  }
};

// Whether every lane of a vector V of T holds a low pivot risk (core/pivot.hpp): the screen the
// families' forward functions answer rows.clean() with.
template <class T, class V>
inline bool risk_is_low_in_every_lane(const V& risk) {
  bool low = true;
  for (int l = 0; l < static_cast<int>(sizeof(V) / sizeof(T)); ++l)
    low = low && risk_is_low(risk[l]);
  return low;
}

}  // namespace bandsolve::detail

#if BANDSOLVE_HAS_SIMD_TRANSPOSE && BANDSOLVE_REGISTER_SWEEPS
namespace bandsolve::detail::simd {

// K input arrays of a pack: system l of array k starts at data[k] + l * system_stride[k]; rows
// are contiguous.
template <class T, int K>
struct register_pack {
  const T* data[static_cast<std::size_t>(K)];
  index_t system_stride[static_cast<std::size_t>(K)];
};

inline constexpr int register_sweep_prefetch_blocks = 4;

// The forward pass: for each block q of L rows (n a multiple of L), its K arrays transposed into
// in[k][0 .. L-1] (row q*L + j of every lane in in[k][j]), then block(q, in). The pack's lines
// register_sweep_prefetch_blocks blocks ahead are requested first.
template <int L, int K, class T, class Block>
__attribute__((always_inline)) inline void register_blocks(index_t n, const register_pack<T, K>& p, Block&& block) {
  using V = vec<T, L>;
  constexpr int ahead = register_sweep_prefetch_blocks;
  const index_t blocks = n / L;
  for (index_t q = 0; q < blocks; ++q) {
    if (q + ahead < blocks)
      for (int k = 0; k < K; ++k)
        for (int l = 0; l < L; ++l)
          __builtin_prefetch(p.data[k] + (q + ahead) * L + l * p.system_stride[k]);
    V in[static_cast<std::size_t>(K)][static_cast<std::size_t>(L)];
    for (int k = 0; k < K; ++k) {
      const T* base = p.data[k] + q * L;
      const index_t ss = p.system_stride[k];
      load_transpose<L, T>([&](int l) { return base + l * ss; }, in[k]);
    }
    block(q, in);
  }
}

// The back substitution x_i = z_i - c'_i x_{i+1} from x_{n-1} = x_last, c'_i at cp + i *
// cp_stride and z_i at z + i * z_stride (lane-contiguous rows), each block of L rows transposed
// straight into x (system l at x + l * x_stride).
template <int L, class T>
__attribute__((always_inline)) inline void register_back_substitution(index_t n, const T* cp, index_t cp_stride, const T* z,
                                       index_t z_stride, const vec<T, L>& x_last, T* x,
                                       index_t x_stride) {
  using V = vec<T, L>;
  V x_next = x_last;
  for (index_t q = n / L - 1; q >= 0; --q) {
    V X[static_cast<std::size_t>(L)];
    for (int j = L - 1; j >= 0; --j) {
      const index_t i = q * L + j;
      if (i < n - 1) {
        V c_i, z_i;
        load<T, L>(cp + i * cp_stride, c_i);
        load<T, L>(z + i * z_stride, z_i);
        x_next = z_i - c_i * x_next;
      }
      X[j] = x_next;
    }
    transpose<L>(X);
    for (int l = 0; l < L; ++l) store<T, L>(x + q * L + l * x_stride, X[l]);
  }
}

// (The drivers are forced inline, and the families' forward functions keep their carried vectors
// in locals: a vector member of an object that is not inlined away may alias the scratch rows
// stored through T*, and would be reloaded after every store.)

// Loads a lane-contiguous row of L values into a vector: what the families' forward functions
// are handed to read rows they keep in scratch or in stored factors. (Vectors are passed by
// reference, never returned: a wider vector than the build's ABI passes in registers warns.)
template <class T, int L>
struct lane_row_loader {
  inline void operator()(const T* p, vec<T, L>& v) const { load<T, L>(p, v); }
};

// A one-shot solve of the pack into x (system l at x + l * x_stride; may be an input itself):
// rows.forward(q, in, emit) eliminates block q, calling emit(i, c'_i, d'_i) for each of its rows
// in order (stored into the scratch rows cp and dp, n * L values each, with one step of the next
// pack's prefetch); then, if rows.clean() (no pivot flagged), the back substitution from
// rows.last() = d'_{n-1}. Returns false, having written nothing but scratch, when a pivot was
// flagged. Requires n a multiple of L, n >= L.
template <int L, int K, class T, class Rows, class Next>
__attribute__((always_inline)) inline bool register_sweep(index_t n, const register_pack<T, K>& p, T* x, index_t x_stride, T* cp,
                           T* dp, Next& next, Rows& rows) {
  static_assert((std::is_same_v<T, double> || std::is_same_v<T, float>) && L % 4 == 0,
                "bandsolve: register sweeps take double or float packs of a multiple of 4 "
                "lanes");
  using V = vec<T, L>;
  const auto emit = [&](index_t i, const V& cp_i, const V& dp_i) {
    next();
    store<T, L>(cp + i * L, cp_i);
    store<T, L>(dp + i * L, dp_i);
  };
  using block_rows = V[static_cast<std::size_t>(K)][static_cast<std::size_t>(L)];
  register_blocks<L, K>(n, p,
                        [&](index_t q, block_rows& in) { rows.template forward<L>(q, in, emit); });
  if (!rows.clean()) return false;
  register_back_substitution<L>(n, cp, L, dp, L, rows.last(), x, x_stride);
  return true;
}

// A factored solve of GL systems (d: system l at d + l * system_stride, rows contiguous, in
// place), L at a time: for each group g of L systems, rows.forward(g, q, in, emit, load) runs the
// forward substitution of block q of d, calling emit(i, z_i) for each row (z: scratch of n * L
// values), then the back substitution x_i = z_i - c'_i x_{i+1}, c'_i of group g at
// cp + i * GL + g * L. Requires n a multiple of L, n >= L.
template <int L, int GL, class T, class Rows>
__attribute__((always_inline)) inline void register_factored_sweep(index_t n, const T* cp, T* d, index_t system_stride, T* z,
                                    Rows& rows) {
  static_assert((std::is_same_v<T, double> || std::is_same_v<T, float>) && L % 4 == 0 &&
                    GL % L == 0,
                "bandsolve: factored register sweeps take double or float packs of a multiple "
                "of 4 lanes");
  using V = vec<T, L>;
  const lane_row_loader<T, L> load;
  for (int g = 0; g < GL / L; ++g) {
    T* base = d + g * L * system_stride;
    const register_pack<T, 1> pack{{base}, {system_stride}};
    const auto emit = [&](index_t i, const V& z_i) { store<T, L>(z + i * L, z_i); };
    register_blocks<L, 1>(n, pack, [&](index_t q, V (&in)[1][static_cast<std::size_t>(L)]) {
      rows.template forward<L>(g, q, in, emit, load);
    });
    V x_last;
    load(z + (n - 1) * L, x_last);
    register_back_substitution<L>(n, cp + g * L, GL, z, L, x_last, base, system_stride);
  }
}

}  // namespace bandsolve::detail::simd
#endif

namespace bandsolve::detail {

// Whether the register sweeps serve packs of L lanes of C and D (and R) values on this build.
template <int L, class... Scalars>
inline constexpr bool register_sweeps_for_v =
#if BANDSOLVE_HAS_SIMD_TRANSPOSE && BANDSOLVE_REGISTER_SWEEPS
    (L == 8 && (std::is_same_v<Scalars, double> && ...)) ||
    (L == 16 && (std::is_same_v<Scalars, float> && ...));
#else
    false;
#endif

// A one-shot solve of a gathered pack of L systems in registers where the register sweeps serve
// it (8 double or 16 float lanes, all present, unit row stride everywhere, n a multiple of L):
// x into x_out, and returns true. Otherwise, or if the family's screen flags a pivot (nothing
// written then but scratch), returns false and the caller runs its gathered sweeps. in: the K input
// arrays; Rows<T, V>: the family's forward elimination on vectors V of lanes (see
// simd::register_sweep); scratch holds 2 * n * L values; next is the next pack's prefetch.
template <int L, template <class, class> class Rows, int K, class T, int MaxArrays>
KOKKOS_FORCEINLINE_FUNCTION bool register_sweep_pack(
    index_t n, int nl, const gathered_lanes<const T> (&in)[static_cast<std::size_t>(K)],
    gathered_lanes<T> x_out, T* scratch, const next_pack_prefetch<MaxArrays>& next) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE && BANDSOLVE_REGISTER_SWEEPS
  if constexpr (register_sweeps_for_v<L, T>) {
    if (nl != L || n < L || n % L != 0 || x_out.row_stride != 1) return false;
    for (int k = 0; k < K; ++k)
      if (in[k].row_stride != 1) return false;
    spread_prefetch<MaxArrays> spread(next, n);
    simd::register_pack<T, K> pack;
    for (int k = 0; k < K; ++k) {
      pack.data[k] = in[k].base;
      pack.system_stride[k] = in[k].system_stride;
    }
    Rows<T, simd::vec<T, L>> rows;
    return simd::register_sweep<L, K>(n, pack, x_out.base, x_out.system_stride, scratch,
                                      scratch + n * L, spread, rows);
  }
#endif
  (void)n, (void)nl, (void)in, (void)x_out, (void)scratch, (void)next;
  return false;
}

// Lanes of the factored register sweeps for T on this build: one cache line of values (8
// doubles, 16 floats) where the register sweeps are built, else 0.
template <class T>
inline constexpr int register_factored_lanes_v =
#if BANDSOLVE_HAS_SIMD_TRANSPOSE && BANDSOLVE_REGISTER_SWEEPS
    std::is_same_v<T, double> || std::is_same_v<T, float> ? static_cast<int>(64 / sizeof(T)) : 0;
#else
    0;
#endif
// Whether factored packs of GL systems of T go through the register sweeps: doubles in any
// multiple of 8; floats in packs of one register (the tiles of 16 that long rows are factored
// in), where they took the factored solve of row floats from 0.59-1.27 to 0.35-0.56 ns per
// unknown (1024 to 2^18 rows, 2^24 unknowns, 2 threads, 2-vCPU AMD EPYC Zen 5); wide packs of
// 64 floats (256 rows and fewer) ran 0.51-0.53 against 0.45-0.46 at 64 rows and keep the
// gathered sweeps.
template <class T, int GL, int VL = register_factored_lanes_v<T>>
inline constexpr bool register_factored_packs_v =
    VL > 0 && GL % (VL > 0 ? VL : 1) == 0 && (std::is_same_v<T, double> || GL == VL);

// A factored solve of a full gathered pack of GL systems in registers where the register sweeps
// serve it (register_factored_packs_v: VL = register_factored_lanes_v lanes at a time, all GL
// present, unit row stride, n a multiple of VL); returns false, having written nothing,
// otherwise. The stored factors are rows of GL lanes: Rows<T, V>{f0, f1, GL} is the family's
// forward substitution on vectors V of lanes over its two forward factors (see
// simd::register_factored_sweep), cp the back substitution's c'. scratch holds n * VL values.
template <int GL, template <class, class> class Rows, class T>
KOKKOS_FORCEINLINE_FUNCTION bool register_factored_pack(index_t n, int nl, const T* f0,
                                                        const T* f1, const T* cp,
                                                        gathered_lanes<T> d, T* scratch) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE && BANDSOLVE_REGISTER_SWEEPS
  if constexpr (register_factored_packs_v<T, GL>) {
    constexpr int VL = register_factored_lanes_v<T>;
    if (nl != GL || n < VL || n % VL != 0 || d.row_stride != 1) return false;
    Rows<T, simd::vec<T, VL>> rows{f0, f1, GL};
    simd::register_factored_sweep<VL, GL>(n, cp, d.base, d.system_stride, scratch, rows);
    return true;
  }
#endif
  (void)n, (void)nl, (void)f0, (void)f1, (void)cp, (void)d, (void)scratch;
  return false;
}

}  // namespace bandsolve::detail
