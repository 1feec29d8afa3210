#pragma once
// Factored Thomas lines along an axis of a 2-D to 4-D array: factor once, solve many (time steps
// whose tridiagonal operator does not change).
//
//   auto f = bandsolve::factorize_along(exec, algo::thomas{}, axis, a, b, c[, backend]);
//   auto f = bandsolve::factorize_along(exec, algo::thomas{}, axis, a, b, c, d[, backend]);
//   f.solve(exec, d);   // any number of times: x overwrites d
//   f.solve_add(exec, d, u);  // u += x, d only read (the last sweep of an ADI step)
//   f.refactor(exec, a2, b2, c2);  // new coefficients of the same kind, into f's storage
//   f.info();           // the factorization's codes, one per line (solve_along's numbering)
//
// a, b, c as for solve_along(thomas) (thomas_axis.hpp): full arrays of the grid's rank and
// extents (any layouts, each its own strides), or rank-1 Views of length n shared by every line.
// The first form takes the grid from b (so a, b, c must be full arrays); the second from d, a View
// shaped like the right-hand sides to come (its values are not read). A solve takes d of the
// factored extents in any layout (LayoutRight, LayoutLeft, LayoutStride), of the factored scalar
// type or Kokkos::complex of a real one, and addresses it through its own strides.
// Storage: r = 1/pivot, l = a r and c' = c r per row and line (3 values per unknown, read with d
// by every solve: 5 words of memory traffic per unknown against the one-shot solve's 5, with
// no division); shared coefficients: one line's, once (a solve moves d alone, 2 words).
// solve_add reads d and u and writes u (6 words; shared: 3), x in the pack's scratch (n values
// per lane, as solve_along_add), each of d and u read in place or gathered by its own strides;
// on the device backend it is solve_along_add's device path on the copies.
// Host backends: the lines grouped once, at factorization, from the strides of b (of d for shared
// coefficients) into packs of neighbouring lines along the batch axis of smallest stride, a SIMD
// lane each, the factors of a pack interleaved lane by lane; a solve streams them with d's pack
// (lane-contiguous rows, or tiles transposed in registers where d's lines of a pack are not
// neighbours). Device backend (trailing backend::device{}, the default on Kokkos::Cuda): copies
// of a, b and c (3 values per unknown as the factors; for lines short enough for register
// chunks, stored with the lines side by side along every axis so that their loads coalesce) and
// the lines' info codes at factorization; each solve runs solve_along's device sweep on the
// copies, with its shapes (a thread per line where lines are neighbours, row tiles where each
// line is contiguous, register chunks for short lines, the chunk method for a few long ones),
// moving as many words as the factors would; its divisions hide behind that traffic on a GPU
// (an H200 takes the one-shot solve's time, less along the unit-stride axis, where only d is
// read row by row). Enqueued on exec, not fenced; a solve does not look at info(): lines whose
// code is not 0 get inf/NaN.
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/layout/axis.hpp>
#include <bandsolve/layout/axis_checks.hpp>
#include <bandsolve/layout/axis_factorization.hpp>
#include <bandsolve/tridiag/thomas.hpp>
#include <bandsolve/tridiag/thomas_axis.hpp>
#include <bandsolve/tridiag/thomas_axis_kernel.hpp>
#include <bandsolve/tridiag/thomas_chunked_device.hpp>

#include <array>
#include <string>
#include <type_traits>
#include <utility>

namespace bandsolve {

template <class Scalar, class ExecutionSpace, class Backend>
class thomas_axis_factorization;

namespace detail {

// Lines per factor pack: the lane-contiguous packs' width of solve_along (the column blocks')
// on the host, whatever d's layout (a solve of lines that are not neighbours transposes tiles of
// this many lanes); one line on the device backend.
template <class T, class Backend>
struct thomas_axis_factor_packing {
  static constexpr int W = std::is_same_v<Backend, backend::device>
                               ? 1
                               : sweep_packing<layout::column, T>::W;
  static constexpr int TR = sweep_packing<layout::row, T>::TR;
  static_assert(W == 1 || W % TR == 0,
                "bandsolve: the factor packs of lines along an axis are whole tiles");
};

// Factors of the lines of g: pack p's r, l, c' at f + p * n * W (+ total, + 2 total), rows of W
// lanes; lanes: a, b and c have unit stride along the lane axis.
template <class ExecutionSpace, class T, class AView, class BView, class CView, class InfoView>
void thomas_axis_factor_host(const ExecutionSpace& exec, const line_packs& g, bool lanes,
                             const AView& a, const BView& b, const CView& c, T* f,
                             std::size_t total, const InfoView& info) {
  using P = thomas_axis_factor_packing<T, backend::default_for_t<ExecutionSpace>>;
  constexpr int W = P::W, TR = P::TR;
  constexpr auto lane_count = static_cast<std::size_t>(W);  // an array bound
  const nd_strides sa = strides_of(a), sb = strides_of(b), sc = strides_of(c);
  const index_t n = g.n;
  for_each_pack(
      exec, "bandsolve::factorize_along(thomas)", g.npacks, 0,
      KOKKOS_LAMBDA(const index_t p, void*) {
        const line_pack k = g.pack(p);
        const int nl = k.lanes;
        const index_t ki = g.axis, kl = g.lane_axis;
        T* const rp = f + p * n * W;
        T* const lp = rp + total;
        T* const cpp = rp + 2 * total;
        int info_l[lane_count] = {};
        if (lanes) {
          const lane_rows<const T> ra{a.data() + g.offset(sa, k), sa.s[ki]};
          const lane_rows<const T> rb{b.data() + g.offset(sb, k), sb.s[ki]};
          const lane_rows<const T> rc{c.data() + g.offset(sc, k), sc.s[ki]};
          if (nl == W)
            thomas_factor_lanes<W, 1, true>(n, W, 1, ra, rb, rc, rp, lp, cpp, info_l);
          else
            thomas_factor_lanes<W, 1, false>(n, nl, 1, ra, rb, rc, rp, lp, cpp, info_l);
        } else {
          const gathered_lanes<const T> ga{a.data() + g.offset(sa, k), sa.s[kl], sa.s[ki]};
          const gathered_lanes<const T> gb{b.data() + g.offset(sb, k), sb.s[kl], sb.s[ki]};
          const gathered_lanes<const T> gc{c.data() + g.offset(sc, k), sc.s[kl], sc.s[ki]};
          thomas_factor_gather<TR, W>(n, nl, ga, gb, gc, rp, lp, cpp, info_l);
        }
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < nl; ++l) info(s0 + l * g.lane_system_stride) = info_l[l];
      });
}

// A solve with the stored factors of the packs of g: d's pack in place, lane-contiguous where d
// has unit stride along the lane axis, else gathered in tiles (d' block by block once a pack's
// rows outgrow factored_gather_whole_bytes, as the batch factorization's solve).
template <class ExecutionSpace, class C, class DView>
void thomas_axis_factored_solve_host(const ExecutionSpace& exec, const line_packs& g,
                                     const C* f, std::size_t total, const DView& d) {
  using D = typename DView::value_type;
  using P = thomas_axis_factor_packing<C, backend::default_for_t<ExecutionSpace>>;
  constexpr int W = P::W, TR = P::TR;
  const nd_strides sd = strides_of(d);
  const index_t n = g.n;
  const bool lanes = unit_lane_stride(d, g.lane_axis);
  index_t block = n;
  if (static_cast<std::size_t>(n) * W * sizeof(D) > factored_gather_whole_bytes &&
      n > factored_gather_block_rows<TR, W, D>)
    block = factored_gather_block_rows<TR, W, D>;
  const std::size_t scratch = lanes ? 0 : static_cast<std::size_t>(block) * W * sizeof(D);
  for_each_pack(
      exec, "bandsolve::thomas_axis_factorization::solve", g.npacks, scratch,
      KOKKOS_LAMBDA(const index_t p, void* work) {
        const line_pack k = g.pack(p);
        const int nl = k.lanes;
        const C* const rp = f + p * n * W;
        const C* const lp = rp + total;
        const C* const cpp = rp + 2 * total;
        D* const base = d.data() + g.offset(sd, k);
        if (lanes) {
          const lane_rows<D> rd{base, sd.s[g.axis]};
          if (nl == W)
            thomas_factored_solve_lanes<W, 1, true>(n, W, 1, rp, lp, cpp, rd, no_prefetch{});
          else
            thomas_factored_solve_lanes<W, 1, false>(n, nl, 1, rp, lp, cpp, rd, no_prefetch{});
        } else {
          const gathered_lanes<D> gd{base, sd.s[g.lane_axis], sd.s[g.axis]};
          // Whole packs of doubles with unit row stride through the register sweeps (their n * 8
          // values of scratch fit in a whole pack's rows), else the gathered sweeps.
          if (block == n && thomas_factored_pack_in_registers<W>(n, nl, rp, lp, cpp, gd,
                                                                 static_cast<D*>(work)))
            return;
          thomas_factored_solve_gather<TR, W>(n, nl, rp, lp, cpp, gd, static_cast<D*>(work),
                                              block, no_prefetch{});
        }
      });
}

// A solve with one line's factors (r, l, c' at f, f + n, f + 2n) for every line: the packs of
// solve_along with shared coefficients, planned from d.
template <class ExecutionSpace, class C, class DView>
void thomas_axis_shared_solve_host(const ExecutionSpace& exec, int axis, index_t n, const C* f,
                                   const DView& d) {
  using D = typename DView::value_type;
  using P = axis_packing<D, true>;
  const along_plan plan = plan_along<P::W, P::L>(d, axis);
  const bool lanes = plan.lanes;
  const line_packs g = plan.g;
  const nd_strides sd = strides_of(d);
  const std::size_t scratch =
      lanes ? 0 : static_cast<std::size_t>(n) * static_cast<std::size_t>(P::L) * sizeof(D);
  for_each_pack(
      exec, "bandsolve::thomas_axis_factorization::solve", g.npacks, scratch,
      KOKKOS_LAMBDA(const index_t p, void* work) {
        const line_pack k = g.pack(p);
        const int nl = k.lanes;
        D* const base = d.data() + g.offset(sd, k);
        if (lanes) {
          constexpr int W = P::W;
          const lane_rows<const D> rd{base, sd.s[g.axis]};
          const lane_rows<D> x{base, sd.s[g.axis]};
          if (nl == W) {
            shared_forward_lanes<W, true>(n, W, f, f + n, rd, x);
            shared_backward_lanes<W, true>(n, W, f + 2 * n, x);
          } else {
            shared_forward_lanes<W, false>(n, nl, f, f + n, rd, x);
            shared_backward_lanes<W, false>(n, nl, f + 2 * n, x);
          }
        } else {
          constexpr int L = P::L, TR = P::TR;
          const gathered_lanes<D> gd{base, sd.s[g.lane_axis], sd.s[g.axis]};
          D* const x = static_cast<D*>(work);
          shared_forward_gather<TR, L>(n, nl, f, f + n,
                                       gathered_lanes<const D>{gd.base, gd.system_stride,
                                                               gd.row_stride},
                                       x);
          shared_backward_lanes<L, true>(n, L, f + 2 * n, lane_rows<D>{x, L});
          scatter_rows<TR, L>(x, n, gd, lane_offsets<L>(nl, gd.system_stride), nl);
        }
      });
}

// u += x with the stored factors of the packs of g, d only read: x in the pack's scratch (rows of
// W lanes), d's and u's packs each lane-contiguous where its lane axis has unit stride, else
// gathered in tiles.
template <class ExecutionSpace, class C, class DView, class UView>
void thomas_axis_factored_add_host(const ExecutionSpace& exec, const line_packs& g, const C* f,
                                   std::size_t total, const DView& d, const UView& u) {
  using D = typename DView::non_const_value_type;
  using P = thomas_axis_factor_packing<C, backend::default_for_t<ExecutionSpace>>;
  constexpr int W = P::W, TR = P::TR;
  const nd_strides sd = strides_of(d), su = strides_of(u);
  const index_t n = g.n;
  const bool d_lanes = unit_lane_stride(d, g.lane_axis);
  const bool u_lanes = unit_lane_stride(u, g.lane_axis);
  for_each_pack(
      exec, "bandsolve::thomas_axis_factorization::solve_add", g.npacks,
      static_cast<std::size_t>(n) * W * sizeof(D), KOKKOS_LAMBDA(const index_t p, void* work) {
        const line_pack k = g.pack(p);
        const int nl = k.lanes;
        const C* const rp = f + p * n * W;
        const C* const lp = rp + total;
        const C* const cpp = rp + 2 * total;
        D* const x = static_cast<D*>(work);
        const index_t ki = g.axis, kl = g.lane_axis;
        if (d_lanes) {
          const lane_rows<const D> rd{d.data() + g.offset(sd, k), sd.s[ki]};
          if (nl == W) factored_forward_lanes<W, true>(n, W, rp, lp, rd, x);
          else factored_forward_lanes<W, false>(n, nl, rp, lp, rd, x);
        } else {
          factored_forward_gather<TR, W>(
              n, nl, rp, lp, gathered_lanes<const D>{d.data() + g.offset(sd, k), sd.s[kl], sd.s[ki]},
              x);
        }
        if (u_lanes) {
          const lane_rows<D> ru{u.data() + g.offset(su, k), su.s[ki]};
          if (nl == W) backward_add_lanes<W, true, false>(n, W, cpp, x, ru);
          else backward_add_lanes<W, false, false>(n, nl, cpp, x, ru);
        } else {
          thomas_backward<W, 1, true>(W, 1, n, cpp, lane_rows<D>{x, W}, no_prefetch{});
          add_scatter_gather<TR, W>(
              n, nl, x, gathered_lanes<D>{u.data() + g.offset(su, k), su.s[kl], su.s[ki]});
        }
      });
}

// u += x with one line's factors (r, l, c' at f, f + n, f + 2n) for every line, d only read: the
// packs of solve_along_add with shared coefficients, planned from d and u.
template <class ExecutionSpace, class C, class DView, class UView>
void thomas_axis_shared_add_host(const ExecutionSpace& exec, int axis, index_t n, const C* f,
                                 const DView& d, const UView& u) {
  using D = typename DView::non_const_value_type;
  using P = axis_packing<D, true>;
  const along_plan plan = plan_along<P::W, P::L>(d, axis, u);
  const bool lanes = plan.lanes;
  const line_packs g = plan.g;
  const nd_strides sd = strides_of(d), su = strides_of(u);
  const std::size_t scratch =
      static_cast<std::size_t>(n) * static_cast<std::size_t>(plan.width) * sizeof(D);
  for_each_pack(
      exec, "bandsolve::thomas_axis_factorization::solve_add", g.npacks, scratch,
      KOKKOS_LAMBDA(const index_t p, void* work) {
        const line_pack k = g.pack(p);
        const int nl = k.lanes;
        const index_t ki = g.axis, kl = g.lane_axis;
        D* const x = static_cast<D*>(work);
        if (lanes) {
          shared_add_lanes<P::W>(n, nl, f, lane_rows<const D>{d.data() + g.offset(sd, k), sd.s[ki]},
                                 lane_rows<D>{u.data() + g.offset(su, k), su.s[ki]}, x);
        } else {
          constexpr int L = P::L, TR = P::TR;
          shared_forward_gather<TR, L>(
              n, nl, f, f + n,
              gathered_lanes<const D>{d.data() + g.offset(sd, k), sd.s[kl], sd.s[ki]}, x);
          shared_backward_lanes<L, true>(n, L, f + 2 * n, lane_rows<D>{x, L});
          add_scatter_gather<TR, L>(
              n, nl, x, gathered_lanes<D>{u.data() + g.offset(su, k), su.s[kl], su.s[ki]});
        }
      });
}

// The device backend keeps copies of the coefficients (arrays of the grid's extents, or of the
// n shared values) in `stored`: a, b, c of `per_array` values each, back to back.
template <class T, int Rank, class MemorySpace>
struct grid_array_of {
  using data = std::conditional_t<Rank == 1, T*,
                                  std::conditional_t<Rank == 2, T**,
                                                     std::conditional_t<Rank == 3, T***, T****>>>;
  using layout = std::conditional_t<Rank == 1, Kokkos::LayoutRight, Kokkos::LayoutStride>;
  using type =
      Kokkos::View<data, layout, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
};

// The strides of a stored copy of the grid's extents. Lines side by side: the last batch axis of
// unit stride, then the solve axis, then the other batch axes (later ones faster), so that
// neighbouring lines are neighbours in memory along every axis, the unit-stride one included (a
// GPU thread per line, or per chunk of a line, then reads coalesced), and rank-4 outer batch
// axes fold into one launch. Otherwise LayoutRight's strides (along the last axis each line
// contiguous, as row tiles want).
template <int Rank>
Kokkos::LayoutStride stored_layout(const std::array<std::size_t, 4>& e, int axis,
                                   bool side_by_side) {
  std::array<int, 4> order{};  // axes, fastest first
  int m = 0;
  if (side_by_side) {
    const int inner = axis == Rank - 1 ? Rank - 2 : Rank - 1;
    order[static_cast<std::size_t>(m++)] = inner;
    order[static_cast<std::size_t>(m++)] = axis;
    for (int k = Rank - 1; k >= 0; --k)
      if (k != axis && k != inner) order[static_cast<std::size_t>(m++)] = k;
  } else {
    for (int k = Rank - 1; k >= 0; --k) order[static_cast<std::size_t>(m++)] = k;
  }
  std::array<std::size_t, 4> st{};
  std::size_t next = 1;
  for (int j = 0; j < Rank; ++j) {
    const auto k = static_cast<std::size_t>(order[static_cast<std::size_t>(j)]);
    st[k] = next;
    next *= e[k];
  }
  if constexpr (Rank == 2) return Kokkos::LayoutStride(e[0], st[0], e[1], st[1]);
  else if constexpr (Rank == 3) return Kokkos::LayoutStride(e[0], st[0], e[1], st[1], e[2], st[2]);
  else return Kokkos::LayoutStride(e[0], st[0], e[1], st[1], e[2], st[2], e[3], st[3]);
}

// Array k (0: a, 1: b, 2: c) of the stored copies: rank 1, n values; else the grid's extents with
// stored_layout's strides.
template <int Rank, class MemorySpace, class T>
auto stored_array(T* stored, std::size_t per_array, int k, const std::array<std::size_t, 4>& e,
                  int axis, bool side_by_side) {
  using view = typename grid_array_of<T, Rank, MemorySpace>::type;
  T* const p = stored + static_cast<std::size_t>(k) * per_array;
  if constexpr (Rank == 1) {
    (void)e, (void)axis, (void)side_by_side;
    return view(p, per_array);
  } else {
    return view(p, stored_layout<Rank>(e, axis, side_by_side));
  }
}

// run(a, b, c) on the stored copies: rank-1 Views of the n shared values where `shared`, else
// arrays of the grid's extents.
template <int Rank, class MemorySpace, class T, class Run>
void on_stored_copies(T* stored, std::size_t per_array, const std::array<std::size_t, 4>& e,
                      int axis, bool side_by_side, bool shared, const Run& run) {
  if (shared)
    run(stored_array<1, MemorySpace>(stored, per_array, 0, e, axis, side_by_side),
        stored_array<1, MemorySpace>(stored, per_array, 1, e, axis, side_by_side),
        stored_array<1, MemorySpace>(stored, per_array, 2, e, axis, side_by_side));
  else
    run(stored_array<Rank, MemorySpace>(stored, per_array, 0, e, axis, side_by_side),
        stored_array<Rank, MemorySpace>(stored, per_array, 1, e, axis, side_by_side),
        stored_array<Rank, MemorySpace>(stored, per_array, 2, e, axis, side_by_side));
}

// Whether the device factorization stores its copies with the lines side by side: where the
// one-shot sweep then takes register chunks (short lines), whose coefficient loads coalesce;
// longer lines keep LayoutRight, whose rows along the last axis the row tiles read contiguous.
template <class T>
bool thomas_copies_side_by_side(index_t n) {
  return device::chunked_thomas_fits<T, T>(n);
}

// The device factorization: a, b, c copied into `stored`, and the lines' info codes from their
// pivots (a thread per line, as the one-shot solve would report them).
template <class ExecutionSpace, class T, class AView, class BView, class CView, class InfoView>
void thomas_axis_factor_device(const ExecutionSpace& exec, const line_packs& g,
                               const std::array<std::size_t, 4>& extents, int axis,
                               bool side_by_side, const AView& a, const BView& b,
                               const CView& c, T* stored, std::size_t per_array,
                               const InfoView& info) {
  using policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<index_t>>;
  const char* label = "bandsolve::factorize_along(thomas, device)";
  using memory_space = typename ExecutionSpace::memory_space;
  constexpr int rank = static_cast<int>(AView::rank);
  Kokkos::deep_copy(
      exec, stored_array<rank, memory_space>(stored, per_array, 0, extents, axis, side_by_side),
      a);
  Kokkos::deep_copy(
      exec, stored_array<rank, memory_space>(stored, per_array, 1, extents, axis, side_by_side),
      b);
  Kokkos::deep_copy(
      exec, stored_array<rank, memory_space>(stored, per_array, 2, extents, axis, side_by_side),
      c);
  const index_t n = g.n;
  if constexpr (rank == 1) {
    Kokkos::parallel_for(
        label, policy(exec, 0, 1), KOKKOS_LAMBDA(const index_t) {
          int code = 0;
          T r = T(0), lo = T(0), cp = T(0);
          factor_first_row<1, true>(1, &b(0), &c(0), &r, &lo, &cp, &code);
          for (index_t i = 1; i < n; ++i) {
            const T prev = cp;
            factor_next_row<1, true>(1, i, &a(i), &b(i), &c(i), &prev, &r, &lo, &cp, &code);
          }
          info(0) = code;
        });
    Kokkos::parallel_for(
        label, policy(exec, 1, g.nsys), KOKKOS_LAMBDA(const index_t s) { info(s) = info(0); });
  } else {
    const nd_strides sa = strides_of(a), sb = strides_of(b), sc = strides_of(c);
    Kokkos::parallel_for(
        label, policy(exec, 0, g.npacks), KOKKOS_LAMBDA(const index_t p) {
          const line_pack k = g.pack(p);
          const index_t ki = g.axis, ia = sa.s[ki], ib = sb.s[ki], ic = sc.s[ki];
          const T* const as = a.data() + g.offset(sa, k);
          const T* const bs = b.data() + g.offset(sb, k);
          const T* const cs = c.data() + g.offset(sc, k);
          int code = 0;
          T r = T(0), lo = T(0), cp = T(0);
          factor_first_row<1, true>(1, bs, cs, &r, &lo, &cp, &code);
          for (index_t i = 1; i < n; ++i) {
            const T prev = cp;
            factor_next_row<1, true>(1, i, as + i * ia, bs + i * ib, cs + i * ic, &prev, &r,
                                     &lo, &cp, &code);
          }
          info(g.first_system(k)) = code;
        });
  }
}

struct thomas_axis_factorization_access {
  template <class F, class... Args>
  static F make(Args&&... args) {
    return F(std::forward<Args>(args)...);
  }
};

}  // namespace detail

// The factors of the lines along one axis (factorize_along(exec, algo::thomas{}, ...)). Backend:
// the backend that factored them and runs the solves.
template <class Scalar, class ExecutionSpace, class Backend>
class thomas_axis_factorization
    : public detail::axis_lines_factorization<typename ExecutionSpace::memory_space> {
  using base = detail::axis_lines_factorization<typename ExecutionSpace::memory_space>;
  using base::axis_, base::extents_, base::info_, base::lines_, base::shared_;

 public:
  using scalar_type = Scalar;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;

  thomas_axis_factorization() = default;

  std::size_t storage_bytes() const { return factors_.span() * sizeof(Scalar); }

  // Factors new coefficients into this factorization's storage: a, b, c of the kind that was
  // factored (arrays of the factored extents, each in any layout, or rank-1 Views of the n values
  // shared by every line) and of the factored scalar type. The lines keep their grouping and
  // packs. No allocation; the factors and info codes of factorize_along; enqueued on exec, not
  // fenced. Copies of the factorization share its storage.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c);

  // d: the factored extents, any layout, of the factored scalar type or Kokkos::complex of a
  // real one; x overwrites d. Enqueued on exec, not fenced.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::axis_factored_solve_static_checks<Scalar, ExecutionSpace, DView>();
    const std::string fn = "bandsolve::thomas_axis_factorization::solve";
    if (!this->solve_needed(fn, d, "factored array")) return;
    const Scalar* const f = factors_.data();
    if constexpr (std::is_same_v<Backend, backend::device>)
      device_solve<false>(exec, fn, d, d);
    else if (shared_)
      detail::thomas_axis_shared_solve_host(exec, axis_, lines_.n, f, d);
    else
      detail::thomas_axis_factored_solve_host(exec, lines_, f, per_factor_, d);
  }

  // u += x, d only read (it may be a View of const): the last sweep of an ADI step. d and u: the
  // factored extents, each in any layout, of one scalar type as for solve. Enqueued on exec, not
  // fenced.
  template <class DView, class UView>
  void solve_add(const ExecutionSpace& exec, const DView& d, const UView& u) const {
    detail::axis_factored_add_static_checks<Scalar, ExecutionSpace, DView, UView>();
    const std::string fn = "bandsolve::thomas_axis_factorization::solve_add";
    const bool needed = this->solve_needed(fn, d, "factored array");
    detail::check_same_extents(fn, "u", u, "d", d);
    detail::check_no_overlap(fn, "u", u, "d", d);
    if (!needed) return;
    const Scalar* const f = factors_.data();
    if constexpr (std::is_same_v<Backend, backend::device>)
      device_solve<true>(exec, fn, d, u);
    else if (shared_)
      detail::thomas_axis_shared_add_host(exec, axis_, lines_.n, f, d, u);
    else
      detail::thomas_axis_factored_add_host(exec, lines_, f, per_factor_, d, u);
  }

 private:
  // The one-shot device sweep (solve_along, or solve_along_add where Add) on the stored copies;
  // its info codes go to a kept buffer.
  template <bool Add, class DView, class UView>
  void device_solve(const ExecutionSpace& exec, const std::string& fn, const DView& d,
                    const UView& u) const {
    detail::on_stored_copies<static_cast<int>(DView::rank), memory_space>(
        factors_.data(), per_factor_, extents_, axis_, side_by_side_, shared_,
        [&](const auto& a, const auto& b, const auto& c) {
          detail::thomas_along<Add, backend::device>(exec, fn.c_str(), axis_, a, b, c, d, u,
                                                     solve_info_);
        });
  }

  friend struct detail::thomas_axis_factorization_access;

  thomas_axis_factorization(const Kokkos::View<Scalar*, memory_space>& factors,
                            const Kokkos::View<int*, memory_space>& info,
                            const Kokkos::View<int*, memory_space>& solve_info,
                            const detail::line_packs& lines, std::array<std::size_t, 4> extents,
                            int rank, int axis, std::size_t per_factor, bool shared,
                            bool side_by_side)
      : base(info, lines, extents, rank, axis, shared), factors_(factors),
        solve_info_(solve_info), per_factor_(per_factor), side_by_side_(side_by_side) {}

  // Host backends: r, then l, then c', per_factor_ values each. Device backend: copies of a, b
  // and c (per_factor_ values each: the array's, or n shared ones), with the lines side by side
  // or not (detail::stored_layout).
  Kokkos::View<Scalar*, memory_space> factors_;
  Kokkos::View<int*, memory_space> solve_info_;  // device backend: the solves' codes (unread)
  std::size_t per_factor_ = 0;
  bool side_by_side_ = false;
};

namespace detail {

// The factors of the lines of `lines` (a, b, c: full arrays of the grid's extents, any layouts,
// or rank 1: n values shared by every line) into `factors` (per_factor values each; the device
// backend's copies, with the lines side by side or not) and their info codes: factorize_along's
// and refactor's work. Enqueued on exec.
template <class Backend, class ExecutionSpace, class AView, class BView, class CView, class T,
          class InfoView>
void thomas_axis_factor_into(const ExecutionSpace& exec, const line_packs& lines,
                             const std::array<std::size_t, 4>& extents, int axis,
                             bool side_by_side, const AView& a, const BView& b, const CView& c,
                             const Kokkos::View<T*, typename ExecutionSpace::memory_space>& factors,
                             std::size_t per_factor, const InfoView& info) {
  if (lines.nsys == 0) return;
  if (lines.n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  T* const out = factors.data();
  if constexpr (std::is_same_v<Backend, backend::device>) {
    thomas_axis_factor_device(exec, lines, extents, axis, side_by_side, a, b, c, out, per_factor,
                              info);
  } else if constexpr (AView::rank == 1) {
    const index_t ni = lines.n;
    for_each_pack(exec, "bandsolve::factorize_along(thomas)", 1, 0, [=](const index_t, void*) {
      info(0) = factor_shared<T>(ni, a, b, c, out, out + ni, out + 2 * ni);
    });
    for_each_pack(exec, "bandsolve::factorize_along(thomas)", lines.nsys - 1, 0,
                  [=](const index_t s, void*) { info(s + 1) = info(0); });
  } else {
    const int lane = lines.lane_axis;
    const bool lanes = unit_lane_stride(a, lane) && unit_lane_stride(b, lane) &&
                       unit_lane_stride(c, lane);
    thomas_axis_factor_host(exec, lines, lanes, a, b, c, out, per_factor, info);
  }
}

// factorize_along with the grid's extents and line grouping from `grid` (d, or b when the
// coefficients are full arrays); arguments checked.
template <class Backend, class ExecutionSpace, class GridView, class AView, class BView,
          class CView>
auto thomas_axis_factorize(const ExecutionSpace& exec, int axis, const GridView& grid,
                           const AView& a, const BView& b, const CView& c) {
  using T = typename BView::non_const_value_type;
  using F = thomas_axis_factorization<T, ExecutionSpace, Backend>;
  using memory_space = typename F::memory_space;
  constexpr int rank = static_cast<int>(GridView::rank);
  constexpr bool shared = AView::rank == 1;
  constexpr int W = thomas_axis_factor_packing<T, Backend>::W;
  const line_packs lines = make_line_packs(grid, axis, lane_axis_of(grid, axis), W);
  std::array<std::size_t, 4> extents{};
  for (int k = 0; k < rank; ++k) extents[static_cast<std::size_t>(k)] = extent_at(grid, k);
  const auto n = static_cast<std::size_t>(lines.n);
  constexpr bool device = std::is_same_v<Backend, backend::device>;
  const auto nsys = static_cast<std::size_t>(lines.nsys);
  const std::size_t per_factor = nsys == 0 ? 0
                                 : shared  ? n
                                 : device  ? n * nsys
                                           : n * static_cast<std::size_t>(lines.npacks) * W;
  const auto factors = allocate_zeroed<Kokkos::View<T*, memory_space>>(
      exec, "bandsolve::factorize_along(thomas) factors", 3 * per_factor);
  const Kokkos::View<int*, memory_space> info(
      Kokkos::view_alloc(exec, std::string("bandsolve::factorize_along(thomas) info")),
      static_cast<std::size_t>(lines.nsys));
  const Kokkos::View<int*, memory_space> solve_info(
      Kokkos::view_alloc(exec, std::string("bandsolve::factorize_along(thomas) solve info")),
      device ? nsys : 0);
  const bool side_by_side = device && !shared && thomas_copies_side_by_side<T>(lines.n);
  thomas_axis_factor_into<Backend>(exec, lines, extents, axis, side_by_side, a, b, c, factors,
                                   per_factor, info);
  return thomas_axis_factorization_access::make<F>(factors, info, solve_info, lines, extents,
                                                   rank, axis, per_factor, shared, side_by_side);
}

// The run-time checks of a factorize_along against `grid` (grid_name: "d", or "b"), which gives
// the extents: the axis and the rows; then each coefficient View (rank 1: n values shared by
// every line, grid being d; else the grid's extents).
template <class GridView>
void check_factor_axis(const std::string& fn, int axis, const GridView& grid,
                       const char* grid_name) {
  constexpr int rank = static_cast<int>(GridView::rank);
  if (axis < 0 || axis >= rank)
    throw_invalid_argument(fn, "axis = ", axis, " but ", grid_name, " has rank ", rank,
                           " (axes 0 to ", rank - 1, ")");
  check_rows_fit_int(fn, extent_at(grid, axis));
}

template <class View, class GridView>
void check_factor_coefficient(const std::string& fn, const char* name, const View& v, int axis,
                              const GridView& grid, const char* grid_name) {
  if constexpr (View::rank == 1)
    check_line_coefficients(fn, name, v, grid, axis);  // grid is d here
  else
    check_same_extents(fn, name, v, grid_name, grid);
}

// The checks of factorize_along against `grid`: Thomas's, and the periodic and partial pivoting
// lines' (lane_axis_factor.hpp), which take the same a, b, c.
template <class Backend, class ExecutionSpace, class GridView, class AView, class BView,
          class CView>
void thomas_axis_factor_checks(const std::string& fn, int axis, const GridView& grid,
                               const char* grid_name, const AView& a, const BView& b,
                               const CView& c) {
  using info_type = Kokkos::View<int*, typename ExecutionSpace::memory_space>;
  thomas_along_static_checks<ExecutionSpace, AView, BView, CView, GridView, GridView,
                             info_type>();
  static_assert(std::is_same_v<Backend, backend::device> ||
                    std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                "bandsolve::factorize_along: a host backend runs only on its own execution "
                "space");
  check_factor_axis(fn, axis, grid, grid_name);
  check_factor_coefficient(fn, "a", a, axis, grid, grid_name);
  check_factor_coefficient(fn, "b", b, axis, grid, grid_name);
  check_factor_coefficient(fn, "c", c, axis, grid, grid_name);
}

}  // namespace detail

template <class Scalar, class ExecutionSpace, class Backend>
template <class AView, class BView, class CView>
void thomas_axis_factorization<Scalar, ExecutionSpace, Backend>::refactor(
    const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c) {
  detail::axis_refactor_static_checks<Scalar, ExecutionSpace, AView, BView, CView>();
  const std::string fn = "bandsolve::thomas_axis_factorization::refactor";
  this->check_refactor_coefficient(fn, "a", a);
  this->check_refactor_coefficient(fn, "b", b);
  this->check_refactor_coefficient(fn, "c", c);
  detail::thomas_axis_factor_into<Backend>(exec, lines_, extents_, axis_, side_by_side_, a, b, c,
                                           factors_, per_factor_, info_);
}

// With d: the extents and the grouping of the lines from d (full or shared coefficients).
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<Kokkos::is_view<DView>::value && backend::is_backend_v<Backend>,
                           int> = 0>
auto factorize_along(const ExecutionSpace& exec, algo::thomas, int axis, const AView& a,
                     const BView& b, const CView& c, const DView& d, Backend = {}) {
  const std::string fn = "bandsolve::factorize_along(thomas)";
  detail::thomas_axis_factor_checks<Backend, ExecutionSpace>(fn, axis, d, "d", a, b, c);
  return detail::thomas_axis_factorize<Backend>(exec, axis, d, a, b, c);
}

// Without d: the extents and the grouping of the lines from b (a, b, c full arrays).
template <class ExecutionSpace, class AView, class BView, class CView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
auto factorize_along(const ExecutionSpace& exec, algo::thomas, int axis, const AView& a,
                     const BView& b, const CView& c, Backend = {}) {
  static_assert(BView::rank != 1,
                "bandsolve::factorize_along(thomas): with coefficients shared by every line, "
                "pass d (a View shaped like the right-hand sides to come) after c");
  const std::string fn = "bandsolve::factorize_along(thomas)";
  detail::thomas_axis_factor_checks<Backend, ExecutionSpace>(fn, axis, b, "b", a, b, c);
  return detail::thomas_axis_factorize<Backend>(exec, axis, b, a, b, c);
}

}  // namespace bandsolve
