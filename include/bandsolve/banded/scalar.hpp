#pragma once
// Scalar helpers of the banded solvers for float, double, Kokkos::complex<float> and
// Kokkos::complex<double>: the magnitude used to choose pivots and the pivot tests. Written
// without std:: calls so they run in device code.
//
// Pivot magnitude: |re| + |im| for complex values (LAPACK's cabs1, what izamax compares), |x| for
// real ones. With it the pivots match LAPACK's ?gbtrf row for row; it is within a factor sqrt(2)
// of the modulus, which is all partial pivoting needs.
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>

#include <type_traits>

namespace bandsolve::detail {

// The core's scalar vocabulary under the names the banded kernels use.
template <class T>
struct scalar_traits {
  static_assert(is_supported_scalar_v<T>,
                "bandsolve banded_lu: the scalar type must be float, double, "
                "Kokkos::complex<float> or Kokkos::complex<double>");
  using real_type = real_type_t<T>;
  static constexpr bool is_complex = is_complex_v<T>;
  KOKKOS_FORCEINLINE_FUNCTION static real_type abs1(const T& x) { return magnitude1(x); }
  KOKKOS_FORCEINLINE_FUNCTION static bool is_zero(const T& x) {
    if constexpr (is_complex)
      return (int(x.real() == real_type(0)) & int(x.imag() == real_type(0))) != 0;
    else
      return x == T(0);
  }
};

// LAPACK convention: info stays at the first bad row (1-based), 0 while every pivot is good.
KOKKOS_FORCEINLINE_FUNCTION int first_info(int info, bool good, index_t row) {
  const int candidate = good ? 0 : static_cast<int>(row + 1);
  return info != 0 ? info : candidate;
}

}  // namespace bandsolve::detail
