#pragma once
// Passes 1 and 2 of the factored partition solve (partition_factor_kernel.hpp) for complex
// systems on host builds with vector extensions: rows of d and of the factors loaded as real
// vectors and unzipped into their parts (partition_lanes_complex.hpp), so that the lane loops
// are real vector operations. No division and no screen: the factors hold the reciprocals.
// Lane blocks of 2 or more lanes, full or padded (d of the lanes past the systems read as 0,
// their x left as they were).
#include <bandsolve/tridiag/partition_lanes_complex.hpp>

#if BANDSOLVE_HAS_SIMD_TRANSPOSE
namespace bandsolve::detail::simd {

// factored_reduce on K complex chains of m rows: eloc and xloc of every lane.
template <int LB, int K, bool Masked, class Chain>
inline void factored_reduce_parts(const Chain* ch, index_t rsd, index_t fs, index_t m,
                                  index_t ahead) {
  static_assert(LB >= 2, "a lane block of complex values as parts needs 2 lanes or more");
  using R = real_type_t<std::remove_const_t<std::remove_pointer_t<decltype(ch->mu)>>>;
  using P = parts<R, LB>;
  constexpr auto chains = static_cast<std::size_t>(K);  // an array bound
  P e[chains], x[chains];
  lane_mask<R, LB> mask[chains];
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {
    mask[k].set(ch[k].nl);
    P q;
    load_row_parts<Masked, LB>(real_parts(ch[k].d), e[k], mask[k], R(0));
    load_row_parts<LB>(real_parts(ch[k].q), q);
    multiply<R, LB>(q, e[k], x[k]);
  }
  for (index_t i = 1; i < m; ++i) {
    BANDSOLVE_UNROLL(16)
    for (int k = 0; k < K; ++k) {
      const R* pd = real_parts(ch[k].d + i * rsd);
      const R *pm = real_parts(ch[k].mu + i * fs), *pq = real_parts(ch[k].q + i * fs);
      BANDSOLVE_PREFETCH(pd + 2 * ahead * rsd);
      BANDSOLVE_PREFETCH(pm + 2 * ahead * fs);
      BANDSOLVE_PREFETCH(pq + 2 * ahead * fs);
      P di, mu, q, t;
      load_row_parts<Masked, LB>(pd, di, mask[k], R(0));
      load_row_parts<LB>(pm, mu);
      load_row_parts<LB>(pq, q);
      minus_product<R, LB>(di, mu, e[k], e[k]);
      multiply<R, LB>(q, di, t);
      x[k].re += t.re;
      x[k].im += t.im;
    }
  }
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {
    store_row_parts<LB>(real_parts(ch[k].el), e[k]);
    store_row_parts<LB>(real_parts(ch[k].xl), x[k]);
  }
}

// factored_recover on K complex chains of m rows; tt: K LB m values (a row's LB real parts,
// then its LB imaginary parts).
template <int LB, int K, bool Masked, class Chain, class T>
inline void factored_recover_parts(const Chain* ch, index_t rsd, index_t fs, index_t m,
                                   index_t ahead, T* tt) {
  static_assert(LB >= 2, "a lane block of complex values as parts needs 2 lanes or more");
  using R = real_type_t<T>;
  using P = parts<R, LB>;
  constexpr auto chains = static_cast<std::size_t>(K);  // an array bound
  P e[chains];
  lane_mask<R, LB> mask[chains];
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {
    mask[k].set(ch[k].nl);
    load_row_parts<LB>(real_parts(ch[k].e_in), e[k]);
  }
  for (index_t i = 0; i < m; ++i) {
    BANDSOLVE_UNROLL(16)
    for (int k = 0; k < K; ++k) {
      const R* pd = real_parts(ch[k].d + i * rsd);
      const R *pm = real_parts(ch[k].mu + i * fs), *pr = real_parts(ch[k].r + i * fs);
      BANDSOLVE_PREFETCH(pd + 2 * ahead * rsd);
      BANDSOLVE_PREFETCH(pm + 2 * ahead * fs);
      BANDSOLVE_PREFETCH(pr + 2 * ahead * fs);
      BANDSOLVE_PREFETCH(real_parts(ch[k].cp + i * fs));  // for the backward sweep
      P di, mu, r, t;
      load_row_parts<Masked, LB>(pd, di, mask[k], R(0));
      load_row_parts<LB>(pm, mu);
      load_row_parts<LB>(pr, r);
      minus_product<R, LB>(di, mu, e[k], e[k]);
      multiply<R, LB>(r, e[k], t);
      R* const tti = real_parts(tt + (i * K + k) * LB);
      store<R, LB>(tti, t.re);
      store<R, LB>(tti + LB, t.im);
    }
  }
  P x[chains];
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) load_row_parts<LB>(real_parts(ch[k].x_in), x[k]);
  for (index_t i = m - 1; i >= 0; --i) {
    BANDSOLVE_UNROLL(16)
    for (int k = 0; k < K; ++k) {
      const R* const tti = real_parts(tt + (i * K + k) * LB);
      P t, cp;
      load<R, LB>(tti, t.re);
      load<R, LB>(tti + LB, t.im);
      load_row_parts<LB>(real_parts(ch[k].cp + i * fs), cp);
      minus_product<R, LB>(t, cp, x[k], x[k]);
      store_row_parts<Masked, LB>(real_parts(ch[k].d + i * rsd), x[k], mask[k]);
    }
  }
}

}  // namespace bandsolve::detail::simd
#endif
