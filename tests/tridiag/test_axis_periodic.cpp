// Periodic systems along an axis of a 2-D, 3-D or 4-D array (solve_along(periodic)): every axis,
// arrays in LayoutRight order, LayoutLeft order and padded subviews with no unit stride, full and
// shared coefficients, real, complex and complex d over real coefficients, through the host
// backend and the device backend's kernels. Each cyclic line's residual |A x - d| is checked,
// padding must stay untouched, the lines of short arrays (n = 1, 2, 3) must equal the batched
// solve(periodic) of the same systems, and failing lines get their codes on their documented
// line numbers.
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <array>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using bandsolve::index_t;
using bandsolve::algo::periodic;
using host_backend = bandsolve::backend::default_for_t<Kokkos::DefaultHostExecutionSpace>;
using device_backend = bandsolve::backend::device;
using cdouble = Kokkos::complex<double>;

// How the array sits in its buffer; every kind is handed over as a LayoutStride View, so one
// instantiation serves them all (the solver reads the strides at run time).
enum class kind { right, left, padded };
const char* kind_name(kind k) {
  const char* names[] = {"LayoutRight order", "LayoutLeft order", "padded subview"};
  return names[static_cast<int>(k)];
}

template <class T, std::size_t R>
struct strided_of;
template <class T>
struct strided_of<T, 2> {
  using type = Kokkos::View<T**, Kokkos::LayoutStride, Kokkos::HostSpace>;
};
template <class T>
struct strided_of<T, 3> {
  using type = Kokkos::View<T***, Kokkos::LayoutStride, Kokkos::HostSpace>;
};
template <class T>
struct strided_of<T, 4> {
  using type = Kokkos::View<T****, Kokkos::LayoutStride, Kokkos::HostSpace>;
};

template <std::size_t R>
using index_array = std::array<std::size_t, R>;

// Calls f(at) for every multi-index of extents e, last index fastest.
template <std::size_t R, class F>
void for_each_index(const index_array<R>& e, const F& f) {
  std::size_t total = 1;
  for (std::size_t r = 0; r < R; ++r) total *= e[r];
  for (std::size_t q = 0; q < total; ++q) {
    index_array<R> at{};
    std::size_t rest = q;
    for (std::size_t r = R; r-- > 0;) {
      at[r] = rest % e[r];
      rest /= e[r];
    }
    f(at, q);
  }
}

template <class V, std::size_t R>
auto& entry(const V& v, const index_array<R>& at) {
  if constexpr (R == 2) return v(at[0], at[1]);
  else if constexpr (R == 3) return v(at[0], at[1], at[2]);
  else return v(at[0], at[1], at[2], at[3]);
}

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

// An array of extents e of kind k over its own buffer (a sentinel outside the view), its entries
// hashed from `stream`; the diagonal stream (1) is dominant (|b| >= 3 > |a| + |c|).
template <class T, std::size_t R>
struct array {
  Kokkos::View<T*, Kokkos::HostSpace> buffer;
  typename strided_of<T, R>::type view;

  array(kind k, const index_array<R>& e, int stream) {
    const bool padded = k == kind::padded;
    index_array<R> s{}, p{};  // strides, padded extents
    for (std::size_t r = 0; r < R; ++r) p[r] = e[r] + (padded ? 1 + r : 0);
    std::size_t stride = padded ? 2 : 1;  // padded: no unit stride at all
    if (k == kind::left) {
      for (std::size_t r = 0; r < R; ++r) s[r] = stride, stride *= p[r];
    } else {
      for (std::size_t r = R; r-- > 0;) s[r] = stride, stride *= p[r];
    }
    std::size_t size = 2;
    for (std::size_t r = 0; r < R; ++r) size += (p[r] - 1) * s[r];
    buffer = Kokkos::View<T*, Kokkos::HostSpace>("buffer", size);
    Kokkos::deep_copy(buffer, T(-1000));
    if constexpr (R == 2)
      view = typename strided_of<T, R>::type(buffer.data(),
                                             Kokkos::LayoutStride(e[0], s[0], e[1], s[1]));
    else if constexpr (R == 3)
      view = typename strided_of<T, R>::type(
          buffer.data(), Kokkos::LayoutStride(e[0], s[0], e[1], s[1], e[2], s[2]));
    else
      view = typename strided_of<T, R>::type(
          buffer.data(), Kokkos::LayoutStride(e[0], s[0], e[1], s[1], e[2], s[2], e[3], s[3]));
    for_each_index<R>(e, [&](const index_array<R>& at, std::size_t q) {
      entry(view, at) = hashed<T>(q, stream) + T(bandsolve::real_type_t<T>(stream == 1 ? 4 : 0));
    });
  }

  // Entries of the buffer outside the view still hold the sentinel.
  bool padding_untouched() const {
    std::size_t inside = view.size(), sentinels = 0;
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
double tolerance() {
  return std::is_same_v<bandsolve::real_type_t<T>, float> ? 3e-5 : 1e-13;
}

// The coefficients and right-hand sides of one solve along `axis` of an array of extents e:
// full arrays of kind k and rank-1 shared ones, d and a copy of it.
template <class C, class D, std::size_t R>
struct problem {
  index_array<R> e;
  int axis;
  std::size_t n;
  array<C, R> a, b, c;
  array<D, R> d, d0;
  Kokkos::View<C*, Kokkos::HostSpace> a1, b1, c1;
  Kokkos::View<int*, Kokkos::HostSpace> info;

  problem(kind k, const index_array<R>& extents, int solve_axis)
      : e(extents), axis(solve_axis), n(extents[static_cast<std::size_t>(solve_axis)]),
        a(k, e, 0), b(k, e, 1), c(k, e, 2), d(k, e, 3), d0(k, e, 3), a1("a1", n), b1("b1", n),
        c1("c1", n), info("info", d.view.size() / (n > 0 ? n : 1)) {
    for (std::size_t i = 0; i < n; ++i)
      a1(i) = hashed<C>(i, 5), b1(i) = hashed<C>(i, 6) + C(bandsolve::real_type_t<C>(4)),
      c1(i) = hashed<C>(i, 7);
    Kokkos::deep_copy(info, -1);
  }

  template <bool Shared, class Backend>
  void solve() {
    bstest::for_each_exec([&](auto exec) {
      Kokkos::deep_copy(d.view, d0.view);
      if constexpr (Shared)
        bandsolve::solve_along(exec, periodic{}, axis, a1, b1, c1, d.view, info, Backend{});
      else
        bandsolve::solve_along(exec, periodic{}, axis, a.view, b.view, c.view, d.view, info,
                               Backend{});
      exec.fence();
    });
  }

  // Calls f(first, line) for the first index of every line and its number (batch indices in
  // axis order, last fastest).
  template <class F>
  void for_each_line(const F& f) const {
    std::size_t line = 0;
    for_each_index<R>(e, [&](const index_array<R>& at, std::size_t) {
      if (at[static_cast<std::size_t>(axis)] == 0) f(at, line++);
    });
  }

  // Element i of the line through `at` of a full array, or of the shared one.
  template <class V>
  std::complex<double> of(const V& v, index_array<R> at, std::size_t i) const {
    if constexpr (V::rank == 1) {
      return widen(v(i));
    } else {
      at[static_cast<std::size_t>(axis)] = i;
      return widen(entry(v, at));
    }
  }

  // The largest cyclic residual |A x - d| over the lines (coefficients full or shared).
  template <bool Shared>
  double largest_residual() const {
    double worst = 0;
    for_each_line([&](const index_array<R>& at, std::size_t) {
      const auto coefficient = [&](const array<C, R>& full, const auto& line, std::size_t i) {
        if constexpr (Shared) {
          (void)full;
          return of(line, at, i);
        } else {
          return of(full.view, at, i);
        }
      };
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t prev = (i + n - 1) % n, next = (i + 1) % n;
        const std::complex<double> ax = coefficient(a, a1, i) * of(d.view, at, prev) +
                                        coefficient(b, b1, i) * of(d.view, at, i) +
                                        coefficient(c, c1, i) * of(d.view, at, next);
        const double residual = std::abs(ax - of(d0.view, at, i));
        if (!(residual <= worst)) worst = std::isnan(residual) ? 1e300 : residual;
      }
    });
    return worst;
  }
};

template <class C, class D, bool Shared, class Backend>
void check_residuals(kind k, int axis) {
  problem<C, D, 3> p(k, {5, 11, 7}, axis);
  p.template solve<Shared, Backend>();
  for (std::size_t s = 0; s < p.info.extent(0); ++s) CHECK(p.info(s) == 0);
  CHECK(p.d.padding_untouched());
  CHECK(p.template largest_residual<Shared>() <= tolerance<D>());
}

template <class C, class D, class Backend>
void check_every_case(const char* backend) {
  for (const kind k : {kind::right, kind::left, kind::padded})
    for (int axis = 0; axis < 3; ++axis) {
      INFO(backend << ", " << kind_name(k) << ", axis " << axis);
      check_residuals<C, D, false, Backend>(k, axis);
      check_residuals<C, D, true, Backend>(k, axis);
    }
}

template <class C, class D>
void check_both_backends() {
  check_every_case<C, D, host_backend>("host backend");
  check_every_case<C, D, device_backend>("device backend");
}

// Every line of a rank-R array against the batched solve(periodic) of the same systems in a
// row-layout batch (line s in row s), full and shared coefficients.
template <std::size_t R, class Backend>
void check_against_batched(kind k, const index_array<R>& e, int axis) {
  problem<double, double, R> p(k, e, axis);
  const std::size_t n = p.n, nsys = p.info.extent(0);
  for (const bool shared : {false, true}) {
    INFO((shared ? "shared" : "full") << " coefficients");
    if (shared)
      p.template solve<true, Backend>();
    else
      p.template solve<false, Backend>();
    Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> a("a", nsys, n),
        b("b", nsys, n), c("c", nsys, n), x("x", nsys, n);
    Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
    p.for_each_line([&](const index_array<R>& at, std::size_t s) {
      for (std::size_t i = 0; i < n; ++i) {
        a(s, i) = shared ? p.a1(i) : p.of(p.a.view, at, i).real();
        b(s, i) = shared ? p.b1(i) : p.of(p.b.view, at, i).real();
        c(s, i) = shared ? p.c1(i) : p.of(p.c.view, at, i).real();
        x(s, i) = p.of(p.d0.view, at, i).real();
      }
    });
    bandsolve::solve(Kokkos::DefaultHostExecutionSpace(), periodic{}, a, b, c, x, info);
    Kokkos::fence();
    double worst = 0;
    p.for_each_line([&](const index_array<R>& at, std::size_t s) {
      CHECK(p.info(s) == info(s));
      for (std::size_t i = 0; i < n; ++i) {
        const double diff = std::abs(p.of(p.d.view, at, i).real() - x(s, i));
        if (!(diff <= worst)) worst = std::isnan(diff) ? 1e300 : diff;
      }
    });
    CHECK(worst <= 1e-14);
    CHECK(p.d.padding_untouched());
  }
}

template <class Backend>
void check_short_lines(const char* backend) {
  for (const kind k : {kind::right, kind::left, kind::padded})
    for (const std::size_t n : {1, 2, 3}) {
      INFO(backend << ", " << kind_name(k) << ", n = " << n);
      check_against_batched<2, Backend>(k, {n, 13}, 0);
      check_against_batched<2, Backend>(k, {13, n}, 1);
      check_against_batched<4, Backend>(k, {3, n, 2, 5}, 1);
      check_against_batched<4, Backend>(k, {3, 4, 2, n}, 3);
    }
  for (const kind k : {kind::right, kind::left, kind::padded})
    for (int axis = 0; axis < 4; ++axis) {
      INFO(backend << ", " << kind_name(k) << ", rank 4, axis " << axis);
      check_against_batched<4, Backend>(k, {4, 9, 3, 6}, axis);
    }
}

// Lines of 3 rows along axis 1 of a (2, 3, 5) array: line 1 (0, :, 1) has b[0] = 0 (code 1),
// line 7 (1, :, 2) a leading block that is regular and a Schur complement of exactly 0 (code 3,
// the system of test_periodic.cpp), every other line 0. Shared coefficients with that Schur
// complement give every line 3.
template <class Backend>
void check_info_codes(const char* backend) {
  INFO(backend);
  problem<double, double, 3> p(kind::right, {2, 3, 5}, 1);
  p.b.view(0, 0, 1) = 0;
  const double rows[3][3] = {{1, 2, 0}, {0, 1, 1}, {2, 3, 2}};  // (a, b, c) per row
  for (int i = 0; i < 3; ++i) {
    p.a.view(1, i, 2) = p.a1(i) = rows[i][0];
    p.b.view(1, i, 2) = p.b1(i) = rows[i][1];
    p.c.view(1, i, 2) = p.c1(i) = rows[i][2];
  }
  p.template solve<false, Backend>();
  for (std::size_t s = 0; s < 10; ++s) {
    INFO("line " << s);
    CHECK(p.info(s) == (s == 1 ? 1 : s == 7 ? 3 : 0));
  }
  p.template solve<true, Backend>();
  for (std::size_t s = 0; s < 10; ++s) CHECK(p.info(s) == 3);
}

}  // namespace

TEST_CASE("solve_along(periodic) in double: every axis and array layout, full and shared",
          "[axis][periodic]") {
  check_both_backends<double, double>();
}

TEST_CASE("solve_along(periodic) in float", "[axis][periodic]") {
  check_both_backends<float, float>();
}

TEST_CASE("solve_along(periodic) in complex<double>", "[axis][periodic][complex]") {
  check_both_backends<cdouble, cdouble>();
}

TEST_CASE("solve_along(periodic) with complex d over real coefficients",
          "[axis][periodic][complex]") {
  check_both_backends<double, cdouble>();
}

TEST_CASE("solve_along(periodic) of 2-D and 4-D arrays and lines of 1 to 3 rows equal the "
          "batched solve(periodic)",
          "[axis][periodic][edges]") {
  check_short_lines<host_backend>("host backend");
  check_short_lines<device_backend>("device backend");
}

TEST_CASE("solve_along(periodic) reports each failing line's code on its line number",
          "[axis][periodic][info]") {
  check_info_codes<host_backend>("host backend");
  check_info_codes<device_backend>("device backend");
}

TEST_CASE("solve_along(periodic) rejects bad arguments with the function's name",
          "[axis][periodic][errors]") {
  using view3 = Kokkos::View<double***, Kokkos::HostSpace>;
  const Kokkos::DefaultHostExecutionSpace exec;
  view3 a("a", 4, 5, 6), b("b", 4, 5, 6), c("c", 4, 5, 6), d("d", 4, 5, 6), small("s", 4, 5, 5);
  Kokkos::View<double*, Kokkos::HostSpace> line("line", 4);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", 30), short_info("info", 29);
  // The message of the std::invalid_argument that f throws ("" if none).
  const auto thrown = [](const auto& f) -> std::string {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  const auto names = [](const std::string& message, const std::string& what) {
    INFO(message);
    return message.rfind("bandsolve::solve_along(periodic)", 0) == 0 &&
           message.find(what) != std::string::npos;
  };
  CHECK(names(thrown([&] { bandsolve::solve_along(exec, periodic{}, 3, a, b, c, d, info); }),
              "axis = 3"));
  CHECK(names(thrown([&] { bandsolve::solve_along(exec, periodic{}, -1, a, b, c, d, info); }),
              "axis = -1"));
  CHECK(names(thrown([&] { bandsolve::solve_along(exec, periodic{}, 0, a, small, c, d, info); }),
              "b.extent(2) = 5"));
  CHECK(names(
      thrown([&] { bandsolve::solve_along(exec, periodic{}, 0, a, b, c, d, short_info); }),
      "info.extent(0) = 29"));
  CHECK(names(
      thrown([&] { bandsolve::solve_along(exec, periodic{}, 1, line, line, line, d, info); }),
      "a.extent(0) = 4 but d.extent(1) = 5"));
  CHECK(names(thrown([&] { bandsolve::solve_along(exec, periodic{}, 0, a, b, c, a, info); }),
              "d overlaps a in memory"));
  CHECK(names(thrown([&] {
                bandsolve::solve_along(exec, periodic{}, 2, a, b, c, d, info, device_backend{});
              }),
              "info.extent(0) = 30 but d has 20 lines along axis 2"));
}
