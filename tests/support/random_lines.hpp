#pragma once
// Random tridiagonal lines for the randomized agreement tests (test_path_agreement,
// test_axis_agreement, mpi/test_partitioned_random, mpi/test_along_random): the matrices the
// solvers' shortcuts are taken for and those they must turn away, and the normwise backward
// error every solution is held to. Values are doubles in line order (line s, row i at s * n + i).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

namespace bstest_random {

inline std::uint64_t env_or(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

// dominant: |b| = |a| + |c| + a margin of 0.5-2; barely dominant: |b| = (|a| + |c|)(1 + 2e-3 at
// most) + 1e-3; Laplacian: (-1, 2, -1) (2.002 on periodic lines, whose Laplacian is singular);
// dominant_head: dominant in the first eighth of each line, Laplacian after; dominant_first:
// line 0 dominant, the others barely (the truncated spikes sample the first system).
enum class matrix { dominant, barely_dominant, laplacian, dominant_head, dominant_first };
inline const char* name_of(matrix m) {
  const char* names[] = {"dominant", "barely dominant", "Laplacian",
                         "dominant first eighth of each line", "dominant first line"};
  return names[static_cast<int>(m)];
}

// symmetric: a[i] = c[i-1] (a[0] = c[n-1]) and b > 0. periodic: a[0] and c[n-1] couple the ends
// (else they hold values no solver may read). shared: every line has line 0's coefficients.
struct lines {
  std::size_t count = 0, n = 0;
  std::vector<double> a, b, c, d;
};

inline lines make_lines(std::mt19937_64& gen, std::size_t count, std::size_t n, matrix kind,
                        bool symmetric, bool periodic, bool shared = false) {
  lines p;
  p.count = count;
  p.n = n;
  for (auto* v : {&p.a, &p.b, &p.c, &p.d}) v->resize(count * n);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), mag(0.25, 1.0), margin(0.5, 2.0);
  std::bernoulli_distribution coin(0.5);
  for (std::size_t s = 0; s < count; ++s) {
    const std::size_t s0 = s * n;
    for (std::size_t i = 0; i < n; ++i) p.d[s0 + i] = unit(gen);
    if (shared && s > 0) {  // line 0's coefficients
      for (auto* v : {&p.a, &p.b, &p.c})
        for (std::size_t i = 0; i < n; ++i) (*v)[s0 + i] = (*v)[i];
      continue;
    }
    const auto row_kind = [&](std::size_t i) {
      if (kind == matrix::dominant_head) return i < n / 8 ? matrix::dominant : matrix::laplacian;
      if (kind == matrix::dominant_first)
        return s == 0 ? matrix::dominant : matrix::barely_dominant;
      return kind;
    };
    for (std::size_t i = 0; i < n; ++i) {
      const bool laplacian = row_kind(i) == matrix::laplacian;
      p.c[s0 + i] = laplacian ? -1.0 : (coin(gen) ? 1 : -1) * mag(gen);
      p.a[s0 + i] = laplacian ? -1.0 : (coin(gen) ? 1 : -1) * mag(gen);
    }
    if (symmetric)
      for (std::size_t i = 0; i < n; ++i) p.a[s0 + i] = p.c[s0 + (i + n - 1) % n];
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = s0 + i;
      // The off-diagonal sum as the solver sees the row (a[0], c[n-1] only on periodic lines).
      const double off = (periodic || i > 0 ? std::abs(p.a[k]) : 0.0) +
                         (periodic || i + 1 < n ? std::abs(p.c[k]) : 0.0);
      double diag = 0;
      switch (row_kind(i)) {
        case matrix::dominant: diag = off + margin(gen); break;
        case matrix::barely_dominant: diag = off * (1 + 1e-3 * (unit(gen) + 1)) + 1e-3; break;
        default: diag = periodic ? 2 * (1 + 1e-3) : 2.0; break;
      }
      p.b[k] = symmetric || coin(gen) ? diag : -diag;
    }
  }
  return p;
}

// The lines with their values rounded to T (the problem T solves).
template <class T>
lines rounded_to(lines p) {
  for (auto* v : {&p.a, &p.b, &p.c, &p.d})
    for (auto& x : *v) x = static_cast<double>(static_cast<T>(x));
  return p;
}

// Normwise backward error of line s, ||A x - d|| / (||A|| ||x|| + ||d||) in the infinity norm,
// the ends coupled on periodic lines (n = 1: (a + b + c) x; n = 2: coefficients that meet add).
// X: double or std::complex<double>. added (x taken back out of u + x): ||x|| + ||u||, the size
// at which u + x rounds.
template <class X>
double backward_error(const lines& p, const std::vector<X>& x, const std::vector<X>& d,
                      std::size_t s, bool periodic, const std::vector<X>* added = nullptr) {
  using cd = std::complex<double>;
  const std::size_t n = p.n;
  double r = 0, an = 0, xn = 0, dn = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = s * n + i;
    if (!std::isfinite(std::abs(cd(x[k])))) return std::numeric_limits<double>::infinity();
    cd ax = p.b[k] * cd(x[k]);
    double row = std::abs(p.b[k]);
    if (i > 0 || periodic) {
      ax += p.a[k] * cd(x[s * n + (i + n - 1) % n]);
      row += std::abs(p.a[k]);
    }
    if (i + 1 < n || periodic) {
      ax += p.c[k] * cd(x[s * n + (i + 1) % n]);
      row += std::abs(p.c[k]);
    }
    r = std::max(r, std::abs(ax - cd(d[k])));
    an = std::max(an, row);
    xn = std::max(xn, std::abs(cd(x[k])) + (added ? std::abs(cd((*added)[k])) : 0.0));
    dn = std::max(dn, std::abs(cd(d[k])));
  }
  return r / std::max(an * xn + dn, std::numeric_limits<double>::min());
}

// The bound every test holds the solutions to: Thomas's LU on a diagonally dominant matrix
// reaches 12u (Higham, Sec. 9.6; test_support.hpp, residual_tol), the partition methods and the
// periodic solve's two sweeps a small multiple of it. 64u of T.
template <class T>
double backward_error_bound() {
  return 64.0 * static_cast<double>(std::numeric_limits<T>::epsilon());
}

}  // namespace bstest_random
