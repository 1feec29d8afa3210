#pragma once
// Batched Thomas algorithm: host API.
//
//   bandsolve::solve(exec, bandsolve::algo::thomas{}, a, b, c, d, info);
//       Solves a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i] for every system of the batch;
//       x overwrites d, a, b and c are untouched, info(s) = 0 or the 1-based row of the first
//       zero, tiny or non-finite pivot of system s. a[0] and c[n-1] are ignored.
//   auto f = bandsolve::factorize(exec, bandsolve::algo::thomas{}, a, b, c);
//   f.solve(exec, d);      // any number of times; f.info() holds the factorization's codes
//
// a, b, c, d are Kokkos::Views in one layout (see layout/): View<T**, LayoutRight> (row),
// View<T**, LayoutLeft> (column), View<T**[W], LayoutRight> (interleaved<W>) or
// View<T**, LayoutStride> (strided). For interleaved packs the number of systems is
// info.extent(0) (the last pack may be padded). T is float, double, Kokkos::complex<float> or
// Kokkos::complex<double>; over real coefficients d may also be complex (Kokkos::complex<T>),
// which solves for the real and imaginary parts at once.
// Work is enqueued on exec and never fenced here; fence before reading d or info on the host.
// No pivoting: for diagonally dominant or symmetric positive definite matrices.
//
// Backends: the execution space's own (backend::default_for_t: serial, openmp_simd, device on
// Kokkos::Cuda), or a trailing backend::device{} argument to solve and factorize, which runs the
// device kernels (thomas_device.hpp, with its scratch and factor storage) on any execution space;
// the tests run them on the host spaces that way.
//
// Scratch of the one-shot solve (solve_scratch_bytes<Layout, T, D>(algo::thomas{}, n, nsys,
// threads) gives it exactly): batches of fewer systems than one work item's pack (row, column,
// strided) run one system per item, 2 n sizeof(T) bytes each; larger batches n L 2 sizeof(T)
// (lane-contiguous rows) or n L (sizeof(T) + sizeof(D)) (gathered rows) per item of L systems
// (real column batches and strided Views of unit system stride, many systems of 256 to 8192
// rows: runs of 2 or 8 KiB per row, column_run_packing, at most 2 runs' c' rows per thread
// within scratch_cache_limit);
// at most min(items, threads) items hold scratch at once (Kokkos's per-thread team scratch below
// 1 MiB per item). One long system: 2 n sizeof(T) + 128 bytes. An allocation failure throws
// bandsolve::allocation_error naming the function and the size. The factorization stores 3 n
// values per system slot of its packs (thomas_factorization::factor_pack_width: L, one tile of
// 16 for gathered floats of more than 256 rows); batches of fewer systems than a pack (row,
// column, strided) store one system per pack: 3 n sizeof(T) bytes for one long system
// (thomas_factorization::storage_bytes); so do real rows with unit stride from
// detail::thomas_scan_min_rows rows, whose solve runs as linear scans (thomas_scan_sweep.hpp;
// it gathers a right-hand side without unit row stride into n sizeof(T) bytes of scratch);
// column batches of at least 8 doubles (16 floats) and fewer than threads x L systems store packs
// of one cache line (column_narrow_packing), or of 32 lanes from 32 systems per thread
// (column_mid_packing), so that every thread gets a pack. Tiny systems
// stored back to back (n <= 7: row layout without padding, strided with unit row stride and
// system stride n) take tiny_thomas.hpp's kernel, which needs no scratch. Solves of one work
// item, or of at most inline_solve_unknowns in all, run on the calling thread (tiny_launch.hpp),
// their scratch from the buffer kept between calls (backend/scratch.hpp).
#include <bandsolve/backend/host_simd/host_cpu.hpp>
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/host_simd/team_launch.hpp>  // concurrency_of
#include <bandsolve/backend/host_simd/tiny_launch.hpp>
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/tridiag/batch_checks.hpp>  // check_factored_rhs, check_refactor_abc
#include <bandsolve/tridiag/thomas_device.hpp>
#include <bandsolve/tridiag/thomas_kernel.hpp>
#include <bandsolve/tridiag/thomas_register_sweep.hpp>
#include <bandsolve/tridiag/thomas_scan_sweep.hpp>
#include <bandsolve/tridiag/tiny_thomas.hpp>

#include <tuple>
#include <type_traits>
#include <utility>

namespace bandsolve {

namespace detail {
// Scratch bytes of one one-shot work item: c' of two items in flight (lane rows; of one item
// where each chain holds a single pack: a batch of one pack of long systems then keeps its
// scratch within the kept buffer), or c' and d' of one gathered pack.
template <class P, bool Lanes, class T, class D>
constexpr std::size_t thomas_item_scratch(index_t n, index_t chain) {
  return static_cast<std::size_t>(n) * P::L *
         (Lanes ? (chain > 1 ? 2 : 1) * sizeof(T) : sizeof(T) + sizeof(D));
}

// Packs per chain of the one-shot solve's lane rows: chain_length's, or one chain per thread for
// column runs (column_run_packing: a batch of few runs each).
template <class P>
index_t one_shot_chain_length(index_t npacks, int concurrency) {
  if constexpr (!is_column_run_v<P>) {
    return chain_length(npacks, concurrency);
  } else {
    const index_t threads = concurrency > 0 ? concurrency : 1;
    return (npacks + threads - 1) / threads;
  }
}

// Calls f(P{}, std::bool_constant<Lanes>{}) with the one-shot packing P and row access Lanes
// that solve(exec, algo::thomas{}, ...) uses for nsys systems of n rows (lanes: whether the
// Views' rows are lane-contiguous, see uses_lane_rows). Non-interleaved batches of fewer systems
// than a pack run one system per item; gathered floats of more than row_wide_pack_max_rows rows
// or of rows that fill whole tiles where the register sweeps are built
// (row_one_shot_register_tiles), and complex values of more than complex_row_wide_pack_max_rows
// (or fewer systems than a wide pack) take packs of one tile.
template <class Layout, class T, class F>
void thomas_one_shot_dispatch(index_t nsys, index_t n, bool lanes, const F& f) {
  const auto run = [&](auto packing, auto lane_rows) {
    if constexpr (!is_interleaved_v<Layout>) {
      if (nsys < decltype(packing)::L) {
        f(one_system_packing{}, std::true_type{});
        return;
      }
    }
    f(packing, lane_rows);
  };
  const auto run_gathered = [&] {
    if constexpr (has_long_row_one_shot_packing_v<T>) {
      // Complex batches too small for a wide pack take tiles too rather than a lane each.
      if (n > row_one_shot_wide_max_rows_v<T> || row_one_shot_register_tiles<T>(n) ||
          (is_complex_v<T> && nsys < one_shot_sweep_packing<layout::row, T>::L)) {
        run(long_row_one_shot_packing<T>{}, std::false_type{});
        return;
      }
    }
    run(one_shot_sweep_packing<layout::row, T>{}, std::false_type{});
  };
  if constexpr (std::is_same_v<Layout, layout::strided>) {
    if (lanes)
      run(sweep_packing<layout::column, T>{}, std::true_type{});
    else
      run_gathered();
  } else if constexpr (std::is_same_v<Layout, layout::row>) {
    run_gathered();
  } else {
    run(one_shot_sweep_packing<Layout, T>{}, std::true_type{});
  }
}

// Thomas's own one-shot packing: thomas_one_shot_dispatch's, or runs of whole pages for column
// batches (and strided Views of unit system stride) of many systems (column_run_bytes). Runs
// wider than MaxRunBytes keep the packs (the symmetric solve takes only the short runs).
template <class Layout, class T, class D, int MaxRunBytes = column_long_run_bytes, class F>
void thomas_solve_dispatch(index_t nsys, index_t n, bool lanes, int concurrency, const F& f) {
  if constexpr (std::is_same_v<Layout, layout::column> ||
                std::is_same_v<Layout, layout::strided>) {
    const int run_bytes = lanes ? column_run_bytes<T, D>(nsys, n, concurrency) : 0;
    if (run_bytes == column_long_run_bytes && run_bytes <= MaxRunBytes) {
      f(column_run_packing<T, column_long_run_bytes>{}, std::true_type{});
      return;
    }
    if (run_bytes == column_short_run_bytes && run_bytes <= MaxRunBytes) {
      f(column_run_packing<T, column_short_run_bytes>{}, std::true_type{});
      return;
    }
  }
  thomas_one_shot_dispatch<Layout, T>(nsys, n, lanes, f);
}

// Scratch bytes of the one-shot launch that thomas_solve_dispatch<..., MaxRunBytes> picks (the
// symmetric solve shares its packings and scratch).
template <class Layout, class T, class D, int MaxRunBytes = column_long_run_bytes>
std::size_t thomas_one_shot_scratch_bytes(std::size_t n, std::size_t nsys, int concurrency,
                                          bool lane_rows) {
  std::size_t bytes = 0;
  if (n == 0 || nsys == 0) return 0;
  thomas_solve_dispatch<Layout, T, D, MaxRunBytes>(
      static_cast<index_t>(nsys), static_cast<index_t>(n), lane_rows, concurrency,
      [&](auto packing, auto lanes) {
        using P = decltype(packing);
        const index_t npacks = (static_cast<index_t>(nsys) + P::L - 1) / P::L;
        const index_t chain =
            decltype(lanes)::value ? one_shot_chain_length<P>(npacks, concurrency) : 1;
        bytes = pack_scratch_bytes((npacks + chain - 1) / chain,
                                   thomas_item_scratch<P, decltype(lanes)::value, T, D>(
                                       static_cast<index_t>(n), chain),
                                   concurrency);
      });
  return bytes;
}

// The one-shot launch with packing P: lane-contiguous rows in chains of consecutive packs, two
// in flight (Lanes; c' rows of both), or gathered packs one at a time (c' rows, then d' rows;
// n*L*sizeof(T) keeps those aligned).
template <class Layout, class P, bool Lanes, class ExecutionSpace, class AView, class BView,
          class CView, class DView, class InfoView>
void thomas_one_shot_launch(const ExecutionSpace& exec, const AView& a, const BView& b,
                            const CView& c, const DView& d, const InfoView& info, index_t n,
                            index_t nsys) {
  using T = typename BView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  constexpr int L = P::L;
  const index_t npacks = (nsys + L - 1) / L;
  const index_t chain = Lanes ? one_shot_chain_length<P>(npacks, exec.concurrency()) : 1;
  const index_t nchains = (npacks + chain - 1) / chain;
  const std::size_t scratch = thomas_item_scratch<P, Lanes, T, D>(n, chain);
  for_each_pack_or_inline(
      exec, "bandsolve::solve(thomas)", nchains, scratch, runs_inline(nchains, n * nsys),
      KOKKOS_LAMBDA(const index_t chain_index, void* work) {
        // Named here first: nvcc rejects an extended lambda whose first use of a captured
        // variable is inside an if constexpr.
        (void)a, (void)b, (void)c, (void)d, (void)n;
        constexpr int W = P::W, G = P::G;  // not captured (nvcc, as above)
        T* cp = static_cast<T*>(work);
        const index_t p_begin = chain_index * chain;
        const index_t p_end = p_begin + chain < npacks ? p_begin + chain : npacks;
        const auto systems_in = [&](index_t p) {
          return static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
        };
        const auto write_info = [&](index_t p, const int* codes) {
          const int nl = systems_in(p);
          for (int l = 0; l < nl; ++l) info(p * L + l) = codes[l];
        };
        if constexpr (Lanes) {
          const auto rows_of = [&](index_t p) {
            return lane_item<T, D>{pack_rows<Layout, P, AView, const T>(a, p),
                                   pack_rows<Layout, P, BView, const T>(b, p),
                                   pack_rows<Layout, P, CView, const T>(c, p),
                                   pack_rows<Layout, P>(d, p)};
          };
          // Interleaved packs are always full width (padding lanes are allocated) but the last
          // item may hold fewer than G packs; other layouts' last item may hold fewer lanes.
          const index_t last = npacks - 1;
          const int last_groups = groups_in<Layout, P>(d, last);
          const int last_lanes = is_interleaved_v<Layout> ? W : systems_in(last);
          const bool last_is_partial = last_groups < G || last_lanes < W;
          const index_t full_end = p_end == npacks && last_is_partial ? last : p_end;
          thomas_solve_lanes_chain<W, G, typename P::ahead>(n, p_begin, full_end, rows_of, cp,
                                                            write_info);
          if (full_end < p_end) {
            const auto item = rows_of(last);
            int info_l[carried_lanes(L)] = {};
            const next_pack_prefetch<4> no_prefetch;
            if (last_lanes == W)
              thomas_solve_lanes<W, G, true>(n, W, last_groups, item.a, item.b, item.c, item.d,
                                             cp, info_l, no_prefetch);
            else
              thomas_solve_lanes<W, G, false>(n, last_lanes, last_groups, item.a, item.b,
                                              item.c, item.d, cp, info_l, no_prefetch);
            write_info(last, info_l);
          }
        } else if constexpr (!is_interleaved_v<Layout>) {
          for (index_t p = p_begin; p < p_end; ++p) {
            int info_l[carried_lanes(L)] = {};
            next_pack_prefetch<4> prefetch;
            add_next_pack<Layout, P>(prefetch, a, p, npacks, n);
            add_next_pack<Layout, P>(prefetch, b, p, npacks, n);
            add_next_pack<Layout, P>(prefetch, c, p, npacks, n);
            add_next_pack<Layout, P>(prefetch, d, p, npacks, n);
            const auto ca = pack_gather<L, AView, const T>(a, p);
            const auto cb = pack_gather<L, BView, const T>(b, p);
            const auto cc = pack_gather<L, CView, const T>(c, p);
            const auto cd = pack_gather<L>(d, p);
            const gathered_lanes<const D> cd_in{cd.base, cd.system_stride, cd.row_stride};
            if (!solve_pack_in_registers<L>(n, systems_in(p), ca, cb, cc, cd_in, cd, cp,
                                            prefetch))
              thomas_solve_gather<P::TR, L>(n, systems_in(p), ca, cb, cc, cd, cp,
                                            reinterpret_cast<D*>(cp + n * L), info_l, prefetch);
            write_info(p, info_l);
          }
        }
      });
}

// The one-shot solve of tiny systems stored back to back (tiny_thomas.hpp): work items of
// tiny_tile_systems consecutive systems, each one contiguous block per array.
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void tiny_thomas_launch(const ExecutionSpace& exec, const AView& a, const BView& b,
                        const CView& c, const DView& d, const InfoView& info, index_t n,
                        index_t nsys) {
  using T = typename BView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  constexpr index_t S = tiny_tile_systems;
  const index_t items = (nsys + S - 1) / S;
  const T* const pa = a.data();
  const T* const pb = b.data();
  const T* const pc = c.data();
  D* const pd = d.data();
  for_each_pack_or_inline(
      exec, "bandsolve::solve(thomas)", items, 0, runs_inline(items, n * nsys),
      KOKKOS_LAMBDA(const index_t p, void*) {
        const index_t first = p * S;
        const index_t count = nsys - first < S ? nsys - first : S;
        int codes[S];
        const index_t offset = first * n;
        tiny_thomas_run(n, count, pa + offset, pb + offset, pc + offset, pd + offset, codes);
        for (index_t s = 0; s < count; ++s) info(first + s) = codes[s];
      });
}
}  // namespace detail

// ---------------------------------------------------------------------------------------------
// One-shot solve.

// Backend: the execution space's own (backend::default_for_t), or backend::device to run the
// device kernels (thomas_device.hpp) on any execution space, host spaces included.
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView,
          class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve(const ExecutionSpace& exec, algo::thomas,
                                                       const AView& a, const BView& b,
                                                       const CView& c, const DView& d,
                                                       const InfoView& info, Backend) {
  detail::one_shot_static_checks<algo::thomas, ExecutionSpace, AView, BView, CView, DView,
                                 InfoView>();
  using Layout = layout_of_t<DView>;
  using T = typename BView::non_const_value_type;   // coefficients
  const std::string fn = "bandsolve::solve(thomas)";

  detail::check_same_shape(fn, "a", a, "d", d);
  detail::check_same_shape(fn, "b", b, "d", d);
  detail::check_same_shape(fn, "c", c, "d", d);
  detail::check_no_overlap(fn, "d", d, "a", a);
  detail::check_no_overlap(fn, "d", d, "b", b);
  detail::check_no_overlap(fn, "d", d, "c", c);
  detail::check_no_overlap(fn, "d", d, "info", info);
  const index_t n = static_cast<index_t>(rows(d));
  detail::check_rows_fit_int(fn, rows(d));
  const index_t nsys = static_cast<index_t>(detail::systems_from_info<Layout>(fn, info, d));
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }

  if constexpr (std::is_same_v<Backend, backend::device>) {
    detail::thomas_device_solve(exec, a, b, c, d, info, n, nsys);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve(thomas): a host backend runs only on its own execution space");
    // Tiny systems back to back (row layout without padding, strided with unit row stride and
    // system stride n) stream as contiguous blocks.
    if constexpr (std::is_same_v<Layout, layout::row> || std::is_same_v<Layout, layout::strided>) {
      if (n <= detail::tiny_max_rows && detail::tiny_systems_back_to_back(n, a, b, c, d)) {
        detail::tiny_thomas_launch(exec, a, b, c, d, info, n, nsys);
        return;
      }
    }
    // Strided Views read lane-contiguous rows as column blocks do, or gather as the row layout.
    const bool lanes = detail::uses_lane_rows<Layout>(d) && detail::uses_lane_rows<Layout>(a) &&
                       detail::uses_lane_rows<Layout>(b) && detail::uses_lane_rows<Layout>(c);
    using D = typename DView::non_const_value_type;
    detail::thomas_solve_dispatch<Layout, T, D>(
        nsys, n, lanes, exec.concurrency(), [&](auto packing, auto lane_rows) {
          detail::thomas_one_shot_launch<Layout, decltype(packing), decltype(lane_rows)::value>(
              exec, a, b, c, d, info, n, nsys);
        });
  }
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, algo::thomas, const AView& a, const BView& b,
           const CView& c, const DView& d, const InfoView& info) {
  solve(exec, algo::thomas{}, a, b, c, d, info, backend::default_for_t<ExecutionSpace>{});
}

// Scratch bytes that solve(exec, algo::thomas{}, a, b, c, d, info) holds for nsys systems of n
// rows in Layout (coefficients T, right-hand sides D) on `concurrency` threads; lane_rows: the
// rows are lane-contiguous (column, interleaved, strided with unit system stride). See the bound
// in this header's top comment.
template <class Layout, class T, class D = T>
std::size_t solve_scratch_bytes(algo::thomas, std::size_t n, std::size_t nsys, int concurrency,
                                bool lane_rows = !std::is_same_v<Layout, layout::row>) {
  return detail::thomas_one_shot_scratch_bytes<Layout, T, D>(n, nsys, concurrency, lane_rows);
}

// ---------------------------------------------------------------------------------------------
// Factorization reused across right-hand sides.

namespace detail {
// Lets factorize() fill a factorization without making its members public.
struct thomas_factorization_access {
  template <class F, class FactorView, class InfoView>
  static F make(FactorView r, FactorView l, FactorView cp, InfoView info, index_t nsys, index_t n) {
    return F(r, l, cp, info, nsys, n);
  }
};

// Scratch bytes up to which the factored solve of a gathered pack (row layout, strided Views
// without unit system stride) keeps the d' rows of its whole systems, about a work item's share
// of a large last-level cache; longer systems go in blocks (thomas_factored_solve_gather).
// Row-layout doubles of 2^18 rows, 32 systems per work item (before such rows took tiles of 8),
// ran at 0.35 of STREAM whole and 0.55 in blocks; from 2^10 to 2^16 rows, where the whole fits
// that cache, blocks ran up to 0.07 slower (2-vCPU Intel Xeon, docs/performance.md). A variable
// so that tests can lower it.
inline std::size_t factored_gather_whole_bytes = std::size_t(16) << 20;

// Whether gathered systems of long rows may take factor packs of one tile, as the one-shot solve
// takes them (long_row_one_shot_packing): floats in row and strided layouts.
template <class Layout, class T>
inline constexpr bool has_long_factor_packs_v =
    (std::is_same_v<Layout, layout::row> || std::is_same_v<Layout, layout::strided>) &&
    has_long_row_packing_v<T>;
// Thomas's factorization also stores gathered doubles in tiles (of 8) where a wide pack's d'
// rows would outgrow factored_gather_whole_bytes and go block by block (n > 2^16 at 16 MiB).
// Row doubles at 2^24 unknowns, 2 threads, 2-vCPU AMD EPYC Zen 5, ns per unknown, packs of 32 /
// tiles: 2^18 rows (64 systems) 1.57-1.64 / 0.94-1.34; 2^20 rows (16 systems, where the
// partition method ran) 1.96-2.00 / 1.58-1.68 (docs/performance.md); at 2^16 the wide pack stays.
template <class Layout, class T>
inline constexpr bool has_long_double_factor_packs_v =
    (std::is_same_v<Layout, layout::row> || std::is_same_v<Layout, layout::strided>) &&
    std::is_same_v<T, double> && long_row_one_shot_packing<T>::L < sweep_packing<Layout, T>::L;
// Where the register sweeps are built (a tile of doubles is their width) and the host takes
// tiles (register_double_tiles), those tiles are stored from one block of a wide pack's rows on
// (256 rows), whatever the length: the register sweeps then read each factor row as one cache
// line, where a wide pack's rows are four that its four groups of 8 systems read one after the
// other, 256 bytes apart; the wide packs left (shorter rows) take the gathered sweeps. Probes of
// thomas_factorization::solve, row doubles at 2^24 unknowns, 2 threads, ns per unknown, wide pack
// in registers against tiles in registers (gathered wide packs below 256 rows): on a 2-vCPU AMD
// EPYC Zen 4 (512-bit vectors as two halves) 64 rows 3.35-3.46 / 1.52-1.55, 256 rows 2.73-2.90 /
// 1.52-1.61, 1024 rows 2.29-2.68 / 1.27-1.67, 4096 rows 2.20-2.61 / 1.27-2.07; on a 2-vCPU Intel
// Xeon (512-bit units, 2 MiB of L2 per core) 64 rows 1.86 / 1.35, 256 rows 1.76 / 1.24, 1024 rows
// 1.87 / 1.17, 4096 rows 2.65 / 1.21, 2^14 rows 3.04 / 1.36. AMD's Zen 5 (host_cpu.hpp) keeps wide
// packs, through the register sweeps from register_wide_pack_min_rows rows, up to the rows whose
// wide pack reaches factored_gather_whole_bytes (2^16 at 16 MiB), and stores tiles from there: on
// the 2-vCPU AMD EPYC Zen 5 (shape sweep, 13-17 alternated pairs), median time of row doubles
// with wide packs in registers over tiles: 64 rows 0.89, 256 0.81, 1024 0.83, 4096 0.86, 2^14
// 0.97, 2^16 1.14; at 16 rows the wide pack in registers over gathered 1.16 (docs/performance.md).
template <class T>
inline constexpr bool has_register_double_tiles_v =
    std::is_same_v<T, double> && register_factored_lanes_v<T> == long_row_one_shot_packing<T>::L;
// Whether this host takes those tiles (read once; a test may set it to run both choices).
inline bool register_double_tiles = !host_is_amd_family_1a_or_later();
// Rows from which wide packs of doubles go through the register sweeps where the host takes no
// tiles.
inline constexpr index_t register_wide_pack_min_rows = 64;

// Whether column and interleaved factorizations of T with packs of Wide may store narrow ones
// (narrow_factor_packing): real values, the ones measured.
template <class Layout, class T, index_t Wide>
inline constexpr bool has_narrow_factor_packs_v =
    (std::is_same_v<Layout, layout::column> || is_interleaved_v<Layout>) &&
    std::is_floating_point_v<T> && narrow_factor_packing<Layout, T>::L < Wide;

// Whether column factorizations of T with packs of Wide may store packs of 32 lanes
// (column_mid_packing): real values, between the narrow and the wide packs.
template <class Layout, class T, index_t Wide>
inline constexpr bool has_mid_factor_packs_v =
    std::is_same_v<Layout, layout::column> && std::is_floating_point_v<T> &&
    column_mid_packing<T>::L < Wide && narrow_factor_packing<Layout, T>::L < column_mid_packing<T>::L;

// Systems per factor pack of thomas_factorization for nsys systems of n rows (lanes: the rows of
// a, b and c are lane-contiguous) on `threads` threads: one tile for gathered floats of more than
// row_wide_pack_max_rows rows (a pack of 64 is 256 streams, more than the hardware prefetchers
// follow, and 64 systems would be one work item: 0.22-0.23 of STREAM at 2^18 rows against 0.48-0.55
// in tiles of 16, 2-vCPU Intel Xeon) and, with LongDoubles, for gathered doubles of rows that a
// wide pack would solve block by block (has_long_double_factor_packs_v); 1 for fewer systems
// than a pack outside interleaved storage (a work item each); narrow packs of one cache line of
// lanes (narrow_factor_packing: column blocks, interleaved items of the packs that fill one) for
// batches of at least one such pack and fewer than threads wide packs (column packs of 32 lanes,
// column_mid_packing, where every thread gets one of those); else the pack of
// sweep_packing (Wide: the symmetric factorization passes its own).
template <class Layout, class T, index_t Wide = sweep_packing<Layout, T>::L,
          bool LongDoubles = true>
index_t thomas_factor_pack_width(std::size_t nsys, index_t n, bool lanes, int threads = 1) {
  constexpr index_t wide = Wide;
  if constexpr (has_long_factor_packs_v<Layout, T>) {
    constexpr index_t tile = long_row_one_shot_packing<T>::L;
    if (!lanes && n > row_wide_pack_max_rows) return nsys < std::size_t(tile) ? 1 : tile;
  }
  if constexpr (LongDoubles && has_long_double_factor_packs_v<Layout, T>) {
    constexpr index_t tile = long_row_one_shot_packing<T>::L;
    constexpr index_t wide_block =
        factored_gather_block_rows<sweep_packing<Layout, T>::TR, Wide, T>;
    const auto whole = static_cast<std::size_t>(n) * std::size_t(wide) * sizeof(T);
    const bool tiles =
        !has_register_double_tiles_v<T> ? whole > factored_gather_whole_bytes && n > wide_block
        : register_double_tiles         ? n >= wide_block
                                        : whole >= factored_gather_whole_bytes && n >= wide_block;
    if (!lanes && tiles) return nsys < std::size_t(tile) ? 1 : tile;
  }
  const std::size_t team = static_cast<std::size_t>(threads > 1 ? threads : 1);
  if constexpr (has_mid_factor_packs_v<Layout, T, Wide>) {
    constexpr std::size_t mid = column_mid_packing<T>::L;
    if (lanes && nsys >= mid * team && nsys < std::size_t(wide) * team) return index_t(mid);
  }
  if constexpr (has_narrow_factor_packs_v<Layout, T, Wide>) {
    constexpr index_t narrow = narrow_factor_packing<Layout, T>::L;
    if (lanes && nsys >= std::size_t(narrow) &&
        nsys < std::size_t(wide) * team)
      return narrow;
  }
  return !is_interleaved_v<Layout> && nsys < std::size_t(wide) ? 1 : wide;
}

// The factor_pack_width of Thomas's and the symmetric factorization (unit_rows: the rows have
// unit stride): one system per pack where the scans solve (thomas_scan_rows), else
// thomas_factor_pack_width.
template <class Layout, class T, index_t Wide, bool LongDoubles>
index_t stored_pack_width(std::size_t nsys, index_t n, bool lanes, bool unit_rows, int threads) {
  if (thomas_scan_rows<Layout, T>(n, lanes, unit_rows)) return 1;
  return thomas_factor_pack_width<Layout, T, Wide, LongDoubles>(nsys, n, lanes, threads);
}

// thomas_factorization::solve's kernel with packing P (that of the stored factors: factor pack
// p is one block of n L values, as one interleaved pack of L is); lanes: d's rows of a pack are
// lane-contiguous. A free function: nvcc allows no extended lambda in a private member.
template <class Layout, class P, class ExecutionSpace, class DView, class FactorView>
void thomas_factored_solve_launch(const ExecutionSpace& exec, const DView& d, bool lanes,
                                  const FactorView& r, const FactorView& lo, const FactorView& cp,
                                  index_t n, index_t nsys) {
  using D = typename DView::value_type;
  using Scalar = typename FactorView::value_type;
  constexpr int L = P::L, W = P::W, G = P::G;
  index_t block = n;  // rows of d' in a gathered pack's scratch at once
  if constexpr (!is_interleaved_v<Layout> && L > 1)
    if (static_cast<std::size_t>(n) * L * sizeof(D) > factored_gather_whole_bytes &&
        n > factored_gather_block_rows<P::TR, L, D>)
      block = factored_gather_block_rows<P::TR, L, D>;
  const std::size_t scratch = lanes ? 0 : static_cast<std::size_t>(block) * L * sizeof(D);
  // Wide packs of doubles go through the register sweeps where the host takes no tiles
  // (has_register_double_tiles_v, register_double_tiles), from register_wide_pack_min_rows rows.
  const bool wide_in_registers = !register_double_tiles && n >= register_wide_pack_min_rows;
  const index_t npacks = (nsys + L - 1) / L;
  using factor_layout = layout::interleaved<L>;
  using factor_packing = single_pack<L>;  // work item p is factor pack p
  for_each_pack_or_inline(
      exec, "bandsolve::thomas_factorization::solve", npacks, scratch,
      runs_inline(npacks, n * nsys), KOKKOS_LAMBDA(const index_t p, void* work) {
        // named here first: nvcc rejects a first capture inside an if constexpr
        (void)block, (void)wide_in_registers;
        const int nl = static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
        const Scalar* rp = &r(p, 0, 0);
        const Scalar* lp = &lo(p, 0, 0);
        const Scalar* cpp = &cp(p, 0, 0);
        prefetch_both<next_pack_prefetch<4>, next_pack_prefetch<4>> prefetch;
        add_next_pack<factor_layout, factor_packing>(prefetch.first, r, p, npacks, n);
        add_next_pack<factor_layout, factor_packing>(prefetch.first, lo, p, npacks, n);
        add_next_pack<factor_layout, factor_packing>(prefetch.first, cp, p, npacks, n);
        add_next_pack<Layout, P>(prefetch.second, d, p, npacks, n);
        if (lanes) {
          const auto rd = pack_rows<Layout, P>(d, p);
          const int ng = groups_in<Layout, P>(d, p);
          if (is_interleaved_v<Layout> || nl == W)
            thomas_factored_solve_lanes<W, G, true>(n, W, ng, rp, lp, cpp, rd, prefetch);
          else
            thomas_factored_solve_lanes<W, G, false>(n, nl, ng, rp, lp, cpp, rd, prefetch);
        } else {
          if constexpr (!is_interleaved_v<Layout> && L > 1) {
            // Tiles of doubles with unit row stride through the register sweeps (their n * 8
            // values of scratch fit in a whole pack's rows), and wide packs where the host
            // takes no tiles; else the gathered sweeps.
            const auto gd = pack_gather<L>(d, p);
            if ((L == register_factored_lanes_v<D> || wide_in_registers) && block == n &&
                thomas_factored_pack_in_registers<L>(n, nl, rp, lp, cpp, gd, static_cast<D*>(work)))
              return;
            thomas_factored_solve_gather<P::TR, L>(n, nl, rp, lp, cpp, gd, static_cast<D*>(work),
                                                   block, prefetch);
          }
        }
      });
}

// thomas_factorization::solve on tiny systems whose right-hand sides lie back to back
// (tiny_thomas.hpp): factor packs of L, several per work item so that an item holds about
// tiny_tile_systems systems.
template <int L, class ExecutionSpace, class DView, class FactorView>
void tiny_factored_solve_launch(const ExecutionSpace& exec, const DView& d, const FactorView& r,
                                const FactorView& lo, const FactorView& cp, index_t n,
                                index_t nsys) {
  using D = typename DView::value_type;
  constexpr index_t per_item = tiny_tile_systems / L > 1 ? tiny_tile_systems / L : 1;
  const index_t npacks = (nsys + L - 1) / L;
  const index_t items = (npacks + per_item - 1) / per_item;
  D* const pd = d.data();
  for_each_pack_or_inline(
      exec, "bandsolve::thomas_factorization::solve", items, 0, runs_inline(items, n * nsys),
      KOKKOS_LAMBDA(const index_t item, void*) {
        const index_t p_end = (item + 1) * per_item < npacks ? (item + 1) * per_item : npacks;
        for (index_t p = item * per_item; p < p_end; ++p) {
          const int nl = static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
          tiny_factored_solve_run<L>(n, nl, &r(p, 0, 0), &lo(p, 0, 0), &cp(p, 0, 0),
                                     pd + p * L * n);
        }
      });
}
}  // namespace detail

// The LU factors of a batch of tridiagonal matrices, stored in packs of L systems (whatever the
// input layout) so that a solve streams them: r = 1/pivot, l = a/pivot, c' = c/pivot.
template <class Scalar, class Layout, class ExecutionSpace>
class thomas_factorization {
 public:
  using scalar_type = Scalar;
  using layout_type = Layout;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  static constexpr int pack_width = detail::sweep_packing<Layout, Scalar>::L;
  // (packs, n, slots per pack): the slots of factor_pack_width.
  using factor_view = Kokkos::View<Scalar***, Kokkos::LayoutRight, memory_space>;

  // Gathered floats and doubles of long rows may be stored in packs of long_pack_width (one
  // tile).
  static constexpr bool has_long_packs =
      detail::has_long_factor_packs_v<Layout, Scalar> ||
      detail::has_long_double_factor_packs_v<Layout, Scalar>;
  static constexpr int long_pack_width = detail::long_row_one_shot_packing<Scalar>::L;
  // Column and interleaved factors may be stored in narrow packs of one cache line of lanes
  // (narrow_factor_packing).
  static constexpr bool has_narrow_packs =
      detail::has_narrow_factor_packs_v<Layout, Scalar, pack_width>;
  static constexpr int narrow_pack_width = detail::narrow_factor_packing<Layout, Scalar>::L;
  // Column factors may be stored in packs of 32 lanes (column_mid_packing).
  static constexpr bool has_mid_packs = detail::has_mid_factor_packs_v<Layout, Scalar, pack_width>;
  static constexpr int mid_pack_width = detail::column_mid_packing<Scalar>::L;
  // Systems per factor pack that factorize stores for nsys systems of n rows on `threads`
  // threads (lanes: the rows of a, b and c are lane-contiguous; unit_rows: their rows have unit
  // stride): detail::stored_pack_width.
  static index_t factor_pack_width(std::size_t nsys, index_t n, bool lanes,
                                   bool unit_rows = std::is_same_v<Layout, layout::row>,
                                   int threads = 1) {
    return detail::stored_pack_width<Layout, Scalar, pack_width, true>(nsys, n, lanes, unit_rows,
                                                                      threads);
  }

  thomas_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(nsys_); }
  std::size_t n() const { return static_cast<std::size_t>(n_); }
  // Per-system info codes of the factorization (0 = ok, i > 0 = bad pivot at row i).
  Kokkos::View<const int*, memory_space> info() const { return info_; }
  // Bytes of the stored factors (r, l and c').
  std::size_t storage_bytes() const { return 3 * r_.span() * sizeof(Scalar); }

  // Factors new matrices of the shape that was factored (the same rows and systems, Views of
  // Layout and Scalar) into this factorization's storage and packs: no allocation, no fresh
  // pages. Same factors and info codes as factorize; enqueued on exec, not fenced. Copies of a
  // factorization share its storage and see the new factors.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c);

  // Solves for the right-hand sides in d (same layout and shape as the factored matrices), in
  // place. d holds Scalar, or Kokkos::complex<Scalar> when Scalar is real. Enqueued on exec, not
  // fenced. Systems whose info is not 0 get inf/NaN.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::factored_solve_static_checks<algo::thomas, ExecutionSpace, Layout, Scalar, DView>();
    const std::string fn = "bandsolve::thomas_factorization::solve";
    detail::check_factored_solve<Layout>(fn, initialized_, d, n_, nsys_);
    if (nsys_ == 0 || n_ == 0) return;
    const index_t width = static_cast<index_t>(r_.extent(2));  // factor_pack_width's
    if constexpr (std::is_same_v<Layout, layout::row> ||
                  std::is_same_v<Layout, layout::strided>) {
      if (width == pack_width && n_ <= detail::tiny_factored_max_rows &&
          detail::tiny_systems_back_to_back(n_, d)) {
        detail::tiny_factored_solve_launch<pack_width>(exec, d, r_, l_, cp_, n_, nsys_);
        return;
      }
    }
    if constexpr (has_long_packs) {
      if (width == long_pack_width) {  // gathered, whatever d's strides
        detail::thomas_factored_solve_launch<Layout,
                                             detail::long_row_one_shot_packing<Scalar>>(
            exec, d, false, r_, l_, cp_, n_, nsys_);
        return;
      }
    }
    if constexpr (has_narrow_packs) {
      if (width == narrow_pack_width) {
        detail::thomas_factored_solve_launch<Layout,
                                             detail::narrow_factor_packing<Layout, Scalar>>(
            exec, d, detail::uses_lane_rows<Layout>(d), r_, l_, cp_, n_, nsys_);
        return;
      }
    }
    if constexpr (has_mid_packs) {
      if (width == mid_pack_width) {
        detail::thomas_factored_solve_launch<Layout, detail::column_mid_packing<Scalar>>(
            exec, d, detail::uses_lane_rows<Layout>(d), r_, l_, cp_, n_, nsys_);
        return;
      }
    }
    if (width == 1 && detail::thomas_scan_solves<Layout, Scalar, DView>())
      detail::thomas_scan_solve_launch(exec, d, r_, l_, cp_, n_, nsys_);
    else if (width == 1)
      detail::thomas_factored_solve_launch<Layout, detail::one_system_packing>(
          exec, d, true, r_, l_, cp_, n_, nsys_);
    else
      detail::thomas_factored_solve_launch<Layout, detail::sweep_packing<Layout, Scalar>>(
          exec, d, detail::uses_lane_rows<Layout>(d), r_, l_, cp_, n_, nsys_);
  }

 private:
  friend struct detail::thomas_factorization_access;

  // Members are built here, never assigned into default-constructed Views (see README: a
  // Kokkos/GCC 12 combination crashes on such assignments).
  thomas_factorization(const factor_view& r, const factor_view& l, const factor_view& cp,
                       const Kokkos::View<int*, memory_space>& info, index_t nsys, index_t n)
      : r_(r), l_(l), cp_(cp), info_(info), nsys_(nsys), n_(n), initialized_(true) {}

  factor_view r_, l_, cp_;
  Kokkos::View<int*, memory_space> info_;
  index_t nsys_ = 0, n_ = 0;
  bool initialized_ = false;
};

namespace detail {
// factorize(thomas)'s kernel. A function of its own because nvcc does not allow an extended
// (KOKKOS_LAMBDA) lambda inside a function with a deduced return type such as factorize.
template <class Layout, class P, class T, class ExecutionSpace, class AView, class BView,
          class CView, class FactorView, class InfoView>
void thomas_factor_kernel(const ExecutionSpace& exec, const AView& a, const BView& b,
                          const CView& c, index_t n, index_t ns, index_t npacks, bool lanes,
                          const FactorView& r, const FactorView& lo, const FactorView& cp,
                          const InfoView& info) {
  constexpr int L = P::L, W = P::W, G = P::G;
  detail::for_each_pack(
      exec, "bandsolve::factorize(thomas)", npacks, 0, KOKKOS_LAMBDA(const index_t p, void*) {
        const int nl = static_cast<int>(ns - p * L < L ? ns - p * L : L);
        T* rp = &r(p, 0, 0);
        T* lp = &lo(p, 0, 0);
        T* cpp = &cp(p, 0, 0);
        int info_l[carried_lanes(L)] = {};
        if (lanes) {
          const auto ca = detail::pack_rows<Layout, P, AView, const T>(a, p);
          const auto cb = detail::pack_rows<Layout, P, BView, const T>(b, p);
          const auto cc = detail::pack_rows<Layout, P, CView, const T>(c, p);
          const int ng = detail::groups_in<Layout, P>(b, p);
          if (detail::is_interleaved_v<Layout> || nl == W)
            detail::thomas_factor_lanes<W, G, true>(n, W, ng, ca, cb, cc, rp, lp, cpp, info_l);
          else
            detail::thomas_factor_lanes<W, G, false>(n, nl, ng, ca, cb, cc, rp, lp, cpp, info_l);
        } else {
          if constexpr (!detail::is_interleaved_v<Layout> && L > 1) {
            const auto ca = detail::pack_gather<L, AView, const T>(a, p);
            const auto cb = detail::pack_gather<L, BView, const T>(b, p);
            const auto cc = detail::pack_gather<L, CView, const T>(c, p);
            detail::thomas_factor_gather<P::TR, L>(n, nl, ca, cb, cc, rp, lp, cpp, info_l);
          }
        }
        for (int l = 0; l < nl; ++l) info(p * L + l) = info_l[l];
      });
}

// Whether the rows of a, b and c are lane-contiguous (the factor kernels read them as lanes),
// and whether their rows have unit stride (factor_pack_width's arguments).
template <class Layout, class AView, class BView, class CView>
std::pair<bool, bool> thomas_factor_rows(const AView& a, const BView& b, const CView& c) {
  const bool lanes = uses_lane_rows<Layout>(a) && uses_lane_rows<Layout>(b) &&
                     uses_lane_rows<Layout>(c);
  bool unit_rows = true;
  if constexpr (std::is_same_v<Layout, layout::strided>)
    unit_rows = a.stride(1) == 1 && b.stride(1) == 1 && c.stride(1) == 1;
  return {lanes, unit_rows};
}

// Thomas's factors of the ns systems of n rows in a, b, c into r, lo and cp, packs of
// r.extent(2) systems (a width of Result::factor_pack_width, whatever the strides of a, b and
// c: each kernel reads rows as lanes or gathers them), and their info codes. Enqueued on exec.
template <class Result, class Layout, class T, class ExecutionSpace, class AView, class BView,
          class CView, class FactorView, class InfoView>
void thomas_factor_into(const ExecutionSpace& exec, const AView& a, const BView& b,
                        const CView& c, index_t n, index_t ns, bool lanes, const FactorView& r,
                        const FactorView& lo, const FactorView& cp, const InfoView& info) {
  if (ns == 0 || n == 0) return;
  const index_t width = static_cast<index_t>(r.extent(2));
  const index_t npacks = static_cast<index_t>(r.extent(0));
  if (width == 1) {
    thomas_factor_kernel<Layout, one_system_packing, T>(exec, a, b, c, n, ns, npacks, true, r, lo,
                                                        cp, info);
    return;
  }
  if constexpr (Result::has_long_packs) {
    if (width == Result::long_pack_width) {
      thomas_factor_kernel<Layout, long_row_one_shot_packing<T>, T>(exec, a, b, c, n, ns, npacks,
                                                                    false, r, lo, cp, info);
      return;
    }
  }
  if constexpr (Result::has_narrow_packs) {
    if (width == Result::narrow_pack_width) {
      thomas_factor_kernel<Layout, narrow_factor_packing<Layout, T>, T>(
          exec, a, b, c, n, ns, npacks, lanes, r, lo, cp, info);
      return;
    }
  }
  if constexpr (Result::has_mid_packs) {
    if (width == Result::mid_pack_width) {
      thomas_factor_kernel<Layout, column_mid_packing<T>, T>(exec, a, b, c, n, ns, npacks, lanes,
                                                             r, lo, cp, info);
      return;
    }
  }
  thomas_factor_kernel<Layout, sweep_packing<Layout, T>, T>(exec, a, b, c, n, ns, npacks, lanes,
                                                            r, lo, cp, info);
}
}  // namespace detail

template <class Scalar, class Layout, class ExecutionSpace>
template <class AView, class BView, class CView>
void thomas_factorization<Scalar, Layout, ExecutionSpace>::refactor(const ExecutionSpace& exec,
                                                                    const AView& a,
                                                                    const BView& b,
                                                                    const CView& c) {
  detail::check_refactor<algo::thomas, ExecutionSpace, Layout, Scalar>(
      "bandsolve::thomas_factorization::refactor", initialized_, a, b, c, n_, nsys_);
  const bool lanes = detail::thomas_factor_rows<Layout>(a, b, c).first;
  detail::thomas_factor_into<thomas_factorization, Layout, Scalar>(exec, a, b, c, n_, nsys_,
                                                                   lanes, r_, l_, cp_, info_);
}

// Factorizes the matrices (a, b, c) of nsys systems; nsys defaults to every slot of the Views
// (for interleaved packs, give the real number of systems to leave padding lanes out of info).
// Allocates the factors; enqueued on exec, not fenced. Backend as for solve: on the device
// backend the result is a thomas_device_factorization (thomas_device.hpp).
template <class ExecutionSpace, class AView, class BView, class CView, class Backend>
auto factorize(const ExecutionSpace& exec, algo::thomas, const AView& a, const BView& b,
               const CView& c, std::size_t nsys, Backend) {
  static_assert(backend::is_backend_v<Backend>,
                "bandsolve::factorize(thomas): the last argument must be a backend tag "
                "(backend::device, or the execution space's own)");
  detail::tridiag_static_checks<algo::thomas, ExecutionSpace, BView, AView, BView, CView>();
  using Layout = layout_of_t<BView>;
  using T = typename BView::non_const_value_type;
  using result_type = thomas_factorization<T, Layout, ExecutionSpace>;
  using P = detail::sweep_packing<Layout, T>;
  constexpr int user_width = detail::is_interleaved_v<Layout> ? P::W : 1;
  const std::string fn = "bandsolve::factorize(thomas)";
  detail::check_same_shape(fn, "a", a, "b", b);
  detail::check_same_shape(fn, "c", c, "b", b);
  detail::check_rows_fit_int(fn, rows(b));
  const std::size_t slots = capacity(b);
  if (nsys == static_cast<std::size_t>(-1)) nsys = slots;
  if (detail::is_interleaved_v<Layout> ? (nsys + user_width - 1) / user_width != b.extent(0)
                                       : nsys != slots)
    detail::throw_invalid_argument(fn, "nsys = ", nsys, " does not match the ", slots,
                                   " system slots of b (", Layout::name, " layout)");

  if constexpr (std::is_same_v<Backend, backend::device>) {
    return detail::thomas_device_factorize(exec, a, b, c, static_cast<index_t>(nsys));
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::factorize(thomas): a host backend runs only on its own execution "
                  "space");
    const index_t n = static_cast<index_t>(rows(b)), ns = static_cast<index_t>(nsys);
    const auto [lanes, unit_rows] = detail::thomas_factor_rows<Layout>(a, b, c);
    const index_t width = result_type::factor_pack_width(nsys, n, lanes, unit_rows,
                                                         detail::concurrency_of(exec));
    const index_t npacks = (ns + width - 1) / width;
    using factor_view = typename result_type::factor_view;
    const auto ep = static_cast<std::size_t>(npacks), en = static_cast<std::size_t>(n),
               ew = static_cast<std::size_t>(width);  // the views' extents
    const auto r = detail::allocate_zeroed<factor_view>(exec, "bandsolve::thomas r", ep, en, ew);
    const auto lo = detail::allocate_zeroed<factor_view>(exec, "bandsolve::thomas l", ep, en, ew);
    const auto cp = detail::allocate_zeroed<factor_view>(exec, "bandsolve::thomas c'", ep, en, ew);
    const Kokkos::View<int*, typename result_type::memory_space> info(
        Kokkos::view_alloc(exec, std::string("bandsolve::thomas info")), nsys);
    auto f = detail::thomas_factorization_access::make<result_type>(r, lo, cp, info, ns, n);
    detail::thomas_factor_into<result_type, Layout, T>(exec, a, b, c, n, ns, lanes, r, lo, cp,
                                                       info);
    return f;
  }
}

template <class ExecutionSpace, class AView, class BView, class CView, class Backend,
          std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
auto factorize(const ExecutionSpace& exec, algo::thomas, const AView& a, const BView& b,
               const CView& c, Backend) {
  return factorize(exec, algo::thomas{}, a, b, c, static_cast<std::size_t>(-1), Backend{});
}

template <class ExecutionSpace, class AView, class BView, class CView>
auto factorize(const ExecutionSpace& exec, algo::thomas, const AView& a, const BView& b,
               const CView& c, std::size_t nsys = static_cast<std::size_t>(-1)) {
  return factorize(exec, algo::thomas{}, a, b, c, nsys, backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
