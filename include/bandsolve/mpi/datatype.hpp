#pragma once
// The MPI datatype of a scalar that the distributed solves send, and the code by which the ranks
// agree that they pass the same scalar type.
#include <bandsolve/core/scalar_traits.hpp>

#include <mpi.h>

#include <type_traits>

namespace bandsolve::mpi::detail {

template <class T>
MPI_Datatype datatype() {
  static_assert(is_supported_scalar_v<T>,
                "bandsolve::mpi: the scalar type must be float, double or Kokkos::complex of one");
  if constexpr (std::is_same_v<T, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, Kokkos::complex<float>>)
    return MPI_C_FLOAT_COMPLEX;  // Kokkos::complex: the real part, then the imaginary one
  else
    return MPI_C_DOUBLE_COMPLEX;
}

// 1 float, 2 double, 3 Kokkos::complex<float>, 4 Kokkos::complex<double> (scalar_name names
// them in collective_checks.hpp's messages).
template <class T>
constexpr long long scalar_code() {
  static_assert(is_supported_scalar_v<T>,
                "bandsolve::mpi: the scalar type must be float, double or Kokkos::complex of one");
  return (std::is_same_v<real_type_t<T>, double> ? 2 : 1) + (is_complex_v<T> ? 2 : 0);
}

// The code of block lines' scalars: coefficients T and right-hand sides D, of T's type or complex
// over real T (5 Kokkos::complex<float> over float, 6 over double), which send real words.
template <class T, class D>
constexpr long long block_scalar_code() {
  static_assert(is_rhs_of_v<T, D>,
                "bandsolve::mpi: d must have the coefficients' scalar type, or be Kokkos::complex "
                "of real coefficients' type");
  return std::is_same_v<T, D> ? scalar_code<T>() : scalar_code<T>() + 4;
}

inline const char* scalar_name(long long code) {
  switch (code) {
    case 1: return "float";
    case 2: return "double";
    case 3: return "Kokkos::complex<float>";
    case 4: return "Kokkos::complex<double>";
    case 5: return "Kokkos::complex<float> over float coefficients";
    case 6: return "Kokkos::complex<double> over double coefficients";
    default: return "an unknown scalar type";
  }
}

}  // namespace bandsolve::mpi::detail
