#pragma once
// Helpers of the banded LU tests: LAPACK ?gbsv prototypes (their LU and pivots are ?gbtrf's),
// random band matrices in LAPACK band storage on the host, transfers to the device in any band
// layout, residuals.
//
// Host conventions: system s's band is a LAPACK AB array (column-major, ldab = 2kl+ku+1) at
// ab[s*n*ldab]: A(i, j) = ab[s*n*ldab + j*ldab + kl+ku+i-j]. Right-hand sides: B of system s is
// column-major n x nrhs at rhs[s*n*nrhs] (ldb = n).
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <complex>
#include <type_traits>

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

template <class T>
struct real_of {
  using type = T;
};
template <class R>
struct real_of<Kokkos::complex<R>> {
  using type = R;
};
template <class T>
using real_t = typename real_of<T>::type;

template <class T>
double magnitude(const T& x) {
  if constexpr (std::is_same_v<T, real_t<T>>) return std::abs(double(x));
  else return std::hypot(double(x.real()), double(x.imag()));
}

// Value from two uniform draws in (-1, 1) (the second is the imaginary part of complex values).
template <class T>
T make_value(double re, double im) {
  if constexpr (std::is_same_v<T, real_t<T>>) {
    (void)im;
    return static_cast<T>(re);
  } else {
    return T(static_cast<real_t<T>>(re), static_cast<real_t<T>>(im));
  }
}

template <class T>
struct host_band {
  std::size_t nsys = 0, n = 0;
  int kl = 0, ku = 0;
  std::size_t ldab = 1;
  std::vector<T> ab;  // system s at s*n*ldab, LAPACK band storage

  host_band() = default;
  host_band(std::size_t nsys_, std::size_t n_, int kl_, int ku_)
      : nsys(nsys_), n(n_), kl(kl_), ku(ku_),
        ldab(bandsolve::banded::ldab_for(kl_, ku_)), ab(nsys_ * n_ * ldab) {}
  bool in_band(std::size_t i, std::size_t j) const {
    return i < n && j < n && i <= j + kl && j <= i + ku;
  }
  T& at(std::size_t s, std::size_t i, std::size_t j) {
    return ab[s * n * ldab + j * ldab + (kl + ku + i - j)];
  }
  T at(std::size_t s, std::size_t i, std::size_t j) const {
    return in_band(i, j) ? ab[s * n * ldab + j * ldab + (kl + ku + i - j)] : T(0);
  }
};

// Random band entries uniform in (-1, 1) (both parts for complex values). With dominance > 0 the
// diagonal gets magnitude (sum of the row's off-diagonal magnitudes + dominance), a random sign:
// row diagonally dominant, safe without pivoting. With dominance < 0 the diagonal is scaled by
// |dominance| (small diagonals: only partial pivoting is safe). Fill-in rows hold garbage (7.0),
// which the solvers must ignore.
template <class T>
host_band<T> random_band(std::size_t nsys, std::size_t n, int kl, int ku, std::uint32_t seed,
                         double dominance = 0) {
  host_band<T> h(nsys, n, kl, ku);
  std::mt19937 gen(seed);
  ::bstest::uniform_real u(-1.0, 1.0);
  for (auto& v : h.ab) v = make_value<T>(7.0, 7.0);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i) {
      double off = 0;
      for (std::size_t j = i > std::size_t(kl) ? i - kl : 0; j < n && j <= i + ku; ++j) {
        const T v = make_value<T>(u(gen), u(gen));
        h.at(s, i, j) = v;
        if (j != i) off += magnitude(v);
      }
      if (dominance > 0) {
        const double mag = off + dominance;
        T d = make_value<T>(u(gen), u(gen));
        h.at(s, i, i) = d * static_cast<real_t<T>>(mag / magnitude(d));
      } else if (dominance < 0) {
        h.at(s, i, i) = h.at(s, i, i) * static_cast<real_t<T>>(-dominance);
      }
    }
  return h;
}

template <class T>
std::vector<T> random_values(std::size_t count, std::uint32_t seed) {
  std::vector<T> v(count);
  std::mt19937 gen(seed);
  ::bstest::uniform_real u(-1.0, 1.0);
  for (auto& x : v) x = make_value<T>(u(gen), u(gen));
  return v;
}

// ---------------------------------------------------------------------------------------------
// LAPACK reference.

template <class T>
int lapack_gbsv(int n, int kl, int ku, int nrhs, T* ab, int ldab, int* ipiv, T* b) {
  const int ldb = std::max(n, 1);
  int info = 0;
  if constexpr (std::is_same_v<T, double>)
    dgbsv_(&n, &kl, &ku, &nrhs, ab, &ldab, ipiv, b, &ldb, &info);
  else if constexpr (std::is_same_v<T, float>)
    sgbsv_(&n, &kl, &ku, &nrhs, ab, &ldab, ipiv, b, &ldb, &info);
  else if constexpr (std::is_same_v<T, Kokkos::complex<double>>)
    zgbsv_(&n, &kl, &ku, &nrhs, reinterpret_cast<std::complex<double>*>(ab), &ldab, ipiv,
           reinterpret_cast<std::complex<double>*>(b), &ldb, &info);
  else
    cgbsv_(&n, &kl, &ku, &nrhs, reinterpret_cast<std::complex<float>*>(ab), &ldab, ipiv,
           reinterpret_cast<std::complex<float>*>(b), &ldb, &info);
  return info;
}

template <class T>
struct lapack_result {
  std::vector<T> x;      // like rhs
  std::vector<T> lu;     // like h.ab
  std::vector<int> ipiv; // system s at s*n
  std::vector<int> info;
};

// ?gbsv on every system (nrhs right-hand sides per system, system s at rhs[s*n*nrhs]).
template <class T>
lapack_result<T> reference_gbsv(const host_band<T>& h, const std::vector<T>& rhs, int nrhs) {
  lapack_result<T> r{rhs, h.ab, std::vector<int>(h.nsys * h.n), std::vector<int>(h.nsys)};
  const int n = static_cast<int>(h.n);
  for (std::size_t s = 0; s < h.nsys && n > 0; ++s)
    r.info[s] = lapack_gbsv<T>(n, h.kl, h.ku, nrhs, r.lu.data() + s * h.n * h.ldab,
                               static_cast<int>(h.ldab), r.ipiv.data() + s * h.n,
                               r.x.data() + s * h.n * nrhs);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Device transfers.

template <class Layout, class T, class Mem>
auto band_to_device(const host_band<T>& h) {
  auto v = bandsolve::banded::make_band<Layout, T, Mem>("ab", h.nsys, h.n, h.kl, h.ku);
  auto m = Kokkos::create_mirror_view(v);
  for (std::size_t s = 0; s < h.nsys; ++s)
    for (std::size_t j = 0; j < h.n; ++j)
      for (std::size_t r = 0; r < h.ldab; ++r)
        bandsolve::banded::band_entry(m, s, j, r) = h.ab[s * h.n * h.ldab + j * h.ldab + r];
  Kokkos::deep_copy(v, m);
  return v;
}

template <class View>
std::vector<typename View::non_const_value_type> band_to_host(const View& v, std::size_t nsys) {
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  const std::size_t n = v.extent(1), ldab = v.extent(2);
  std::vector<typename View::non_const_value_type> h(nsys * n * ldab);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t r = 0; r < ldab; ++r)
        h[s * n * ldab + j * ldab + r] = bandsolve::banded::band_entry(m, s, j, r);
  return h;
}

// Right-hand sides in the "several" shape of the layout (make_rhs), or the core batch shape.
template <class Layout, class T, class Mem, bool Several>
auto rhs_to_device(const std::vector<T>& h, std::size_t nsys, std::size_t n, std::size_t nrhs) {
  if constexpr (Several) {
    auto v = bandsolve::banded::make_rhs<Layout, T, Mem>("b", nsys, n, nrhs);
    auto m = Kokkos::create_mirror_view(v);
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t k = 0; k < nrhs; ++k)
        for (std::size_t i = 0; i < n; ++i)
          bandsolve::banded::rhs_at(m, s, i, k) = h[(s * nrhs + k) * n + i];
    Kokkos::deep_copy(v, m);
    return v;
  } else {
    auto v = bandsolve::make_batch<Layout, T, Mem>("b", nsys, n);
    auto m = Kokkos::create_mirror_view(v);
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 0; i < n; ++i) bandsolve::banded::rhs_at(m, s, i) = h[s * n + i];
    Kokkos::deep_copy(v, m);
    return v;
  }
}

template <class View>
std::vector<typename View::non_const_value_type> rhs_to_host(const View& v, std::size_t nsys,
                                                             std::size_t n, std::size_t nrhs) {
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  std::vector<typename View::non_const_value_type> h(nsys * n * nrhs);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t k = 0; k < nrhs; ++k)
      for (std::size_t i = 0; i < n; ++i)
        h[(s * nrhs + k) * n + i] = bandsolve::banded::rhs_at(m, s, i, k);
  return h;
}

// ---------------------------------------------------------------------------------------------
// Error measures (double on the host).

// Normwise backward error of right-hand side k of system s:
// ||A x - b||_inf / (||A||_inf ||x||_inf + ||b||_inf).
template <class T>
double band_residual(const host_band<T>& h, const std::vector<T>& x, const std::vector<T>& b,
                     std::size_t s, std::size_t k, std::size_t nrhs) {
  using C = std::complex<double>;
  auto cx = [](const T& v) {
    if constexpr (std::is_same_v<T, real_t<T>>) return C(double(v), 0.0);
    else return C(double(v.real()), double(v.imag()));
  };
  const std::size_t n = h.n, off = (s * nrhs + k) * n;
  double rmax = 0, anorm = 0, xnorm = 0, bnorm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    C ax = 0;
    double row = 0;
    for (std::size_t j = i > std::size_t(h.kl) ? i - h.kl : 0; j < n && j <= i + h.ku; ++j) {
      ax += cx(h.at(s, i, j)) * cx(x[off + j]);
      row += std::abs(cx(h.at(s, i, j)));
    }
    rmax = std::max(rmax, std::abs(ax - cx(b[off + i])));
    anorm = std::max(anorm, row);
    xnorm = std::max(xnorm, std::abs(cx(x[off + i])));
    bnorm = std::max(bnorm, std::abs(cx(b[off + i])));
  }
  const double denom = anorm * xnorm + bnorm;
  if (!std::isfinite(rmax) || !std::isfinite(denom)) return std::numeric_limits<double>::infinity();
  return denom > 0 ? rmax / denom : rmax;
}

// Relative difference of a vector of length n at offset off: max|x - y| / max(||y||, tiny).
template <class T>
double vec_rel_diff(const std::vector<T>& x, const std::vector<T>& y, std::size_t off,
                    std::size_t n) {
  double diff = 0, ynorm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = magnitude(T(x[off + i] - y[off + i]));
    if (!std::isfinite(magnitude(x[off + i]))) return std::numeric_limits<double>::infinity();
    diff = std::max(diff, d);
    ynorm = std::max(ynorm, magnitude(y[off + i]));
  }
  return diff / std::max(ynorm, double(std::numeric_limits<real_t<T>>::min()));
}

template <class T>
constexpr double band_eps = static_cast<double>(std::numeric_limits<real_t<T>>::epsilon());

}  // namespace bstest
