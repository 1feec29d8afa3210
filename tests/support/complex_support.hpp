#pragma once
// Helpers of the complex tests: LAPACK cgtsv/zgtsv on Kokkos::complex, complex diagonally dominant
// batches and right-hand sides, and differences in the 1-norm |re| + |im|.
#include "test_support.hpp"

#include <bandsolve/core/scalar_traits.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

// Kokkos::complex<R> has the layout of Fortran COMPLEX (two R, aligned to their sum).
extern "C" {
void zgtsv_(const int* n, const int* nrhs, Kokkos::complex<double>* dl, Kokkos::complex<double>* d,
            Kokkos::complex<double>* du, Kokkos::complex<double>* b, const int* ldb, int* info);
void cgtsv_(const int* n, const int* nrhs, Kokkos::complex<float>* dl, Kokkos::complex<float>* d,
            Kokkos::complex<float>* du, Kokkos::complex<float>* b, const int* ldb, int* info);
}

namespace bstest {

template <class R>
using cplx = Kokkos::complex<R>;

inline int lapack_gtsv(int n, cplx<double>* dl, cplx<double>* d, cplx<double>* du,
                       cplx<double>* b) {
  const int nrhs = 1, ldb = std::max(n, 1);
  int info = 0;
  zgtsv_(&n, &nrhs, dl, d, du, b, &ldb, &info);
  return info;
}
inline int lapack_gtsv(int n, cplx<float>* dl, cplx<float>* d, cplx<float>* du, cplx<float>* b) {
  const int nrhs = 1, ldb = std::max(n, 1);
  int info = 0;
  cgtsv_(&n, &nrhs, dl, d, du, b, &ldb, &info);
  return info;
}

// x of every system by LAPACK ?gtsv (complex or real), right-hand sides rhs.
template <class T, class D>
std::vector<D> lapack_solve(const host_batch<T>& p, const std::vector<D>& rhs) {
  const std::size_t n = p.n;
  std::vector<D> x = rhs;
  std::vector<T> dl(n + 1), dg(n + 1), du(n + 1);
  for (std::size_t s = 0; s < p.nsys && n > 0; ++s) {
    for (std::size_t i = 0; i < n; ++i) {
      dg[i] = p.b[p.idx(s, i)];
      if (i + 1 < n) {
        dl[i] = p.a[p.idx(s, i + 1)];
        du[i] = p.c[p.idx(s, i)];
      }
    }
    int code = 0;
    if constexpr (std::is_same_v<T, D>) {
      code = lapack_gtsv(static_cast<int>(n), dl.data(), dg.data(), du.data(), x.data() + s * n);
    } else {  // real matrix, complex rhs: real and imaginary parts separately
      std::vector<T> re(n), im(n);
      for (std::size_t i = 0; i < n; ++i) {
        re[i] = x[s * n + i].real();
        im[i] = x[s * n + i].imag();
      }
      std::vector<T> dl2 = dl, dg2 = dg, du2 = du;
      code = bstest::lapack_gtsv(static_cast<int>(n), dl.data(), dg.data(), du.data(), re.data());
      code += bstest::lapack_gtsv(static_cast<int>(n), dl2.data(), dg2.data(), du2.data(),
                                  im.data());
      for (std::size_t i = 0; i < n; ++i) x[s * n + i] = D(re[i], im[i]);
    }
    REQUIRE(code == 0);
  }
  return x;
}

template <class R>
double abs1(const cplx<R>& z) {
  return std::abs(double(z.real())) + std::abs(double(z.imag()));
}

// Random complex row diagonally dominant systems: a, c with |re|, |im| < 1, b = e^{i phi} times
// (|a| + |c| + m) in the 1-norm of |re| + |im| (so dominance holds for the modulus too).
template <class T>
host_batch<T> random_dominant_any(std::size_t nsys, std::size_t n, std::uint32_t seed) {
  if constexpr (!bandsolve::is_complex_v<T>) {
    return bstest::random_dominant<T>(nsys, n, seed);
  } else {
    using R = bandsolve::real_type_t<T>;
    host_batch<T> p(nsys, n);
    std::mt19937 gen(seed);
    bstest::uniform_real u11(-1.0, 1.0), u12(1.0, 2.0), angle(0.0, 6.283185307);
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t k = p.idx(s, i);
        const T a = i == 0 ? T(0) : T(R(u11(gen)), R(u11(gen)));
        const T c = i + 1 == n ? T(0) : T(R(u11(gen)), R(u11(gen)));
        const double mag = abs1(a) + abs1(c) + u12(gen), phi = angle(gen);
        p.a[k] = a;
        p.c[k] = c;
        p.b[k] = T(R(mag * std::cos(phi)), R(mag * std::sin(phi)));
        p.d[k] = T(R(u11(gen)), R(u11(gen)));
      }
    return p;
  }
}

template <class D>
std::vector<D> random_complex_rhs(std::size_t count, std::uint32_t seed) {
  using R = bandsolve::real_type_t<D>;
  std::mt19937 gen(seed);
  bstest::uniform_real u(-1.0, 1.0);
  std::vector<D> d(count);
  for (auto& v : d) v = D(R(u(gen)), R(u(gen)));
  return d;
}

// max over systems of max_i |x_i - y_i|_1 / max_i |y_i|_1; infinite for non-finite x.
template <class D>
double max_rel_diff1(const std::vector<D>& x, const std::vector<D>& y, std::size_t nsys,
                    std::size_t n) {
  double worst = 0;
  for (std::size_t s = 0; s < nsys; ++s) {
    double diff = 0, ynorm = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double dx = abs1(x[s * n + i] - y[s * n + i]);
      if (!std::isfinite(dx)) return std::numeric_limits<double>::infinity();
      diff = std::max(diff, dx);
      ynorm = std::max(ynorm, abs1(y[s * n + i]));
    }
    worst = std::max(worst, ynorm > 0 ? diff / ynorm : diff);
  }
  return worst;
}

// Complex arithmetic rounds a little more than real (a product is two roundings deep, the
// reciprocal three): twice lapack_tol's constant covers it; cond(A) <= 6 as in the real case.
template <class D>
double complex_tol() {
  return bstest::scaled_tol<bandsolve::real_type_t<D>>(320.0, 1, 0);
}

}  // namespace bstest
