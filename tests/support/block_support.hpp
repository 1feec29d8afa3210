#pragma once
// Helpers for the block-tridiagonal tests: host batches of blocks (real or complex), upload and
// download in any block layout, the LAPACK ?gbsv reference on the same systems written as banded
// matrices (kl = ku = 2m - 1), residuals and tolerances.
//
// Host order: coefficient (s, i, r, c) at ((s*n + i)*m + r)*m + c; right-hand side k of
// (s, i, r) at ((s*n + i)*m + r)*nrhs + k. A_0 and C_{n-1} are ignored everywhere (the residual
// and the banded matrix never see them).
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <vector>

// LAPACK: general band solve with partial pivoting (Fortran symbols, as in test_support.hpp).
extern "C" {
void dgbsv_(const int* n, const int* kl, const int* ku, const int* nrhs, double* ab,
            const int* ldab, int* ipiv, double* b, const int* ldb, int* info);
void sgbsv_(const int* n, const int* kl, const int* ku, const int* nrhs, float* ab,
            const int* ldab, int* ipiv, float* b, const int* ldb, int* info);
void zgbsv_(const int* n, const int* kl, const int* ku, const int* nrhs, std::complex<double>* ab,
            const int* ldab, int* ipiv, std::complex<double>* b, const int* ldb, int* info);
void cgbsv_(const int* n, const int* kl, const int* ku, const int* nrhs, std::complex<float>* ab,
            const int* ldab, int* ipiv, std::complex<float>* b, const int* ldb, int* info);
}

namespace bstest {

// The host's arithmetic for references and residuals: double, or std::complex<double> for
// complex scalars.
template <class T>
using wide_t =
    std::conditional_t<bandsolve::is_complex_v<T>, std::complex<double>, double>;

template <class T>
wide_t<T> widen(const T& x) {
  if constexpr (bandsolve::is_complex_v<T>)
    return {double(x.real()), double(x.imag())};
  else
    return double(x);
}

template <class T>
T narrow(const wide_t<T>& x) {
  if constexpr (bandsolve::is_complex_v<T>)
    return T(static_cast<bandsolve::real_type_t<T>>(x.real()),
             static_cast<bandsolve::real_type_t<T>>(x.imag()));
  else
    return static_cast<T>(x);
}

template <class T>
struct host_block_batch {
  std::size_t nsys = 0, n = 0, m = 0, nrhs = 1;
  std::vector<T> a, b, c, d;

  host_block_batch() = default;
  host_block_batch(std::size_t nsys_, std::size_t n_, std::size_t m_, std::size_t nrhs_)
      : nsys(nsys_), n(n_), m(m_), nrhs(nrhs_), a(nsys_ * n_ * m_ * m_), b(a.size()),
        c(a.size()), d(nsys_ * n_ * m_ * nrhs_) {}
  std::size_t blk(std::size_t s, std::size_t i, std::size_t r, std::size_t col) const {
    return ((s * n + i) * m + r) * m + col;
  }
  std::size_t vec(std::size_t s, std::size_t i, std::size_t r, std::size_t k) const {
    return ((s * n + i) * m + r) * nrhs + k;
  }
};

// Random systems, row diagonally dominant as scalar matrices with a margin: off-diagonal entries
// ~ U(-scale, scale) (A_i, C_i and B_i's off-diagonal), diagonal +-(sum of |row| + U(1, 2)),
// right-hand sides ~ U(-1, 1). Then ||A^-1||_inf <= 1 and ||A||_inf <= 2 (3m - 1) scale + 4, so
// cond_inf <= 6m + 4 for scale <= 1, for every n. Complex entries: both parts so drawn, the
// diagonal of the row's modulus sum plus U(1, 2) at a random angle: ||A^-1||_inf <= 1 still, and
// off-diagonal moduli up to sqrt(2) scale raise the bound on ||A||_inf, so cond_inf by at most
// sqrt(2).
template <class T>
host_block_batch<T> random_block_dominant(std::size_t nsys, std::size_t n, std::size_t m,
                                          std::size_t nrhs, std::uint32_t seed,
                                          double scale = 1.0) {
  host_block_batch<T> p(nsys, n, m, nrhs);
  std::mt19937 gen(seed);
  bstest::uniform_real u11(-1.0, 1.0), u12(1.0, 2.0), angle(0.0, 6.2831853);
  bstest::bernoulli sign(0.5);
  const auto draw = [&](double factor) {
    if constexpr (bandsolve::is_complex_v<T>) {
      const double re = factor * u11(gen);
      return narrow<T>({re, factor * u11(gen)});
    } else {
      return static_cast<T>(factor * u11(gen));
    }
  };
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r) {
        double offsum = 0;
        for (std::size_t col = 0; col < m; ++col) {
          const std::size_t k = p.blk(s, i, r, col);
          p.a[k] = i == 0 ? T(0) : draw(scale);
          p.c[k] = i + 1 == n ? T(0) : draw(scale);
          p.b[k] = col == r ? T(0) : draw(scale);
          offsum += std::abs(widen(p.a[k])) + std::abs(widen(p.c[k])) + std::abs(widen(p.b[k]));
        }
        const double diag = offsum + u12(gen);
        if constexpr (bandsolve::is_complex_v<T>)
          p.b[p.blk(s, i, r, r)] = narrow<T>(std::polar(diag, angle(gen)));
        else
          p.b[p.blk(s, i, r, r)] = static_cast<T>(sign(gen) ? diag : -diag);
        for (std::size_t k = 0; k < nrhs; ++k) p.d[p.vec(s, i, r, k)] = draw(1.0);
      }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Device Views in any block layout.

template <class Layout, class T, class Mem>
auto block_to_device(const std::string& label, const std::vector<T>& h, std::size_t nsys,
                     std::size_t n, std::size_t m) {
  auto v = bandsolve::make_block_batch<Layout, T, Mem>(label, nsys, n, m);
  auto h_v = Kokkos::create_mirror_view(v);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r)
        for (std::size_t c = 0; c < m; ++c)
          bandsolve::block_at(h_v, s, i, r, c) = h[((s * n + i) * m + r) * m + c];
  Kokkos::deep_copy(v, h_v);
  return v;
}

// Right-hand sides: a one right-hand-side View (nrhs must be 1) or an nrhs View.
template <class Layout, class T, class Mem, bool Multiple>
auto rhs_to_device(const std::vector<T>& h, std::size_t nsys, std::size_t n, std::size_t m,
                   std::size_t nrhs) {
  auto v = [&] {
    if constexpr (Multiple)
      return bandsolve::make_block_rhs<Layout, T, Mem>("d", nsys, n, m, nrhs);
    else
      return bandsolve::make_block_rhs<Layout, T, Mem>("d", nsys, n, m);
  }();
  auto h_v = Kokkos::create_mirror_view(v);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r)
        for (std::size_t k = 0; k < nrhs; ++k) {
          const T x = h[((s * n + i) * m + r) * nrhs + k];
          if constexpr (Multiple)
            bandsolve::block_at(h_v, s, i, r, k) = x;
          else
            bandsolve::block_at(h_v, s, i, r) = x;
        }
  Kokkos::deep_copy(v, h_v);
  return v;
}

template <bool Multiple, class View>
std::vector<typename View::non_const_value_type> rhs_to_host(const View& v, std::size_t nsys,
                                                             std::size_t n, std::size_t m,
                                                             std::size_t nrhs) {
  auto h_v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  std::vector<typename View::non_const_value_type> h(nsys * n * m * nrhs);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r)
        for (std::size_t k = 0; k < nrhs; ++k) {
          auto& x = h[((s * n + i) * m + r) * nrhs + k];
          if constexpr (Multiple)
            x = bandsolve::block_at(h_v, s, i, r, k);
          else
            x = bandsolve::block_at(h_v, s, i, r);
        }
  return h;
}

// ---------------------------------------------------------------------------------------------
// LAPACK reference: ?gbsv on each system as an (n m) x (n m) band matrix, kl = ku = 2m - 1.

inline void lapack_gbsv(int n, int kl, int ku, int nrhs, double* ab, int ldab, int* ipiv,
                        double* b, int ldb, int* info) {
  dgbsv_(&n, &kl, &ku, &nrhs, ab, &ldab, ipiv, b, &ldb, info);
}
inline void lapack_gbsv(int n, int kl, int ku, int nrhs, float* ab, int ldab, int* ipiv, float* b,
                        int ldb, int* info) {
  sgbsv_(&n, &kl, &ku, &nrhs, ab, &ldab, ipiv, b, &ldb, info);
}
// Kokkos::complex<R> is laid out as std::complex<R> (two R, real part first).
inline void lapack_gbsv(int n, int kl, int ku, int nrhs, Kokkos::complex<double>* ab, int ldab,
                        int* ipiv, Kokkos::complex<double>* b, int ldb, int* info) {
  zgbsv_(&n, &kl, &ku, &nrhs, reinterpret_cast<std::complex<double>*>(ab), &ldab, ipiv,
         reinterpret_cast<std::complex<double>*>(b), &ldb, info);
}
inline void lapack_gbsv(int n, int kl, int ku, int nrhs, Kokkos::complex<float>* ab, int ldab,
                        int* ipiv, Kokkos::complex<float>* b, int ldb, int* info) {
  cgbsv_(&n, &kl, &ku, &nrhs, reinterpret_cast<std::complex<float>*>(ab), &ldab, ipiv,
         reinterpret_cast<std::complex<float>*>(b), &ldb, info);
}

// Entry (I, J) of system s as a scalar matrix (0 outside the three block diagonals).
template <class T>
wide_t<T> block_matrix_entry(const host_block_batch<T>& p, std::size_t s, std::size_t I,
                             std::size_t J) {
  const std::size_t m = p.m, i = I / m, j = J / m, r = I % m, c = J % m;
  if (j == i) return widen(p.b[p.blk(s, i, r, c)]);
  if (j + 1 == i) return widen(p.a[p.blk(s, i, r, c)]);
  if (j == i + 1) return widen(p.c[p.blk(s, i, r, c)]);
  return 0.0;
}

// Solutions of every system in host order; info (if given) gets LAPACK's codes.
template <class T>
std::vector<T> gbsv_reference(const host_block_batch<T>& p, std::vector<int>* info = nullptr) {
  const int N = static_cast<int>(p.n * p.m), kl = static_cast<int>(2 * p.m - 1), ku = kl;
  const int ldab = 2 * kl + ku + 1, nrhs = static_cast<int>(p.nrhs), ldb = std::max(N, 1);
  std::vector<T> x(p.d.size());
  if (info) info->assign(p.nsys, 0);
  std::vector<T> ab(static_cast<std::size_t>(ldab) * N), rhs(static_cast<std::size_t>(N) * nrhs);
  std::vector<int> ipiv(N);
  for (std::size_t s = 0; s < p.nsys && N > 0; ++s) {
    std::fill(ab.begin(), ab.end(), T(0));
    for (int J = 0; J < N; ++J)
      for (int I = std::max(0, J - ku); I <= std::min(N - 1, J + kl); ++I)
        ab[static_cast<std::size_t>(kl + ku + I - J) + static_cast<std::size_t>(J) * ldab] =
            narrow<T>(block_matrix_entry(p, s, I, J));
    for (int I = 0; I < N; ++I)
      for (int k = 0; k < nrhs; ++k) rhs[I + static_cast<std::size_t>(k) * N] = p.d[s * N * nrhs + I * nrhs + k];
    int code = 0;
    lapack_gbsv(N, kl, ku, nrhs, ab.data(), ldab, ipiv.data(), rhs.data(), ldb, &code);
    if (info) (*info)[s] = code;
    for (int I = 0; I < N; ++I)
      for (int k = 0; k < nrhs; ++k) x[s * N * nrhs + I * nrhs + k] = rhs[I + static_cast<std::size_t>(k) * N];
  }
  return x;
}

// ---------------------------------------------------------------------------------------------
// Error measures, in double on the host, per system and right-hand side.

// ||A x - d||_inf / (||A||_inf ||x||_inf + ||d||_inf), worst over the right-hand sides.
template <class T>
double block_residual(const host_block_batch<T>& p, const std::vector<T>& x, std::size_t s) {
  const std::size_t N = p.n * p.m, w = 2 * p.m;
  double worst = 0;
  for (std::size_t k = 0; k < p.nrhs; ++k) {
    double rmax = 0, anorm = 0, xnorm = 0, dnorm = 0;
    for (std::size_t I = 0; I < N; ++I) {
      wide_t<T> ax = 0;
      double row = 0;
      for (std::size_t J = I > w ? I - w : 0; J < std::min(N, I + w + 1); ++J) {
        const wide_t<T> e = block_matrix_entry(p, s, I, J);
        ax += e * widen(x[(s * N + J) * p.nrhs + k]);
        row += std::abs(e);
      }
      const wide_t<T> dv = widen(p.d[(s * N + I) * p.nrhs + k]);
      rmax = std::max(rmax, std::abs(ax - dv));
      anorm = std::max(anorm, row);
      xnorm = std::max(xnorm, std::abs(widen(x[(s * N + I) * p.nrhs + k])));
      dnorm = std::max(dnorm, std::abs(dv));
    }
    const double denom = anorm * xnorm + dnorm;
    if (!std::isfinite(rmax) || !std::isfinite(denom)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, denom > 0 ? rmax / denom : rmax);
  }
  return worst;
}

// max |x - y| / max(||y||, tiny) per system over all its unknowns and right-hand sides; the worst
// system whose flag in skip is not set.
template <class T>
double block_max_rel_diff(const host_block_batch<T>& p, const std::vector<T>& x,
                          const std::vector<T>& y, const std::vector<bool>& skip = {}) {
  const std::size_t per = p.n * p.m * p.nrhs;
  double worst = 0;
  for (std::size_t s = 0; s < p.nsys; ++s) {
    if (!skip.empty() && skip[s]) continue;
    double diff = 0, ynorm = 0;
    for (std::size_t k = s * per; k < (s + 1) * per; ++k) {
      const double xk = std::abs(widen(x[k]));
      if (!std::isfinite(xk)) return std::numeric_limits<double>::infinity();
      diff = std::max(diff, std::abs(widen(x[k]) - widen(y[k])));
      ynorm = std::max(ynorm, std::abs(widen(y[k])));
    }
    using R = bandsolve::real_type_t<T>;
    worst = std::max(worst, diff / std::max(ynorm, double(std::numeric_limits<R>::min())));
  }
  return worst;
}

template <class T>
double block_max_residual(const host_block_batch<T>& p, const std::vector<T>& x,
                          const std::vector<bool>& skip = {}) {
  double worst = 0;
  for (std::size_t s = 0; s < p.nsys; ++s)
    if (skip.empty() || !skip[s]) worst = std::max(worst, block_residual(p, x, s));
  return worst;
}

// Tolerances for random_block_dominant systems. Block LU without pivoting on a block diagonally
// dominant matrix is normwise backward stable with a constant growing like the block size
// (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., Ch. 13, error analysis of
// block LU under block diagonal dominance; the LU of each S_i is Gaussian elimination on a
// diagonally dominant block, Ch. 9). With the residual measured normwise: C * m * eps, C = 16.
// Against LAPACK, both are within cond(A) * backward error of the exact x: cond_inf <= 6m + 4,
// so 2 * (6m + 4) * 16 m eps. Complex arithmetic: a product rounds to within 2 sqrt(2) eps
// instead of eps (Higham, Sec. 3.6) and the moduli of the test's entries raise the condition
// bound by up to sqrt(2) (2 sqrt(2) * sqrt(2) = 4 < 8), so 4 eps for the residual and 8 eps
// against LAPACK.
template <class T>
double block_residual_tol(std::size_t m) {
  return (bandsolve::is_complex_v<T> ? 4.0 : 1.0) * 16.0 * double(m) *
         eps<bandsolve::real_type_t<T>>;
}
template <class T>
double block_lapack_tol(std::size_t m) {
  return (bandsolve::is_complex_v<T> ? 8.0 : 1.0) * 2.0 * (6.0 * double(m) + 4.0) * 16.0 *
         double(m) * eps<bandsolve::real_type_t<T>>;
}

}  // namespace bstest
