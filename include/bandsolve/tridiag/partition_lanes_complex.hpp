#pragma once
// Passes 1 and 2 of the partition method across lanes (partition_lanes.hpp) for complex
// systems on host builds with vector extensions: a row of LB lanes (2 LB reals) is loaded as two
// real vectors and unzipped into its real and imaginary parts, so that every complex operation
// is a few real vector operations (read as Kokkos::complex values, GCC computed one lane at a
// time, 4-5x slower). The arithmetic is the generic passes'; the reciprocal of a pivot p is
// conj(p) / |p|^2 unscaled, one division (simd::reciprocal_screened), and its screen flags |p|
// outside about 2^-511 .. 2^511 (2^-63 .. 2^63 for float) as well as bad pivots: a flagged
// group is redone by the generic passes, which scale. Lane blocks of 2 or more lanes, full or
// padded (an interleaved pack's lanes past its systems, read and replaced by identity rows,
// their x left as they were); the caller keeps the generic passes for the others.
#include <bandsolve/backend/host_simd/chunk_lanes_complex.hpp>

#include <cstdint>
#include <utility>

#if BANDSOLVE_HAS_SIMD_TRANSPOSE
namespace bandsolve::detail::simd {

// The LB complex values at q (2 LB reals) as parts, and back.
template <int LB, class R>
inline void load_row_parts(const R* q, parts<R, LB>& out) {
  vec<R, LB> lo, hi;
  load<R, LB>(q, lo);
  load<R, LB>(q + LB, hi);
  unzip_parts<LB>(lo, hi, out.re, out.im, std::make_integer_sequence<int, LB>{});
}
template <int LB, class R>
inline void store_row_parts(R* q, const parts<R, LB>& v) {
  vec<R, LB> lo, hi;
  zip_parts<LB>(v.re, v.im, lo, hi, std::make_integer_sequence<int, LB>{});
  store<R, LB>(q, lo);
  store<R, LB>(q + LB, hi);
}

// Lanes l < nl of a block: keeps a lane's value where its bits are all ones.
template <class R, int LB>
struct lane_mask {
  using bits = std::conditional_t<sizeof(R) == 8, std::int64_t, std::int32_t>;
  using I = vec<bits, LB>;
  I keep;
  void set(int nl) {
    for (int l = 0; l < LB; ++l) keep[l] = l < nl ? bits(-1) : bits(0);
  }
  // out = keep ? x : fill, lane by lane (vectors by reference: by value, GCC warns (-Wpsabi)
  // where AVX-512 is off).
  void blend(const vec<R, LB>& x, const vec<R, LB>& fill, vec<R, LB>& out) const {
    out = (vec<R, LB>)(((I)x & keep) | ((I)fill & ~keep));
  }
};

// A row's parts, lanes past the mask's replaced by fill (an identity row's value) when Masked.
template <bool Masked, int LB, class R>
inline void load_row_parts(const R* q, parts<R, LB>& out, const lane_mask<R, LB>& mask,
                           R fill) {
  load_row_parts<LB>(q, out);
  if constexpr (Masked) {
    vec<R, LB> re, zero;
    set_all<LB>(re, fill);
    set_all<LB>(zero, R(0));
    mask.blend(out.re, re, out.re);
    mask.blend(out.im, zero, out.im);
  }
}

// Stores a row's parts; lanes past the mask's keep the values they held when Masked.
template <bool Masked, int LB, class R>
inline void store_row_parts(R* q, const parts<R, LB>& v, const lane_mask<R, LB>& mask) {
  if constexpr (Masked) {
    parts<R, LB> old, out;
    load_row_parts<LB>(q, old);
    mask.blend(v.re, old.re, out.re);
    mask.blend(v.im, old.im, out.im);
    store_row_parts<LB>(q, out);
  } else {
    store_row_parts<LB>(q, v);
  }
}

// Row i of a chain's four arrays as reals, the row `ahead` further down prefetched.
template <class R>
struct chain_row {
  const R *a, *b, *c, *d;
};
template <class Chain, class Strides>
inline auto chain_row_at(const Chain& ch, const Strides& rs, index_t i, index_t ahead) {
  using R = real_type_t<std::remove_const_t<std::remove_pointer_t<decltype(ch.a)>>>;
  const chain_row<R> row{real_parts(ch.a + i * rs.a), real_parts(ch.b + i * rs.b),
                         real_parts(ch.c + i * rs.c), real_parts(ch.d + i * rs.d)};
  BANDSOLVE_PREFETCH(row.a + 2 * ahead * rs.a);
  BANDSOLVE_PREFETCH(row.b + 2 * ahead * rs.b);
  BANDSOLVE_PREFETCH(row.c + 2 * ahead * rs.c);
  BANDSOLVE_PREFETCH(row.d + 2 * ahead * rs.d);
  return row;
}

// Thomas's step through one row on the lanes (both passes): pivot = b - a cp, r = 1/pivot
// (screened into risk), dp = r (d - a dp), cp = c r; the row's a and r come back in A and r.
template <bool Masked, int LB, class R>
inline void thomas_step_parts(const chain_row<R>& row, const lane_mask<R, LB>& mask,
                              parts<R, LB>& cp, parts<R, LB>& dp, vec<R, LB>& risk,
                              parts<R, LB>& A, parts<R, LB>& r) {
  parts<R, LB> X, pivot, t;
  load_row_parts<Masked, LB>(row.a, A, mask, R(0));
  load_row_parts<Masked, LB>(row.b, X, mask, R(1));
  minus_product<R, LB>(X, A, cp, pivot);
  reciprocal_screened<R, LB>(pivot, r, risk);
  load_row_parts<Masked, LB>(row.d, X, mask, R(0));
  minus_product<R, LB>(X, A, dp, t);
  multiply<R, LB>(r, t, dp);
  load_row_parts<Masked, LB>(row.c, X, mask, R(0));
  multiply<R, LB>(X, r, cp);
}

// Pass 1 (partition_reduce) on K complex chains of m >= 2 rows (lanes past a chain's nl read
// as identity rows when Masked), prefetching `ahead` rows ahead. Returns false if the screen
// flagged a pivot (the chains' reduced rows are then to be recomputed by the generic pass).
template <int LB, int K, bool Masked, class Chain, class Strides>
inline bool partition_reduce_parts(const Chain* ch, const Strides& rs, index_t m,
                                   index_t ahead) {
  static_assert(LB >= 2, "a lane block of complex values as parts needs 2 lanes or more");
  using R = real_type_t<std::remove_const_t<std::remove_pointer_t<decltype(ch->a)>>>;
  using V = vec<R, LB>;
  using P = parts<R, LB>;
  constexpr auto chains = static_cast<std::size_t>(K);  // an array bound
  P ap[chains], cp[chains], dp[chains], a0[chains], c0[chains], d0[chains], sa[chains],
      sd[chains], w[chains];
  V risk;
  set_all<LB>(risk, R(0));
  lane_mask<R, LB> mask[chains];
  for (int k = 0; k < K; ++k) mask[k].set(ch[k].nl);
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {  // rows 0 and 1, divided by their diagonal
    P A0, B0, B1, X, r, r1;
    if (ch[k].top)
      set_parts<R, LB>(A0, R(0), R(0));
    else
      load_row_parts<Masked, LB>(real_parts(ch[k].a), A0, mask[k], R(0));
    load_row_parts<Masked, LB>(real_parts(ch[k].b), B0, mask[k], R(1));
    load_row_parts<Masked, LB>(real_parts(ch[k].b + rs.b), B1, mask[k], R(1));
    reciprocal_screened<R, LB>(B0, r, risk);
    reciprocal_screened<R, LB>(B1, r1, risk);
    multiply<R, LB>(r, A0, a0[k]);
    load_row_parts<Masked, LB>(real_parts(ch[k].c), X, mask[k], R(0));
    multiply<R, LB>(X, r, c0[k]);
    load_row_parts<Masked, LB>(real_parts(ch[k].d), X, mask[k], R(0));
    multiply<R, LB>(r, X, d0[k]);
    load_row_parts<Masked, LB>(real_parts(ch[k].a + rs.a), X, mask[k], R(0));
    multiply<R, LB>(r1, X, ap[k]);
    load_row_parts<Masked, LB>(real_parts(ch[k].c + rs.c), X, mask[k], R(0));
    multiply<R, LB>(X, r1, cp[k]);
    load_row_parts<Masked, LB>(real_parts(ch[k].d + rs.d), X, mask[k], R(0));
    multiply<R, LB>(r1, X, dp[k]);
    set_parts<R, LB>(sa[k], R(0), R(0));
    set_parts<R, LB>(sd[k], R(0), R(0));
    set_parts<R, LB>(w[k], R(1), R(0));
  }
  for (index_t i = 2; i < m; ++i) {
    BANDSOLVE_UNROLL(16)
    for (int k = 0; k < K; ++k) {
      const auto row = chain_row_at(ch[k], rs, i, ahead);
      // Row i-1 is a middle row: it enters row 1's substitution with the weight w.
      P t, A, r, X;
      multiply<R, LB>(w[k], ap[k], t);
      sa[k].re += t.re;
      sa[k].im += t.im;
      multiply<R, LB>(w[k], dp[k], t);
      sd[k].re += t.re;
      sd[k].im += t.im;
      multiply<R, LB>(cp[k], w[k], t);
      w[k].re = -t.re;
      w[k].im = -t.im;
      thomas_step_parts<Masked, LB>(row, mask[k], cp[k], dp[k], risk, A, r);
      multiply<R, LB>(r, A, t);
      multiply<R, LB>(t, ap[k], X);
      ap[k].re = -X.re;
      ap[k].im = -X.im;
    }
  }
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {  // row 0 through x[0] and x[m-1]
    R *fa = real_parts(ch[k].ra), *fc = real_parts(ch[k].rc), *fd = real_parts(ch[k].rd);
    P one, pivot, r, t, u;
    set_parts<R, LB>(one, R(1), R(0));
    minus_product<R, LB>(one, c0[k], sa[k], pivot);
    reciprocal_screened<R, LB>(pivot, r, risk);
    multiply<R, LB>(r, a0[k], t);
    store_row_parts<LB>(fa, t);
    multiply<R, LB>(r, c0[k], t);
    multiply<R, LB>(t, w[k], u);
    store_row_parts<LB>(fc, u);
    minus_product<R, LB>(d0[k], c0[k], sd[k], t);
    multiply<R, LB>(r, t, u);
    store_row_parts<LB>(fd, u);
    store_row_parts<LB>(fa + 2 * LB, ap[k]);
    store_row_parts<LB>(fc + 2 * LB, cp[k]);
    store_row_parts<LB>(fd + 2 * LB, dp[k]);
  }
  return risk_is_low_everywhere<LB, R>(risk);
}

// Pass 2 (partition_recover) on K complex chains (x of lanes past a chain's nl left as it was
// when Masked); tc, td: K LB (m - 1) values each (a row's LB real parts, then its LB imaginary
// parts). Returns false, before writing any x, if the screen flagged a pivot (the generic pass is
// then to redo the chains).
template <int LB, int K, bool Masked, class Chain, class Strides, class T>
inline bool partition_recover_parts(const Chain* ch, const Strides& rs, index_t m, index_t ahead,
                                    T* tc, T* td) {
  static_assert(LB >= 2, "a lane block of complex values as parts needs 2 lanes or more");
  using R = real_type_t<T>;
  using V = vec<R, LB>;
  using P = parts<R, LB>;
  constexpr auto chains = static_cast<std::size_t>(K);  // an array bound
  // Set for every chain below; initialized here too, as GCC's -O3 -Wmaybe-uninitialized cannot
  // follow the chains' loop (no cost: the stores are dead).
  P cp[chains]{}, dp[chains]{};
  V risk;
  set_all<LB>(risk, R(0));
  lane_mask<R, LB> mask[chains];
  for (int k = 0; k < K; ++k) mask[k].set(ch[k].nl);
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {  // row 0: x[0] known
    set_parts<R, LB>(cp[k], R(0), R(0));
    load_row_parts<LB>(real_parts(ch[k].rd), dp[k]);
  }
  for (index_t i = 1; i < m - 1; ++i) {
    BANDSOLVE_UNROLL(16)
    for (int k = 0; k < K; ++k) {
      P A, r;
      thomas_step_parts<Masked, LB>(chain_row_at(ch[k], rs, i, ahead), mask[k], cp[k], dp[k], risk,
                                    A, r);
      R* const tci = real_parts(tc + (i * K + k) * LB);
      R* const tdi = real_parts(td + (i * K + k) * LB);
      store<R, LB>(tci, cp[k].re);
      store<R, LB>(tci + LB, cp[k].im);
      store<R, LB>(tdi, dp[k].re);
      store<R, LB>(tdi + LB, dp[k].im);
    }
  }
  if (!risk_is_low_everywhere<LB, R>(risk)) return false;
  P next[chains];
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {
    load_row_parts<LB>(real_parts(ch[k].rd) + 2 * LB, next[k]);
    store_row_parts<Masked, LB>(real_parts(ch[k].d + (m - 1) * rs.d), next[k], mask[k]);
  }
  for (index_t i = m - 2; i >= 1; --i) {
    BANDSOLVE_UNROLL(16)
    for (int k = 0; k < K; ++k) {
      const R* const tci = real_parts(tc + (i * K + k) * LB);
      const R* const tdi = real_parts(td + (i * K + k) * LB);
      P tcv, tdv;
      load<R, LB>(tci, tcv.re);
      load<R, LB>(tci + LB, tcv.im);
      load<R, LB>(tdi, tdv.re);
      load<R, LB>(tdi + LB, tdv.im);
      minus_product<R, LB>(tdv, tcv, next[k], next[k]);
      store_row_parts<Masked, LB>(real_parts(ch[k].d + i * rs.d), next[k], mask[k]);
    }
  }
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {
    P x0;
    load_row_parts<LB>(real_parts(ch[k].rd), x0);
    store_row_parts<Masked, LB>(real_parts(ch[k].d), x0, mask[k]);
  }
  return true;
}

}  // namespace bandsolve::detail::simd
#endif
