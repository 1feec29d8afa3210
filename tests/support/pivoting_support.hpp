#pragma once
// Test helpers for the pivoting and periodic tridiagonal solvers: LAPACK references in real and
// complex arithmetic (?gtsv, ?gttrf + ?gtcon, dense ?gesv of the cyclic matrix), random
// non-dominant, singular and periodic dominant batches, and error measures computed in
// complex<double> on the host (real types included).
#include "test_support.hpp"

#include <Kokkos_Complex.hpp>

#include <complex>

extern "C" {
void zgtsv_(const int* n, const int* nrhs, std::complex<double>* dl, std::complex<double>* d,
            std::complex<double>* du, std::complex<double>* b, const int* ldb, int* info);
void cgtsv_(const int* n, const int* nrhs, std::complex<float>* dl, std::complex<float>* d,
            std::complex<float>* du, std::complex<float>* b, const int* ldb, int* info);
void dgttrf_(const int* n, double* dl, double* d, double* du, double* du2, int* ipiv, int* info);
void sgttrf_(const int* n, float* dl, float* d, float* du, float* du2, int* ipiv, int* info);
void zgttrf_(const int* n, std::complex<double>* dl, std::complex<double>* d,
             std::complex<double>* du, std::complex<double>* du2, int* ipiv, int* info);
void cgttrf_(const int* n, std::complex<float>* dl, std::complex<float>* d,
             std::complex<float>* du, std::complex<float>* du2, int* ipiv, int* info);
void dgtcon_(const char* norm, const int* n, const double* dl, const double* d, const double* du,
             const double* du2, const int* ipiv, const double* anorm, double* rcond, double* work,
             int* iwork, int* info);
void zgtcon_(const char* norm, const int* n, const std::complex<double>* dl,
             const std::complex<double>* d, const std::complex<double>* du,
             const std::complex<double>* du2, const int* ipiv, const double* anorm, double* rcond,
             std::complex<double>* work, int* info);
void dgesv_(const int* n, const int* nrhs, double* a, const int* lda, int* ipiv, double* b,
            const int* ldb, int* info);
void zgesv_(const int* n, const int* nrhs, std::complex<double>* a, const int* lda, int* ipiv,
            std::complex<double>* b, const int* ldb, int* info);
}

namespace bstest {

using cd = std::complex<double>;

template <class T>
struct is_kokkos_complex : std::false_type {};
template <class R>
struct is_kokkos_complex<Kokkos::complex<R>> : std::true_type {};

template <class T>
using real_of = std::conditional_t<is_kokkos_complex<T>::value,
                                   bandsolve::real_type_t<T>, T>;

template <class T>
cd to_cd(const T& v) {
  if constexpr (is_kokkos_complex<T>::value)
    return cd(double(v.real()), double(v.imag()));
  else
    return cd(double(v), 0.0);
}

template <class T>
T from_cd(cd v) {
  if constexpr (is_kokkos_complex<T>::value)
    return T(static_cast<real_of<T>>(v.real()), static_cast<real_of<T>>(v.imag()));
  else
    return static_cast<T>(v.real());
}

template <class T>
double eps_of() {
  return static_cast<double>(std::numeric_limits<real_of<T>>::epsilon());
}

template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, Kokkos::complex<float>>) return "complex<float>";
  else return "complex<double>";
}

// U(-1, 1), and for complex values U(-1, 1) + i U(-1, 1).
template <class T>
T uniform11(std::mt19937& gen) {
  bstest::uniform_real u(-1.0, 1.0);
  if constexpr (is_kokkos_complex<T>::value) {
    const double re = u(gen);
    return from_cd<T>(cd(re, u(gen)));
  } else {
    return static_cast<T>(u(gen));
  }
}

// Random tridiagonal systems that are not diagonally dominant: every entry U(-1, 1) (complex:
// real and imaginary parts), so Thomas meets small pivots while partial pivoting does not care.
template <class T>
host_batch<T> random_general(std::size_t nsys, std::size_t n, std::uint32_t seed) {
  host_batch<T> p(nsys, n);
  std::mt19937 gen(seed);
  for (std::size_t k = 0; k < nsys * n; ++k) {
    p.a[k] = uniform11<T>(gen);
    p.b[k] = uniform11<T>(gen);
    p.c[k] = uniform11<T>(gen);
    p.d[k] = uniform11<T>(gen);
  }
  for (std::size_t s = 0; s < nsys && n > 0; ++s) {
    p.a[p.idx(s, 0)] = T(0);
    p.c[p.idx(s, n - 1)] = T(0);
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// LAPACK in the scalar type T (Kokkos::complex has the layout of std::complex).

template <class T>
auto* lp(T* p) {
  if constexpr (std::is_same_v<T, Kokkos::complex<double>>)
    return reinterpret_cast<std::complex<double>*>(p);
  else if constexpr (std::is_same_v<T, Kokkos::complex<float>>)
    return reinterpret_cast<std::complex<float>*>(p);
  else
    return p;
}

template <class T>
int gtsv_any(int n, T* dl, T* d, T* du, T* b) {
  const int nrhs = 1, ldb = std::max(n, 1);
  int info = 0;
  if constexpr (std::is_same_v<T, double>) dgtsv_(&n, &nrhs, dl, d, du, b, &ldb, &info);
  else if constexpr (std::is_same_v<T, float>) sgtsv_(&n, &nrhs, dl, d, du, b, &ldb, &info);
  else if constexpr (std::is_same_v<T, Kokkos::complex<double>>)
    zgtsv_(&n, &nrhs, lp(dl), lp(d), lp(du), lp(b), &ldb, &info);
  else
    cgtsv_(&n, &nrhs, lp(dl), lp(d), lp(du), lp(b), &ldb, &info);
  return info;
}

template <class T>
int gttrf_any(int n, T* dl, T* d, T* du, T* du2, int* ipiv) {
  int info = 0;
  if constexpr (std::is_same_v<T, double>) dgttrf_(&n, dl, d, du, du2, ipiv, &info);
  else if constexpr (std::is_same_v<T, float>) sgttrf_(&n, dl, d, du, du2, ipiv, &info);
  else if constexpr (std::is_same_v<T, Kokkos::complex<double>>)
    zgttrf_(&n, lp(dl), lp(d), lp(du), lp(du2), ipiv, &info);
  else
    cgttrf_(&n, lp(dl), lp(d), lp(du), lp(du2), ipiv, &info);
  return info;
}

// The LAPACK bands of system s of p: dl[i] = a[i+1], d[i] = b[i], du[i] = c[i].
template <class T>
void bands_of(const host_batch<T>& p, std::size_t s, std::vector<T>& dl, std::vector<T>& dg,
              std::vector<T>& du) {
  const std::size_t n = p.n;
  dl.assign(n + 1, T(0));
  dg.assign(n + 1, T(0));
  du.assign(n + 1, T(0));
  for (std::size_t i = 0; i < n; ++i) {
    dg[i] = p.b[p.idx(s, i)];
    if (i + 1 < n) {
      dl[i] = p.a[p.idx(s, i + 1)];
      du[i] = p.c[p.idx(s, i)];
    }
  }
}

// ?gtsv on every system of p (right-hand side rhs, default p.d); info gets LAPACK's codes.
template <class T>
std::vector<T> gtsv_reference(const host_batch<T>& p, std::vector<int>* info = nullptr,
                              const std::vector<T>* rhs = nullptr) {
  std::vector<T> x = rhs ? *rhs : p.d;
  if (info) info->assign(p.nsys, 0);
  std::vector<T> dl, dg, du;
  for (std::size_t s = 0; s < p.nsys && p.n > 0; ++s) {
    bands_of(p, s, dl, dg, du);
    const int code = gtsv_any(static_cast<int>(p.n), dl.data(), dg.data(), du.data(),
                              x.data() + s * p.n);
    if (info) (*info)[s] = code;
  }
  return x;
}

// ?gttrf's ipiv of every system (nsys x n, row order) and the 1-norm condition number estimate
// 1/rcond from ?gtcon (double or complex<double> copies of the matrix).
template <class T>
void gttrf_reference(const host_batch<T>& p, std::vector<int>& ipiv, std::vector<int>& info,
                     std::vector<double>& cond) {
  const std::size_t n = p.n;
  ipiv.assign(p.nsys * n, 0);
  info.assign(p.nsys, 0);
  cond.assign(p.nsys, 0);
  std::vector<T> dl, dg, du, du2(n + 2);
  for (std::size_t s = 0; s < p.nsys && n > 0; ++s) {
    bands_of(p, s, dl, dg, du);
    info[s] = gttrf_any(static_cast<int>(n), dl.data(), dg.data(), du.data(), du2.data(),
                        ipiv.data() + s * n);
    // Condition number in double precision from a double copy of the same matrix.
    std::vector<cd> zl(n + 1), zd(n + 1), zu(n + 1), zu2(n + 2), work(2 * n + 2);
    std::vector<int> zp(n + 1);
    double anorm = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double col = std::abs(to_cd(p.b[p.idx(s, i)]));
      if (i > 0) col += std::abs(to_cd(p.c[p.idx(s, i - 1)]));
      if (i + 1 < n) col += std::abs(to_cd(p.a[p.idx(s, i + 1)]));
      anorm = std::max(anorm, col);
      zd[i] = to_cd(p.b[p.idx(s, i)]);
      if (i + 1 < n) {
        zl[i] = to_cd(p.a[p.idx(s, i + 1)]);
        zu[i] = to_cd(p.c[p.idx(s, i)]);
      }
    }
    const int ni = static_cast<int>(n);
    int zinfo = 0;
    zgttrf_(&ni, zl.data(), zd.data(), zu.data(), zu2.data(), zp.data(), &zinfo);
    double rcond = 0;
    if (zinfo == 0)
      zgtcon_("1", &ni, zl.data(), zd.data(), zu.data(), zu2.data(), zp.data(), &anorm, &rcond,
              work.data(), &zinfo);
    cond[s] = rcond > 0 ? 1.0 / rcond : std::numeric_limits<double>::infinity();
  }
}

// ---------------------------------------------------------------------------------------------
// Error measures in complex<double>.

// ||A x - d||_inf / (||A||_inf ||x||_inf + ||d||_inf) for system s; `periodic` adds the corner
// entries a[0] (row 0, column n-1) and c[n-1] (row n-1, column 0).
template <class T>
double residual_any(const host_batch<T>& p, const std::vector<T>& x, std::size_t s,
                    const std::vector<T>* rhs = nullptr, bool periodic = false) {
  const std::vector<T>& d = rhs ? *rhs : p.d;
  const std::size_t n = p.n;
  double rmax = 0, anorm = 0, xnorm = 0, dnorm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = p.idx(s, i);
    const std::size_t prev = i > 0 ? k - 1 : p.idx(s, n - 1);
    const std::size_t next = i + 1 < n ? k + 1 : p.idx(s, 0);
    const bool has_a = i > 0 || periodic, has_c = i + 1 < n || periodic;
    const cd a = has_a ? to_cd(p.a[k]) : cd(0), c = has_c ? to_cd(p.c[k]) : cd(0);
    const cd ax = to_cd(p.b[k]) * to_cd(x[k]) + a * to_cd(x[prev]) + c * to_cd(x[next]);
    rmax = std::max(rmax, std::abs(ax - to_cd(d[k])));
    anorm = std::max(anorm, std::abs(a) + std::abs(to_cd(p.b[k])) + std::abs(c));
    xnorm = std::max(xnorm, std::abs(to_cd(x[k])));
    dnorm = std::max(dnorm, std::abs(to_cd(d[k])));
  }
  const double denom = anorm * xnorm + dnorm;
  if (!std::isfinite(rmax) || !std::isfinite(denom)) return std::numeric_limits<double>::infinity();
  return denom > 0 ? rmax / denom : rmax;
}

// max_i |x_i - y_i| / ||y||_inf for system s; infinite when x is not finite.
template <class T>
double rel_diff_any(const std::vector<T>& x, const std::vector<T>& y, std::size_t n,
                    std::size_t s) {
  double diff = 0, ynorm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const cd xi = to_cd(x[s * n + i]), yi = to_cd(y[s * n + i]);
    if (!std::isfinite(xi.real()) || !std::isfinite(xi.imag()))
      return std::numeric_limits<double>::infinity();
    diff = std::max(diff, std::abs(xi - yi));
    ynorm = std::max(ynorm, std::abs(yi));
  }
  return diff / std::max(ynorm, 1e-300);
}

// ---------------------------------------------------------------------------------------------
// Real coefficients with complex right-hand sides.

// The real batch p with right-hand sides rhs, as a complex batch (imaginary parts of the
// coefficients zero): what LAPACK's complex ?gtsv solves.
template <class R>
host_batch<Kokkos::complex<R>> promote_to_complex(const host_batch<R>& p,
                                                  const std::vector<Kokkos::complex<R>>& rhs) {
  host_batch<Kokkos::complex<R>> q(p.nsys, p.n);
  for (std::size_t k = 0; k < p.nsys * p.n; ++k) {
    q.a[k] = Kokkos::complex<R>(p.a[k], R(0));
    q.b[k] = Kokkos::complex<R>(p.b[k], R(0));
    q.c[k] = Kokkos::complex<R>(p.c[k], R(0));
  }
  q.d = rhs;
  return q;
}

// Complex right-hand sides with both parts U(-1, 1).
template <class R>
std::vector<Kokkos::complex<R>> random_complex(std::size_t count, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<Kokkos::complex<R>> v(count);
  for (auto& z : v) z = uniform11<Kokkos::complex<R>>(gen);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Periodic (cyclic) systems.

// Random row diagonally dominant periodic systems: a, c ~ U(-1, 1) (complex: both parts) in
// every row, corners included; |b| = |a| + |c| + m, m ~ U(1, 2), random sign (complex: random
// phase). Every row keeps a margin >= 1, so ||A^-1||_inf <= 1; ||A||_inf <= 2 (2 sqrt 2) + 2 + 2
// < 10: cond_inf(A) < 10 for every n, and the same holds for the leading block T and the Schur
// complement (both inherit the dominance margin).
template <class T>
host_batch<T> random_periodic(std::size_t nsys, std::size_t n, std::uint32_t seed) {
  host_batch<T> p(nsys, n);
  std::mt19937 gen(seed);
  bstest::uniform_real u12(1.0, 2.0), phase(0.0, 6.283185307179586);
  for (std::size_t k = 0; k < nsys * n; ++k) {
    p.a[k] = uniform11<T>(gen);
    p.c[k] = uniform11<T>(gen);
    const double mag = std::abs(to_cd(p.a[k])) + std::abs(to_cd(p.c[k])) + u12(gen);
    if constexpr (is_kokkos_complex<T>::value)
      p.b[k] = from_cd<T>(std::polar(mag, phase(gen)));
    else
      p.b[k] = static_cast<T>(gen() % 2 ? mag : -mag);
    p.d[k] = uniform11<T>(gen);
  }
  return p;
}

// The dense periodic matrix of system s (column-major, complex<double>): entries that meet in
// one position add (n = 1, 2).
template <class T>
std::vector<cd> periodic_dense_matrix(const host_batch<T>& p, std::size_t s) {
  const std::size_t n = p.n;
  std::vector<cd> A(n * n, cd(0));
  for (std::size_t i = 0; i < n; ++i) {
    A[i + i * n] += to_cd(p.b[p.idx(s, i)]);
    A[i + ((i + n - 1) % n) * n] += to_cd(p.a[p.idx(s, i)]);
    A[i + ((i + 1) % n) * n] += to_cd(p.c[p.idx(s, i)]);
  }
  return A;
}

// zgesv of every system in complex<double>; info gets LAPACK's codes.
template <class T>
std::vector<T> periodic_dense_reference(const host_batch<T>& p,
                                        const std::vector<T>* rhs = nullptr,
                                        std::vector<int>* info = nullptr) {
  const std::size_t n = p.n;
  const std::vector<T>& d = rhs ? *rhs : p.d;
  std::vector<T> x(p.nsys * n);
  if (info) info->assign(p.nsys, 0);
  for (std::size_t s = 0; s < p.nsys && n > 0; ++s) {
    auto A = periodic_dense_matrix(p, s);
    std::vector<cd> b(n);
    for (std::size_t i = 0; i < n; ++i) b[i] = to_cd(d[p.idx(s, i)]);
    std::vector<int> ipiv(n);
    const int ni = static_cast<int>(n), one = 1;
    int code = 0;
    zgesv_(&ni, &one, A.data(), &ni, ipiv.data(), b.data(), &ni, &code);
    if (info) (*info)[s] = code;
    for (std::size_t i = 0; i < n; ++i) x[p.idx(s, i)] = from_cd<T>(b[i]);
  }
  return x;
}

// Real coefficients a, b, c and a complex right-hand side d as strided subviews of NaN-filled
// arrays of their own types: kind 0 takes every other system of a row array with padded rows,
// kind 1 a block of a column array (unit system stride). d_finite() counts the non-NaN elements
// of d's whole array: nsys * n when nothing outside the view was written.
template <class R, class D, class Mem>
struct strided_mixed_batch {
  template <class T>
  using sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
  template <class T>
  struct backing {
    Kokkos::View<T***, Kokkos::LayoutRight, Mem> row;
    Kokkos::View<T**, Kokkos::LayoutLeft, Mem> column;
  };
  int kind;
  std::size_t nsys, n;
  backing<R> ba, bb, bc;
  backing<D> bd;
  sub<R> a, b, c;
  sub<D> d;

  strided_mixed_batch(int kind_, std::size_t nsys_, std::size_t n_)
      : kind(kind_), nsys(nsys_), n(n_), a(view(ba)), b(view(bb)), c(view(bc)), d(view(bd)) {}

  static const char* describe(int kind) {
    return kind == 0 ? "every other system of a row array, padded rows"
                     : "a block of a column array (unit system stride)";
  }

  template <class P>
  void fill(const P& p, const std::vector<D>& rhs) const {
    bstest::fill(a, p.a, nsys);
    bstest::fill(b, p.b, nsys);
    bstest::fill(c, p.c, nsys);
    bstest::fill(d, rhs, nsys);
  }

  std::size_t d_finite() const {
    const auto all = kind == 0 ? raw_copy(bd.row) : raw_copy(bd.column);
    std::size_t finite = 0;
    for (const D& e : all) {
      const cd z = to_cd(e);
      finite += std::isnan(z.real()) || std::isnan(z.imag()) ? 0 : 1;
    }
    return finite;
  }

 private:
  template <class T>
  sub<T> view(backing<T>& big) const {
    const T nan = from_cd<T>(cd(std::nan(""), std::nan("")));
    if (kind == 0) {
      big.row = Kokkos::View<T***, Kokkos::LayoutRight, Mem>("big", nsys, 2, n + 2);
      Kokkos::deep_copy(big.row, nan);
      return sub<T>(
          Kokkos::subview(big.row, Kokkos::ALL, 1, std::make_pair(std::size_t(1), n + 1)));
    }
    big.column = Kokkos::View<T**, Kokkos::LayoutLeft, Mem>("big", nsys + 5, n + 3);
    Kokkos::deep_copy(big.column, nan);
    return sub<T>(Kokkos::subview(big.column, std::make_pair(std::size_t(2), nsys + 2),
                                  std::make_pair(std::size_t(1), n + 1)));
  }
};

}  // namespace bstest
