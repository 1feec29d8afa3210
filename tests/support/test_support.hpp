#pragma once
// Helpers shared by BandSolve's tests: LAPACK reference solvers, random and closed-form batches,
// host <-> device transfer in any layout, residuals and tolerances.
//
// Conventions: a host batch stores system s, row i at index s*n + i (plain row order, whatever the
// device layout). The first row's a[0] and the last row's c[n-1] are ignored everywhere (the
// residual treats them as 0 and the LAPACK reference never sees them).
#include <bandsolve/bandsolve.hpp>

#include <Kokkos_Core.hpp>
#include <catch2/catch_all.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// LAPACK: solution of a general tridiagonal system with partial pivoting (reference BLAS/LAPACK
// Fortran symbols; the tests link LAPACK::LAPACK).
extern "C" {
void dgtsv_(const int* n, const int* nrhs, double* dl, double* d, double* du, double* b,
            const int* ldb, int* info);
void sgtsv_(const int* n, const int* nrhs, float* dl, float* d, float* du, float* b,
            const int* ldb, int* info);
}

namespace bstest {

// Keeps a parameter out of template argument deduction (std::type_identity is C++20).
template <class T>
struct nondeduced {
  using type = T;
};
template <class T>
using rhs_ptr = const typename nondeduced<std::vector<T>>::type*;

// ---------------------------------------------------------------------------------------------
// Random numbers as std::uniform_real_distribution<double> and std::bernoulli_distribution draw
// them from a 32-bit or 64-bit engine (std::mt19937, std::mt19937_64) in libstdc++, value for
// value (generate_canonical: two 32-bit draws, the second scaled by 2^32, or one 64-bit draw),
// without the logarithms that libstdc++ evaluates on every draw in unoptimized code: there they
// took up to a third of a sanitized test's time.

template <class Engine>
double canonical(Engine& gen) {
  constexpr bool bits32 = Engine::min() == 0 && Engine::max() == 0xffffffffu;
  static_assert(bits32 || (Engine::min() == 0 && Engine::max() == ~std::uint64_t(0)),
                "a 32-bit or a 64-bit engine");
  double u = 0;
  if constexpr (bits32) {
    const double low = static_cast<double>(gen());
    const double high = static_cast<double>(gen());
    u = (low + high * 4294967296.0) / 18446744073709551616.0;
  } else {
    u = static_cast<double>(gen()) / 18446744073709551616.0;
  }
  return u < 1.0 ? u : std::nextafter(1.0, 0.0);
}

// U(lo, hi), as std::uniform_real_distribution<double>(lo, hi).
class uniform_real {
 public:
  uniform_real(double lo, double hi) : lo_(lo), hi_(hi) {}
  template <class Engine>
  double operator()(Engine& gen) const {
    return canonical(gen) * (hi_ - lo_) + lo_;
  }

 private:
  double lo_, hi_;
};

// True with probability p, as std::bernoulli_distribution(p).
class bernoulli {
 public:
  explicit bernoulli(double p) : p_(p) {}
  template <class Engine>
  bool operator()(Engine& gen) const {
    return canonical(gen) < p_;
  }

 private:
  double p_;
};

// ---------------------------------------------------------------------------------------------
// Execution spaces: the solver tests run on one host space (BANDSOLVE_TESTS_ONE_HOST_SPACE, set
// by tests/CMakeLists.txt), the threaded one where Kokkos has one (OpenMP or Threads, never both):
// the two host backends run the same kernels, so a second space would compile them twice, while
// the threaded launches and the per-thread scratch are the threaded space's. CTest runs each test
// again on one thread, which takes the work shapes of Kokkos::Serial.
// BANDSOLVE_TEST_EVERY_HOST_SPACE=ON runs both spaces.

// The device backend's cases in the host units (backend::device on the host space) compile
// where BANDSOLVE_TESTS_DEVICE_BACKEND is 1: tests/CMakeLists.txt sets it with the option that
// builds tests/device (BANDSOLVE_TEST_DEVICE_KERNELS_ON_HOST); a unit compiled by hand has them.
#ifndef BANDSOLVE_TESTS_DEVICE_BACKEND
#define BANDSOLVE_TESTS_DEVICE_BACKEND 1
#endif

// The threaded host space Kokkos was built with: OpenMP or Threads (Kokkos has at most one),
// else Serial.
#if defined(KOKKOS_ENABLE_OPENMP)
#define BSTEST_THREADED_HOST_SPACE 1
using threaded_host_space = Kokkos::OpenMP;
#elif defined(KOKKOS_ENABLE_THREADS)
#define BSTEST_THREADED_HOST_SPACE 1
using threaded_host_space = Kokkos::Threads;
#else
#define BSTEST_THREADED_HOST_SPACE 0
using threaded_host_space = Kokkos::Serial;
#endif

template <class F>
void for_each_exec(F&& f) {
#if defined(KOKKOS_ENABLE_SERIAL) && \
    !(defined(BANDSOLVE_TESTS_ONE_HOST_SPACE) && BSTEST_THREADED_HOST_SPACE)
  f(Kokkos::Serial());
#endif
#if BSTEST_THREADED_HOST_SPACE
  f(threaded_host_space());
#endif
}

template <class Layout>
std::string layout_name() {
  if constexpr (std::is_same_v<Layout, bandsolve::layout::row> ||
                std::is_same_v<Layout, bandsolve::layout::column> ||
                std::is_same_v<Layout, bandsolve::layout::strided>)
    return Layout::name;
  else
    return std::string(Layout::name) + "<" + std::to_string(Layout::width) + ">";
}

// ---------------------------------------------------------------------------------------------
// Host batches.

template <class T>
struct host_batch {
  std::size_t nsys = 0, n = 0;
  std::vector<T> a, b, c, d;  // system s, row i at s*n + i

  host_batch() = default;
  host_batch(std::size_t nsys_, std::size_t n_)
      : nsys(nsys_), n(n_), a(nsys_ * n_), b(nsys_ * n_), c(nsys_ * n_), d(nsys_ * n_) {}
  std::size_t idx(std::size_t s, std::size_t i) const { return s * n + i; }
};

// Random row diagonally dominant systems with a margin:
//   a_i, c_i ~ U(-1, 1), b_i = +-(|a_i| + |c_i| + m_i) with m_i ~ U(1, 2), d_i ~ U(-1, 1);
// a_0 = c_{n-1} = 0. Every row satisfies |b_i| - |a_i| - |c_i| >= 1 (up to one rounding), so
// ||A^-1||_inf <= 1 and ||A||_inf <= 2 (|a| + |c|) + 2 <= 6: cond_inf(A) <= 6 for every n.
template <class T>
host_batch<T> random_dominant(std::size_t nsys, std::size_t n, std::uint32_t seed) {
  host_batch<T> p(nsys, n);
  std::mt19937 gen(seed);
  bstest::uniform_real u11(-1.0, 1.0), u12(1.0, 2.0);
  bstest::bernoulli sign(0.5);
  for (std::size_t s = 0; s < nsys; ++s) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = p.idx(s, i);
      const T a = i == 0 ? T(0) : static_cast<T>(u11(gen));
      const T c = i + 1 == n ? T(0) : static_cast<T>(u11(gen));
      const double m = u12(gen);
      const double bmag = std::abs(double(a)) + std::abs(double(c)) + m;
      p.a[k] = a;
      p.c[k] = c;
      p.b[k] = static_cast<T>(sign(gen) ? bmag : -bmag);
      p.d[k] = static_cast<T>(u11(gen));
    }
  }
  return p;
}

// Zero pivots in the first system (row 1), the middle one (row 3) and the last (row 4) of p
// (n >= 4): a_i = b_i = 0 there. Returns the info codes a solve must report.
template <class T>
std::vector<int> zero_pivots_first_middle_last(host_batch<T>& p) {
  std::vector<int> expected(p.nsys, 0);
  const std::pair<std::size_t, std::size_t> where[3] = {{0, 0}, {p.nsys / 2, 2}, {p.nsys - 1, 3}};
  for (const auto& [s, row] : where) {
    p.a[p.idx(s, row)] = T(0);
    p.b[p.idx(s, row)] = T(0);
    expected[s] = static_cast<int>(row + 1);
  }
  return expected;
}

// Right-hand sides only (for several solves with one factorization).
template <class T>
std::vector<T> random_rhs(std::size_t nsys, std::size_t n, std::uint32_t seed) {
  std::vector<T> d(nsys * n);
  std::mt19937 gen(seed);
  bstest::uniform_real u(-1.0, 1.0);
  for (auto& v : d) v = static_cast<T>(u(gen));
  return d;
}

// ---------------------------------------------------------------------------------------------
// Device batches in any layout, through a host mirror and bandsolve::at.

template <class Layout, class T, class MemorySpace = Kokkos::HostSpace>
auto to_device(const std::string& label, const std::vector<T>& h, std::size_t nsys,
               std::size_t n) {
  auto v = bandsolve::make_batch<Layout, T, MemorySpace>(label, nsys, n);
  auto m = Kokkos::create_mirror_view(v);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      bandsolve::at(m, static_cast<bandsolve::index_t>(s), static_cast<bandsolve::index_t>(i)) =
          h[s * n + i];
  Kokkos::deep_copy(v, m);
  return v;
}

// Writes h into the first nsys systems of an existing batch View (any layout, also strided).
template <class View>
void fill(const View& v, const std::vector<typename View::non_const_value_type>& h,
          std::size_t nsys) {
  const std::size_t n = bandsolve::rows(v);
  auto m = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(m, v);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      bandsolve::at(m, static_cast<bandsolve::index_t>(s), static_cast<bandsolve::index_t>(i)) =
          h[s * n + i];
  Kokkos::deep_copy(v, m);
}

// The first nsys systems of a batch View, in host batch order.
template <class View>
std::vector<typename View::non_const_value_type> to_host(const View& v, std::size_t nsys) {
  const std::size_t n = bandsolve::rows(v);
  auto m = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(m, v);
  std::vector<typename View::non_const_value_type> h(nsys * n);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      h[s * n + i] =
          bandsolve::at(m, static_cast<bandsolve::index_t>(s), static_cast<bandsolve::index_t>(i));
  return h;
}

// Every element of the View's allocation (padding lanes included), for bitwise comparisons.
template <class View>
std::vector<typename View::non_const_value_type> raw_copy(const View& v) {
  auto m = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(m, v);
  return std::vector<typename View::non_const_value_type>(m.data(), m.data() + m.span());
}

template <class T>
bool bitwise_equal(const std::vector<T>& x, const std::vector<T>& y) {
  return x.size() == y.size() &&
         (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0);
}

template <class MemorySpace = Kokkos::HostSpace>
Kokkos::View<int*, MemorySpace> make_info(std::size_t nsys, int fill_value = -12345) {
  // Solvers must overwrite every entry: fill with a value they never write.
  Kokkos::View<int*, MemorySpace> info(Kokkos::view_alloc("info", Kokkos::WithoutInitializing),
                                       nsys);
  Kokkos::deep_copy(info, fill_value);
  return info;
}

template <class InfoView>
std::vector<int> info_to_host(const InfoView& info) {
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
  return std::vector<int>(m.data(), m.data() + m.extent(0));
}

// ---------------------------------------------------------------------------------------------
// LAPACK reference: ?gtsv per system (partial pivoting), in the scalar type T.

inline int lapack_gtsv(int n, double* dl, double* d, double* du, double* b) {
  const int nrhs = 1, ldb = std::max(n, 1);
  int info = 0;
  dgtsv_(&n, &nrhs, dl, d, du, b, &ldb, &info);
  return info;
}
inline int lapack_gtsv(int n, float* dl, float* d, float* du, float* b) {
  const int nrhs = 1, ldb = std::max(n, 1);
  int info = 0;
  sgtsv_(&n, &nrhs, dl, d, du, b, &ldb, &info);
  return info;
}

// Solves every system of p with ?gtsv; rhs defaults to p.d. info (if given) gets LAPACK's codes.
template <class T>
std::vector<T> reference_solve(const host_batch<T>& p, rhs_ptr<T> rhs = nullptr,
                               std::vector<int>* info = nullptr) {
  const std::size_t n = p.n;
  std::vector<T> x = rhs ? *rhs : p.d;
  if (info) info->assign(p.nsys, 0);
  std::vector<T> dl(n + 1), dg(n + 1), du(n + 1);
  for (std::size_t s = 0; s < p.nsys && n > 0; ++s) {
    for (std::size_t i = 0; i < n; ++i) {
      dg[i] = p.b[p.idx(s, i)];
      if (i + 1 < n) {
        dl[i] = p.a[p.idx(s, i + 1)];
        du[i] = p.c[p.idx(s, i)];
      }
    }
    const int code = lapack_gtsv(static_cast<int>(n), dl.data(), dg.data(), du.data(),
                                 x.data() + s * n);
    if (info) (*info)[s] = code;
  }
  return x;
}

// ---------------------------------------------------------------------------------------------
// Error measures (computed in double on the host).

// Normwise relative residual of system s: ||A x - d||_inf / (||A||_inf ||x||_inf + ||d||_inf),
// with a_0 and c_{n-1} taken as 0 whatever they hold.
template <class T>
double residual(const host_batch<T>& p, const std::vector<T>& x, std::size_t s,
                rhs_ptr<T> rhs = nullptr) {
  const std::vector<T>& d = rhs ? *rhs : p.d;
  const std::size_t n = p.n;
  double rmax = 0, anorm = 0, xnorm = 0, dnorm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = p.idx(s, i);
    const double a = i > 0 ? double(p.a[k]) : 0.0;
    const double c = i + 1 < n ? double(p.c[k]) : 0.0;
    double ax = double(p.b[k]) * double(x[k]);
    if (i > 0) ax += a * double(x[k - 1]);
    if (i + 1 < n) ax += c * double(x[k + 1]);
    rmax = std::max(rmax, std::abs(ax - double(d[k])));
    anorm = std::max(anorm, std::abs(a) + std::abs(double(p.b[k])) + std::abs(c));
    xnorm = std::max(xnorm, std::abs(double(x[k])));
    dnorm = std::max(dnorm, std::abs(double(d[k])));
  }
  const double denom = anorm * xnorm + dnorm;
  if (!std::isfinite(rmax) || !std::isfinite(denom)) return std::numeric_limits<double>::infinity();
  return denom > 0 ? rmax / denom : rmax;
}

// Largest residual over the systems whose flag in `skip` is not set (all when skip is empty).
template <class T>
double max_residual(const host_batch<T>& p, const std::vector<T>& x,
                    rhs_ptr<T> rhs = nullptr, const std::vector<bool>& skip = {}) {
  double r = 0;
  for (std::size_t s = 0; s < p.nsys; ++s)
    if (skip.empty() || !skip[s]) r = std::max(r, residual(p, x, s, rhs));
  return r;
}

// Relative difference of system s: max_i |x_i - y_i| / max(||y||_inf, smallest normal);
// infinite when x holds a NaN or Inf.
template <class T>
double rel_diff(const std::vector<T>& x, const std::vector<T>& y, std::size_t n, std::size_t s) {
  double diff = 0, ynorm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double xi = double(x[s * n + i]), yi = double(y[s * n + i]);
    if (!std::isfinite(xi)) return std::numeric_limits<double>::infinity();
    diff = std::max(diff, std::abs(xi - yi));
    ynorm = std::max(ynorm, std::abs(yi));
  }
  return diff / std::max(ynorm, double(std::numeric_limits<T>::min()));
}

template <class T>
double max_rel_diff(const std::vector<T>& x, const std::vector<T>& y, std::size_t nsys,
                    std::size_t n, const std::vector<bool>& skip = {}) {
  double r = 0;
  for (std::size_t s = 0; s < nsys; ++s)
    if (skip.empty() || !skip[s]) r = std::max(r, rel_diff(x, y, n, s));
  return r;
}

// ---------------------------------------------------------------------------------------------
// Tolerances: C * eps, with C derived from the error analysis and the n-dependence explicit.

template <class T>
constexpr double eps = static_cast<double>(std::numeric_limits<T>::epsilon());

// General form: C * n^k * eps (k is the power of n the bound grows with).
template <class T>
double scaled_tol(double C, std::size_t n, int k = 1) {
  return C * std::pow(static_cast<double>(std::max<std::size_t>(n, 1)), k) * eps<T>;
}

// Backward error of Thomas on a row diagonally dominant matrix (Higham, Accuracy and Stability
// of Numerical Algorithms, 2nd ed., Sec. 9.6, tridiagonal GE without pivoting): the computed x solves
// (A + dA) x = d with |dA| <= f(u) |L||U|, f(u) = 4u + O(u^2), and |L||U| <= 3|A|, so
// ||A x - d|| <= 12u ||A|| ||x|| row by row: the bound does NOT grow with n (k = 0). The residual
// is evaluated in double, adding at most ~3 eps<double> relative (negligible even for double:
// 12 + 3 < 16). C = 16.
template <class T>
double residual_tol() {
  return scaled_tol<T>(16.0, 1, 0);
}

// Forward difference between Thomas and LAPACK ?gtsv on random_dominant systems: both are
// backward stable with |dA| <= 12u |A| (gtsv makes no interchange when |b_i| > |a_{i+1}| after
// elimination, which dominance guarantees, so it is the same LU in a different operation
// order), so each is within cond(A) * 12u of the exact x, and cond_inf(A) <= 6 for random_dominant:
// 2 * 6 * 12 = 144 -> C = 160, independent of n.
template <class T>
double lapack_tol() {
  return scaled_tol<T>(160.0, 1, 0);
}

// Factored solve against one-shot solve: the same pivots and multipliers, only the update
// d'_i = r_i d_i - l_i d'_{i-1} instead of r_i (d_i - a_i d'_{i-1}) (one more rounding per row,
// propagated through the contracting recurrences of a dominant matrix, |l_i|, |c'_i| < 1):
// a few ulps of ||x||. C = 16.
template <class T>
double factored_tol() {
  return scaled_tol<T>(16.0, 1, 0);
}

// A host batch uploaded to the device in one layout.
template <class Layout, class T, class Mem>
struct device_batch {
  using view_type = typename Layout::template view_type<T, Mem>;
  view_type a, b, c, d;
};

template <class Layout, class Exec, class T>
auto upload(const host_batch<T>& p) {
  using Mem = typename Exec::memory_space;
  return device_batch<Layout, T, Mem>{to_device<Layout, T, Mem>("a", p.a, p.nsys, p.n),
                                      to_device<Layout, T, Mem>("b", p.b, p.nsys, p.n),
                                      to_device<Layout, T, Mem>("c", p.c, p.nsys, p.n),
                                      to_device<Layout, T, Mem>("d", p.d, p.nsys, p.n)};
}

template <class Exec>
std::string exec_name() {
  return Exec::name();
}

}  // namespace bstest
