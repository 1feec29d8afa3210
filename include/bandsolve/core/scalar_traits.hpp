#pragma once
// Real and complex scalars in one vocabulary for the kernels: the real type behind a scalar,
// LAPACK's cabs1 magnitude (|re| + |im|: no square root, same zero/finite tests as the modulus),
// a branch-free reciprocal, and selects, products, multiply-subtracts and quotients computed on
// the parts of complex values. Valid in device code.
#include <bandsolve/core/config.hpp>

#include <type_traits>

namespace bandsolve {

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<Kokkos::complex<T>> : std::true_type {};
template <class T>
inline constexpr bool is_complex_v = is_complex<std::remove_cv_t<T>>::value;

template <class T>
struct real_type {
  using type = T;
};
template <class T>
struct real_type<Kokkos::complex<T>> {
  using type = T;
};
template <class T>
using real_type_t = typename real_type<std::remove_cv_t<T>>::type;

// The element types the solvers are built for: float, double, Kokkos::complex<float> and
// Kokkos::complex<double>.
template <class T>
inline constexpr bool is_supported_scalar_v =
    std::is_same_v<real_type_t<T>, float> || std::is_same_v<real_type_t<T>, double>;

// Right-hand sides may be of the coefficients' type, or complex over real coefficients (the
// Fourier modes of a real operator).
template <class Coefficient, class Rhs>
inline constexpr bool is_rhs_of_v =
    std::is_same_v<Coefficient, Rhs> ||
    (!is_complex_v<Coefficient> && std::is_same_v<Rhs, Kokkos::complex<Coefficient>>);

// Complex right-hand sides over real coefficients: the real coefficients act on both parts alike.
template <class Coefficient, class Rhs>
inline constexpr bool is_complex_over_real_v = !is_complex_v<Coefficient> && is_complex_v<Rhs>;

namespace detail {

template <class R>
KOKKOS_FORCEINLINE_FUNCTION R abs_real(R x) {
  return x < R(0) ? -x : x;
}

// |x| for real x, |re x| + |im x| for complex x.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION real_type_t<T> magnitude1(const T& x) {
  if constexpr (is_complex_v<T>)
    return abs_real(x.real()) + abs_real(x.imag());
  else
    return abs_real(x);
}

// The unit roundoff of the real type R (half the spacing of the numbers next to 1): the spikes
// that the truncated solves drop lie below it.
template <class R>
KOKKOS_FORCEINLINE_FUNCTION R unit_roundoff() {
  return sizeof(R) == sizeof(float) ? R(0x1p-24f) : R(0x1p-53);
}

// (rr, ri) = 1/(pr + i pi): conj(p)/|p|^2 computed on p scaled by 1/(|re| + |im|), so |p|^2
// neither overflows nor underflows for any finite nonzero p; p = 0 gives NaN (caught by the pivot
// test). On the parts as real values: lane loops written on parts vectorize, where GCC 12 left
// some loops over lanes with Kokkos::complex temporaries scalar.
template <class R>
KOKKOS_FORCEINLINE_FUNCTION void reciprocal_parts(R pr, R pi, R& rr, R& ri) {
  const R s = R(1) / (abs_real(pr) + abs_real(pi));
  const R x = pr * s, y = pi * s;
  const R k = s / (x * x + y * y);
  rr = x * k;
  ri = -y * k;
}

// (cr, ci) = (ar + i ai)(br + i bi), on the parts as real values.
template <class R>
KOKKOS_FORCEINLINE_FUNCTION void product_parts(R ar, R ai, R br, R bi, R& cr, R& ci) {
  cr = ar * br - ai * bi;
  ci = ar * bi + ai * br;
}

// 1/p (complex p: reciprocal_parts).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T reciprocal(const T& p) {
  if constexpr (is_complex_v<T>) {
    real_type_t<T> rr, ri;
    reciprocal_parts(p.real(), p.imag(), rr, ri);
    return T(rr, ri);
  } else {
    return T(1) / p;
  }
}

// An array of complex values seen as its real parts (Kokkos::complex stores the real part, then
// the imaginary one): loops over the parts vectorize where loops over Kokkos::complex do not.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION auto real_parts(T* p) {
  using P = std::conditional_t<std::is_const_v<T>, const real_type_t<T>, real_type_t<T>>;
  return reinterpret_cast<P*>(p);
}

// Right-hand side values D over coefficients C as the values that real arithmetic with C takes:
// complex D over real C as its two real parts (lane_parts_v = 2, lane_part_t = C), else the
// values themselves (1, D). parts_of: an array of D seen as lane_part_t values.
template <class C, class D>
inline constexpr int lane_parts_v = is_complex_over_real_v<C, D> ? 2 : 1;
template <class C, class D>
using lane_part_t = std::conditional_t<lane_parts_v<C, D> == 2, C, D>;
template <class C, class D, class P>
KOKKOS_FORCEINLINE_FUNCTION auto parts_of(P* p) {
  using E = std::conditional_t<std::is_const_v<P>, const lane_part_t<C, D>, lane_part_t<C, D>>;
  return reinterpret_cast<E*>(p);
}

// The parts of a real or complex value (a real value's imaginary part is a constant zero).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION real_type_t<T> real_part(const T& x) {
  if constexpr (is_complex_v<T>)
    return x.real();
  else
    return x;
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION real_type_t<T> imag_part(const T& x) {
  if constexpr (is_complex_v<T>)
    return x.imag();
  else
    return real_type_t<T>(0);
}

// acc - a b and a b, for real or complex operands (acc and the result of acc's type; a complex
// result needs a complex acc). Complex values are computed on their parts: with
// Kokkos::complex's operators GCC 12 stored a product's two parts as scalars and reloaded them
// as one vector, a store-forwarding stall on every operation (the complex block solve of m = 8
// ran 10x slower than its factored solve).
template <class A, class B, class C>
KOKKOS_FORCEINLINE_FUNCTION A minus_product(const A& acc, const B& a, const C& b) {
  if constexpr (is_complex_v<A>) {
    return A(real_part(acc) - (real_part(a) * real_part(b) - imag_part(a) * imag_part(b)),
             imag_part(acc) - (real_part(a) * imag_part(b) + imag_part(a) * real_part(b)));
  } else {
    return acc - a * b;
  }
}
template <class A, class B>
KOKKOS_FORCEINLINE_FUNCTION A product(const A& a, const B& b) {
  if constexpr (is_complex_v<A>) {
    return A(real_part(a) * real_part(b) - imag_part(a) * imag_part(b),
             real_part(a) * imag_part(b) + imag_part(a) * real_part(b));
  } else {
    return a * b;
  }
}

// c ? x : y, on the real and imaginary parts apart for complex values: selects of whole
// Kokkos::complex objects keep GCC from vectorizing the lane loops, or become branches.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T select(bool c, const T& x, const T& y) {
  if constexpr (is_complex_v<T>)
    return T(c ? x.real() : y.real(), c ? x.imag() : y.imag());
  else
    return c ? x : y;
}

// a / b; a complex b is inverted by reciprocal() and multiplied on the parts (Kokkos::complex's
// division scales and divides on every call).
template <class A, class B>
KOKKOS_FORCEINLINE_FUNCTION A quotient(const A& a, const B& b) {
  if constexpr (is_complex_v<B>)
    return product(a, reciprocal(b));
  else
    return a / b;
}

}  // namespace detail
}  // namespace bandsolve
