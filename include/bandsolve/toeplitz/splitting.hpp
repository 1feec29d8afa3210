#pragma once
// The splitting T = L R + P of a tridiagonal Toeplitz matrix T = tridiag(t1, t2, t3) (Dmitruk and
// Stpiczynski 2020; docs/algorithms.md, "Toeplitz divide and conquer"):
//   L = bidiag(sub = a, diag = 1), R = bidiag(diag = delta, super = t3), P = (t2 - delta) e0 e0^T,
// with a = t1 / delta and delta a root of delta^2 - t2 delta + t1 t3 = 0 (then L R equals T except
// at (0, 0), where it holds delta instead of t2).
//
// The two bidiagonal recurrences, written with z = y / delta,
//   z_k = f_k / delta - a z_{k-1}          (forward,  ratio -a)
//   x_k = z_k + g x_{k+1},  g = -t3/delta  (backward, ratio  g)
// are contractive when |t1| < |delta| and |t3| < |delta|. The root of larger magnitude,
// delta = (t2 + sign(t2) sqrt(t2^2 - 4 t1 t3)) / 2, satisfies both for every row diagonally
// dominant T (|t2| > |t1| + |t3|): if t1 t3 > 0, sqrt(t2^2 - 4 t1 t3) > | |t1| - |t3| | so
// |delta| > max(|t1|, |t3|); if t1 t3 <= 0, |delta| >= |t2|. The other root has
// |delta'| = |t1 t3| / |delta| <= min(|t1|, |t3|) and makes at least one recurrence grow.
// Complex T always has both roots; the one of larger modulus again satisfies both for every
// diagonally dominant T (with |delta| >= sqrt|t1 t3| >= |delta'|, |delta| <= |t1| would give
// |t2| <= |delta| + |delta'| <= |t1| + |t3|).
// Host code only (it decides whether the method applies and prepares the kernels' constants).
#include <bandsolve/core/errors.hpp>
#include <bandsolve/core/scalar_traits.hpp>

#include <cmath>
#include <complex>
#include <limits>

namespace bandsolve {

// Constants of the splitting in double, or std::complex<double> for complex T (computed once on
// the host, rounded for the kernels).
template <class Value>
struct basic_toeplitz_splitting {
  using value_type = Value;
  Value t1 = 0, t2 = 0, t3 = 0;
  Value delta = 0;          // diagonal of R (the chosen root)
  Value other_root = 0;     // the root not chosen: t1 t3 / delta
  Value a = 0;              // subdiagonal of L: t1 / delta
  Value g = 0;              // backward ratio: -t3 / delta
  Value gamma = 0;          // corner correction P(0, 0) = t2 - delta
  double contraction = 0;   // max(|a|, |g|) < 1
  // Smallest k with contraction^k <= eps / 4: beyond k steps a carry no longer changes a value of
  // the same magnitude (the truncation length of the carries and of the correction vector).
  long truncation = 0;
};
using toeplitz_splitting = basic_toeplitz_splitting<double>;
using complex_toeplitz_splitting = basic_toeplitz_splitting<std::complex<double>>;

namespace detail {

// Steps after which contraction^k falls below eps/4 (capped: such T are solved without truncation).
inline long truncation_length(double contraction, double eps) {
  if (contraction <= 0) return 1;
  const double k = std::ceil(std::log(eps / 4) / std::log(contraction));
  constexpr double cap = 1e15;
  return static_cast<long>(k < 1 ? 1 : (k > cap ? cap : k));
}

// Whether toeplitz_dc should solve T of n rows by Thomas instead of the split: the carries of
// the split's recurrences would not decay within the system (truncation length > n) and the
// system is longer than a short one (any method is accurate when the recurrences contract
// quickly; there, truncation <= 4096 bounds the error growth of the geometric sums).
template <class Value>
bool toeplitz_dc_needs_thomas(const basic_toeplitz_splitting<Value>& s, long n) {
  return s.truncation > n && s.truncation > 4096;
}

// The splitting from T and its chosen root delta (real or complex): the ratios, the corner
// correction and the truncation length. Throws (from `function`) when delta is zero or when the
// recurrences do not contract.
template <class Value>
basic_toeplitz_splitting<Value> split_at_root(const std::string& function, Value t1, Value t2,
                                              Value t3, Value delta, double eps) {
  if (delta == Value(0))
    throw_invalid_argument(function, "T = tridiag(", t1, ", ", t2, ", ", t3,
                           ") is singular (t2 = 0 and t1 t3 = 0)");
  basic_toeplitz_splitting<Value> s;
  s.t1 = t1;
  s.t2 = t2;
  s.t3 = t3;
  s.delta = delta;
  s.other_root = t1 * t3 / delta;
  s.a = t1 / delta;
  s.g = -t3 / delta;
  s.gamma = t2 - delta;
  s.contraction = std::fmax(std::abs(s.a), std::abs(s.g));
  if (!(s.contraction < 1))
    throw_invalid_argument(
        function, "T = tridiag(", t1, ", ", t2, ", ", t3,
        ") cannot be split into contractive bidiagonal recurrences (|t1/delta| = ", std::abs(s.a),
        ", |t3/delta| = ", std::abs(s.g), " with delta = ", delta,
        "); the method needs |t1|, |t3| < |delta|, e.g. |t2| > |t1| + |t3|; use algo::thomas");
  s.truncation = truncation_length(s.contraction, eps);
  return s;
}

}  // namespace detail

// Chooses the root that keeps both recurrences contractive. Throws std::invalid_argument (from
// `function`) when T is not finite, when its characteristic roots are complex, or when neither
// root makes both recurrences contract (T is too far from diagonal dominance for this method).
// eps is the unit roundoff of the data type (it sets the truncation length).
inline toeplitz_splitting split_toeplitz(const std::string& function, double t1, double t2,
                                         double t3, double eps) {
  if (!std::isfinite(t1) || !std::isfinite(t2) || !std::isfinite(t3))
    detail::throw_invalid_argument(function, "T = tridiag(", t1, ", ", t2, ", ", t3,
                                   ") has a coefficient that is not finite");
  const double disc = t2 * t2 - 4 * t1 * t3;
  if (disc < 0)
    detail::throw_invalid_argument(
        function, "T = tridiag(", t1, ", ", t2, ", ", t3, ") has complex roots (t2^2 - 4 t1 t3 = ",
        disc, " < 0): the real splitting T = LR + P does not exist; use algo::thomas");
  const double root = std::sqrt(disc);
  // No cancellation: the larger root.
  return detail::split_at_root(function, t1, t2, t3, 0.5 * (t2 + (t2 < 0 ? -root : root)), eps);
}

// The same for complex T: the roots always exist; the one of larger modulus is chosen. Throws when
// T is not finite, singular at the root, or when neither root makes both recurrences contract.
inline complex_toeplitz_splitting split_toeplitz(const std::string& function,
                                                 std::complex<double> t1, std::complex<double> t2,
                                                 std::complex<double> t3, double eps) {
  const auto finite = [](std::complex<double> z) {
    return std::isfinite(z.real()) && std::isfinite(z.imag());
  };
  if (!finite(t1) || !finite(t2) || !finite(t3))
    detail::throw_invalid_argument(function, "T = tridiag(", t1, ", ", t2, ", ", t3,
                                   ") has a coefficient that is not finite");
  const std::complex<double> root = std::sqrt(t2 * t2 - 4.0 * t1 * t3);
  const std::complex<double> delta =
      0.5 * (std::abs(t2 + root) >= std::abs(t2 - root) ? t2 + root : t2 - root);
  return detail::split_at_root(function, t1, t2, t3, delta, eps);
}

// The splitting of T in its kind: toeplitz_splitting for float and double, complex_toeplitz_
// splitting for Kokkos::complex; eps is the unit roundoff of T's real type.
template <class T>
auto split_toeplitz(const std::string& function, T t1, T t2, T t3) {
  using R = real_type_t<T>;
  const auto eps = static_cast<double>(std::numeric_limits<R>::epsilon());
  if constexpr (is_complex_v<T>) {
    const auto wide = [](T z) {
      return std::complex<double>(static_cast<double>(z.real()), static_cast<double>(z.imag()));
    };
    return split_toeplitz(function, wide(t1), wide(t2), wide(t3), eps);
  } else {
    return split_toeplitz(function, static_cast<double>(t1), static_cast<double>(t2),
                          static_cast<double>(t3), eps);
  }
}

}  // namespace bandsolve
