#pragma once
// Scalar helpers shared by the pivoting and periodic tridiagonal kernels, for float, double,
// Kokkos::complex<float> and Kokkos::complex<double>. Device-safe (no std:: calls).
#include <bandsolve/core/pivot.hpp>

#include <Kokkos_Complex.hpp>

#include <type_traits>

namespace bandsolve::detail {

template <class T>
struct scalar_ops {  // float, double
  using real_type = T;
  KOKKOS_FORCEINLINE_FUNCTION static T abs1(T x) { return x < T(0) ? -x : x; }
};

template <class R>
struct scalar_ops<Kokkos::complex<R>> {
  using real_type = R;
  // LAPACK's CABS1 = |re| + |im|: what ?gtsv compares to choose a pivot in complex arithmetic.
  KOKKOS_FORCEINLINE_FUNCTION static R abs1(const Kokkos::complex<R>& x) {
    const R re = x.real(), im = x.imag();
    return (re < R(0) ? -re : re) + (im < R(0) ? -im : im);
  }
};

template <class T>
using real_type_t = typename scalar_ops<T>::real_type;

template <class T>
KOKKOS_FORCEINLINE_FUNCTION real_type_t<T> abs1(const T& x) {
  return scalar_ops<T>::abs1(x);
}

template <class T>
inline constexpr bool is_real_or_complex_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, Kokkos::complex<float>> || std::is_same_v<T, Kokkos::complex<double>>;

// The Thomas pivot test (zero, tiny or non-finite) on |re| + |im| for complex values.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION bool pivot_is_good_any(const T& pivot) {
  return pivot_is_good(abs1(pivot));
}

}  // namespace bandsolve::detail
