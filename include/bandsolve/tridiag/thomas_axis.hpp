#pragma once
// Batched Thomas along any axis of a 2-D, 3-D or 4-D array, without transposing it: host API.
//
//   bandsolve::solve_along(exec, bandsolve::algo::thomas{}, axis, a, b, c, d, info);
//       Every line of d along `axis` (all other indices fixed) is one system
//       a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i], i = 0 .. n-1, n = d.extent(axis);
//       x overwrites d. The other axes are the batch.
//   bandsolve::solve_along_add(exec, bandsolve::algo::thomas{}, axis, a, b, c, d, u, info);
//       The increment variant: u += x in the same pass; d is only read (it may be a View of
//       const), u has d's extents. For the last sweep of an ADI step (u^{n+1} = u^n + x).
//
// d (and u) are Kokkos::Views of rank 2 to 4 in any array layout: LayoutRight, LayoutLeft or
// LayoutStride (subviews of padded arrays: padding is never read nor written).
// Coefficients come in two forms (a, b, c alike):
//   - full arrays of d's rank and extents (any layouts, each its own strides): one matrix per line.
//     Floor: 5 words per unknown (read a, b, c, d; write x), 40 bytes in double;
//     solve_along_add: 6 (read a, b, c, d, u; write u).
//   - rank-1 Views of length n shared by every line (ADI and constant-coefficient problems): the
//     matrix is factored in each pack's scratch and only d crosses memory. Floor: 2 words per
//     unknown (read d, write x), 16 bytes in double; solve_along_add: 3 (read d, u; write u).
// info is a rank-1 View<int> with one entry per line (the product of d's other extents), numbered
// by the batch indices in axis order, last fastest: for d of extents (nx, ny, nz) and axis 1,
// line (ix, :, iz) is system ix*nz + iz. Codes as in solve(thomas): 0 or the 1-based row of the
// first zero, tiny or non-finite pivot; with shared coefficients every line has the same code.
// a[0] and c[n-1] are ignored; a, b, c are never modified; the output must not overlap an input.
// Work is enqueued on exec (one launch for all lines) and never fenced here. Scalars: float,
// double, Kokkos::complex of either; over real coefficients d (and u) may be Kokkos::complex of
// their type (the Fourier modes of a real operator: one pass, the real factors applied to both
// parts). No pivoting: for diagonally dominant or symmetric positive definite matrices.
// Backends: the execution space's own, or a trailing backend::device{} (the default on
// Kokkos::Cuda): along_device.hpp, the lines addressed in place, one launch, or one per index
// of the first batch axis for rank-4 strides that do not fold. There solve_along_add adds x
// into u inside the register-chunk kernel where the solve in place takes it (short lines, not
// a few long ones: 6 words per unknown, one pass); other shapes copy d into a kept scratch batch
// (n values per line), solve it and add it to u: 11 words per unknown.
//
// How the host backends pack lines (layout/axis.hpp): neighbouring lines along the batch axis of smallest
// stride share a pack, one SIMD lane each. With a unit-stride batch axis each row of a pack is
// one contiguous run (as layout::column; with full coefficients, runs of 2 or 8 KiB for many
// long lines, as solve(thomas)'s column runs), and a batch axis that continues the lane axis in
// memory in every array (y after z's lanes when solving along x of a contiguous cube) is folded
// into it; along the unit-stride axis the lines are contiguous rows, read through in-register
// transposes (as layout::row).
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/layout/axis.hpp>
#include <bandsolve/layout/axis_checks.hpp>
#include <bandsolve/tridiag/along_device.hpp>
#include <bandsolve/tridiag/thomas.hpp>
#include <bandsolve/tridiag/thomas_axis_kernel.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {

namespace detail {

// Lane-contiguous packs use the column blocks' width (runs of 512 bytes per row); gathered packs
// the row layout's packs and transpose tiles: the one-shot solve's (8 double lines, swept four
// rows per step; 32 in builds for AVX2 alone, which measured faster along z too in 4 of 6
// alternated runs) for full coefficients, 32 lines for shared ones, whose sweeps are not carried
// in registers (8 lines: 0.84 against 0.35 ns per unknown along z).
// Full coefficients along z of a 256^3 double cube, 8 lines against 32, same minutes: 0.85-0.91
// against 0.95-1.00 ns per unknown with the arrays allocated a, b, c, d; 1.03-1.05 against
// 0.97-1.03 allocated d, a, b, c (where the arrays sit moves both by 10-20% on the test machine).
// Tiles: one tile of lines (16 floats). Float lines with full coefficients whose n fills tiles
// take them in the one-shot solves where the register sweeps are built (not the adds, which do
// not run the register sweeps), as row floats do (row_one_shot_register_tiles): along z
// of a 256^3 float cube, 2 threads, 2-vCPU Intel Xeon, ns per unknown, 64 lines / tiles: Thomas
// 1.05-1.17 / 0.71-0.79, symmetric 0.83-0.86 / 0.51-0.53; other n keep 64 lines (250^3, gathered
// sweeps on 16 lanes: Thomas 1.12-1.19 / 1.15-1.18, symmetric 0.88-0.89 / 0.96-0.97).
template <class T, bool Shared, bool Tiles = false>
struct axis_packing {
  static constexpr int W = sweep_packing<layout::column, T>::W;
  using ahead = typename sweep_packing<layout::column, T>::ahead;  // lines far apart, as columns
  static constexpr int L = Shared  ? sweep_packing<layout::row, T>::L
                           : Tiles ? tile_rows_v<T>
                                   : one_shot_sweep_packing<layout::row, T>::L;
  static constexpr int TR = sweep_packing<layout::row, T>::TR;
};

// Whether full-coefficient lines of T may take axis_packing's tiles (floats where the register
// sweeps are built), and whether a one-shot solve (not an add) of such lines of n rows does.
template <class T>
inline constexpr bool axis_packing_tiles_v =
    std::is_same_v<T, float> && register_sweeps_for_v<tile_rows_v<T>, T> &&
    axis_packing<T, false, true>::L != axis_packing<T, false, false>::L;
template <class T, bool Shared, bool Add>
bool axis_takes_tiles(index_t n) {
  if constexpr (axis_packing_tiles_v<T> && !Shared && !Add)
    return n % tile_rows_v<T> == 0;
  else
    return false;
}

// P with lane-contiguous packs of one column run (column_run_packing: Bytes of every row,
// left to the hardware prefetchers) for full coefficients of many long lines.
template <class P, class T, int Bytes>
struct axis_run_packing : P {
  static constexpr int W = column_run_packing<T, Bytes>::W;
  using ahead = typename column_run_packing<T, Bytes>::ahead;
};
template <class P, class T, int Bytes>
inline constexpr bool is_column_run_v<axis_run_packing<P, T, Bytes>> = true;

// Whether the pack's lines of v are neighbours in memory (lane-contiguous rows).
template <class View>
bool unit_lane_stride(const View& v, int lane_axis) {
  return extent_at(v, lane_axis) <= 1 || stride_at(v, lane_axis) == 1;
}

// Prefetch of the next pack during a gathered pack's backward sweep, as for layout::row: only
// where the pack's lines are unit-stride rows close together (one block per array).
template <class T>
KOKKOS_INLINE_FUNCTION void add_next_lines(next_pack_prefetch<5>& pf, const T* data,
                                           const nd_strides& st, const line_packs& g,
                                           index_t p) {
  const index_t si = st.s[g.axis], ss = st.s[g.lane_axis];
  if (p + 1 >= g.npacks || si != 1 || ss < g.n || ss > 2 * g.n) return;
  const line_pack next = g.pack(p + 1);
  pf.n = g.n;
  pf.bytes = ((next.lanes - 1) * ss + g.n) * static_cast<index_t>(sizeof(T));
  pf.add(data + g.offset(st, next));
}

// How the lines of a solve along an axis are packed: lane-contiguous packs of `W` lines where
// every full array has unit stride along the lane axis (the outer axes that continue it folded
// in), else gathered packs of `L` lines.
struct along_plan {
  line_packs g;
  bool lanes;
  int width;
};

template <int W, int L, class DView, class... Views>
along_plan plan_along(const DView& d, int axis, const Views&... full) {
  const int lane = lane_axis_of(d, axis);
  const auto unit = [&](const auto& v) {
    if constexpr (std::remove_reference_t<decltype(v)>::rank == 1) return true;
    else return unit_lane_stride(v, lane);
  };
  along_plan plan;
  plan.lanes = unit_lane_stride(d, lane) && (unit(full) && ...);
  (void)unit;
  plan.width = plan.lanes ? W : L;
  plan.g = make_line_packs(d, axis, lane, plan.width);
  if (plan.lanes) {
    nd_strides arrays[1 + sizeof...(Views)];
    int count = 0;
    arrays[count++] = strides_of(d);
    const auto add = [&](const auto& v) {
      if constexpr (std::remove_reference_t<decltype(v)>::rank != 1) arrays[count++] = strides_of(v);
    };
    (add(full), ...);
    (void)add;  // no full arrays but d: the fold above is empty
    merge_contiguous_outer_axes(plan.g, arrays, count);
  }
  return plan;
}

// Packs [p_begin, p_end) of g in lane chains: a pack of fewer than W lines (the end of a lane
// row) alone through one(p, lanes), each run of full packs through chain(p, q); the per-system
// info codes of a pack go to info through done(p, codes).
template <int W, class InfoView, class One, class Chain>
KOKKOS_INLINE_FUNCTION void for_each_pack_run(const line_packs& g, const InfoView& info,
                                              index_t p_begin, index_t p_end, const One& one,
                                              const Chain& chain) {
  const auto done = [&](index_t p, const int* codes) {
    const line_pack k = g.pack(p);
    const index_t s0 = g.first_system(k);
    for (int l = 0; l < k.lanes; ++l) info(s0 + l * g.lane_system_stride) = codes[l];
  };
  for (index_t p = p_begin; p < p_end;) {
    const int nl = g.pack(p).lanes;
    if (nl < W) {
      int info_l[static_cast<std::size_t>(W)] = {};
      one(p, nl, info_l);
      done(p, info_l);
      ++p;
      continue;
    }
    index_t q = p + 1;
    while (q < p_end && g.pack(q).lanes == W) ++q;
    chain(p, q, done);
    p = q;
  }
}

// The compile-time checks of solve_along and solve_along_add (Thomas), factorize_along and the
// distributed solve_along: a class, so that they fire where an entry point names them
// (tridiag/batch_checks.hpp says why).
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class UView,
          class InfoView>
struct thomas_along_static_checks {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve::solve_along: the first argument must be a Kokkos execution space "
                "instance");
  static_assert(Kokkos::is_view<AView>::value && Kokkos::is_view<BView>::value &&
                    Kokkos::is_view<CView>::value && Kokkos::is_view<DView>::value &&
                    Kokkos::is_view<UView>::value,
                "bandsolve::solve_along: a, b, c, d (and u) must be Kokkos::Views");
  using T = typename AView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  static constexpr int rank = static_cast<int>(DView::rank);
  static_assert(rank >= 2 && rank <= max_axis_rank,
                "bandsolve::solve_along: d must be a View of rank 2, 3 or 4");
  static_assert(static_cast<int>(UView::rank) == rank,
                "bandsolve::solve_along_add: u must have the rank of d");
  static_assert((AView::rank == 1 && BView::rank == 1 && CView::rank == 1) ||
                    (static_cast<int>(AView::rank) == rank &&
                     static_cast<int>(BView::rank) == rank &&
                     static_cast<int>(CView::rank) == rank),
                "bandsolve::solve_along: a, b and c must all be rank-1 Views of length n "
                "(coefficients shared by every line) or all have the rank of d (one matrix per "
                "line)");
  static_assert(is_supported_scalar_v<T>,
                "bandsolve::solve_along: the scalar type must be float, double, "
                "Kokkos::complex<float> or Kokkos::complex<double>");
  static_assert(std::is_same_v<typename BView::non_const_value_type, T> &&
                    std::is_same_v<typename CView::non_const_value_type, T> &&
                    is_rhs_of_v<T, D> &&
                    std::is_same_v<typename UView::non_const_value_type, D>,
                "bandsolve::solve_along: a, b, c must have one scalar type, and d (and u) the "
                "same one or Kokkos::complex of real coefficients' type");
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1 &&
                    std::is_same_v<typename InfoView::value_type, int>,
                "bandsolve::solve_along: info must be a rank-1 Kokkos::View<int*>");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename AView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename BView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename CView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename DView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename UView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace,
                                     typename InfoView::memory_space>::accessible,
      "bandsolve::solve_along: the Views must be accessible from the execution space");
  static_assert(sizeof(backend::default_for_t<ExecutionSpace>) > 0);  // a space with a backend
};

// The one-shot solve of full-coefficient lines in lane-contiguous packs of Q::W lines (g's
// width): chains of packs, two in flight, as the one-shot solve of column blocks
// (thomas_solve_lanes_chain; one chain per thread for column runs, one_shot_chain_length); a
// pack of fewer than W lines (the ends of a lane row) is solved on its own.
template <class Q, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void thomas_along_lane_chains(const ExecutionSpace& exec, const char* function,
                              const line_packs& g, const AView& a, const BView& b,
                              const CView& c, const DView& d, const InfoView& info, index_t n) {
  using C = typename AView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  constexpr int W = Q::W;
  const nd_strides sa = strides_of(a), sb = strides_of(b), sc = strides_of(c),
                   sd = strides_of(d);
  const std::size_t rows_of = static_cast<std::size_t>(n) * static_cast<std::size_t>(W);
  const index_t chain = one_shot_chain_length<Q>(g.npacks, exec.concurrency());
  const index_t nchains = (g.npacks + chain - 1) / chain;
  for_each_pack(
      exec, function, nchains, 2 * rows_of * sizeof(C),
      KOKKOS_LAMBDA(const index_t ch, void* work) {
        const index_t p_begin = ch * chain;
        const index_t p_end = p_begin + chain < g.npacks ? p_begin + chain : g.npacks;
        const index_t ki = g.axis;
        C* rows = static_cast<C*>(work);
        const auto item = [&](index_t p) {
          const line_pack k = g.pack(p);
          return lane_item<C, D>{lane_rows<const C>{a.data() + g.offset(sa, k), sa.s[ki]},
                                 lane_rows<const C>{b.data() + g.offset(sb, k), sb.s[ki]},
                                 lane_rows<const C>{c.data() + g.offset(sc, k), sc.s[ki]},
                                 lane_rows<D>{d.data() + g.offset(sd, k), sd.s[ki]}};
        };
        for_each_pack_run<W>(
            g, info, p_begin, p_end,
            [&](index_t p, int nl, int* codes) {
              const auto it = item(p);
              thomas_solve_lanes<W, 1, false, typename Q::ahead>(
                  n, nl, 1, it.a, it.b, it.c, it.d, rows, codes, no_prefetch{});
            },
            [&](index_t p, index_t q, const auto& done) {
              thomas_solve_lanes_chain<W, 1, typename Q::ahead>(n, p, q, item, rows, done);
            });
      });
}

// The solve of every line in the packs of `plan` (made with P's widths), one work item each:
// SIMD across the lines of a pack. Add: u += x and d is read only; otherwise x overwrites d (u
// is d). Coefficients and factors of type C, right-hand sides of type D.
template <bool Add, class P, class ExecutionSpace, class AView, class BView, class CView,
          class DView, class UView, class InfoView>
void thomas_along_packs(const ExecutionSpace& exec, const char* function, const along_plan& plan,
                        const AView& a, const BView& b, const CView& c, const DView& d,
                        const UView& u, const InfoView& info, index_t n) {
  using C = typename AView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  constexpr bool shared = AView::rank == 1;
  const bool lanes = plan.lanes;
  const int width = plan.width;
  const line_packs g = plan.g;
  const nd_strides sa = strides_of(a), sb = strides_of(b), sc = strides_of(c),
                   sd = strides_of(d), su = strides_of(u);
  // Scratch: rows of `width` lanes, d' (or x) of type D where d is read only or gathered, then
  // c' of type C for full coefficients, then the shared factors (r, l, c'; C).
  const std::size_t rows_of = static_cast<std::size_t>(n) * static_cast<std::size_t>(width);
  const std::size_t d_block = Add || !lanes ? rows_of * sizeof(D) : 0;
  const std::size_t c_block = shared ? 0 : rows_of * sizeof(C);
  const std::size_t factors = shared ? 3 * static_cast<std::size_t>(n) * sizeof(C) : 0;
  const std::size_t scratch = d_block + c_block + factors;

  for_each_pack(
      exec, function, g.npacks, scratch, KOKKOS_LAMBDA(const index_t p, void* work) {
        // Named here first: nvcc rejects an extended lambda whose first use of a captured
        // variable is inside an if constexpr.
        (void)shared, (void)a, (void)b, (void)c, (void)u, (void)sa, (void)sb, (void)sc, (void)su,
            (void)n;
        const line_pack k = g.pack(p);
        const int nl = k.lanes;
        const index_t ki = g.axis, kl = g.lane_axis;
        char* const bytes = static_cast<char*>(work);
        D* const xs = reinterpret_cast<D*>(bytes);                     // d' or x
        C* const cs = reinterpret_cast<C*>(bytes + d_block);           // c'
        C* const f = reinterpret_cast<C*>(bytes + d_block + c_block);  // shared r, l, c'
        int info_l[P::W > P::L ? P::W : P::L];
        if constexpr (shared) {
          const int code = factor_shared<C>(n, a, b, c, f, f + n, f + 2 * n);
          for (int l = 0; l < nl; ++l) info_l[l] = code;
        }
        if (lanes) {
          constexpr int W = P::W;
          const lane_rows<const D> rd{d.data() + g.offset(sd, k), sd.s[ki]};
          if constexpr (shared) {
            if constexpr (Add) {
              shared_add_lanes<W>(n, nl, f, rd, lane_rows<D>{u.data() + g.offset(su, k), su.s[ki]},
                                  xs);
            } else {
              const lane_rows<D> x{d.data() + g.offset(sd, k), sd.s[ki]};
              if (nl == W) {
                shared_forward_lanes<W, true>(n, W, f, f + n, rd, x);
                shared_backward_lanes<W, true>(n, W, f + 2 * n, x);
              } else {
                shared_forward_lanes<W, false>(n, nl, f, f + n, rd, x);
                shared_backward_lanes<W, false>(n, nl, f + 2 * n, x);
              }
            }
          } else {
            const lane_rows<const C> ra{a.data() + g.offset(sa, k), sa.s[ki]};
            const lane_rows<const C> rb{b.data() + g.offset(sb, k), sb.s[ki]};
            const lane_rows<const C> rc{c.data() + g.offset(sc, k), sc.s[ki]};
            if constexpr (Add) {
              const lane_rows<D> ru{u.data() + g.offset(su, k), su.s[ki]};
              if (nl == W)
                thomas_add_lanes<W, true>(n, W, ra, rb, rc, rd, ru, cs, xs, info_l);
              else
                thomas_add_lanes<W, false>(n, nl, ra, rb, rc, rd, ru, cs, xs, info_l);
            } else {
              const lane_rows<D> x{d.data() + g.offset(sd, k), sd.s[ki]};
              using ahead = typename P::ahead;
              if (nl == W)
                thomas_solve_lanes<W, 1, true, ahead>(n, W, 1, ra, rb, rc, x, cs, info_l,
                                                      no_prefetch{});
              else
                thomas_solve_lanes<W, 1, false, ahead>(n, nl, 1, ra, rb, rc, x, cs, info_l,
                                                       no_prefetch{});
            }
          }
        } else {
          constexpr int L = P::L, TR = P::TR;
          const gathered_lanes<const D> gd{d.data() + g.offset(sd, k), sd.s[kl], sd.s[ki]};
          D* const x = xs;  // d' then x, rows of L lanes
          const gathered_lanes<D> out{u.data() + g.offset(su, k), su.s[kl], su.s[ki]};
          bool in_registers = false;  // solved by the register sweeps (thomas_register_sweep.hpp)
          next_pack_prefetch<5> prefetch;
          add_next_lines(prefetch, d.data(), sd, g, p);
          if constexpr (Add) add_next_lines(prefetch, u.data(), su, g, p);
          if constexpr (shared) {
            shared_forward_gather<TR, L>(n, nl, f, f + n, gd, x);
            shared_backward_lanes<L, true>(n, L, f + 2 * n, lane_rows<D>{x, L}, prefetch);
          } else {
            add_next_lines(prefetch, a.data(), sa, g, p);
            add_next_lines(prefetch, b.data(), sb, g, p);
            add_next_lines(prefetch, c.data(), sc, g, p);
            const gathered_lanes<const C> ga{a.data() + g.offset(sa, k), sa.s[kl], sa.s[ki]};
            const gathered_lanes<const C> gb{b.data() + g.offset(sb, k), sb.s[kl], sb.s[ki]};
            const gathered_lanes<const C> gc{c.data() + g.offset(sc, k), sc.s[kl], sc.s[ki]};
            // The register sweeps (C = D only) take both row blocks as their scratch.
            if (!Add && solve_pack_in_registers<L>(n, nl, ga, gb, gc, gd, out,
                                                   reinterpret_cast<C*>(bytes), prefetch)) {
              for (int l = 0; l < nl; ++l) info_l[l] = 0;
              in_registers = true;  // x is in u (= d) already
            } else {
              thomas_forward_gather<TR, L>(n, nl, ga, gb, gc, gd, cs, x, info_l);
              thomas_backward<L, 1, true>(L, 1, n, cs, lane_rows<D>{x, L}, prefetch);
            }
          }
          if constexpr (Add)
            add_scatter_gather<TR, L>(n, nl, x, out);
          else if (!in_registers)
            scatter_rows<TR, L>(x, n, out, lane_offsets<L>(nl, out.system_stride), nl);
        }
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < nl; ++l) info(s0 + l * g.lane_system_stride) = info_l[l];
      });
}

// The run width (axis_run_packing) for the lane-contiguous lines of g with n rows, coefficients
// C and right-hand sides D on `concurrency` threads: Thomas's rule for column batches
// (column_run_bytes) where full runs hold at least 3/4 of every lane row's lines, else 0.
template <class C, class D>
int axis_run_bytes(const line_packs& g, index_t n, int concurrency) {
  const int bytes = column_run_bytes<C, D>(g.nsys, n, concurrency);
  const index_t run_lanes = bytes / static_cast<index_t>(sizeof(C));
  const bool fill =
      run_lanes > 0 && 4 * (g.lane_extent / run_lanes) * run_lanes >= 3 * g.lane_extent;
  return fill ? bytes : 0;
}

// The host backends' solve of every line (n >= 1 rows, arguments checked). Full coefficients
// of lane-contiguous lines: chains of packs (one-shot) or packs one at a time (Add), in runs of
// whole pages where axis_run_bytes takes them; other lines in P's packs.
template <bool Add, bool Tiles, class ExecutionSpace, class AView, class BView, class CView,
          class DView, class UView, class InfoView>
void thomas_along_host(const ExecutionSpace& exec, const char* function, int axis,
                       const AView& a, const BView& b, const CView& c, const DView& d,
                       const UView& u, const InfoView& info, index_t n) {
  using C = typename AView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  constexpr bool shared = AView::rank == 1;
  using P = axis_packing<D, shared, Tiles>;
  const along_plan plan = plan_along<P::W, P::L>(d, axis, u, a, b, c);
  if constexpr (!shared) {
    if (plan.lanes) {
      const int run_bytes = axis_run_bytes<C, D>(plan.g, n, exec.concurrency());
      const auto solve = [&](auto packing, const along_plan& q) {
        using Q = decltype(packing);
        if constexpr (Add)
          thomas_along_packs<Add, Q>(exec, function, q, a, b, c, d, u, info, n);
        else
          thomas_along_lane_chains<Q>(exec, function, q.g, a, b, c, d, info, n);
      };
      const auto runs = [&](auto packing) {
        using Q = decltype(packing);
        solve(packing, plan_along<Q::W, Q::L>(d, axis, u, a, b, c));
      };
      if (run_bytes == column_long_run_bytes)
        runs(axis_run_packing<P, C, column_long_run_bytes>{});
      else if (run_bytes == column_short_run_bytes)
        runs(axis_run_packing<P, C, column_short_run_bytes>{});
      else
        solve(P{}, plan);
      return;
    }
  }
  thomas_along_packs<Add, P>(exec, function, plan, a, b, c, d, u, info, n);
}

// The run-time checks of solve_along (u is d) and solve_along_add (Add: u receives u + x, d is
// only read) named fn: the axis, each coefficient's shape (d's extents, or rank 1 of length n)
// and that it does not overlap the output, u against d, the output and info apart, one info
// entry per line. Returns the number of lines.
template <bool Add, class AView, class BView, class CView, class DView, class UView,
          class InfoView>
std::size_t check_along_solve(const std::string& fn, int axis, const AView& a, const BView& b,
                              const CView& c, const DView& d, const UView& u,
                              const InfoView& info) {
  constexpr int rank = static_cast<int>(DView::rank);
  if (axis < 0 || axis >= rank)
    throw_invalid_argument(fn, "axis = ", axis, " but d has rank ", rank, " (axes 0 to ",
                           rank - 1, ")");
  const char* out_name = Add ? "u" : "d";
  check_along_coefficient(fn, "a", a, d, axis, out_name, u);
  check_along_coefficient(fn, "b", b, d, axis, out_name, u);
  check_along_coefficient(fn, "c", c, d, axis, out_name, u);
  if constexpr (Add) {
    check_same_extents(fn, "u", u, "d", d);
    check_no_overlap(fn, "u", u, "d", d);
  }
  check_no_overlap(fn, out_name, u, "info", info);
  return check_along_lines(fn, axis, d, info);
}

// Both entry points: the checks, then the backend's solve. Add: u += x and d is read only;
// otherwise x overwrites d (u is d). Backend: the execution space's own, or backend::device.
template <bool Add, class Backend, class ExecutionSpace, class AView, class BView, class CView,
          class DView, class UView, class InfoView>
void thomas_along(const ExecutionSpace& exec, const char* function, int axis, const AView& a,
                  const BView& b, const CView& c, const DView& d, const UView& u,
                  const InfoView& info) {
  thomas_along_static_checks<ExecutionSpace, AView, BView, CView, DView, UView, InfoView>();
  static_assert(backend::is_backend_v<Backend>,
                "bandsolve::solve_along: the last argument must be a backend tag "
                "(backend::device, or the execution space's own)");
  const std::size_t nsys = check_along_solve<Add>(function, axis, a, b, c, d, u, info);
  const index_t n = static_cast<index_t>(extent_at(d, axis));
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    check_rows_fit_int(function, extent_at(d, axis));
    using C = typename AView::non_const_value_type;
    using T = typename DView::non_const_value_type;
    if constexpr (Add) {
      along_device_add(
          exec, function, axis, d, u, info, static_cast<index_t>(nsys), n,
          [&](const along_launch& l, const device::axis_lines<T>& x, const InfoView& codes,
              index_t lines) {
            thomas_device_solve(exec, l.lines<const C>(a), l.lines<const C>(b),
                                l.lines<const C>(c), x, codes, n, lines);
          },
          [&](const along_launch& l, const InfoView& codes, index_t lines) {
            return thomas_device_solve_add(exec, l.lines<const C>(a), l.lines<const C>(b),
                                           l.lines<const C>(c), l.lines<const T>(d),
                                           l.lines<T>(u), codes, n, lines);
          },
          a, b, c);
    } else {
      for_each_line_batch(
          axis, d, info, static_cast<index_t>(nsys),
          [&](const along_launch& l, const InfoView& codes, index_t lines) {
            thomas_device_solve(exec, l.lines<const C>(a), l.lines<const C>(b),
                                l.lines<const C>(c), l.lines<T>(d), codes, n, lines);
          },
          a, b, c);
    }
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve_along(thomas): a host backend runs only on its own execution "
                  "space");
    using D = typename DView::non_const_value_type;
    if (axis_takes_tiles<D, AView::rank == 1, Add>(n))
      thomas_along_host<Add, axis_packing_tiles_v<D>>(exec, function, axis, a, b, c, d, u, info,
                                                       n);
    else
      thomas_along_host<Add, false>(exec, function, axis, a, b, c, d, u, info, n);
  }
}

}  // namespace detail

// x overwrites d. See the top of this header. Backend: the execution space's own, or
// backend::device to run the device kernels on any execution space (host spaces included).
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView,
          class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve_along(const ExecutionSpace& exec,
                                                             algo::thomas, int axis,
                                                             const AView& a, const BView& b,
                                                             const CView& c, const DView& d,
                                                             const InfoView& info, Backend) {
  static_assert(Kokkos::is_view<DView>::value &&
                    std::is_same_v<typename DView::value_type,
                                   typename DView::non_const_value_type>,
                "bandsolve::solve_along(thomas): d receives the solution and cannot be a View of "
                "const (solve_along_add reads d and adds the solution into u)");
  detail::thomas_along<false, Backend>(exec, "bandsolve::solve_along(thomas)", axis, a, b, c, d,
                                       d, info);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve_along(const ExecutionSpace& exec, algo::thomas, int axis, const AView& a,
                 const BView& b, const CView& c, const DView& d, const InfoView& info) {
  solve_along(exec, algo::thomas{}, axis, a, b, c, d, info,
              backend::default_for_t<ExecutionSpace>{});
}

// u += x; d is only read. See the top of this header. Backend as for solve_along.
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class UView,
          class InfoView, class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve_along_add(
    const ExecutionSpace& exec, algo::thomas, int axis, const AView& a, const BView& b,
    const CView& c, const DView& d, const UView& u, const InfoView& info, Backend) {
  static_assert(Kokkos::is_view<UView>::value &&
                    std::is_same_v<typename UView::value_type,
                                   typename UView::non_const_value_type>,
                "bandsolve::solve_along_add(thomas): u receives u + x and cannot be a View of "
                "const");
  detail::thomas_along<true, Backend>(exec, "bandsolve::solve_along_add(thomas)", axis, a, b, c,
                                      d, u, info);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class UView,
          class InfoView>
void solve_along_add(const ExecutionSpace& exec, algo::thomas, int axis, const AView& a,
                     const BView& b, const CView& c, const DView& d, const UView& u,
                     const InfoView& info) {
  solve_along_add(exec, algo::thomas{}, axis, a, b, c, d, u, info,
                  backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
