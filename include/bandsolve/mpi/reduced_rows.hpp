#pragma once
// How a one-shot solve stores and sends a reduced row (a' x_prev + x + c' x_next = d': the
// diagonal is 1, so three values) in values of d's type D over coefficients of type C: three
// values, except for complex D over real C, where a' and c' are real and travel as the two parts
// of one D value, so that a row is two values (4 reals where three complex values were 6). The
// reduce passes write rows with store_reduced_row, the solving ranks read them with
// load_reduced_row; both sides of the exchange agree on the scalar types (collective_checks.hpp).
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/scalar_traits.hpp>

namespace bandsolve::mpi::detail {

// Values of D per reduced row.
template <class C, class D>
inline constexpr int reduced_row_words_v = is_complex_over_real_v<C, D> ? 2 : 3;

// Row (a', c', d') into out[0 .. reduced_row_words_v - 1]. a' and c' may be held as D values
// (the device passes compute in D); over real C their imaginary parts are zero and dropped.
template <class C, class D, class A>
KOKKOS_INLINE_FUNCTION void store_reduced_row(D* out, const A& a, const A& c, const D& d) {
  if constexpr (is_complex_over_real_v<C, D>) {
    out[0] = D(bandsolve::detail::real_part(a), bandsolve::detail::real_part(c));
    out[1] = d;
  } else {
    out[0] = a;
    out[1] = c;
    out[2] = d;
  }
}

// The row that store_reduced_row wrote at w, as D values.
template <class C, class D>
KOKKOS_INLINE_FUNCTION void load_reduced_row(const D* w, D& a, D& c, D& d) {
  if constexpr (is_complex_over_real_v<C, D>) {
    a = D(w[0].real());
    c = D(w[0].imag());
    d = w[1];
  } else {
    a = w[0];
    c = w[1];
    d = w[2];
  }
}

}  // namespace bandsolve::mpi::detail
