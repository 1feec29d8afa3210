#pragma once
// Helpers for the block-tridiagonal tests: host batches of blocks, upload/download in any block
// layout, the LAPACK ?gbsv reference on the same systems written as banded matrices
// (kl = ku = 2m - 1), residuals and tolerances.
//
// Host order: coefficient (s, i, r, c) at ((s*n + i)*m + r)*m + c; right-hand side k of
// (s, i, r) at ((s*n + i)*m + r)*nrhs + k. A_0 and C_{n-1} are ignored everywhere (the residual
// and the banded matrix never see them).
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <algorithm>
#include <cmath>
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
}

namespace bstest {

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
// cond_inf <= 6m + 4 for scale <= 1, for every n.
template <class T>
host_block_batch<T> random_block_dominant(std::size_t nsys, std::size_t n, std::size_t m,
                                          std::size_t nrhs, std::uint32_t seed,
                                          double scale = 1.0) {
  host_block_batch<T> p(nsys, n, m, nrhs);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u11(-1.0, 1.0), u12(1.0, 2.0);
  std::bernoulli_distribution sign(0.5);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r) {
        double offsum = 0;
        for (std::size_t col = 0; col < m; ++col) {
          const std::size_t k = p.blk(s, i, r, col);
          p.a[k] = i == 0 ? T(0) : static_cast<T>(scale * u11(gen));
          p.c[k] = i + 1 == n ? T(0) : static_cast<T>(scale * u11(gen));
          p.b[k] = col == r ? T(0) : static_cast<T>(scale * u11(gen));
          offsum += std::abs(double(p.a[k])) + std::abs(double(p.c[k])) + std::abs(double(p.b[k]));
        }
        const double diag = offsum + u12(gen);
        p.b[p.blk(s, i, r, r)] = static_cast<T>(sign(gen) ? diag : -diag);
        for (std::size_t k = 0; k < nrhs; ++k) p.d[p.vec(s, i, r, k)] = static_cast<T>(u11(gen));
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

// Entry (I, J) of system s as a scalar matrix (0 outside the three block diagonals).
template <class T>
double block_matrix_entry(const host_block_batch<T>& p, std::size_t s, std::size_t I,
                          std::size_t J) {
  const std::size_t m = p.m, i = I / m, j = J / m, r = I % m, c = J % m;
  if (j == i) return double(p.b[p.blk(s, i, r, c)]);
  if (j + 1 == i) return double(p.a[p.blk(s, i, r, c)]);
  if (j == i + 1) return double(p.c[p.blk(s, i, r, c)]);
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
            static_cast<T>(block_matrix_entry(p, s, I, J));
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
      double ax = 0, row = 0;
      for (std::size_t J = I > w ? I - w : 0; J < std::min(N, I + w + 1); ++J) {
        const double e = block_matrix_entry(p, s, I, J);
        ax += e * double(x[(s * N + J) * p.nrhs + k]);
        row += std::abs(e);
      }
      const double dv = double(p.d[(s * N + I) * p.nrhs + k]);
      rmax = std::max(rmax, std::abs(ax - dv));
      anorm = std::max(anorm, row);
      xnorm = std::max(xnorm, std::abs(double(x[(s * N + I) * p.nrhs + k])));
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
      if (!std::isfinite(double(x[k]))) return std::numeric_limits<double>::infinity();
      diff = std::max(diff, std::abs(double(x[k]) - double(y[k])));
      ynorm = std::max(ynorm, std::abs(double(y[k])));
    }
    worst = std::max(worst, diff / std::max(ynorm, double(std::numeric_limits<T>::min())));
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
// diagonally dominant block, Ch. 9). With the residual measured normwise: C * m * eps, C = 16. Against LAPACK, both are within
// cond(A) * backward error of the exact x: cond_inf <= 6m + 4, so 2 * (6m + 4) * 16 m eps.
template <class T>
double block_residual_tol(std::size_t m) {
  return 16.0 * double(m) * eps<T>;
}
template <class T>
double block_lapack_tol(std::size_t m) {
  return 2.0 * (6.0 * double(m) + 4.0) * 16.0 * double(m) * eps<T>;
}

}  // namespace bstest
