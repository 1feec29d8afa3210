#pragma once
// How the host SIMD backend (Serial, OpenMP) cuts a batch into work items: how many systems run
// side by side as SIMD lanes of one item. The families ask these traits and never name a vector
// width themselves; the device backend answers the same questions in backend/device/work_shape.hpp.
#include <bandsolve/backend/host_simd/lanes.hpp>
#include <bandsolve/backend/host_simd/prefetch.hpp>
#include <bandsolve/backend/host_simd/register_sweep.hpp>
#include <bandsolve/backend/scratch.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/layout/layout_of.hpp>

#include <type_traits>

namespace bandsolve::detail {

// Bytes of the widest vector register the host compiler targets (its -march), for kernels whose
// best work-item size depends on it. 16 at the x86-64 baseline and on other targets. Defining
// BANDSOLVE_HOST_VECTOR_BYTES picks another target's sizes (the tests do, to run them all).
#if defined(BANDSOLVE_HOST_VECTOR_BYTES)
inline constexpr int host_vector_bytes = BANDSOLVE_HOST_VECTOR_BYTES;
#elif defined(__AVX512F__)
inline constexpr int host_vector_bytes = 64;
#elif defined(__AVX__)
inline constexpr int host_vector_bytes = 32;
#else
inline constexpr int host_vector_bytes = 16;
#endif

// Values of T in one 64-byte cache line (8 doubles, 16 floats, 4 complex doubles), at least 1:
// the lanes of a pack whose rows are read a cache line per system, and the rows of the tiles
// that gathered layouts transpose.
template <class T>
inline constexpr int cache_line_lanes_v = sizeof(T) >= 64 ? 1 : static_cast<int>(64 / sizeof(T));

// Values of T in two cache lines (16 doubles, 32 floats): two AVX-512 registers, four AVX2 ones,
// so that the division on each recurrence's critical path overlaps with the others'.
template <class T>
inline constexpr int two_line_lanes_v =
    128 / static_cast<int>(sizeof(T)) < 1 ? 1 : 128 / static_cast<int>(sizeof(T));

// Tiles of tiny systems (n <= 7) solved side by side: one register of doubles, two of floats. In
// L1 on one Zen 5 core, n = 7, 1.45 ns per unknown for 8 doubles against 2.1 for 16; floats 0.97
// for 32 against 2.1 for 16.
template <class D>
inline constexpr int tiny_tile_lanes_v =
    static_cast<int>(sizeof(D) >= 8 ? 64 / sizeof(D) : 128 / sizeof(D));

// Carried rows. Each recurrence needs the previous row: c'_{i-1} and d'_{i-1} forward, x_{i+1}
// backward. Read back from where the previous row was just stored, it puts a store-to-load
// forwarding on the critical path of every row; for work items of up to 256 bytes per row
// (32 doubles, 4 AVX-512 registers) the kernels keep the previous row in a local array instead,
// which the compiler holds in registers, and store each row as well. In cache, register-carried
// rows measured 23-24 against 44-46 cycles per row (forward and backward) for 8 double lanes,
// 45-49 against 61-64 for 32; 64 lanes spill the carried rows and measured slower (146 against
// 126).
template <int Lanes, class T>
inline constexpr bool carry_rows_v = Lanes * sizeof(T) <= 256;

// The lanes of one pack of the reduction families (PCR, CR, the Thomas-PCR hybrid): one cache line.
template <class T>
inline constexpr int vector_lanes_v = cache_line_lanes_v<T>;

// ---------------------------------------------------------------------------------------------
// Sweeps over packs of systems (Thomas and the families built on its sweeps).

// How a layout's systems are grouped into work items (one per thread task, lanes across SIMD):
// G groups of W lane-contiguous systems, L = G*W systems in all. Around 32 doubles (64 floats)
// per item keeps several independent recurrences in flight per row; gathered layouts transpose
// tiles of TR rows (one cache line per system).
template <class T>
inline constexpr int tile_rows_v = static_cast<int>(64 / sizeof(T));
template <class T>
inline constexpr int work_lanes_v = 4 * tile_rows_v<T>;

template <class Layout, class T>
struct sweep_packing {  // row and strided: one group of L systems
  static constexpr int W = work_lanes_v<T>, G = 1, L = W, TR = tile_rows_v<T>;
  using ahead = no_rows_ahead;  // gathered tiles prefetch in simd_transpose.hpp
};
// Column blocks read a run of L values on every row of every array, each run in another page,
// which the hardware prefetchers do not follow: row i+1 is prefetched during row i (rows_ahead).
// 512-byte runs (64 doubles) measured as fast as 1 KiB and faster than 256 bytes at n = 256.
template <class T>
struct sweep_packing<layout::column, T> {
  static constexpr int W = 2 * work_lanes_v<T>, G = 1, L = W, TR = tile_rows_v<T>;
  using ahead = rows_ahead<1, 1>;
};
// Column batches too small to give every thread a pack of sweep_packing's L: packs of one cache
// line of lanes for the factored solve (thomas_factor_pack_width). 64 systems of 2^18 rows, 2
// threads, ns per unknown, one pack of 64 doubles (128 floats) / 8 packs of 8 (4 of 16): doubles
// 2.0 / 1.4-1.7, floats 8.7-9.6 / 0.67-0.80; with 65536 systems of 256 rows packs of one line
// read 2.0 against 1.1-1.4 (bench_symmetric, 2-vCPU AMD EPYC Zen 4), so full batches keep L.
// Real values only (thomas_factor_pack_width).
template <class T>
struct column_narrow_packing : sweep_packing<layout::column, T> {
  static constexpr int W = tile_rows_v<T>, L = W;
};
template <int Width, class T>
struct sweep_packing<layout::interleaved<Width>, T> {  // G interleaved packs side by side
  static constexpr int W = Width;
  static constexpr int G = work_lanes_v<T> / W < 1 ? 1 : (work_lanes_v<T> / W > 4 ? 4 : work_lanes_v<T> / W);
  static constexpr int L = G * W, TR = tile_rows_v<T>;
  using ahead = no_rows_ahead;  // the hardware prefetchers follow G streams per array
};

// The narrow factor packs of column and interleaved batches too small to give every thread a
// wide pack (thomas_factor_pack_width): one cache line of lanes, as a column block
// (column_narrow_packing) or as the interleaved<W> packs that fill it (at least one). Factored
// solves at 2^24 unknowns, 2 threads, 2-vCPU Intel Xeon, ns per unknown, wide / narrow:
// interleaved<16> floats, 64 systems of 2^18 rows, 1.26-1.32 / 0.78-0.79; interleaved<8>
// doubles, 32 of 2^19, 2.57-2.62 / 1.66-1.69; interleaved<4> doubles, 16 of 2^20, 2.72-2.73 /
// 1.59-1.60 in items of two packs (2.17-2.22 in items of one); interleaved<4> floats, 16 of
// 2^20, read 1.59-1.63 in their wide items (one cache line) against 1.79-1.80 in items of one
// pack (16 bytes a row).
template <class Layout, class T>
struct narrow_factor_packing : column_narrow_packing<T> {};
template <int Width, class T>
struct narrow_factor_packing<layout::interleaved<Width>, T>
    : sweep_packing<layout::interleaved<Width>, T> {
  static constexpr int G = tile_rows_v<T> / Width < 1 ? 1 : tile_rows_v<T> / Width;
  static constexpr int L = G * Width;
};

// Column factor packs of 32 lanes (four cache lines of doubles, two of floats) where the batch
// gives every thread one but not a wide pack (thomas_factor_pack_width): each row of d is read
// in runs of 128 or 256 bytes rather than one cache line among the neighbouring packs' lines.
// Factored solve of 64 column systems of 2^18 rows, 2 threads, 2-vCPU Intel Xeon, fraction of
// STREAM: doubles in packs of 8 / 16 / 32 lanes 0.38-0.40 / 0.67-0.69 / 0.77-0.79; floats in
// packs of 32 0.77-0.78 against the partition method's 0.48.
template <class T>
struct column_mid_packing : sweep_packing<layout::column, T> {
  static constexpr int W = 32, L = W;
};

// Column batches (and strided Views of unit system stride) of many systems of 256 to 8192
// rows: the one-shot solve reads runs of 2 or 8 KiB of every row (column_run_bytes) instead of
// sweep_packing's 512 bytes. A run that covers whole pages is what the hardware prefetchers
// follow: a bare pass over four column arrays in 512-byte runs measured 0.53-0.67 of STREAM, in
// runs of 4 KiB 0.87-0.94 (2-vCPU Intel Xeon, 2 threads, at any pitch). Wider runs hold more
// c' and d' rows between the two sweeps, so the width that reads fastest falls as the rows grow
// (docs/performance.md, "Column batches in runs of whole pages"). Real values only; the runs
// are left to the hardware prefetchers.
template <class T, int Bytes>
struct column_run_packing : sweep_packing<layout::column, T> {
  static constexpr int W = Bytes / static_cast<int>(sizeof(T)), L = W;
  using ahead = no_rows_ahead;
};
inline constexpr int column_long_run_bytes = 8192, column_short_run_bytes = 2048;
template <class P>
inline constexpr bool is_column_run_v = false;
template <class T, int Bytes>
inline constexpr bool is_column_run_v<column_run_packing<T, Bytes>> = true;

// The run width of column_run_packing for nsys systems of n rows of coefficients T and
// right-hand sides D on `concurrency` threads, 0 where sweep_packing stays. Each thread takes at
// least two runs (its chain pairs a forward sweep with the previous run's backward sweep), and
// the c' rows of two runs per thread stay within the kept scratch (scratch_cache_limit). Shape
// sweep of the 2-vCPU Intel Xeon (2^24 unknowns, fraction of STREAM, 512-byte packs / 2 KiB
// runs / 8 KiB runs): doubles n = 64 0.64-0.66 / 0.60-0.64 / 0.67, 256 0.54-0.57 / 0.46-0.49 /
// 0.72-0.73, 1024 0.51 / 0.59 / 0.50-0.54, 4096 0.43-0.44 / 0.51-0.54 / 0.49-0.50; floats 64
// 0.67-0.68 / 0.61-0.65 / 0.78-0.80, 256 0.60-0.63 / 0.48-0.49 / 0.76-0.79, 1024 0.52-0.53 /
// 0.55-0.56 / 0.62-0.64, 4096 0.46-0.49 / 0.52-0.55 / 0.49. Below 256 rows the packs stay:
// at 16 rows they read 0.97-0.99, and at 64 rows of a padded pitch (make_padded_batch) 1.59-1.62
// ns per unknown against 2.02-2.09 in runs of 8 KiB (doubles; dense 2.21 against 1.75-1.88).
template <class T, class D>
int column_run_bytes(index_t nsys, index_t n, int concurrency) {
  if constexpr (!std::is_floating_point_v<T> || !std::is_same_v<T, D>) {
    (void)nsys, (void)n, (void)concurrency;
    return 0;
  } else {
    const index_t long_runs_below = sizeof(T) >= 8 ? 512 : 2048;
    const int bytes = n < 256 || n > 8192   ? 0
                      : n < long_runs_below ? column_long_run_bytes
                                            : column_short_run_bytes;
    const std::size_t threads = static_cast<std::size_t>(concurrency > 0 ? concurrency : 1);
    const std::size_t lanes = static_cast<std::size_t>(bytes) / sizeof(T);
    const std::size_t scratch = threads * 2 * static_cast<std::size_t>(n) * lanes * sizeof(T);
    const bool fills = static_cast<std::size_t>(nsys) >= 2 * threads * lanes;
    return bytes != 0 && fills && scratch <= scratch_cache_limit ? bytes : 0;
  }
}

// The one-shot solve of lane-contiguous packs sweeps two work items at once
// (thomas_solve_lanes_chain), so its interleaved items hold at most 2 packs (4 in flight). At
// n = 256 that measured 0.77-0.84 of STREAM in double against 0.70 for 4 packs one item at a time,
// and about the same as before in float (0.62-0.76 against 0.64-0.73); 4 packs per item in pairs
// measured 0.71 in double and 0.58 in float (8 streams per array collide in the L1 sets).
template <class Layout, class T>
struct one_shot_sweep_packing : sweep_packing<Layout, T> {};
template <int Width, class T>
struct one_shot_sweep_packing<layout::interleaved<Width>, T>
    : sweep_packing<layout::interleaved<Width>, T> {
  static constexpr int G = sweep_packing<layout::interleaved<Width>, T>::G < 2
                               ? sweep_packing<layout::interleaved<Width>, T>::G
                               : 2;
  static constexpr int L = G * Width;
};

// The one-shot solve of row-layout doubles takes one tile of 8 systems per item: with the
// previous rows carried in registers (carry_rows_v), one register of lanes per row is no longer
// latency-bound, and 8 systems read faster than 32 (each system is a stream of its own). At
// n = 256: 0.85-0.88 ns per unknown against 0.97 for 32 systems (medians of 3 alternated runs,
// 2 threads). Floats measured the other way (64 systems 0.49 ns, 32 systems 0.69, 16 systems
// 0.78) and keep 4 tiles, as does the factorization (its solve: 0.94 ns with 8 systems, 0.65 with
// 32). Built for AVX2 alone (a tile of doubles is two registers) the sweeps are bound by
// instructions rather than memory, and 32 double systems are faster: 1.50-2.07 against
// 1.66-2.24 ns per unknown in a driver, and faster in 5 of 6 alternated suite runs
// (-march=x86-64-v3); the x86-64 baseline keeps 8 (4.4 against 4.6-4.8 ns).
// Complex values take the whole work_lanes_v (16 complex doubles): their reciprocal puts two
// divisions on each row's recurrence, and one tile of lanes left the sweep latency-bound
// (n = 256, 32768 complex double systems, 2 threads: 2.5-2.6 ns per unknown against 4.1 with 4
// systems, 2.8-2.9 with 8).
template <class T>
inline constexpr int row_one_shot_lanes_v =
    (std::is_same_v<T, double> && host_vector_bytes == 32) || is_complex_v<T>
        ? work_lanes_v<T>
        : (sizeof(T) >= 8 ? tile_rows_v<T> : work_lanes_v<T>);
template <class T>
struct one_shot_sweep_packing<layout::row, T> : sweep_packing<layout::row, T> {
  static constexpr int W = row_one_shot_lanes_v<T>, L = W;
};

// Row-layout floats of more than row_wide_pack_max_rows rows per system take one tile of
// systems per work item in the one-shot solve (long_row_one_shot_packing), as doubles do. Each
// system of a gathered pack is a stream of its own: 64 systems are 256 streams over the four
// arrays, which the hardware prefetchers do not follow once a system outgrows the next-pack
// prefetch. 16 systems against 64, fraction of STREAM at 2^24 unknowns (2-vCPU Intel Xeon):
// n = 1024 0.52-0.57 against 0.34-0.37, n = 4096 0.48-0.49 against 0.27-0.33, strided n = 2^16
// 0.41-0.43 against 0.17; at n = 256 both 0.57-0.60, and 64 measured faster there on an AMD EPYC.
inline constexpr index_t row_wide_pack_max_rows = 256;
template <class T>
inline constexpr bool has_long_row_packing_v =
    sizeof(T) < 8 && one_shot_sweep_packing<layout::row, T>::L != tile_rows_v<T>;
template <class T>
struct long_row_one_shot_packing : sweep_packing<layout::row, T> {
  static constexpr int W = tile_rows_v<T>, L = W;
};

// The one-shot solve's long rows, where a work item is one tile of systems: floats of more than
// row_wide_pack_max_rows rows, complex values of more than complex_row_wide_pack_max_rows (whose
// 16 lanes' scratch, 4 MiB at that length, then outgrows the caches: complex doubles,
// 2^21 unknowns, 2 threads, ns per unknown 16 lanes / one tile of 4: 3.0 / 4.8 at 4096 rows,
// 3.6 / 4.2 at 8192, 4.2 / 4.2 at 2^15, 6.7 / 4.2 at 2^16, 11.1 / 4.5 at 2^18).
inline constexpr index_t complex_row_wide_pack_max_rows = 8192;
template <class T>
inline constexpr bool has_long_row_one_shot_packing_v =
    has_long_row_packing_v<T> || (is_complex_v<T> && one_shot_sweep_packing<layout::row, T>::L !=
                                                         long_row_one_shot_packing<T>::L);
template <class T>
inline constexpr index_t row_one_shot_wide_max_rows_v =
    is_complex_v<T> ? complex_row_wide_pack_max_rows : row_wide_pack_max_rows;

// Gathered floats whose rows fill whole tiles take one tile of systems per work item at any
// length where the register sweeps are built: a tile is then 16 vectors of 16 lanes in
// registers (register_sweep.hpp), and the wide packs' reason (a gathered sweep on one register
// of lanes is latency-bound) no longer holds; other n keep the wide packs' gathered sweeps. Row
// floats at 2^24 unknowns, 2 threads, 2-vCPU Intel Xeon, fraction of STREAM, wide packs / tiles
// in registers: n = 16 0.59-0.60 / 0.94-0.95, 64 0.56 / 1.08-1.09, 256 0.57 / 0.84; the tiles of
// longer rows, gathered / in registers: 1024 0.55 / 0.77-0.78, 4096 0.48-0.49 / 0.57-0.63, 2^14
// 0.32-0.33 / 0.51 (docs/performance.md, "One-shot floats of rows in register tiles").
template <class T>
inline bool row_one_shot_register_tiles(index_t n) {
  return sizeof(T) < 8 && register_sweeps_for_v<tile_rows_v<T>, T> && n % tile_rows_v<T> == 0;
}

// One system per work item, its rows as a single lane: batches of fewer systems than a pack
// holds take this path, so their scratch is that of the systems solved (2n values each), not of
// a whole pack.
struct one_system_packing {
  static constexpr int W = 1, G = 1, L = 1, TR = 1;
  using ahead = no_rows_ahead;
};

// One pack per work item (the stored factors: already packed by work item).
template <int Lanes>
struct single_pack {
  static constexpr int W = Lanes, G = 1, L = Lanes;
};

template <class Layout>
inline constexpr bool is_interleaved_v =
    !std::is_same_v<Layout, layout::row> && !std::is_same_v<Layout, layout::column> &&
    !std::is_same_v<Layout, layout::strided> && !std::is_same_v<Layout, unsupported_layout>;

// Packs of stored factors whose factored solve runs through the register sweeps where this build
// has them (register_factored_pack: one register of 8 double lanes, factor rows of one cache
// line): 8 systems for row-layout doubles there, sweep_packing otherwise.
template <class Layout, class C>
struct register_factor_packing : sweep_packing<Layout, C> {};
template <class C>
struct register_factor_packing<layout::row, C> : sweep_packing<layout::row, C> {
  static constexpr int W = register_sweeps_for_v<8, C> ? 8 : sweep_packing<layout::row, C>::W;
  static constexpr int L = W;
};

// Lane-contiguous rows of work item p: G interleaved packs, or L systems of a column block or a
// unit-system-stride strided View. T = const value type for inputs.
template <class Layout, class Packing, class View, class T = typename View::value_type>
KOKKOS_INLINE_FUNCTION lane_rows<T> pack_rows(const View& v, index_t p) {
  const index_t ss = static_cast<index_t>(v.stride(0)), si = static_cast<index_t>(v.stride(1));
  if constexpr (is_interleaved_v<Layout>)
    return lane_rows<T>{v.data() + p * Packing::G * ss, si, ss};
  else
    return lane_rows<T>{v.data() + p * Packing::L * ss, si, 0};
}

template <int L, class View, class T = typename View::value_type>
KOKKOS_INLINE_FUNCTION gathered_lanes<T> pack_gather(const View& v, index_t p) {
  return gathered_lanes<T>{v.data() + p * L * static_cast<index_t>(v.stride(0)),
                           static_cast<index_t>(v.stride(0)), static_cast<index_t>(v.stride(1))};
}

// Interleaved packs present in work item p (the last item may have fewer than G).
template <class Layout, class Packing, class View>
KOKKOS_INLINE_FUNCTION int groups_in(const View& v, index_t p) {
  if constexpr (is_interleaved_v<Layout>) {
    const index_t left = static_cast<index_t>(v.extent(0)) - p * Packing::G;
    return static_cast<int>(left < Packing::G ? left : Packing::G);
  } else {
    return 1;
  }
}

// Prefetch of work item p+1 while item p finishes (nothing after the last one). Interleaved
// packs and row-layout systems with contiguous rows are one block per array. Column blocks are
// left to the hardware prefetchers: fetching a run on every row measured slower.
template <class Layout, class Packing, class View>
KOKKOS_INLINE_FUNCTION void add_next_pack(next_pack_prefetch<4>& pf, const View& v, index_t p,
                                          index_t npacks, index_t n) {
  if (p + 1 >= npacks) return;
  const index_t ss = static_cast<index_t>(v.stride(0)), si = static_cast<index_t>(v.stride(1));
  index_t first = 0, count = 0;  // elements
  if constexpr (is_interleaved_v<Layout>) {
    first = (p + 1) * Packing::G * ss;
    count = Packing::G * ss;
  } else if (si == 1 && ss != 1) {
    first = (p + 1) * Packing::L * ss;
    count = Packing::L * ss;
  }

  const index_t span = static_cast<index_t>(v.span());
  if (first >= span || count == 0) return;
  if (first + count > span) count = span - first;
  pf.n = n;
  pf.bytes = count * static_cast<index_t>(sizeof(typename View::value_type));
  pf.add(v.data() + first);
}

// Whether a pack of this layout reads lane-contiguous rows (decided per call for strided views).
template <class Layout, class View>
bool uses_lane_rows(const View& v) {
  if constexpr (std::is_same_v<Layout, layout::row>) return false;
  else if constexpr (std::is_same_v<Layout, layout::strided>) return v.stride(0) == 1;
  else return true;
}

}  // namespace bandsolve::detail
