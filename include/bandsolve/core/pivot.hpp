#pragma once
// The pivot test behind every info code: a pivot is bad when it is zero, so small that its
// reciprocal overflows, or not finite. Written without std:: calls so it runs in device code.
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/scalar_traits.hpp>

#include <cfloat>

namespace bandsolve::detail {

template <class T>
struct pivot_limits;

template <>
struct pivot_limits<float> {
  static constexpr float tiny = FLT_MIN;  // smallest normal: 1/tiny is finite
  static constexpr float huge = FLT_MAX;
  // The screen's scale and limit (pivot_risk): powers of two with risk_scale / risk_limit = tiny.
  static constexpr float risk_scale = 0x1p-26f, risk_limit = 0x1p100f;
};

template <>
struct pivot_limits<double> {
  static constexpr double tiny = DBL_MIN;
  static constexpr double huge = DBL_MAX;
  static constexpr double risk_scale = 0x1p-22, risk_limit = 0x1p1000;
};

// Also false for NaN, since every comparison with NaN is false. Bitwise & keeps it branch-free
// so that loops across systems vectorize. Complex pivots are measured by |re| + |im|.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION bool pivot_is_good(const T& pivot) {
  using R = real_type_t<T>;
  const R magnitude = magnitude1(pivot);
  return static_cast<bool>((magnitude >= pivot_limits<R>::tiny) &
                           (magnitude <= pivot_limits<R>::huge));
}

// Cheap per-row screening for the hot loops: the running sum of |1/pivot| * risk_scale +
// pivot * 0. It stays far below risk_limit while every pivot is good; one zero or tiny pivot
// (|1/pivot| > 1/tiny) makes it >= risk_limit or inf, and an infinite or NaN pivot makes it NaN
// (inf * 0). A sum can also reach the limit without a bad pivot; the exact rescan of that system
// then finds none. Two multiply-adds per row instead of compares and selects on integer info
// codes. The scale keeps the products normal numbers for every pivot below 2^1000 (2^100 for
// float): |1/pivot| * tiny itself is subnormal for any pivot above 1, and without fused
// multiply-adds each subnormal product costs x86 a microcode assist (one-shot Thomas ran 5-6x
// slower in builds for plain x86-64).
template <class T, class R = real_type_t<T>>
KOKKOS_FORCEINLINE_FUNCTION R pivot_risk(const T& pivot, const T& reciprocal, R risk) {
  if constexpr (is_complex_v<T>)
    return magnitude1(reciprocal) * pivot_limits<R>::risk_scale +
           (magnitude1(pivot) * R(0) + risk);
  else
    return abs_real(reciprocal) * pivot_limits<R>::risk_scale + (pivot * R(0) + risk);
}

template <class R>
KOKKOS_FORCEINLINE_FUNCTION bool risk_is_low(R risk) {
  return risk < pivot_limits<R>::risk_limit;  // false for NaN
}

// LAPACK convention: info stays at the first bad row (1-based), 0 while all pivots are good.
// Two selects, no branches: this runs for every row of every system.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION int update_info(int info, const T& pivot, index_t row) {
  const int candidate = pivot_is_good(pivot) ? 0 : static_cast<int>(row + 1);
  return info != 0 ? info : candidate;
}

}  // namespace bandsolve::detail
