#pragma once
// Solves along an axis of a 2-D to 4-D array for the tridiagonal families whose host kernel
// solves a block of L systems through lane_block (partial pivoting, periodic): the argument
// checks, and the host launch that runs the family's block kernel on packs of lines in place.
//
// Packing (layout/axis.hpp): packs of lines along the batch axis of smallest stride, one SIMD
// lane per line. Where that axis has unit stride in every full array, each row of a pack is one
// contiguous run of 512 bytes (along_run_lanes_v, as Thomas's column blocks), read in place, the
// rows ahead requested by lane_block::prefetch. Else packs of 256 bytes of lanes
// (along_staged_lanes_v) are staged: each array's lines copied into lane-contiguous rows of the
// pack's scratch (tiles transposed in registers where the lines are contiguous rows, along the
// unit-stride axis), solved there, and x copied back.
// Coefficients shared by every line (rank-1 Views) are factored once per pack (the family's
// shared solve), and only d crosses memory. solve_along_add (u += x, d only read) plans the packs
// from d and u: where both are runs, the kernel reads d and adds each row of x into u as it
// stores it (lane_add_block); staged packs add x from their rows through the same transposes.
// At 256^3 doubles (2-vCPU AMD EPYC), along x and y runs of 64 lanes against 16 in place:
// periodic lines with shared coefficients 0.40-0.49 against 0.78-1.05 ns per unknown, full ones
// 1.4-2.3 against 1.8-2.5, partial pivoting (full) 2.9-3.3 against 2.7-5.5; along z 32 staged
// lanes against 16 lanes read in place: periodic full 1.9-2.1 against 3.8, shared 0.70-0.74
// against 1.25-1.33 (docs/performance.md).
// Called from periodic_axis.hpp and pivoting_axis.hpp (lane_family_along), and by the factored
// lines of those families (lane_axis_factor.hpp: its packs and lane blocks).
#include <bandsolve/backend/host_simd/lane_block.hpp>
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/layout/axis.hpp>
#include <bandsolve/tridiag/along_device.hpp>
#include <bandsolve/tridiag/thomas_axis.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace bandsolve::detail {

// Lines per pack of the host launch, for right-hand sides of type D: packs whose rows are
// contiguous runs, read in place, and packs staged through scratch.
template <class D>
inline constexpr int along_run_lanes_v = 4 * lane_block_width_v<D>;
template <class D>
inline constexpr int along_staged_lanes_v = 2 * lane_block_width_v<D>;

// Calls launch(std::integral_constant<int, K>{}, std::bool_constant<Staged>{}, g) with the packs
// g of the lines of d along `axis`: K = along_run_lanes_v<D> lines read in place where each row
// of a pack is a contiguous run in d and every full array of `full` (Staged false), else
// along_staged_lanes_v<D> lines staged through scratch (Staged true, stage_lanes).
template <class D, class Launch, class DView, class... Views>
void with_along_packs(const DView& d, int axis, const Launch& launch, const Views&... full) {
  constexpr int W = along_run_lanes_v<D>, L = along_staged_lanes_v<D>;
  const along_plan plan = plan_along<W, L>(d, axis, full...);
  if (plan.lanes)
    launch(std::integral_constant<int, W>{}, std::false_type{}, plan.g);
  else
    launch(std::integral_constant<int, L>{}, std::true_type{}, plan.g);
}

// The n rows of a pack of L gathered lines (lane l at src.base + off[l], rows src.row_stride
// apart) copied into lane-contiguous rows (row i at rows + i * L), tiles of a cache line of each
// line transposed in registers where the lines are contiguous (as the row layout's sweeps).
template <int L, class U>
KOKKOS_INLINE_FUNCTION void stage_lanes(gathered_lanes<const U> src, const lane_offsets<L>& off,
                                        index_t n, U* rows) {
  constexpr int line = static_cast<int>(64 / sizeof(U));
  constexpr int TR = line < L ? line : L;
  for (index_t i0 = 0; i0 < n; i0 += TR) {
    const int count = tile_rows(n, i0, TR);
    gather_tile<TR, L, U> tile;
    tile.load(src, off, i0, count);
    for (int j = 0; j < count; ++j) {
      U* const row = rows + (i0 + j) * L;
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) row[l] = tile.v[j][l];
    }
  }
}

// The lanes of pack k of array v (strides st) staged into `rows`, as a lane block over them.
template <int L, class U, class View>
KOKKOS_INLINE_FUNCTION lane_block<U, L, L> staged_lane_block(const View& v, const nd_strides& st,
                                                             const line_packs& g,
                                                             const line_pack& k, U* rows) {
  using V = std::remove_const_t<U>;
  const index_t lane_stride = st.s[g.lane_axis];
  stage_lanes<L>(gathered_lanes<const V>{v.data() + g.offset(st, k), lane_stride, st.s[g.axis]},
                 lane_offsets<L>(k.lanes, lane_stride), g.n, const_cast<V*>(rows));
  return lane_block<U, L, L>(rows, 1, L, L);
}

// Staged lanes of d written back: the inverse of staged_lane_block for its k.lanes lines.
template <int L, class D, class View>
KOKKOS_INLINE_FUNCTION void unstage_lanes(const View& v, const nd_strides& st,
                                          const line_packs& g, const line_pack& k,
                                          const D* rows) {
  constexpr int line = static_cast<int>(64 / sizeof(D));
  constexpr int TR = line < L ? line : L;
  const index_t lane_stride = st.s[g.lane_axis];
  scatter_rows<TR, L>(rows, g.n,
                      gathered_lanes<D>{v.data() + g.offset(st, k), lane_stride, st.s[g.axis]},
                      lane_offsets<L>(k.lanes, lane_stride), k.lanes);
}

// Bytes of work of a pack of L lines: the kernel's `scratch`, then with Staged the staged rows
// of a, b, c (T) and d (D), each block aligned to 64 bytes.
inline std::size_t align_64(std::size_t bytes) { return (bytes + 63) / 64 * 64; }
template <class T, class D>
std::size_t staged_work_bytes(std::size_t scratch, index_t n, int lanes, bool full) {
  const std::size_t rows = static_cast<std::size_t>(n) * static_cast<std::size_t>(lanes);
  return align_64(scratch) + align_64(rows * sizeof(D)) +
         (full ? 3 * align_64(rows * sizeof(T)) : 0);
}

// The lanes of pack k of a full array v (strides st) as a lane block.
template <class T, int L, class View>
KOKKOS_INLINE_FUNCTION lane_block<T, L, L> along_lane_block(const View& v, const nd_strides& st,
                                                            const line_packs& g,
                                                            const line_pack& k) {
  return lane_block<T, L, L>(v.data() + g.offset(st, k), st.s[g.lane_axis], st.s[g.axis],
                             k.lanes);
}

// solve_along_add where the rows of pack k are runs of both d and u: the family's kernel reads
// d's lanes and adds x into u's (lane_add_block), in one pass, d only read.
template <int L, class DView, class UView>
KOKKOS_INLINE_FUNCTION auto along_add_block(const DView& d, const nd_strides& sd, const UView& u,
                                            const nd_strides& su, const line_packs& g,
                                            const line_pack& k) {
  using D = typename UView::non_const_value_type;
  return lane_add_block<D, L, L, L>{along_lane_block<const D, L>(d, sd, g, k),
                                    along_lane_block<D, L>(u, su, g, k)};
}

// solve_along_add of staged packs: the solution of pack k (rows of L lanes at xs, solved from
// d's staged lanes) added into u's lines, gathered and scattered in tiles transposed in
// registers.
template <int L, class D, class UView>
KOKKOS_INLINE_FUNCTION void add_staged_lanes(const UView& u, const nd_strides& su,
                                             const line_packs& g, const line_pack& k, D* xs) {
  constexpr int line = static_cast<int>(64 / sizeof(D));
  constexpr int TR = line < L ? line : L;
  add_scatter_gather<TR, L>(
      g.n, k.lanes, xs,
      gathered_lanes<D>{u.data() + g.offset(su, k), su.s[g.lane_axis], su.s[g.axis]});
}

// One work item per pack of L lines of g: kernel(n, a, b, c, d, work, codes) on its lane blocks
// (the family's one-shot block kernel, x overwriting d), `scratch` bytes of the kernel's work per
// item; Staged: the pack's lines first copied into lane-contiguous rows after that work, x
// written back from them. Add (solve_along_add): x added into u, d only read (staged: from the
// staged rows, add_staged_lanes; else by the kernel itself, along_add_block).
template <int L, bool Staged, bool Add, class ExecutionSpace, class BlockKernel, class AView,
          class BView, class CView, class DView, class UView, class InfoView>
void block_kernel_packs(const ExecutionSpace& exec, const char* function, const line_packs& g,
                        std::size_t scratch, BlockKernel kernel, const AView& a, const BView& b,
                        const CView& c, const DView& d, const UView& u, const InfoView& info,
                        index_t n) {
  using T = typename AView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  const nd_strides sa = strides_of(a), sb = strides_of(b), sc = strides_of(c),
                   sd = strides_of(d), su = strides_of(u);
  const std::size_t rows_d = align_64(static_cast<std::size_t>(n) * L * sizeof(D)),
                    rows_t = align_64(static_cast<std::size_t>(n) * L * sizeof(T)),
                    kernel_work = align_64(scratch);
  for_each_pack(
      exec, function, g.npacks,
      Staged ? staged_work_bytes<T, D>(scratch, n, L, true) : scratch,
      KOKKOS_LAMBDA(const index_t p, void* work) {
        // Named here first: nvcc rejects an extended lambda whose first use of a captured
        // variable is inside an if constexpr.
        (void)rows_d, (void)rows_t, (void)kernel_work, (void)kernel, (void)a, (void)b, (void)c,
            (void)d, (void)u, (void)sa, (void)sb, (void)sc, (void)sd, (void)su, (void)n;
        const line_pack k = g.pack(p);
        int codes[static_cast<std::size_t>(L)];
        if constexpr (Staged) {
          char* const staged = static_cast<char*>(work) + kernel_work;
          D* const ds = reinterpret_cast<D*>(staged);
          T* const as = reinterpret_cast<T*>(staged + rows_d);
          T* const bs = reinterpret_cast<T*>(staged + rows_d + rows_t);
          T* const cs = reinterpret_cast<T*>(staged + rows_d + 2 * rows_t);
          kernel(n, staged_lane_block<L, const T>(a, sa, g, k, as),
                 staged_lane_block<L, const T>(b, sb, g, k, bs),
                 staged_lane_block<L, const T>(c, sc, g, k, cs),
                 staged_lane_block<L, D>(d, sd, g, k, ds), work, codes);
          if constexpr (Add)
            add_staged_lanes<L>(u, su, g, k, ds);
          else
            unstage_lanes<L>(d, sd, g, k, ds);
        } else if constexpr (Add) {
          kernel(n, along_lane_block<const T, L>(a, sa, g, k),
                 along_lane_block<const T, L>(b, sb, g, k),
                 along_lane_block<const T, L>(c, sc, g, k), along_add_block<L>(d, sd, u, su, g, k),
                 work, codes);
        } else {
          kernel(n, along_lane_block<const T, L>(a, sa, g, k),
                 along_lane_block<const T, L>(b, sb, g, k),
                 along_lane_block<const T, L>(c, sc, g, k), along_lane_block<D, L>(d, sd, g, k),
                 work, codes);
        }
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < k.lanes; ++l) info(s0 + l * g.lane_system_stride) = codes[l];
      });
}

// One work item per pack of L lines of g whose coefficients are shared by every line:
// code = solve(n, x, work) factors the shared matrix into the item's scratch (`scratch` bytes)
// and solves the lanes x of d with it; every line of the pack gets its code. Staged: d's lines
// copied into lane-contiguous rows after that work, x written back from them. Add: x added into
// u, d only read, as in block_kernel_packs.
template <int L, bool Staged, bool Add, class ExecutionSpace, class SharedSolve, class DView,
          class UView, class InfoView>
void shared_matrix_packs(const ExecutionSpace& exec, const char* function, const line_packs& g,
                         std::size_t scratch, SharedSolve solve, const DView& d, const UView& u,
                         const InfoView& info, index_t n) {
  using D = typename DView::non_const_value_type;
  const nd_strides sd = strides_of(d), su = strides_of(u);
  const std::size_t kernel_work = align_64(scratch);
  for_each_pack(
      exec, function, g.npacks,
      Staged ? staged_work_bytes<D, D>(scratch, n, L, false) : scratch,
      KOKKOS_LAMBDA(const index_t p, void* work) {
        (void)kernel_work, (void)solve, (void)d, (void)u, (void)sd, (void)su,
            (void)n;  // named first, for nvcc
        const line_pack k = g.pack(p);
        int code = 0;
        if constexpr (Staged) {
          D* const ds = reinterpret_cast<D*>(static_cast<char*>(work) + kernel_work);
          code = solve(n, staged_lane_block<L, D>(d, sd, g, k, ds), work);
          if constexpr (Add)
            add_staged_lanes<L>(u, su, g, k, ds);
          else
            unstage_lanes<L>(d, sd, g, k, ds);
        } else if constexpr (Add) {
          code = solve(n, along_add_block<L>(d, sd, u, su, g, k), work);
        } else {
          code = solve(n, along_lane_block<D, L>(d, sd, g, k), work);
        }
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < k.lanes; ++l) info(s0 + l * g.lane_system_stride) = code;
      });
}

// The one line of a rank-1 View as a one-lane block (the shared matrix of shared_matrix_packs).
template <class T, class View>
KOKKOS_INLINE_FUNCTION lane_block<const T, 1, 1> shared_line(const View& v) {
  return lane_block<const T, 1, 1>(v.data(), 0, static_cast<index_t>(v.stride(0)), 1);
}

// The host backends' solve of every line (n >= 1 rows, arguments checked): block_kernel_packs on
// the packs of with_along_packs, scratch_of(L) bytes of the kernel's work per pack of L lines,
// for full coefficients; with rank-1 ones, shared_matrix_packs with shared_solve and
// shared_scratch_of(L) bytes. Add: u += x, d only read (u is d otherwise); packs read in place
// only where u's rows are runs as well.
template <bool Add, class ExecutionSpace, class BlockKernel, class ScratchOf, class SharedSolve,
          class SharedScratchOf, class AView, class BView, class CView, class DView, class UView,
          class InfoView>
void block_kernel_along_host(const ExecutionSpace& exec, const char* function, int axis,
                             const ScratchOf& scratch_of, BlockKernel kernel,
                             const SharedScratchOf& shared_scratch_of, SharedSolve shared_solve,
                             const AView& a, const BView& b, const CView& c, const DView& d,
                             const UView& u, const InfoView& info, index_t n) {
  using D = typename DView::non_const_value_type;
  if constexpr (AView::rank == 1) {
    with_along_packs<D>(
        d, axis,
        [&](auto width, auto staged, const line_packs& g) {
          shared_matrix_packs<decltype(width)::value, decltype(staged)::value, Add>(
              exec, function, g, shared_scratch_of(decltype(width)::value), shared_solve, d, u,
              info, n);
        },
        u);
  } else {
    with_along_packs<D>(
        d, axis,
        [&](auto width, auto staged, const line_packs& g) {
          block_kernel_packs<decltype(width)::value, decltype(staged)::value, Add>(
              exec, function, g, scratch_of(decltype(width)::value), kernel, a, b, c, d, u, info,
              n);
        },
        u, a, b, c);
  }
}

// solve_along(family) named `function` (the checks, then the backend's solve) for a Family of
// lane kernels: its block_kernel and scratch<T, D>(n, lanes) for full coefficients, its
// shared_solve<AView, BView, CView> (with its scratch<D>(n, lanes)) for rank-1 ones, both through
// block_kernel_along_host; on the device backend its device_solve(exec, a, b, c, d, codes, n,
// lines) on each batch of lines addressed in place (along_device.hpp). Add: solve_along_add
// (u += x, d only read; u is d otherwise), on the device backend through a copy of d
// (along_device_add).
template <class Family, class Backend, bool Add, class ExecutionSpace, class AView, class BView,
          class CView, class DView, class UView, class InfoView>
void lane_family_along(const ExecutionSpace& exec, const char* function, int axis,
                       const AView& a, const BView& b, const CView& c, const DView& d,
                       const UView& u, const InfoView& info) {
  thomas_along_static_checks<ExecutionSpace, AView, BView, CView, DView, UView, InfoView>();
  static_assert(std::is_same_v<typename UView::value_type, typename UView::non_const_value_type>,
                "bandsolve::solve_along: the output (d, or u of solve_along_add) cannot be a "
                "View of const");
  static_assert(backend::is_backend_v<Backend>,
                "bandsolve::solve_along: the last argument must be a backend tag "
                "(backend::device, or the execution space's own)");
  using T = typename AView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  const std::size_t nsys = check_along_solve<Add>(function, axis, a, b, c, d, u, info);
  const index_t n = static_cast<index_t>(extent_at(d, axis));
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    const auto solve = [&](const along_launch& l, const auto& x, const InfoView& codes,
                           index_t lines) {
      Family::device_solve(exec, l.lines<const T>(a), l.lines<const T>(b), l.lines<const T>(c),
                           x, codes, n, lines);
    };
    if constexpr (Add)
      along_device_add(exec, function, axis, d, u, info, static_cast<index_t>(nsys), n, solve,
                       along_add_through_copy{}, a, b, c);
    else
      for_each_line_batch(
          axis, d, info, static_cast<index_t>(nsys),
          [&](const along_launch& l, const InfoView& codes, index_t lines) {
            solve(l, l.lines<D>(d), codes, lines);
          },
          a, b, c);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve_along: a host backend runs only on its own execution space");
    using shared = typename Family::template shared_solve<AView, BView, CView>;
    block_kernel_along_host<Add>(
        exec, function, axis, [n](int lanes) { return Family::template scratch<T, D>(n, lanes); },
        typename Family::block_kernel{},
        [n](int lanes) { return shared::template scratch<D>(n, lanes); }, shared{a, b, c}, a, b,
        c, d, u, info, n);
  }
}

}  // namespace bandsolve::detail
