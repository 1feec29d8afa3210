#pragma once
// The hybrid's register-blocked chunk sweeps (chunk_lanes.hpp) for complex rows: each lane's
// value is held as two real vectors, its real and its imaginary parts, so that every complex
// product is a handful of real vector operations. A block of L chunks' rows is read as their
// real parts, L reals per lane (L/2 complex rows), through one L x L register transpose: vector
// 2j then holds row j's real parts and vector 2j + 1 its imaginary parts, one chunk per lane.
// The arithmetic is that of the real sweeps; the reciprocal of a pivot p is conj(p) / |p|^2
// with |p|^2 not scaled (one division on the recurrence), and the screen flags |p| outside
// about 2^-511 .. 2^511 (2^-63 .. 2^63 for float) as well, where |p|^2 would leave the range:
// such a group is redone by the generic sweeps, which scale.
#include <bandsolve/backend/host_simd/chunk_lanes.hpp>

#if BANDSOLVE_HAS_SIMD_TRANSPOSE
namespace bandsolve::detail::simd {

// A vector of L complex values as its parts.
template <class R, int L>
struct parts {
  vec<R, L> re, im;
};

template <class R, int L>
inline void set_parts(parts<R, L>& v, R re, R im) {
  set_all<L>(v.re, re);
  set_all<L>(v.im, im);
}

// out = x y
template <class R, int L>
inline void multiply(const parts<R, L>& x, const parts<R, L>& y, parts<R, L>& out) {
  const vec<R, L> re = x.re * y.re - x.im * y.im;
  out.im = x.re * y.im + x.im * y.re;
  out.re = re;
}

// out = acc - x y
template <class R, int L>
inline void minus_product(const parts<R, L>& acc, const parts<R, L>& x, const parts<R, L>& y,
                          parts<R, L>& out) {
  const vec<R, L> re = acc.re - (x.re * y.re - x.im * y.im);
  out.im = acc.im - (x.re * y.im + x.im * y.re);
  out.re = re;
}

// r = 1 / p, and the screen's sum: |p|^-2 and |p|^2 scaled (a zero, tiny, huge or non-finite
// pivot makes the sum reach the limit of core/pivot.hpp, or NaN).
template <class R, int L>
inline void reciprocal_screened(const parts<R, L>& p, parts<R, L>& r, vec<R, L>& risk) {
  vec<R, L> one, scale;
  set_all<L>(one, R(1));
  set_all<L>(scale, pivot_limits<R>::risk_scale);
  const vec<R, L> norm = p.re * p.re + p.im * p.im, k = one / norm;
  r.re = p.re * k;
  r.im = -p.im * k;
  risk = k * scale + (norm * scale + risk);
}

// Vectors 2j and 2j + 1 of r: the real and imaginary parts of row j of the block.
template <class R, int L>
inline void row_of(const vec<R, L>* r, int j, parts<R, L>& out) {
  out.re = r[2 * j];
  out.im = r[2 * j + 1];
}

// The lanes' complex values at p (L of them) as parts.
template <class R, int L, class C>
inline void load_lanes(const C* p, parts<R, L>& out) {
  for (int l = 0; l < L; ++l) {
    out.re[l] = p[l].real();
    out.im[l] = p[l].imag();
  }
}

// group_forward of chunk_lanes.hpp on complex chunks (m a multiple of L/2, at least 2 rows):
// row(i, a, c, d) with row i eliminated, as parts. Pass 1 (Interior false) or pass 2.
template <bool Interior, int L, class C, class Row>
inline void complex_group_forward(index_t m, const chunk_group<C>& g, bool zero_top_a,
                                  const chunk_group<C>* ahead, const C* x0,
                                  vec<real_type_t<C>, L>& risk, const Row& row) {
  using R = real_type_t<C>;
  using V = vec<R, L>;
  using P = parts<R, L>;
  constexpr int rows_per_block = L / 2;
  P ap, cp, dp;
  set_parts<R, L>(ap, R(0), R(0));
  set_parts<R, L>(cp, R(0), R(0));
  set_parts<R, L>(dp, R(0), R(0));
  const auto real_base = [](const C* p) { return reinterpret_cast<const R*>(p); };
  const index_t lane_stride = 2 * g.lane_stride;  // in reals
  // Prefetch as the real sweeps do: the next group's 2 L m reals of each array, spread over the
  // blocks.
  constexpr index_t line = 64 / static_cast<index_t>(sizeof(R));
  const index_t blocks = m / rows_per_block, span = 2 * L * m,
                per_block = (span + blocks - 1) / blocks;
  for (index_t q = 0; q < blocks; ++q) {
    if (ahead)
      for (index_t e = q * per_block; e < (q + 1) * per_block && e < span; e += line) {
        __builtin_prefetch(real_base(ahead->a) + e);
        __builtin_prefetch(real_base(ahead->b) + e);
        __builtin_prefetch(real_base(ahead->c) + e);
        __builtin_prefetch(real_base(ahead->d) + e);
      }
    constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
    V A[lane_count], B[lane_count], Cv[lane_count], D[lane_count];
    const index_t first = 2 * q * rows_per_block;
    load_transpose<L, R>([&](int l) { return real_base(g.a) + first + l * lane_stride; }, A);
    load_transpose<L, R>([&](int l) { return real_base(g.b) + first + l * lane_stride; }, B);
    load_transpose<L, R>([&](int l) { return real_base(g.c) + first + l * lane_stride; }, Cv);
    load_transpose<L, R>([&](int l) { return real_base(g.d) + first + l * lane_stride; }, D);
    if (q == 0 && zero_top_a) A[0][0] = A[1][0] = R(0);
    if constexpr (Interior)
      if (q == 0) {  // x[0] = x0: the recurrence below then starts with c' = 0, d' = x0
        P x;
        load_lanes<R, L>(x0, x);
        set_all<L>(A[0], R(0));
        set_all<L>(A[1], R(0));
        set_all<L>(B[0], R(1));
        set_all<L>(B[1], R(0));
        set_all<L>(Cv[0], R(0));
        set_all<L>(Cv[1], R(0));
        D[0] = x.re;
        D[1] = x.im;
      }
    for (int j = 0; j < rows_per_block; ++j) {
      const index_t i = q * rows_per_block + j;
      P a, b, c, d, pivot, r, t;
      row_of<R, L>(A, j, a);
      row_of<R, L>(B, j, b);
      row_of<R, L>(Cv, j, c);
      row_of<R, L>(D, j, d);
      if (!Interior && i < 2) {  // rows 0 and 1: divided by their diagonal
        reciprocal_screened<R, L>(b, r, risk);
        multiply<R, L>(r, a, ap);
        multiply<R, L>(r, d, dp);
      } else {
        minus_product<R, L>(b, a, cp, pivot);
        reciprocal_screened<R, L>(pivot, r, risk);
        minus_product<R, L>(d, a, dp, t);
        multiply<R, L>(r, t, dp);
        if constexpr (!Interior) {
          multiply<R, L>(r, a, t);
          multiply<R, L>(t, ap, ap);
          ap.re = -ap.re;
          ap.im = -ap.im;
        }
      }
      multiply<R, L>(c, r, cp);
      row(i, ap, cp, dp);
    }
  }
}

template <class R, int L, class C>
inline void store_lanes(const parts<R, L>& v, C* p, int stride) {
  for (int l = 0; l < L; ++l) p[stride * l] = C(v.re[l], v.im[l]);
}

// group_reduced_rows of chunk_lanes.hpp on complex chunks: pass 1, the two reduced rows of each
// chunk into ra, rc, rd (2l and 2l + 1 for lane l); false if a pivot may be bad.
template <int L, class C>
inline bool complex_group_reduced_rows(index_t m, const chunk_group<C>& g, bool zero_top_a,
                                       const chunk_group<C>* ahead, C* ra, C* rc, C* rd) {
  using R = real_type_t<C>;
  using P = parts<R, L>;
  vec<R, L> risk;
  set_all<L>(risk, R(0));
  P a0, c0, d0, al, cl, dl, sum_a, sum_d, weight, t;
  set_parts<R, L>(sum_a, R(0), R(0));
  set_parts<R, L>(sum_d, R(0), R(0));
  set_parts<R, L>(weight, R(1), R(0));
  a0 = c0 = d0 = al = cl = dl = sum_a;
  complex_group_forward<false, L>(m, g, zero_top_a, ahead, static_cast<const C*>(nullptr), risk,
                                  [&](index_t i, const P& a, const P& c, const P& d) {
                                    if (i == 0) {
                                      a0 = a;
                                      c0 = c;
                                      d0 = d;
                                    } else if (i < m - 1) {
                                      P s;
                                      multiply<R, L>(weight, a, s);
                                      sum_a.re += s.re;
                                      sum_a.im += s.im;
                                      multiply<R, L>(weight, d, s);
                                      sum_d.re += s.re;
                                      sum_d.im += s.im;
                                      multiply<R, L>(c, weight, weight);
                                      weight.re = -weight.re;
                                      weight.im = -weight.im;
                                    } else {
                                      al = a;
                                      cl = c;
                                      dl = d;
                                    }
                                  });
  // Row 1 through x[0] and x[m-1]: sum_a x[0] + x[1] + c1 x[m-1] = sum_d, c1 = -weight.
  P one, pivot, r, first_a, first_c, first_d;
  set_parts<R, L>(one, R(1), R(0));
  minus_product<R, L>(one, c0, sum_a, pivot);
  reciprocal_screened<R, L>(pivot, r, risk);
  minus_product<R, L>(d0, c0, sum_d, t);
  multiply<R, L>(r, t, first_d);
  multiply<R, L>(r, a0, first_a);
  multiply<R, L>(r, c0, t);
  multiply<R, L>(t, weight, first_c);
  store_lanes<R, L>(first_a, ra, 2);
  store_lanes<R, L>(first_c, rc, 2);
  store_lanes<R, L>(first_d, rd, 2);
  store_lanes<R, L>(al, ra + 1, 2);
  store_lanes<R, L>(cl, rc + 1, 2);
  store_lanes<R, L>(dl, rd + 1, 2);
  return risk_is_low_everywhere<L, R>(risk);
}

// group_solve_interior of chunk_lanes.hpp on complex chunks: pass 2 with x[0] = x0 and
// x[m-1] = xl known, c' and d' kept in tc and td (2 m L reals each: row i's real parts at
// 2 i L, its imaginary parts after them), the back substitution transposed into x. False,
// x untouched, if a pivot may be bad.
template <int L, class C>
inline bool complex_group_solve_interior(index_t m, const chunk_group<C>& g,
                                         const chunk_group<C>* ahead, const C* x0, const C* xl,
                                         C* tc, C* td, C* x) {
  using R = real_type_t<C>;
  using V = vec<R, L>;
  using P = parts<R, L>;
  R* const tcr = reinterpret_cast<R*>(tc);
  R* const tdr = reinterpret_cast<R*>(td);
  V risk;
  set_all<L>(risk, R(0));
  complex_group_forward<true, L>(m, g, false, ahead, x0, risk,
                                 [tcr, tdr](index_t i, const P&, const P& c, const P& d) {
                                   store<R, L>(tcr + 2 * i * L, c.re);
                                   store<R, L>(tcr + (2 * i + 1) * L, c.im);
                                   store<R, L>(tdr + 2 * i * L, d.re);
                                   store<R, L>(tdr + (2 * i + 1) * L, d.im);
                                 });
  if (!risk_is_low_everywhere<L, R>(risk)) return false;
  constexpr int rows_per_block = L / 2;
  R* const xr = reinterpret_cast<R*>(x);
  const index_t lane_stride = 2 * g.lane_stride;
  P next;
  load_lanes<R, L>(xl, next);
  for (index_t q = m / rows_per_block - 1; q >= 0; --q) {
    V X[static_cast<std::size_t>(L)];
    for (int j = rows_per_block - 1; j >= 0; --j) {
      const index_t i = q * rows_per_block + j;
      if (i != m - 1) {  // row 0 too: its c' = 0, d' = x0
        P c, d;
        load<R, L>(tcr + 2 * i * L, c.re);
        load<R, L>(tcr + (2 * i + 1) * L, c.im);
        load<R, L>(tdr + 2 * i * L, d.re);
        load<R, L>(tdr + (2 * i + 1) * L, d.im);
        minus_product<R, L>(d, c, next, next);
      }
      X[2 * j] = next.re;
      X[2 * j + 1] = next.im;
    }
    transpose<L>(X);
    for (int l = 0; l < L; ++l) store<R, L>(xr + 2 * q * rows_per_block + l * lane_stride, X[l]);
  }
  return true;
}

}  // namespace bandsolve::detail::simd
#endif
