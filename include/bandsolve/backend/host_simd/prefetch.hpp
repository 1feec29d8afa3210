#pragma once
// Software prefetch of the host SIMD backend: the next work item's input requested during the
// current item's sweeps, and the rows ahead of a forward sweep over lane-contiguous rows.
#include <bandsolve/backend/host_simd/lanes.hpp>
#include <bandsolve/core/config.hpp>

namespace bandsolve::detail {

// Bytes per array that a next_pack_prefetch requests at most: the first 256 KiB of each block.
// More than the caches keep until the next pack starts only evicts lines the current pack still
// needs, and the next pack is read twice: the factored solve of row-layout packs of 32 double
// systems of 2^14 rows (4 MiB per array) ran at 0.42 of STREAM with whole blocks requested and
// 0.64 with this cap (2-vCPU Intel Xeon, docs/performance.md, "Long systems").
inline constexpr index_t next_pack_prefetch_max_bytes = index_t(1) << 18;

// Prefetches the next pack's input during a backward sweep (see BANDSOLVE_PREFETCH): `arrays`
// contiguous blocks of `bytes` each (the next pack of an interleaved or row-layout batch is one
// block per array), spread over the n rows of the sweep; of each block, at most
// next_pack_prefetch_max_bytes.
template <int MaxArrays>
struct next_pack_prefetch {
  const char* base[static_cast<std::size_t>(MaxArrays)] = {};
  int arrays = 0;
  index_t bytes = 0;
  index_t n = 1;

  KOKKOS_FORCEINLINE_FUNCTION void add(const void* p) {
    base[arrays++] = static_cast<const char*>(p);
  }
  // Cache lines requested per array.
  KOKKOS_FORCEINLINE_FUNCTION index_t lines() const {
    return ((bytes < next_pack_prefetch_max_bytes ? bytes : next_pack_prefetch_max_bytes) + 63) /
           64;
  }
  // Called once per backward row k = 0 .. n-1.
  KOKKOS_FORCEINLINE_FUNCTION void operator()(index_t k) const {
    const index_t lines = this->lines();
    const index_t first = lines * k / n, last = lines * (k + 1) / n;
    for (int a = 0; a < arrays; ++a)
      for (index_t line = first; line < last; ++line) BANDSOLVE_PREFETCH(base[a] + line * 64);
  }
};

// A next_pack_prefetch's blocks requested in order over its n calls, a few lines per call, dealt
// out by an error accumulator: no integer division per call as operator()(k) has, which showed
// in sweeps whose rows are few and cheap (the distributed passes' staged packs). Stateful: each
// call requests the lines after the previous call's.
template <int MaxArrays>
struct dealt_prefetch {
  next_pack_prefetch<MaxArrays> blocks;
  mutable index_t owed = 0, line = 0;

  KOKKOS_FORCEINLINE_FUNCTION void operator()(index_t) const {
    owed += blocks.lines();
    for (; owed >= blocks.n; owed -= blocks.n, ++line)
      for (int a = 0; a < MaxArrays; ++a)
        if (a < blocks.arrays) BANDSOLVE_PREFETCH(blocks.base[a] + line * 64);
  }
};

// Software prefetch of the rows ahead of a forward sweep over lane-contiguous rows: at every
// `Every`-th row i, the run of each group's row i + Ahead is requested. Column blocks read one
// short run per row from pages far apart, which the hardware prefetchers do not follow (fetching
// row i+1 during row i measured 0.55 -> 0.77 of STREAM at n = 256, double); interleaved packs
// stream, and a hint every 8 rows, 16 rows ahead, measured 0.75 -> 0.81 in the same harness.
template <int Ahead, int Every>
struct rows_ahead {
  static_assert(Ahead >= 0 && Every >= 1, "bandsolve rows_ahead: Ahead >= 0, Every >= 1");
  static constexpr int ahead = Ahead, every = Every;
};
using no_rows_ahead = rows_ahead<0, 1>;

KOKKOS_FORCEINLINE_FUNCTION void prefetch_run(const void* p, index_t bytes) {
  const char* first = static_cast<const char*>(p);
  for (index_t k = 0; k < bytes; k += 64) BANDSOLVE_PREFETCH(first + k);
}

template <class First, class Second>
struct prefetch_both {
  First first;
  Second second;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(index_t k) const {
    first(k);
    second(k);
  }
};

// Row i + Ahead::ahead of every group, when i is a multiple of Ahead::every (see rows_ahead).
template <class Ahead, int G, class T>
KOKKOS_FORCEINLINE_FUNCTION void prefetch_rows_ahead(index_t i, index_t n, int ng, int lanes,
                                                     const lane_rows<T>& rows) {
  if constexpr (Ahead::ahead > 0) {
    if (i % Ahead::every != 0 || i + Ahead::ahead >= n) return;
    for (int g = 0; g < G; ++g) {
      if (g >= ng) break;
      prefetch_run(rows.row(i + Ahead::ahead, g), lanes * static_cast<index_t>(sizeof(T)));
    }
  } else {
    (void)i, (void)n, (void)ng, (void)lanes, (void)rows;
  }
}

}  // namespace bandsolve::detail
