#pragma once
// Symmetric positive definite tridiagonal systems along any axis of a 2-D, 3-D or 4-D array
// (LDL^T, as algo::symmetric), without transposing it: host API.
//
//   bandsolve::solve_along(exec, bandsolve::algo::symmetric{}, axis, diag, offdiag, d, info);
//       Every line of d along `axis` is one system conj(e[i-1]) x[i-1] + b[i] x[i] + e[i] x[i+1]
//       = d[i], b = diag, e = offdiag, i = 0 .. n-1, n = d.extent(axis); x overwrites d.
//   bandsolve::solve_along_add(exec, bandsolve::algo::symmetric{}, axis, diag, offdiag, d, u,
//                              info);
//       u += x in the same pass, d only read (it may be a View of const); u has d's extents and
//       scalar type in any layout (the last sweep of an ADI step). Host: 5 words per unknown
//       with full coefficients (read b, e, d, u; write u), 3 shared; the device backend solves a
//       copy of d (along_device_add).
//
// The forms of solve_along(thomas) (thomas_axis.hpp), whose line packing, checks and shared-
// coefficient sweeps the host backends reuse: d of rank 2 to 4 in LayoutRight, LayoutLeft or
// LayoutStride;
// diag and offdiag either full arrays of d's extents (any layouts; element n-1 of each line of
// offdiag is not read) or rank-1 Views of length n shared by every line. diag float or double;
// offdiag of diag's type, with d of that type or Kokkos::complex of it (complex right-hand sides
// of a real operator: the real factors applied to both parts in one pass), or offdiag
// Kokkos::complex of diag's type (Hermitian lines, as solve(symmetric) and ?zptsv), with d of
// offdiag's type.
// info has one entry per line, numbered as for thomas: 0, or the 1-based row of the first pivot
// that is not positive and finite (as solve(symmetric)); with shared coefficients every line
// has the same code. Work is enqueued on exec (one launch) and never fenced here.
// Traffic with full coefficients: 4 words per unknown (read b, e, d; write x) against Thomas's 5.
// Backends: the execution space's own, or a trailing backend::device{} (the default on
// Kokkos::Cuda): the lines addressed in place as batches of the device symmetric solve
// (along_device.hpp).
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/tridiag/along_device.hpp>
#include <bandsolve/tridiag/symmetric_device.hpp>
#include <bandsolve/tridiag/symmetric_kernel.hpp>
#include <bandsolve/tridiag/symmetric_register_sweep.hpp>
#include <bandsolve/tridiag/thomas_axis.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {

namespace detail {

// Row i of LDL^T's factors in the form of Thomas's (factor_shared's, so that its sweeps apply):
// r_i = 1/pivot_i, l_i = conj(e_{i-1}) r_i, c'_i = e_i r_i, of offdiag's type C (r_i real, stored
// as C for Hermitian lines), from b_i, e_{i-1} and e_i (0 beyond the ends) and c'_{i-1}. Returns
// `info`, or i + 1 when it is 0 and the pivot is not positive and finite.
template <class R, class C>
KOKKOS_INLINE_FUNCTION int factor_spd_row(index_t i, R b_i, const C& e_prev, const C& e_i,
                                          const C& cp_prev, C& r, C& lo, C& cp, int info) {
  const R pivot = b_i - re_conj_mul(e_prev, cp_prev);
  if (info == 0 && !spd_pivot_is_good(pivot)) info = static_cast<int>(i + 1);
  const R ri = R(1) / pivot;
  r = C(ri);
  lo = conj_of(e_prev) * ri;
  cp = e_i * ri;
  return info;
}

// The factors of the matrix shared by every line (factor_spd_row's) at r, lo, cp. Returns 0 or
// the 1-based row of the first pivot that is not positive and finite.
template <class R, class C, class BView, class EView>
KOKKOS_INLINE_FUNCTION int factor_shared_spd(index_t n, const BView& b, const EView& e, C* r,
                                             C* lo, C* cp) {
  int info = 0;
  for (index_t i = 0; i < n; ++i)
    info = factor_spd_row<R, C>(i, static_cast<R>(b(i)),
                                i == 0 ? C(0) : static_cast<C>(e(i - 1)),
                                i + 1 < n ? static_cast<C>(e(i)) : C(0),
                                i == 0 ? C(0) : cp[i - 1], r[i], lo[i], cp[i], info);
  return info;
}

template <class ExecutionSpace, class DiagView, class OffView, class DView, class UView,
          class InfoView>
constexpr void symmetric_along_static_checks() {
  using T = typename DiagView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  constexpr int rank = static_cast<int>(DView::rank);
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve::solve_along(symmetric): the first argument must be a Kokkos "
                "execution space instance");
  static_assert(Kokkos::is_view<DiagView>::value && Kokkos::is_view<OffView>::value &&
                    Kokkos::is_view<DView>::value,
                "bandsolve::solve_along(symmetric): diag, offdiag and d must be Kokkos::Views");
  static_assert(rank >= 2 && rank <= max_axis_rank,
                "bandsolve::solve_along(symmetric): d must be a View of rank 2, 3 or 4");
  static_assert(Kokkos::is_view<UView>::value && static_cast<int>(UView::rank) == rank &&
                    std::is_same_v<typename UView::value_type, D>,
                "bandsolve::solve_along(symmetric): d receives the solution and cannot be a View "
                "of const (solve_along_add: u, a View of d's rank and scalar type, receives "
                "u + x, and d may be const)");
  static_assert((DiagView::rank == 1 && OffView::rank == 1) ||
                    (static_cast<int>(DiagView::rank) == rank &&
                     static_cast<int>(OffView::rank) == rank),
                "bandsolve::solve_along(symmetric): diag and offdiag must both be rank-1 Views "
                "of length n (shared by every line) or both have the rank of d");
  using E = typename OffView::non_const_value_type;
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "bandsolve::solve_along(symmetric): diag must be float or double");
  static_assert((std::is_same_v<E, T> && is_rhs_of_v<T, D>) ||
                    (std::is_same_v<E, Kokkos::complex<T>> && std::is_same_v<D, E>),
                "bandsolve::solve_along(symmetric): offdiag must have diag's scalar type, with d "
                "of that type or Kokkos::complex of it, or be Kokkos::complex of diag's type "
                "(Hermitian), with d of offdiag's type");
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1 &&
                    std::is_same_v<typename InfoView::value_type, int>,
                "bandsolve::solve_along(symmetric): info must be a rank-1 Kokkos::View<int*>");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename DiagView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename OffView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename DView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename UView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace,
                                     typename InfoView::memory_space>::accessible,
      "bandsolve::solve_along(symmetric): the Views must be accessible from the execution space");
  (void)sizeof(backend::default_for_t<ExecutionSpace>);
}

// u += x for one lane-contiguous pack, d only read: the forward sweep from d's rows into dp
// (rows of W lanes, scratch), then the backward sweep adding each x_i into u's rows
// (backward_add_lanes), as thomas_add_lanes.
template <int W, bool Full, class R, class C, class D>
KOKKOS_INLINE_FUNCTION void sym_add_lanes(index_t n, int nl, lane_rows<const R> b,
                                          lane_rows<const C> e, lane_rows<const D> d,
                                          lane_rows<D> u, C* cp, D* dp, int* info) {
  R risk[static_cast<std::size_t>(W)] = {};
  sym_carry<W, C, D> carry;
  sym_first_row<W, Full>(nl, b.row(0), e.row(0), d.row(0), cp, dp, risk);
  carry.template start<W, Full>(nl, 0, cp, dp);
  for (index_t i = 1; i < n; ++i)
    carry.template next_row<W, Full>(nl, 0, b.row(i), e.row(i - 1), e.row(i), d.row(i),
                                     cp + (i - 1) * W, dp + (i - 1) * W, cp + i * W, dp + i * W,
                                     risk);
  resolve_spd_info_lanes<W, 1, Full>(n, nl, 1, b, e, cp, risk, info);
  backward_add_lanes<W, Full, false>(n, nl, cp, dp, u);
}

// The host backends' solve of every line (n >= 1 rows, arguments checked): packs as
// solve_along(thomas) (axis_packing): lane-contiguous packs in chains of two in flight
// (sym_solve_lanes_chain), gathered packs through the register sweeps where they apply, else
// the gathered sweeps; shared coefficients factored per pack into scratch, then Thomas's
// shared-coefficient sweeps. Add (solve_along_add): u += x, d only read (u is d otherwise):
// lane-contiguous packs of full coefficients sweep d' into scratch and add x into u's rows on
// the way back (sym_add_lanes), gathered ones keep x in scratch (as always) and add it into u's
// lines; shared coefficients run Thomas's add sweeps. Here in the packs of `plan` (made with
// P's widths).
template <bool Add, class P, class ExecutionSpace, class DiagView, class OffView, class DView,
          class UView, class InfoView>
void symmetric_along_packs(const ExecutionSpace& exec, const char* function,
                           const along_plan& plan, const DiagView& b, const OffView& e,
                           const DView& d, const UView& u, const InfoView& info, index_t n) {
  using T = typename DiagView::non_const_value_type;  // the diagonal and the pivots (real)
  using E = typename OffView::non_const_value_type;  // offdiag and the factors (Hermitian: complex)
  using D = typename DView::non_const_value_type;
  constexpr bool shared = DiagView::rank == 1;
  const bool lanes = plan.lanes;
  const int width = plan.width;
  const line_packs g = plan.g;
  const nd_strides sb = strides_of(b), se = strides_of(e), sd = strides_of(d), su = strides_of(u);
  // Scratch: rows of `width` lanes, d' (or a copy of d, or x) of type D where d is gathered or
  // only read, c' of type E for full coefficients, then the shared factors (E).
  const std::size_t rows_of = static_cast<std::size_t>(n) * static_cast<std::size_t>(width);
  const std::size_t d_block = Add || !lanes ? rows_of * sizeof(D) : 0;
  const std::size_t c_block = shared ? 0 : rows_of * sizeof(E);
  const std::size_t factors = shared ? 3 * static_cast<std::size_t>(n) * sizeof(E) : 0;
  const std::size_t scratch = d_block + c_block + factors;

  if constexpr (!shared && !Add) {
    if (lanes) {
      constexpr int W = P::W;
      const index_t chain = chain_length(g.npacks, exec.concurrency());
      const index_t nchains = (g.npacks + chain - 1) / chain;
      for_each_pack(
          exec, function, nchains, 2 * rows_of * sizeof(E),
          KOKKOS_LAMBDA(const index_t ch, void* work) {
            const index_t p_begin = ch * chain;
            const index_t p_end = p_begin + chain < g.npacks ? p_begin + chain : g.npacks;
            const index_t ki = g.axis;
            E* rows = static_cast<E*>(work);
            const auto item = [&](index_t p) {
              const line_pack k = g.pack(p);
              return sym_lane_item<T, E, D>{
                  lane_rows<const T>{b.data() + g.offset(sb, k), sb.s[ki]},
                  lane_rows<const E>{e.data() + g.offset(se, k), se.s[ki]},
                  lane_rows<D>{d.data() + g.offset(sd, k), sd.s[ki]}};
            };
            for_each_pack_run<W>(
                g, info, p_begin, p_end,
                [&](index_t p, int nl, int* codes) {
                  sym_solve_lanes<W, 1, false>(n, nl, 1, item(p), rows, codes, no_prefetch{});
                },
                [&](index_t p, index_t q, const auto& done) {
                  sym_solve_lanes_chain<W, 1, typename P::ahead>(n, p, q, item, rows, done);
                });
          });
      return;
    }
  }
  for_each_pack(
      exec, function, g.npacks, scratch, KOKKOS_LAMBDA(const index_t p, void* work) {
        // Named here first: nvcc rejects an extended lambda whose first use of a captured
        // variable is inside an if constexpr.
        (void)shared, (void)b, (void)e, (void)d, (void)u, (void)sb, (void)se, (void)sd,
            (void)su, (void)lanes, (void)n, (void)d_block, (void)c_block;
        const line_pack k = g.pack(p);
        const int nl = k.lanes;
        const index_t ki = g.axis, kl = g.lane_axis;
        char* const bytes = static_cast<char*>(work);
        D* const xs = reinterpret_cast<D*>(bytes);            // d' of gathered packs
        E* const cs = reinterpret_cast<E*>(bytes + d_block);  // c'
        int info_l[P::W > P::L ? P::W : P::L];
        if constexpr (shared) {
          E* f = reinterpret_cast<E*>(bytes + d_block + c_block);  // shared factors r, l, c'
          const int code = factor_shared_spd<T, E>(n, b, e, f, f + n, f + 2 * n);
          for (int l = 0; l < nl; ++l) info_l[l] = code;
          if (lanes) {
            constexpr int W = P::W;
            const lane_rows<const D> rd{d.data() + g.offset(sd, k), sd.s[ki]};
            const lane_rows<D> x{u.data() + g.offset(su, k), su.s[ki]};  // d unless Add
            if constexpr (Add) {
              shared_add_lanes<W>(n, nl, f, rd, x, xs);
            } else if (nl == W) {
              shared_forward_lanes<W, true>(n, W, f, f + n, rd, x);
              shared_backward_lanes<W, true>(n, W, f + 2 * n, x);
            } else {
              shared_forward_lanes<W, false>(n, nl, f, f + n, rd, x);
              shared_backward_lanes<W, false>(n, nl, f + 2 * n, x);
            }
          } else {
            constexpr int L = P::L, TR = P::TR;
            const gathered_lanes<const D> gd{d.data() + g.offset(sd, k), sd.s[kl], sd.s[ki]};
            const gathered_lanes<D> out{u.data() + g.offset(su, k), su.s[kl], su.s[ki]};
            next_pack_prefetch<5> prefetch;
            add_next_lines(prefetch, d.data(), sd, g, p);
            if constexpr (Add) add_next_lines(prefetch, u.data(), su, g, p);
            shared_forward_gather<TR, L>(n, nl, f, f + n, gd, xs);
            shared_backward_lanes<L, true>(n, L, f + 2 * n, lane_rows<D>{xs, L}, prefetch);
            if constexpr (Add)
              add_scatter_gather<TR, L>(n, nl, xs, out);
            else
              scatter_rows<TR, L>(xs, n, out, lane_offsets<L>(nl, out.system_stride), nl);
          }
        } else if (lanes) {
          // Full coefficients, lane-contiguous rows: only with Add here (the solve in place ran
          // in chains above). d only read: d' into xs (rows of W lanes), x added into u's rows on
          // the way back.
          if constexpr (Add) {
            constexpr int W = P::W;
            const lane_rows<const T> rb{b.data() + g.offset(sb, k), sb.s[ki]};
            const lane_rows<const E> re{e.data() + g.offset(se, k), se.s[ki]};
            const lane_rows<const D> rd{d.data() + g.offset(sd, k), sd.s[ki]};
            const lane_rows<D> ru{u.data() + g.offset(su, k), su.s[ki]};
            if (nl == W)
              sym_add_lanes<W, true>(n, W, rb, re, rd, ru, cs, xs, info_l);
            else
              sym_add_lanes<W, false>(n, nl, rb, re, rd, ru, cs, xs, info_l);
          }
        } else {
          // Gathered packs of full coefficients (lane-contiguous ones ran in chains above).
          constexpr int L = P::L, TR = P::TR;
          const gathered_lanes<const T> gb{b.data() + g.offset(sb, k), sb.s[kl], sb.s[ki]};
          const gathered_lanes<const E> ge{e.data() + g.offset(se, k), se.s[kl], se.s[ki]};
          const gathered_lanes<const D> gd_in{d.data() + g.offset(sd, k), sd.s[kl], sd.s[ki]};
          const gathered_lanes<D> out{u.data() + g.offset(su, k), su.s[kl], su.s[ki]};
          next_pack_prefetch<5> prefetch;
          add_next_lines(prefetch, b.data(), sb, g, p);
          add_next_lines(prefetch, e.data(), se, g, p);
          add_next_lines(prefetch, d.data(), sd, g, p);
          if constexpr (Add) {
            add_next_lines(prefetch, u.data(), su, g, p);
            sym_forward_gather<TR, L>(n, nl, gb, ge, gd_in, cs, xs, info_l);
            thomas_backward<L, 1, true>(L, 1, n, cs, lane_rows<D>{xs, L}, prefetch);
            add_scatter_gather<TR, L>(n, nl, xs, out);
          } else if (sym_solve_pack_in_registers<L>(n, nl, gb, ge, gd_in, out,
                                                    reinterpret_cast<E*>(bytes), prefetch)) {
            // The register sweeps (real d only) take both row blocks as their scratch.
            for (int l = 0; l < nl; ++l) info_l[l] = 0;
          } else {
            sym_solve_gather<TR, L>(n, nl, gb, ge, out, cs, xs, info_l, prefetch);
          }
        }
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < nl; ++l) info(s0 + l * g.lane_system_stride) = info_l[l];
      });
}

// The host backends' solve of every line: solve_along_add with full coefficients of
// lane-contiguous lines in packs of one column run where axis_run_bytes takes them (the
// one-shot chains keep their packs: in runs they read slower, docs/performance.md, "Lines along
// an axis in runs"); else the packs of axis_packing.
template <bool Add, bool Tiles, class ExecutionSpace, class DiagView, class OffView, class DView,
          class UView, class InfoView>
void symmetric_along_host(const ExecutionSpace& exec, const char* function, int axis,
                          const DiagView& b, const OffView& e, const DView& d, const UView& u,
                          const InfoView& info, index_t n) {
  using E = typename OffView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  constexpr bool shared = DiagView::rank == 1;
  using P = axis_packing<D, shared, Tiles>;
  const along_plan plan = plan_along<P::W, P::L>(d, axis, u, b, e);
  if constexpr (Add && !shared) {
    if (plan.lanes) {
      const auto runs = [&](auto packing) {
        using Q = decltype(packing);
        symmetric_along_packs<Add, Q>(exec, function, plan_along<Q::W, Q::L>(d, axis, u, b, e),
                                      b, e, d, u, info, n);
      };
      const int run_bytes = axis_run_bytes<E, D>(plan.g, n, exec.concurrency());
      if (run_bytes == column_long_run_bytes) {
        runs(axis_run_packing<P, E, column_long_run_bytes>{});
        return;
      }
      if (run_bytes == column_short_run_bytes) {
        runs(axis_run_packing<P, E, column_short_run_bytes>{});
        return;
      }
    }
  }
  symmetric_along_packs<Add, P>(exec, function, plan, b, e, d, u, info, n);
}

// The checks, then the backend's solve. Add: solve_along_add (u += x, d only read); u is d
// otherwise.
template <class Backend, bool Add, class ExecutionSpace, class DiagView, class OffView,
          class DView, class UView, class InfoView>
void symmetric_along(const ExecutionSpace& exec, const char* function, int axis,
                     const DiagView& b, const OffView& e, const DView& d, const UView& u,
                     const InfoView& info) {
  symmetric_along_static_checks<ExecutionSpace, DiagView, OffView, DView, UView, InfoView>();
  static_assert(backend::is_backend_v<Backend>,
                "bandsolve::solve_along(symmetric): the last argument must be a backend tag "
                "(backend::device, or the execution space's own)");
  const std::string fn = function;
  constexpr int rank = static_cast<int>(DView::rank);
  if (axis < 0 || axis >= rank)
    throw_invalid_argument(fn, "axis = ", axis, " but d has rank ", rank, " (axes 0 to ",
                           rank - 1, ")");
  const char* out_name = Add ? "u" : "d";
  check_along_coefficient(fn, "diag", b, d, axis, out_name, u);
  check_along_coefficient(fn, "offdiag", e, d, axis, out_name, u);
  if constexpr (Add) {
    check_same_extents(fn, "u", u, "d", d);
    check_no_overlap(fn, "u", u, "d", d);
  }
  check_no_overlap(fn, out_name, u, "info", info);
  const index_t n = static_cast<index_t>(extent_at(d, axis));
  const std::size_t nsys = check_along_lines(fn, axis, d, info);
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    // The lines addressed in place as batches of the device solve (along_device.hpp); with Add,
    // a copy of d's lines.
    using T = typename DiagView::non_const_value_type;
    using E = typename OffView::non_const_value_type;
    using D = typename DView::non_const_value_type;
    check_rows_fit_int(fn, extent_at(d, axis));
    const auto solve = [&](const along_launch& l, const auto& x, const InfoView& codes,
                           index_t lines) {
      symmetric_device_solve(exec, l.lines<const T>(b), l.lines<const E>(e), x, codes, n, lines);
    };
    if constexpr (Add)
      along_device_add(exec, function, axis, d, u, info, static_cast<index_t>(nsys), n, solve,
                       along_add_through_copy{}, b, e);
    else
      for_each_line_batch(
          axis, d, info, static_cast<index_t>(nsys),
          [&](const along_launch& l, const InfoView& codes, index_t lines) {
            solve(l, l.lines<D>(d), codes, lines);
          },
          b, e);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve_along(symmetric): a host backend runs only on its own "
                  "execution space");
    using D = typename DView::non_const_value_type;
    if (axis_takes_tiles<D, DiagView::rank == 1, Add>(n))
      symmetric_along_host<Add, axis_packing_tiles_v<D>>(exec, function, axis, b, e, d, u, info,
                                                          n);
    else
      symmetric_along_host<Add, false>(exec, function, axis, b, e, d, u, info, n);
  }
}

}  // namespace detail

// x overwrites d. See the top of this header. Backend: the execution space's own, or
// backend::device to run the device kernels on any execution space (host spaces included).
template <class ExecutionSpace, class DiagView, class OffView, class DView, class InfoView,
          class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve_along(const ExecutionSpace& exec,
                                                             algo::symmetric, int axis,
                                                             const DiagView& diag,
                                                             const OffView& offdiag,
                                                             const DView& d, const InfoView& info,
                                                             Backend) {
  detail::symmetric_along<Backend, false>(exec, "bandsolve::solve_along(symmetric)", axis, diag,
                                          offdiag, d, d, info);
}

template <class ExecutionSpace, class DiagView, class OffView, class DView, class InfoView>
void solve_along(const ExecutionSpace& exec, algo::symmetric, int axis, const DiagView& diag,
                 const OffView& offdiag, const DView& d, const InfoView& info) {
  solve_along(exec, algo::symmetric{}, axis, diag, offdiag, d, info,
              backend::default_for_t<ExecutionSpace>{});
}

// u += x; d is only read (it may be a View of const), u has d's extents and scalar type in any
// layout. The last sweep of an ADI step. Backend as for solve_along.
template <class ExecutionSpace, class DiagView, class OffView, class DView, class UView,
          class InfoView, class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve_along_add(
    const ExecutionSpace& exec, algo::symmetric, int axis, const DiagView& diag,
    const OffView& offdiag, const DView& d, const UView& u, const InfoView& info, Backend) {
  detail::symmetric_along<Backend, true>(exec, "bandsolve::solve_along_add(symmetric)", axis,
                                         diag, offdiag, d, u, info);
}

template <class ExecutionSpace, class DiagView, class OffView, class DView, class UView,
          class InfoView>
void solve_along_add(const ExecutionSpace& exec, algo::symmetric, int axis,
                     const DiagView& diag, const OffView& offdiag, const DView& d, const UView& u,
                     const InfoView& info) {
  solve_along_add(exec, algo::symmetric{}, axis, diag, offdiag, d, u, info,
                  backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
