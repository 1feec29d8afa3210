// Periodic systems and systems with partial pivoting along an axis of a 2-D, 3-D or 4-D array
// (solve_along(periodic), solve_along(partial_pivoting), and solve_along_add of both, with u in
// d's order or another: the families whose kernels run on lane blocks): every axis, arrays in
// LayoutRight order, LayoutLeft order and padded subviews with no unit stride, full and shared
// coefficients, real, complex and complex d over real coefficients,
// through the host backend and the device backend's kernels. Periodic lines are diagonally
// dominant, the pivoting ones are not (their diagonal is no larger than the off-diagonals, so
// rows are interchanged). Each line's relative residual |A x - d| / (|A| |x| + |d|) is checked
// (cyclic for periodic lines), padding must stay untouched, the lines of 2-D and 4-D arrays and of
// short lines (n = 1, 2, 3) must equal the batched solve of the same systems, and failing lines get
// their codes on their documented line numbers.
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace test_axis_lane_families {  // units compile in groups: tests/CMakeLists.txt

namespace {

using bandsolve::index_t;
using bandsolve::algo::partial_pivoting;
using bandsolve::algo::periodic;
using host_backend = bandsolve::backend::default_for_t<Kokkos::DefaultHostExecutionSpace>;
using device_backend = bandsolve::backend::device;
using cdouble = Kokkos::complex<double>;

template <class Algo>
constexpr bool is_periodic_v = std::is_same_v<Algo, periodic>;
template <class Algo>
const char* algo_name() {
  return is_periodic_v<Algo> ? "periodic" : "partial_pivoting";
}

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
// hashed from `stream` and shifted by `shift` (a dominant diagonal: 4).
template <class T, std::size_t R>
struct array {
  Kokkos::View<T*, Kokkos::HostSpace> buffer;
  typename strided_of<T, R>::type view;

  array(kind k, const index_array<R>& e, int stream, double shift = 0) {
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
      entry(view, at) = hashed<T>(q, stream) + T(bandsolve::real_type_t<T>(shift));
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

// Of the relative residual.
template <class T>
double tolerance() {
  return std::is_same_v<bandsolve::real_type_t<T>, float> ? 1e-5 : 1e-13;
}

// The coefficients and right-hand sides of one solve along `axis` of an array of extents e with
// Algo: full arrays of kind k and rank-1 shared ones (a dominant diagonal for periodic lines), d
// and a copy of it.
template <class Algo, class C, class D, std::size_t R>
struct problem {
  static constexpr double shift = is_periodic_v<Algo> ? 4 : 0;
  index_array<R> e;
  int axis;
  std::size_t n;
  array<C, R> a, b, c;
  array<D, R> d, d0;
  Kokkos::View<C*, Kokkos::HostSpace> a1, b1, c1;
  Kokkos::View<int*, Kokkos::HostSpace> info;

  problem(kind k, const index_array<R>& extents, int solve_axis)
      : e(extents), axis(solve_axis), n(extents[static_cast<std::size_t>(solve_axis)]),
        a(k, e, 0), b(k, e, 1, shift), c(k, e, 2), d(k, e, 3), d0(k, e, 3), a1("a1", n),
        b1("b1", n),
        c1("c1", n), info("info", d.view.size() / (n > 0 ? n : 1)) {
    for (std::size_t i = 0; i < n; ++i)
      a1(i) = hashed<C>(i, 5), b1(i) = hashed<C>(i, 6) + C(bandsolve::real_type_t<C>(shift)),
      c1(i) = hashed<C>(i, 7);
    Kokkos::deep_copy(info, -1);
  }

  template <bool Shared, class Backend>
  void solve() {
    bstest::for_each_exec([&](auto exec) {
      Kokkos::deep_copy(d.view, d0.view);
      if constexpr (Shared)
        bandsolve::solve_along(exec, Algo{}, axis, a1, b1, c1, d.view, info, Backend{});
      else
        bandsolve::solve_along(exec, Algo{}, axis, a.view, b.view, c.view, d.view, info,
                               Backend{});
      exec.fence();
    });
  }

  // solve_along_add with d a View of const and u of order u_kind (entries hashed, u0 a copy):
  // x = u - u0 is left in d for largest_residual. Returns whether d was left unchanged and u's
  // padding untouched on every execution space.
  template <bool Shared, class Backend>
  bool solve_add(kind u_kind) {
    array<D, R> u(u_kind, e, 4), u0(u_kind, e, 4);
    bool kept = true;
    bstest::for_each_exec([&](auto exec) {
      Kokkos::deep_copy(d.view, d0.view);
      Kokkos::deep_copy(u.view, u0.view);
      const typename decltype(d.view)::const_type d_in = d.view;
      if constexpr (Shared)
        bandsolve::solve_along_add(exec, Algo{}, axis, a1, b1, c1, d_in, u.view, info,
                                   Backend{});
      else
        bandsolve::solve_along_add(exec, Algo{}, axis, a.view, b.view, c.view, d_in, u.view,
                                   info, Backend{});
      exec.fence();
      for_each_index<R>(e, [&](const index_array<R>& at, std::size_t) {
        kept = kept && entry(d.view, at) == entry(d0.view, at);
      });
      kept = kept && u.padding_untouched();
    });
    for_each_index<R>(e, [&](const index_array<R>& at, std::size_t) {
      entry(d.view, at) = entry(u.view, at) - entry(u0.view, at);
    });
    return kept;
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

  // The largest relative residual |A x - d| / (|A| |x| + |d|) over the lines (maxima over each
  // line; cyclic for periodic lines), coefficients full or shared.
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
      double residual = 0, largest_a = 0, largest_x = 0, largest_d = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const std::complex<double> ai = coefficient(a, a1, i), bi = coefficient(b, b1, i),
                                   ci = coefficient(c, c1, i);
        std::complex<double> ax = bi * of(d.view, at, i);
        if (is_periodic_v<Algo>) {
          ax += ai * of(d.view, at, (i + n - 1) % n) + ci * of(d.view, at, (i + 1) % n);
        } else {
          if (i > 0) ax += ai * of(d.view, at, i - 1);
          if (i + 1 < n) ax += ci * of(d.view, at, i + 1);
        }
        residual = std::max(residual, std::abs(ax - of(d0.view, at, i)));
        largest_a = std::max({largest_a, std::abs(ai) + std::abs(bi) + std::abs(ci)});
        largest_x = std::max(largest_x, std::abs(of(d.view, at, i)));
        largest_d = std::max(largest_d, std::abs(of(d0.view, at, i)));
      }
      const double relative = residual / (largest_a * largest_x + largest_d);
      if (!(relative <= worst)) worst = std::isnan(relative) ? 1e300 : relative;
    });
    return worst;
  }
};

template <class Algo, class C, class D, bool Shared, class Backend>
void check_residuals(kind k, int axis, const index_array<3>& extents = {5, 11, 7}) {
  problem<Algo, C, D, 3> p(k, extents, axis);
  p.template solve<Shared, Backend>();
  for (std::size_t s = 0; s < p.info.extent(0); ++s) CHECK(p.info(s) == 0);
  CHECK(p.d.padding_untouched());
  CHECK(p.template largest_residual<Shared>() <= tolerance<D>());
}

// solve_along_add with u of order u_kind: d unchanged, u's padding untouched, u - u0 solves every
// line.
template <class Algo, class C, class D, bool Shared, class Backend>
void check_add_residuals(kind k, kind u_kind, int axis,
                         const index_array<3>& extents = {5, 11, 7}) {
  INFO("solve_along_add, u " << kind_name(u_kind) << (Shared ? ", shared" : ", full"));
  problem<Algo, C, D, 3> p(k, extents, axis);
  CHECK(p.template solve_add<Shared, Backend>(u_kind));
  for (std::size_t s = 0; s < p.info.extent(0); ++s) CHECK(p.info(s) == 0);
  CHECK(p.template largest_residual<Shared>() <= tolerance<D>());
}

// Both coefficient forms, solve_along and solve_along_add with u in d's order and in another.
template <class Algo, class C, class D, class Backend>
void check_both_forms(kind k, int axis, const index_array<3>& extents = {5, 11, 7}) {
  const kind other = k == kind::right ? kind::left : k == kind::left ? kind::padded : kind::right;
  check_residuals<Algo, C, D, false, Backend>(k, axis, extents);
  check_residuals<Algo, C, D, true, Backend>(k, axis, extents);
  for (const kind u_kind : {k, other}) {
    check_add_residuals<Algo, C, D, false, Backend>(k, u_kind, axis, extents);
    check_add_residuals<Algo, C, D, true, Backend>(k, u_kind, axis, extents);
  }
}

template <class Algo, class C, class D, class Backend>
void check_every_case(const char* backend) {
  for (const kind k : {kind::right, kind::left, kind::padded})
    for (int axis = 0; axis < 3; ++axis) {
      INFO(algo_name<Algo>() << ", " << backend << ", " << kind_name(k) << ", axis " << axis);
      check_both_forms<Algo, C, D, Backend>(k, axis);
    }
  // Along x of a contiguous (4, 16, 9) array the 144 lines are one lane row: full packs of
  // contiguous runs for every scalar (128 float lanes), then a partial one.
  INFO(algo_name<Algo>() << ", " << backend << ", lines along x of a (4, 16, 9) array");
  check_both_forms<Algo, C, D, Backend>(kind::right, 0, {4, 16, 9});
  // Along z of a contiguous (2, 70, 5) array the lines are contiguous rows, 70 along y per pack
  // row: full staged packs for every scalar (64 float lanes), then a partial one.
  INFO(algo_name<Algo>() << ", " << backend << ", lines along z of a (2, 70, 5) array");
  check_both_forms<Algo, C, D, Backend>(kind::right, 2, {2, 70, 5});
}

template <class C, class D>
void check_both_backends() {
  check_every_case<periodic, C, D, host_backend>("host backend");
  check_every_case<periodic, C, D, device_backend>("device backend");
  check_every_case<partial_pivoting, C, D, host_backend>("host backend");
  check_every_case<partial_pivoting, C, D, device_backend>("device backend");
}

// Every line of a rank-R array against the batched solve(Algo) of the same systems in a
// row-layout batch (line s in row s), full and shared coefficients.
template <class Algo, std::size_t R, class Backend>
void check_against_batched(kind k, const index_array<R>& e, int axis) {
  problem<Algo, double, double, R> p(k, e, axis);
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
    bandsolve::solve(Kokkos::DefaultHostExecutionSpace(), Algo{}, a, b, c, x, info);
    Kokkos::fence();
    double worst = 0;  // relative to the line's largest |x|
    p.for_each_line([&](const index_array<R>& at, std::size_t s) {
      CHECK(p.info(s) == info(s));
      double diff = 0, largest = 0;
      for (std::size_t i = 0; i < n; ++i) {
        diff = std::max(diff, std::abs(p.of(p.d.view, at, i).real() - x(s, i)));
        largest = std::max(largest, std::abs(x(s, i)));
      }
      const double relative = diff / largest;
      if (!(relative <= worst)) worst = std::isnan(relative) ? 1e300 : relative;
    });
    CHECK(worst <= 1e-13);
    CHECK(p.d.padding_untouched());
  }
}

template <class Algo, class Backend>
void check_short_lines(const char* backend) {
  for (const kind k : {kind::right, kind::left, kind::padded})
    for (const std::size_t n : {1, 2, 3}) {
      INFO(algo_name<Algo>() << ", " << backend << ", " << kind_name(k) << ", n = " << n);
      check_against_batched<Algo, 2, Backend>(k, {n, 13}, 0);
      check_against_batched<Algo, 2, Backend>(k, {13, n}, 1);
      check_against_batched<Algo, 4, Backend>(k, {3, n, 2, 5}, 1);
      check_against_batched<Algo, 4, Backend>(k, {3, 4, 2, n}, 3);
    }
  for (const kind k : {kind::right, kind::left, kind::padded})
    for (int axis = 0; axis < 4; ++axis) {
      INFO(algo_name<Algo>() << ", " << backend << ", " << kind_name(k) << ", rank 4, axis "
                             << axis);
      check_against_batched<Algo, 4, Backend>(k, {4, 9, 3, 6}, axis);
    }
}

// Lines of 3 rows along axis 1 of a (2, 3, 5) array: line 1 (0, :, 1) and line 7 (1, :, 2) fail,
// every other line gets 0. Periodic: line 1 has b[0] = 0 (code 1), line 7 a regular leading
// block and a Schur complement of exactly 0 (code 3, the system of test_periodic.cpp). Partial
// pivoting: line 1 a zero first column (code 1), line 7 a diagonal matrix whose last entry is 0
// (code 3). Shared coefficients equal to line 7's give every line 3.
template <class Algo, class Backend>
void check_info_codes(const char* backend) {
  INFO(algo_name<Algo>() << ", " << backend);
  problem<Algo, double, double, 3> p(kind::right, {2, 3, 5}, 1);
  p.b.view(0, 0, 1) = 0;
  if (!is_periodic_v<Algo>) p.a.view(0, 1, 1) = 0;
  const double periodic_rows[3][3] = {{1, 2, 0}, {0, 1, 1}, {2, 3, 2}};  // (a, b, c) per row
  const double diagonal_rows[3][3] = {{0, 1, 0}, {0, 1, 0}, {0, 0, 0}};
  const auto& rows = is_periodic_v<Algo> ? periodic_rows : diagonal_rows;
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

template <class Algo>
void check_bad_arguments() {
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
  const std::string function = std::string("bandsolve::solve_along(") + algo_name<Algo>() + ")";
  const auto names = [&](const std::string& message, const std::string& what) {
    return message.rfind(function, 0) == 0 && message.find(what) != std::string::npos;
  };
  const Algo algo{};
  CHECK(names(thrown([&] { bandsolve::solve_along(exec, algo, 3, a, b, c, d, info); }),
              "axis = 3"));
  CHECK(names(thrown([&] { bandsolve::solve_along(exec, algo, -1, a, b, c, d, info); }),
              "axis = -1"));
  CHECK(names(thrown([&] { bandsolve::solve_along(exec, algo, 0, a, small, c, d, info); }),
              "b.extent(2) = 5"));
  CHECK(names(thrown([&] { bandsolve::solve_along(exec, algo, 0, a, b, c, d, short_info); }),
              "info.extent(0) = 29"));
  CHECK(names(thrown([&] { bandsolve::solve_along(exec, algo, 1, line, line, line, d, info); }),
              "a.extent(0) = 4 but d.extent(1) = 5"));
  CHECK(names(thrown([&] { bandsolve::solve_along(exec, algo, 0, a, b, c, a, info); }),
              "d overlaps a in memory"));
  CHECK(names(thrown([&] {
                bandsolve::solve_along(exec, algo, 2, a, b, c, d, info, device_backend{});
              }),
              "info.extent(0) = 30 but d has 20 lines along axis 2"));
  // solve_along_add: u against d, u apart from d and from the coefficients; nothing runs.
  view3 u("u", 4, 5, 6);
  Kokkos::deep_copy(info, -7);
  const std::string add = std::string("bandsolve::solve_along_add(") + algo_name<Algo>() + "): ";
  const auto adds = [&](const std::string& message, const std::string& what) {
    return message.rfind(add, 0) == 0 && message.find(what) != std::string::npos;
  };
  CHECK(adds(thrown([&] { bandsolve::solve_along_add(exec, algo, 0, a, b, c, d, small, info); }),
             "u.extent(2) = 5 but d.extent(2) = 6"));
  // The same array passed twice is named as such where the View is strided, else as an overlap.
  const auto same = [&](const std::string& message, const std::string& other) {
    return adds(message, "u and " + other + " are the same array") ||
           adds(message, "u overlaps " + other + " in memory");
  };
  CHECK(same(thrown([&] { bandsolve::solve_along_add(exec, algo, 0, a, b, c, d, d, info); }),
             "d"));
  CHECK(same(thrown([&] { bandsolve::solve_along_add(exec, algo, 0, a, b, c, d, b, info); }),
             "b"));
  CHECK(adds(thrown([&] { bandsolve::solve_along_add(exec, algo, 3, a, b, c, d, u, info); }),
             "axis = 3"));
  CHECK(adds(thrown([&] {
               bandsolve::solve_along_add(exec, algo, 0, a, b, c, d, u, short_info,
                                          device_backend{});
             }),
             "info.extent(0) = 29"));
  for (std::size_t s = 0; s < info.extent(0); ++s) CHECK(info(s) == -7);
}

}  // namespace

TEST_CASE("solve_along(periodic) and solve_along(partial_pivoting) in double: every axis and "
          "array layout, full and shared coefficients",
          "[axis][periodic][pivoting]") {
  check_both_backends<double, double>();
}

TEST_CASE("solve_along(periodic) and solve_along(partial_pivoting) in float",
          "[axis][periodic][pivoting]") {
  check_both_backends<float, float>();
}

TEST_CASE("solve_along(periodic) and solve_along(partial_pivoting) in complex<double>",
          "[axis][periodic][pivoting][complex]") {
  check_both_backends<cdouble, cdouble>();
}

TEST_CASE("solve_along(periodic) and solve_along(partial_pivoting) with complex d over real "
          "coefficients",
          "[axis][periodic][pivoting][complex]") {
  check_both_backends<double, cdouble>();
}

TEST_CASE("solve_along(periodic) and solve_along(partial_pivoting) of 2-D and 4-D arrays and "
          "lines of 1 to 3 rows equal the batched solves",
          "[axis][periodic][pivoting][edges]") {
  check_short_lines<periodic, host_backend>("host backend");
  check_short_lines<periodic, device_backend>("device backend");
  check_short_lines<partial_pivoting, host_backend>("host backend");
  check_short_lines<partial_pivoting, device_backend>("device backend");
}

TEST_CASE("solve_along(periodic) and solve_along(partial_pivoting) report each failing line's "
          "code on its line number",
          "[axis][periodic][pivoting][info]") {
  check_info_codes<periodic, host_backend>("host backend");
  check_info_codes<periodic, device_backend>("device backend");
  check_info_codes<partial_pivoting, host_backend>("host backend");
  check_info_codes<partial_pivoting, device_backend>("device backend");
}

TEST_CASE("solve_along(periodic) and solve_along(partial_pivoting) reject bad arguments with "
          "the function's name",
          "[axis][periodic][pivoting][errors]") {
  check_bad_arguments<periodic>();
  check_bad_arguments<partial_pivoting>();
}

}  // namespace test_axis_lane_families
