// Randomized property test of the host API: random sizes (n from 1 to 10^5, a few long
// systems), batch sizes, layouts (row, column, strided with padding), scalars (float, double,
// Kokkos::complex<double>) and values (dominant, denormals, NaN, Inf, zero pivots, singular and
// near-singular systems), checked against LAPACK's dgtsv (real data) or residuals (complex),
// and against the one info contract. A small representative set of algorithm x layout x scalar
// instantiations keeps the translation unit moderate.
//
// Fixed seed by default. A longer run:
//   BANDSOLVE_PROPERTY_ITERATIONS=2000 BANDSOLVE_PROPERTY_SEED=7 ./core_test_property
// A failure prints the seed and the iteration's case, which reproduce it.
#include <bandsolve/bandsolve.hpp>
#include <test_support.hpp>

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace test_property {  // units compile in groups: tests/CMakeLists.txt

namespace {

using exec_space = Kokkos::DefaultHostExecutionSpace;
using cd = std::complex<double>;

std::uint64_t env_or(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

template <class T>
cd to_cd(const T& x) {
  if constexpr (bandsolve::is_complex_v<T>) return cd(x.real(), x.imag());
  else return cd(static_cast<double>(x), 0.0);
}
template <class T>
T from_cd(const cd& x) {
  if constexpr (bandsolve::is_complex_v<T>) return T(x.real(), x.imag());
  else return static_cast<T>(x.real());
}
template <class T>
double unit_roundoff() {
  return static_cast<double>(std::numeric_limits<bandsolve::real_type_t<T>>::epsilon());
}

enum class values { dominant, denormal, nan_matrix, inf_matrix, nan_rhs, zero_pivot, singular,
                    near_singular };
const char* name_of(values v) {
  switch (v) {
    case values::dominant: return "dominant";
    case values::denormal: return "denormal";
    case values::nan_matrix: return "nan_matrix";
    case values::inf_matrix: return "inf_matrix";
    case values::nan_rhs: return "nan_rhs";
    case values::zero_pivot: return "zero_pivot";
    case values::singular: return "singular";
    default: return "near_singular";
  }
}

template <class T>
struct problem {
  std::size_t nsys = 0, n = 0;
  std::vector<T> a, b, c, d;
  std::size_t at(std::size_t s, std::size_t i) const { return s * n + i; }
};

// Random diagonally dominant systems (|b| >= |a| + |c| + 1 before scaling by a power of two),
// then the values of `kind` in some systems (the others stay clean).
template <class T>
problem<T> make_problem(std::mt19937_64& gen, std::size_t nsys, std::size_t n, values kind,
                        bool pivoting) {
  using R = bandsolve::real_type_t<T>;
  problem<T> p{nsys, n, std::vector<T>(nsys * n), std::vector<T>(nsys * n),
               std::vector<T>(nsys * n), std::vector<T>(nsys * n)};
  bstest::uniform_real u(-1.0, 1.0), m(1.0, 2.0);
  std::uniform_int_distribution<int> expo(-30, 30);
  const auto random_value = [&]() {
    if constexpr (bandsolve::is_complex_v<T>) return T(u(gen), u(gen));
    else return static_cast<T>(u(gen));
  };
  for (std::size_t s = 0; s < nsys; ++s) {
    const double scale = std::ldexp(1.0, expo(gen));
    for (std::size_t i = 0; i < n; ++i) {
      const T a = i == 0 ? T(0) : random_value();
      const T c = i + 1 == n ? T(0) : random_value();
      const double mag = std::abs(to_cd(a)) + std::abs(to_cd(c)) + m(gen);
      const double phase = u(gen) * 3.14159;
      p.a[p.at(s, i)] = from_cd<T>(to_cd(a) * scale);
      p.c[p.at(s, i)] = from_cd<T>(to_cd(c) * scale);
      p.b[p.at(s, i)] = from_cd<T>(bandsolve::is_complex_v<T> ? std::polar(mag * scale, phase)
                                                              : cd(phase < 0 ? -mag : mag) * scale);
      p.d[p.at(s, i)] = random_value();
    }
  }
  std::uniform_int_distribution<std::size_t> sys(0, nsys - 1), row(0, n - 1);
  const std::size_t hits = kind == values::dominant ? 0 : 1 + nsys / 4;
  const R tiny = std::numeric_limits<R>::denorm_min() * R(3);
  for (std::size_t h = 0; h < hits; ++h) {
    const std::size_t s = sys(gen), i = row(gen), k = p.at(s, i);
    switch (kind) {
      case values::denormal:  // off-diagonals and right-hand sides only: still regular
        if (i > 0) p.a[k] = from_cd<T>(cd(tiny, 0));
        p.d[k] = from_cd<T>(cd(tiny, 0));
        break;
      case values::nan_matrix: p.b[k] = from_cd<T>(cd(std::numeric_limits<double>::quiet_NaN(), 0)); break;
      case values::inf_matrix:
        (i > 0 ? p.a[k] : p.b[k]) = from_cd<T>(cd(std::numeric_limits<double>::infinity(), 0));
        break;
      case values::nan_rhs: p.d[k] = from_cd<T>(cd(std::numeric_limits<double>::quiet_NaN(), 0)); break;
      case values::zero_pivot:  // b = 0 with a = 0: an exactly zero LU pivot at row i
        p.a[k] = T(0);
        p.b[k] = T(0);
        break;
      case values::singular:  // an all-zero row
        p.a[k] = T(0);
        p.b[k] = T(0);
        p.c[k] = T(0);
        break;
      case values::near_singular:
        if (pivoting) {  // a diagonal far below its off-diagonals: needs interchanges
          p.b[k] = from_cd<T>(to_cd(p.b[k]) * 1e-6);
        } else {  // barely dominant: safe for Thomas, but ill-conditioned
          const double off = (i > 0 ? std::abs(to_cd(p.a[k])) : 0.0) +
                             (i + 1 < n ? std::abs(to_cd(p.c[k])) : 0.0);
          const cd b0 = to_cd(p.b[k]);
          p.b[k] = from_cd<T>(b0 / std::abs(b0) * off * (1 + 1e-6) + cd(off == 0 ? 1 : 0));
        }
        break;
      default: break;
    }
  }
  return p;
}

// The contract for eliminations without pivoting, in T's arithmetic.
template <class T>
int lu_info(const problem<T>& p, std::size_t s) {
  using R = bandsolve::real_type_t<T>;
  T cp = T(0);
  for (std::size_t i = 0; i < p.n; ++i) {
    const T piv = p.b[p.at(s, i)] - (i ? p.a[p.at(s, i)] * cp : T(0));
    if (!bandsolve::detail::pivot_is_good(piv)) return static_cast<int>(i + 1);
    cp = (i + 1 < p.n ? p.c[p.at(s, i)] : T(0)) / piv;
  }
  (void)sizeof(R);
  return 0;
}

// Normwise backward error ||A x - d|| / (||A|| ||x|| + ||d||), infinity norms. The denominator
// is kept above the underflow threshold over eps: a solution that underflows (denormal d over a
// normal diagonal) is exact to the precision the format has.
template <class T>
double backward_error(const problem<T>& p, const std::vector<T>& x, std::size_t s) {
  double r = 0, an = 0, xn = 0, dn = 0;
  for (std::size_t i = 0; i < p.n; ++i) {
    const std::size_t k = p.at(s, i);
    cd ax = to_cd(p.b[k]) * to_cd(x[k]);
    double row = std::abs(to_cd(p.b[k]));
    if (i > 0) ax += to_cd(p.a[k]) * to_cd(x[k - 1]), row += std::abs(to_cd(p.a[k]));
    if (i + 1 < p.n) ax += to_cd(p.c[k]) * to_cd(x[k + 1]), row += std::abs(to_cd(p.c[k]));
    r = std::max(r, std::abs(ax - to_cd(p.d[k])));
    an = std::max(an, row);
    xn = std::max(xn, std::abs(to_cd(x[k])));
    dn = std::max(dn, std::abs(to_cd(p.d[k])));
  }
  using R = bandsolve::real_type_t<T>;
  const double floor = static_cast<double>(std::numeric_limits<R>::min()) / unit_roundoff<T>();
  return r / std::max(an * xn + dn, floor);
}

// LAPACK's dgtsv on the (rounded) real data of system s: x and its info.
template <class T>
std::vector<double> lapack_solution(const problem<T>& p, std::size_t s, int* info) {
  const int n = static_cast<int>(p.n);
  std::vector<double> dl(p.n > 1 ? p.n - 1 : 1), dg(p.n), du(p.n > 1 ? p.n - 1 : 1), x(p.n);
  for (std::size_t i = 0; i < p.n; ++i) {
    dg[i] = to_cd(p.b[p.at(s, i)]).real();
    x[i] = to_cd(p.d[p.at(s, i)]).real();
    if (i + 1 < p.n) {
      dl[i] = to_cd(p.a[p.at(s, i + 1)]).real();
      du[i] = to_cd(p.c[p.at(s, i)]).real();
    }
  }
  *info = bstest::lapack_gtsv(n, dl.data(), dg.data(), du.data(), x.data());
  return x;
}

// A batch View of `layout`; strided Views are windows of a padded array (padding in rows or
// between systems, chosen by `pad_rows`), so padding values must survive untouched.
template <class Layout, class T>
auto make_view(const std::string& label, std::size_t nsys, std::size_t n, bool pad_rows) {
  if constexpr (std::is_same_v<Layout, bandsolve::layout::strided>) {
    using V = Kokkos::View<T**, Kokkos::LayoutStride, Kokkos::HostSpace>;
    if (pad_rows) {
      Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace> full(label, nsys, n + 3);
      Kokkos::deep_copy(full, from_cd<T>(cd(777, 0)));
      return V(Kokkos::subview(full, Kokkos::ALL, std::make_pair(std::size_t(1), n + 1)));
    }
    Kokkos::View<T**, Kokkos::LayoutLeft, Kokkos::HostSpace> full(label, nsys + 2, n);
    Kokkos::deep_copy(full, from_cd<T>(cd(777, 0)));
    return V(Kokkos::subview(full, std::make_pair(std::size_t(1), nsys + 1), Kokkos::ALL));
  } else {
    return bandsolve::make_batch<Layout, T, Kokkos::HostSpace>(label, nsys, n);
  }
}

enum class method { thomas, pcr, cr, thomas_pcr, pivoting, banded };
const char* name_of(method m) {
  switch (m) {
    case method::thomas: return "thomas";
    case method::pcr: return "pcr";
    case method::cr: return "cr";
    case method::thomas_pcr: return "thomas_pcr";
    case method::pivoting: return "partial_pivoting";
    default: return "banded_lu";
  }
}

template <method M, class Layout, class T>
void run_case(std::mt19937_64& gen, std::size_t nsys, std::size_t n, values kind,
              const std::string& where) {
  constexpr bool pivots = M == method::pivoting || M == method::banded;
  const exec_space exec;
  const auto p = make_problem<T>(gen, nsys, n, kind, pivots);
  bstest::bernoulli coin(0.5);
  const bool pad_rows = coin(gen);
  INFO(name_of(M) << (pad_rows ? ", padded rows" : ", padded systems"));
  auto a = make_view<Layout, T>("a", nsys, n, pad_rows), b = make_view<Layout, T>("b", nsys, n, pad_rows),
       c = make_view<Layout, T>("c", nsys, n, pad_rows), d = make_view<Layout, T>("d", nsys, n, pad_rows);
  bstest::fill(a, p.a, nsys);
  bstest::fill(b, p.b, nsys);
  bstest::fill(c, p.c, nsys);
  bstest::fill(d, p.d, nsys);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
  if constexpr (M == method::thomas) bandsolve::solve(exec, bandsolve::algo::thomas{}, a, b, c, d, info);
  if constexpr (M == method::pcr) bandsolve::solve(exec, bandsolve::algo::pcr{}, a, b, c, d, info);
  if constexpr (M == method::cr) bandsolve::solve(exec, bandsolve::algo::cr{}, a, b, c, d, info);
  if constexpr (M == method::thomas_pcr)
    bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, a, b, c, d, info);
  if constexpr (M == method::pivoting)
    bandsolve::solve(exec, bandsolve::algo::partial_pivoting{}, a, b, c, d, info);
  if constexpr (M == method::banded) {
    Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace> ab("ab", nsys, n, 4);
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t j = 0; j < n; ++j) {
        if (j > 0) ab(s, j, 1) = p.c[p.at(s, j - 1)];
        ab(s, j, 2) = p.b[p.at(s, j)];
        if (j + 1 < n) ab(s, j, 3) = p.a[p.at(s, j + 1)];
      }
    bandsolve::solve(exec, bandsolve::algo::banded_lu{1, 1}, ab, d, info);
  }
  exec.fence();
  const auto x = bstest::to_host(d, nsys);
  const auto codes = bstest::info_to_host(info);
  const double tol = 64 * unit_roundoff<T>() * (8 + std::log2(static_cast<double>(n) + 1));
  for (std::size_t s = 0; s < nsys; ++s) {
    INFO(where << " system " << s << " info " << codes[s]);
    // Every code is 0 or a row.
    REQUIRE(codes[s] >= 0);
    REQUIRE(codes[s] <= static_cast<int>(n));
    bool matrix_finite = true;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = p.at(s, i);
      const cd av = i > 0 ? to_cd(p.a[k]) : cd(0), cv = i + 1 < n ? to_cd(p.c[k]) : cd(0);
      const cd bv = to_cd(p.b[k]);
      for (const cd& v : {av, bv, cv})
        matrix_finite = matrix_finite && std::isfinite(v.real()) && std::isfinite(v.imag());
    }
    if (!pivots) {
      // One contract for every elimination without pivoting: Thomas's first bad LU pivot.
      REQUIRE(codes[s] == lu_info(p, s));
    } else if (!matrix_finite) {
      REQUIRE(codes[s] > 0);  // NaN or Inf in the matrix reaches a pivot
    }
    if (codes[s] != 0 || kind == values::nan_rhs) continue;
    bool rhs_finite = true;
    for (std::size_t i = 0; i < n; ++i)
      rhs_finite = rhs_finite && std::isfinite(std::abs(to_cd(p.d[p.at(s, i)])));
    if (!rhs_finite) continue;
    const double be = backward_error(p, x, s);
    REQUIRE(be <= tol);
    if constexpr (!bandsolve::is_complex_v<T>) {
      if (kind == values::dominant || kind == values::denormal) {
        int lapack_info = 0;
        const auto ref = lapack_solution(p, s, &lapack_info);
        REQUIRE(lapack_info == 0);
        double err = 0, mag = 0;
        for (std::size_t i = 0; i < n; ++i) {
          err = std::max(err, std::fabs(static_cast<double>(x[p.at(s, i)]) - ref[i]));
          mag = std::max(mag, std::fabs(ref[i]));
        }
        // cond_inf <= 6 for these systems: forward error within a small multiple of tol.
        // Plus underflow: denormal results of T carry an absolute error below T's min.
        REQUIRE(err <= 8 * tol * mag +
                           4 * static_cast<double>(
                                   std::numeric_limits<bandsolve::real_type_t<T>>::min()));
      }
    }
  }
}

}  // namespace

TEST_CASE("randomized property test of the host API", "[property]") {
  const std::uint64_t iterations = env_or("BANDSOLVE_PROPERTY_ITERATIONS", 60);
  const std::uint64_t seed = env_or("BANDSOLVE_PROPERTY_SEED", 20261124);
  std::mt19937_64 gen(seed);
  bstest::uniform_real log_n(0.0, 5.0);
  std::uniform_int_distribution<int> pick_kind(0, 7), pick_case(0, 11);
  std::uniform_int_distribution<std::size_t> pick_nsys(1, 70);
  for (std::uint64_t it = 0; it < iterations; ++it) {
    std::size_t n = static_cast<std::size_t>(std::pow(10.0, log_n(gen)));
    std::size_t nsys = pick_nsys(gen);
    if (it % 25 == 7) {  // a few long systems
      n = 1000000;
      nsys = 1;
    }
    n = std::max<std::size_t>(n, 1);
    nsys = std::max<std::size_t>(1, std::min(nsys, std::size_t(200000) / n + (n > 200000 ? 1 : 0)));
    const values kind = static_cast<values>(pick_kind(gen));
    const int which = it % 25 == 7 ? static_cast<int>(it / 25 % 3) : pick_case(gen);
    std::ostringstream where;
    where << "seed " << seed << " iteration " << it << ": n " << n << " nsys " << nsys << " "
          << name_of(kind) << " case " << which;
    using namespace bandsolve::layout;
    using zd = Kokkos::complex<double>;
    switch (which) {
      case 0: run_case<method::thomas, row, double>(gen, nsys, n, kind, where.str()); break;
      case 1: run_case<method::pcr, row, double>(gen, nsys, n, kind, where.str()); break;
      case 2: run_case<method::thomas_pcr, row, double>(gen, nsys, n, kind, where.str()); break;
      case 3: run_case<method::thomas, column, float>(gen, nsys, n, kind, where.str()); break;
      case 4: run_case<method::thomas, strided, zd>(gen, nsys, n, kind, where.str()); break;
      case 5: run_case<method::pcr, strided, float>(gen, nsys, n, kind, where.str()); break;
      case 6: run_case<method::cr, column, double>(gen, nsys, n, kind, where.str()); break;
      case 7: run_case<method::thomas_pcr, column, double>(gen, nsys, n, kind, where.str()); break;
      case 8: run_case<method::pivoting, row, double>(gen, nsys, n, kind, where.str()); break;
      case 9: run_case<method::pivoting, strided, zd>(gen, nsys, n, kind, where.str()); break;
      case 10: run_case<method::banded, row, double>(gen, nsys, n, kind, where.str()); break;
      default: run_case<method::thomas, strided, double>(gen, nsys, n, kind, where.str()); break;
    }
  }
}

}  // namespace test_property
