#pragma once
// Helpers of the Toeplitz tests: exact right-hand sides, a sequential Thomas reference with
// constant coefficients, and LAPACK on a Toeplitz matrix.
#include "test_support.hpp"

#include <bandsolve/toeplitz/divide_and_conquer.hpp>

#include <cmath>
#include <random>
#include <vector>

namespace bstest {

// A known solution x (entries in [-1, 1]) and f = T x rounded from long double, so that the
// error of a solver is measured against x itself.
template <class T>
struct toeplitz_problem {
  T t1, t2, t3;
  std::vector<T> x, f;
};

template <class T>
toeplitz_problem<T> make_toeplitz_problem(T t1, T t2, T t3, std::size_t n, std::uint32_t seed) {
  toeplitz_problem<T> p{t1, t2, t3, std::vector<T>(n), std::vector<T>(n)};
  std::mt19937 gen(seed);
  bstest::uniform_real u(-1.0, 1.0);
  for (auto& v : p.x) v = static_cast<T>(u(gen));
  for (std::size_t i = 0; i < n; ++i) {
    long double s = static_cast<long double>(t2) * p.x[i];
    if (i > 0) s += static_cast<long double>(t1) * p.x[i - 1];
    if (i + 1 < n) s += static_cast<long double>(t3) * p.x[i + 1];
    p.f[i] = static_cast<T>(s);
  }
  return p;
}

// Sequential Thomas in the data type, constant coefficients (the peer of the divide and conquer).
template <class T>
std::vector<T> sequential_thomas(T t1, T t2, T t3, std::vector<T> f) {
  const std::size_t n = f.size();
  std::vector<T> cp(n);
  T prev_c = 0, prev_y = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const T r = T(1) / (t2 - (i ? t1 * prev_c : T(0)));
    cp[i] = t3 * r;
    f[i] = (f[i] - (i ? t1 * prev_y : T(0))) * r;
    prev_c = cp[i];
    prev_y = f[i];
  }
  for (std::size_t i = n - 1; i-- > 0;) f[i] -= cp[i] * f[i + 1];
  return f;
}

template <class T>
std::vector<T> lapack_toeplitz(T t1, T t2, T t3, std::vector<T> f) {
  const int n = static_cast<int>(f.size());
  std::vector<T> dl(n > 1 ? n - 1 : 1, t1), d(n, t2), du(n > 1 ? n - 1 : 1, t3);
  REQUIRE(lapack_gtsv(n, dl.data(), d.data(), du.data(), f.data()) == 0);
  return f;
}

// max_i |x_i - y_i| / max_i |y_i| (infinite when x has a non-finite value)
template <class T>
double max_rel_error(const std::vector<T>& x, const std::vector<T>& y) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(double(x[i]))) return HUGE_VAL;
    num = std::max(num, std::abs(double(x[i]) - double(y[i])));
    den = std::max(den, std::abs(double(y[i])));
  }
  return den > 0 ? num / den : num;
}

}  // namespace bstest
