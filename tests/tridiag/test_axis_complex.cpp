// Solves along an axis of a 3-D array with complex right-hand sides: Thomas's solve_along and
// solve_along_add in Kokkos::complex<float> and Kokkos::complex<double>, and with complex d over
// real coefficients (the Fourier modes of a real operator), and the symmetric solve_along with
// complex d over its real diagonals and of Hermitian lines (complex offdiag); every axis, the
// array LayoutRight, LayoutLeft and a padded subview (every axis strided: gathered packs), full
// and shared coefficients, through the host backend and the device backend's kernels. Each
// line's residual |A x - d| is checked (x = u - u0 for solve_along_add, which must leave d
// untouched), padding must stay untouched, and a zero pivot gets its line's documented number.
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <array>
#include <cmath>
#include <complex>
#include <string>
#include <type_traits>

namespace test_axis_complex {  // units compile in groups: tests/CMakeLists.txt

namespace {

using bandsolve::index_t;
using bandsolve::algo::thomas;

// How the array sits in its buffer; every kind is handed over as a LayoutStride View, so one
// instantiation serves them all (the solver reads the strides at run time).
enum class kind { right, left, padded };
const char* kind_name(kind k) {
  const char* names[] = {"LayoutRight order", "LayoutLeft order", "padded subview"};
  return names[static_cast<int>(k)];
}

template <class T>
using array3 = Kokkos::View<T***, Kokkos::LayoutStride, Kokkos::HostSpace>;

// A value of type T from a hash of (entry, stream): the real part, and for complex T an
// imaginary one.
template <class T>
T hashed(std::size_t k, int stream) {
  const double re = std::sin(0.7 + 0.37 * static_cast<double>(k) + 1.3 * stream);
  const double im = std::cos(0.2 + 0.59 * static_cast<double>(k) + 0.7 * stream);
  using R = bandsolve::real_type_t<T>;
  if constexpr (bandsolve::is_complex_v<T>)
    return T(static_cast<R>(re), static_cast<R>(im));
  else
    return static_cast<R>(re);
}

// An array of extents e of kind k over its own buffer (filled with a sentinel first), its
// entries hashed from `stream`; the diagonal stream (1) is dominant.
template <class T>
struct array {
  Kokkos::View<T*, Kokkos::HostSpace> buffer;
  array3<T> view;

  array(kind k, const std::array<std::size_t, 3>& e, int stream) {
    const bool padded = k == kind::padded;
    std::array<std::size_t, 3> s{}, p{};  // strides, padded extents
    for (int r = 0; r < 3; ++r) p[r] = e[r] + (padded ? 1 + r : 0);
    if (k == kind::left) {
      s = {1, p[0], p[0] * p[1]};
    } else {
      s = {p[1] * p[2], p[2], 1};
      if (padded) s = {s[0] * 2, s[1] * 2, 2};  // no unit stride at all
    }
    const std::size_t size = (p[0] - 1) * s[0] + (p[1] - 1) * s[1] + (p[2] - 1) * s[2] + 2;
    buffer = Kokkos::View<T*, Kokkos::HostSpace>("buffer", size);
    for (std::size_t q = 0; q < size; ++q) buffer(q) = T(-1000);
    view = array3<T>(buffer.data(), Kokkos::LayoutStride(e[0], s[0], e[1], s[1], e[2], s[2]));
    std::size_t q = 0;
    for (std::size_t i = 0; i < e[0]; ++i)
      for (std::size_t j = 0; j < e[1]; ++j)
        for (std::size_t l = 0; l < e[2]; ++l, ++q)
          view(i, j, l) = hashed<T>(q, stream) + T(bandsolve::real_type_t<T>(stream == 1 ? 4 : 0));
  }

  // Entries of the buffer outside the view still hold the sentinel.
  bool padding_untouched() const {
    std::size_t inside = view.extent(0) * view.extent(1) * view.extent(2), sentinels = 0;
    for (std::size_t q = 0; q < buffer.extent(0); ++q) sentinels += buffer(q) == T(-1000) ? 1 : 0;
    return sentinels == buffer.extent(0) - inside;
  }
};

template <class T>
std::complex<double> widen(const T& v) {
  if constexpr (bandsolve::is_complex_v<T>)
    return {static_cast<double>(v.real()), static_cast<double>(v.imag())};
  else
    return static_cast<double>(v);
}

template <class T>
T conjugate(const T& v) {
  if constexpr (bandsolve::is_complex_v<T>)
    return T(v.real(), -v.imag());
  else
    return v;
}

template <class T>
double tolerance() {
  return std::is_same_v<bandsolve::real_type_t<T>, float> ? 2e-5 : 1e-13;
}

// Solves every line of a (5, 11, 7) array along `axis` (solve_along, or with Add solve_along_add;
// with Symmetric solve_along(symmetric) with the real diag b and offdiag c, a_i = conj(c_{i-1}))
// with coefficients of type C (full arrays of kind k, or with Shared rank-1 Views) and right-hand
// sides of type D, on Backend, and returns the largest residual |A x - d| over the lines.
template <class C, class D, bool Shared, bool Add, class Backend, bool Symmetric = false>
double largest_residual(kind k, int axis) {
  using B = std::conditional_t<Symmetric, bandsolve::real_type_t<C>, C>;  // the diagonal
  const std::array<std::size_t, 3> e = {5, 11, 7};
  const std::size_t n = e[static_cast<std::size_t>(axis)];
  const array<C> a(k, e, 0), c(k, e, 2);
  const array<B> b(k, e, 1);
  const array<D> d(k, e, 3), u(k, e, 4), d0(k, e, 3), u0(k, e, 4);
  Kokkos::View<C*, Kokkos::HostSpace> a1("a1", n), c1("c1", n);
  Kokkos::View<B*, Kokkos::HostSpace> b1("b1", n);
  for (std::size_t i = 0; i < n; ++i)
    a1(i) = hashed<C>(i, 5), b1(i) = hashed<B>(i, 6) + B(bandsolve::real_type_t<C>(4)),
    c1(i) = hashed<C>(i, 7);
  if constexpr (Symmetric) {  // a_i = conj(c_{i-1})
    for (std::size_t i = 1; i < n; ++i) a1(i) = conjugate(c1(i - 1));
    for (std::size_t p = 0; p < e[0]; ++p)
      for (std::size_t q = 0; q < e[1]; ++q)
        for (std::size_t r = 0; r < e[2]; ++r) {
          std::array<std::size_t, 3> at = {p, q, r}, prev = at;
          if (at[static_cast<std::size_t>(axis)] == 0) continue;
          --prev[static_cast<std::size_t>(axis)];
          a.view(at[0], at[1], at[2]) = conjugate(c.view(prev[0], prev[1], prev[2]));
        }
  }
  Kokkos::View<int*, Kokkos::HostSpace> info("info", e[0] * e[1] * e[2] / n);
  Kokkos::deep_copy(info, -1);
  const auto solve = [&](const auto& av, const auto& bv, const auto& cv) {
    bstest::for_each_exec([&](auto exec) {
      Kokkos::deep_copy(d.view, d0.view);
      Kokkos::deep_copy(u.view, u0.view);
      if constexpr (Symmetric)
        bandsolve::solve_along(exec, bandsolve::algo::symmetric{}, axis, bv, cv, d.view, info,
                               Backend{});
      else if constexpr (Add)
        bandsolve::solve_along_add(exec, thomas{}, axis, av, bv, cv, d.view, u.view, info,
                                   Backend{});
      else
        bandsolve::solve_along(exec, thomas{}, axis, av, bv, cv, d.view, info, Backend{});
      exec.fence();
    });
  };
  if constexpr (Shared)
    solve(a1, b1, c1);
  else
    solve(a.view, b.view, c.view);
  for (std::size_t s = 0; s < info.extent(0); ++s) CHECK(info(s) == 0);
  CHECK(d.padding_untouched());
  CHECK(u.padding_untouched());
  double worst = 0;
  for (std::size_t p = 0; p < e[0]; ++p)
    for (std::size_t q = 0; q < e[1]; ++q)
      for (std::size_t r = 0; r < e[2]; ++r) {
        std::array<std::size_t, 3> at = {p, q, r};
        if (at[static_cast<std::size_t>(axis)] != 0) continue;
        const auto entry = [&](const auto& v, std::size_t i) {
          at[static_cast<std::size_t>(axis)] = i;
          return widen(v(at[0], at[1], at[2]));
        };
        const auto coefficient = [&](const auto& full, const auto& line, std::size_t i) {
          if constexpr (Shared) {
            (void)full;
            return widen(line(i));
          } else {
            return entry(full.view, i);
          }
        };
        const auto x = [&](std::size_t i) {
          return Add ? entry(u.view, i) - entry(u0.view, i) : entry(d.view, i);
        };
        for (std::size_t i = 0; i < n; ++i) {
          std::complex<double> ax = coefficient(b, b1, i) * x(i);
          if (i > 0) ax += coefficient(a, a1, i) * x(i - 1);
          if (i + 1 < n) ax += coefficient(c, c1, i) * x(i + 1);
          const double residual = std::abs(ax - entry(d0.view, i));
          if (!(residual <= worst)) worst = std::isnan(residual) ? 1e300 : residual;
          if (Add && entry(d.view, i) != entry(d0.view, i)) worst = 1e300;  // d is read only
        }
      }
  return worst;
}

template <class C, class D, class Backend>
void check_every_case(const char* backend) {
  for (const kind k : {kind::right, kind::left, kind::padded})
    for (int axis = 0; axis < 3; ++axis) {
      INFO(backend << ", " << kind_name(k) << ", axis " << axis);
      CHECK(largest_residual<C, D, false, false, Backend>(k, axis) <= tolerance<D>());
      CHECK(largest_residual<C, D, true, false, Backend>(k, axis) <= tolerance<D>());
      CHECK(largest_residual<C, D, false, true, Backend>(k, axis) <= tolerance<D>());
      CHECK(largest_residual<C, D, true, true, Backend>(k, axis) <= tolerance<D>());
    }
}

template <class C, class D>
void check_both_backends() {
  using host = bandsolve::backend::default_for_t<Kokkos::DefaultHostExecutionSpace>;
  check_every_case<C, D, host>("host backend");
#if BANDSOLVE_TESTS_DEVICE_BACKEND
  check_every_case<C, D, bandsolve::backend::device>("device backend");
#endif
}

template <class C, class D, class Backend>
void check_every_symmetric_case(const char* backend) {
  for (const kind k : {kind::right, kind::left, kind::padded})
    for (int axis = 0; axis < 3; ++axis) {
      INFO(backend << ", symmetric, " << kind_name(k) << ", axis " << axis);
      CHECK(largest_residual<C, D, false, false, Backend, true>(k, axis) <= tolerance<D>());
      CHECK(largest_residual<C, D, true, false, Backend, true>(k, axis) <= tolerance<D>());
    }
}

}  // namespace

TEST_CASE("solve_along of complex lines: every axis, layout and coefficient form", "[axis]") {
  check_both_backends<Kokkos::complex<double>, Kokkos::complex<double>>();
  check_both_backends<Kokkos::complex<float>, Kokkos::complex<float>>();
}

TEST_CASE("solve_along of complex right-hand sides over real lines", "[axis]") {
  check_both_backends<double, Kokkos::complex<double>>();
  check_both_backends<float, Kokkos::complex<float>>();
}

TEST_CASE("solve_along(symmetric) of complex right-hand sides over real lines", "[axis]") {
  using host = bandsolve::backend::default_for_t<Kokkos::DefaultHostExecutionSpace>;
  check_every_symmetric_case<double, Kokkos::complex<double>, host>("host backend");
#if BANDSOLVE_TESTS_DEVICE_BACKEND
  check_every_symmetric_case<double, Kokkos::complex<double>, bandsolve::backend::device>(
      "device backend");
#endif
  check_every_symmetric_case<float, Kokkos::complex<float>, host>("host backend");
}

TEST_CASE("solve_along(symmetric) of Hermitian lines", "[axis]") {
  using host = bandsolve::backend::default_for_t<Kokkos::DefaultHostExecutionSpace>;
  using Z = Kokkos::complex<double>;
  check_every_symmetric_case<Z, Z, host>("host backend");
#if BANDSOLVE_TESTS_DEVICE_BACKEND
  check_every_symmetric_case<Z, Z, bandsolve::backend::device>("device backend");
#endif
  using W = Kokkos::complex<float>;
  check_every_symmetric_case<W, W, host>("host backend");
#if BANDSOLVE_TESTS_DEVICE_BACKEND
  check_every_symmetric_case<W, W, bandsolve::backend::device>("device backend");
#endif
}

TEST_CASE("solve_along(symmetric) of Hermitian lines reports a pivot that is not positive",
          "[axis]") {
  // Extents (4, 6, 5) along axis 1: line (ix, :, iz) is system ix*5 + iz. Full coefficients:
  // line (2, :, 3) has diag 0 in row 0. Shared ones: diag -1 in row 2 fails every line there.
  using Z = Kokkos::complex<double>;
  using host = bandsolve::backend::default_for_t<Kokkos::DefaultHostExecutionSpace>;
  const std::array<std::size_t, 3> e = {4, 6, 5};
  const auto both_backends = [](const auto& solve) {
    bstest::for_each_exec([&](auto exec) {
      solve(exec, host{});
      solve(exec, bandsolve::backend::device{});
    });
  };
  for (const kind k : {kind::right, kind::padded}) {
    INFO(kind_name(k));
    const array<double> b(k, e, 1);
    const array<Z> off(k, e, 2), d(k, e, 3);
    b.view(2, 0, 3) = 0.0;
    Kokkos::View<int*, Kokkos::HostSpace> info("info", 20);
    both_backends([&](auto exec, auto backend) {
      Kokkos::deep_copy(info, -1);
      bandsolve::solve_along(exec, bandsolve::algo::symmetric{}, 1, b.view, off.view, d.view,
                             info, backend);
      exec.fence();
      for (std::size_t s = 0; s < 20; ++s) CHECK(info(s) == (s == 2 * 5 + 3 ? 1 : 0));
    });
    Kokkos::View<double*, Kokkos::HostSpace> b1("b1", 6);
    Kokkos::View<Z*, Kokkos::HostSpace> off1("off1", 6);
    for (std::size_t i = 0; i < 6; ++i) b1(i) = i == 2 ? -1.0 : 4.0, off1(i) = Z(0.5, -0.5);
    both_backends([&](auto exec, auto backend) {
      Kokkos::deep_copy(info, -1);
      bandsolve::solve_along(exec, bandsolve::algo::symmetric{}, 1, b1, off1, d.view, info,
                             backend);
      exec.fence();
      for (std::size_t s = 0; s < 20; ++s) CHECK(info(s) == 3);
    });
  }
}

TEST_CASE("solve_along with complex d over real lines reports a zero pivot on its line",
          "[axis]") {
  // Extents (4, 6, 5) along axis 1: line (ix, :, iz) is system ix*5 + iz; line (2, :, 3) has
  // b = 0 in row 0 (with c = 0 there, so the pivot is exactly zero).
  using Z = Kokkos::complex<double>;
  const std::array<std::size_t, 3> e = {4, 6, 5};
  for (const kind k : {kind::right, kind::padded}) {
    const array<double> a(k, e, 0), b(k, e, 1), c(k, e, 2);
    const array<Z> d(k, e, 3);
    b.view(2, 0, 3) = 0.0;
    Kokkos::View<int*, Kokkos::HostSpace> info("info", 20);
    bstest::for_each_exec([&](auto exec) {
      bandsolve::solve_along(exec, thomas{}, 1, a.view, b.view, c.view, d.view, info);
      exec.fence();
      INFO(kind_name(k));
      for (std::size_t s = 0; s < 20; ++s) CHECK(info(s) == (s == 2 * 5 + 3 ? 1 : 0));
    });
  }
}

}  // namespace test_axis_complex
