#pragma once
// Scalar helpers of the banded solvers for float, double, Kokkos::complex<float> and
// Kokkos::complex<double>: the magnitude used to choose pivots and the pivot tests. Written
// without std:: calls so they run in device code.
//
// Pivot magnitude: |re| + |im| for complex values (LAPACK's cabs1, what izamax compares), |x| for
// real ones. With it the pivots match LAPACK's ?gbtrf row for row; it is within a factor sqrt(2)
// of the modulus, which is all partial pivoting needs.
#include <bandsolve/core/pivot.hpp>

#include <Kokkos_Complex.hpp>

#include <type_traits>

namespace bandsolve::detail {

template <class T>
struct scalar_traits {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "bandsolve banded_lu: the scalar type must be float, double, "
                "Kokkos::complex<float> or Kokkos::complex<double>");
  using real_type = T;
  static constexpr bool is_complex = false;
  KOKKOS_FORCEINLINE_FUNCTION static T abs1(T x) { return x < T(0) ? -x : x; }
  KOKKOS_FORCEINLINE_FUNCTION static bool is_zero(T x) { return x == T(0); }
};

template <class R>
struct scalar_traits<Kokkos::complex<R>> {
  static_assert(std::is_same_v<R, float> || std::is_same_v<R, double>,
                "bandsolve banded_lu: complex values must be Kokkos::complex<float> or "
                "Kokkos::complex<double>");
  using real_type = R;
  static constexpr bool is_complex = true;
  KOKKOS_FORCEINLINE_FUNCTION static R abs1(const Kokkos::complex<R>& x) {
    const R re = x.real(), im = x.imag();
    return (re < R(0) ? -re : re) + (im < R(0) ? -im : im);
  }
  KOKKOS_FORCEINLINE_FUNCTION static bool is_zero(const Kokkos::complex<R>& x) {
    return static_cast<bool>((x.real() == R(0)) & (x.imag() == R(0)));
  }
};

template <class T>
inline constexpr bool is_banded_scalar_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, Kokkos::complex<float>> || std::is_same_v<T, Kokkos::complex<double>>;

// The no-pivoting test of the core (zero, tiny: reciprocal overflows, or not finite), on the
// pivot magnitude for complex values.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION bool banded_pivot_is_good(const T& pivot) {
  return pivot_is_good(scalar_traits<T>::abs1(pivot));
}

// LAPACK convention: info stays at the first bad row (1-based), 0 while every pivot is good.
KOKKOS_FORCEINLINE_FUNCTION int first_info(int info, bool good, index_t row) {
  const int candidate = good ? 0 : static_cast<int>(row + 1);
  return info != 0 ? info : candidate;
}

}  // namespace bandsolve::detail
