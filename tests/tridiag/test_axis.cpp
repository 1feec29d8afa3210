// Thomas along any axis of 2-D, 3-D and 4-D Views (solve_along, solve_along_add): every axis of
// several shapes, in LayoutRight, LayoutLeft and LayoutStride (padded subviews in both orders, and
// strides with no unit-stride axis at all), full and shared (per-line) coefficients, float and
// double, on the tests' host space, through the host backends and (solve_along) the
// device backend's kernels. Each line is checked against bandsolve::solve
// (thomas) on the extracted systems and against LAPACK ?gtsv; padding and inputs must stay
// bitwise untouched; info codes land on the documented system numbers; bad arguments throw
// messages that name the values.
#include "column_runs.hpp"
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace test_axis {  // units compile in groups: tests/CMakeLists.txt

using bandsolve::index_t;
using bandsolve::algo::thomas;
using bstest::host_batch;

namespace {

// Builds that change how doubles are packed (test_axis_avx2_packing.cpp,
// test_axis_register_sweep.cpp) define BSTEST_DOUBLES_ONLY and rerun the double cases alone.
#if defined(BSTEST_DOUBLES_ONLY)
#define BSTEST_SCALARS double
#else
#define BSTEST_SCALARS float, double
#endif

using extents = std::array<std::size_t, 4>;

template <class T, int R>
struct nd_data;
template <class T>
struct nd_data<T, 2> {
  using type = T**;
};
template <class T>
struct nd_data<T, 3> {
  using type = T***;
};
template <class T>
struct nd_data<T, 4> {
  using type = T****;
};

// How an N-D array sits in its buffer.
enum class kind { right, left, padded_right, padded_left, spread };

const char* kind_name(kind k) {
  switch (k) {
    case kind::right: return "LayoutRight";
    case kind::left: return "LayoutLeft";
    case kind::padded_right: return "LayoutStride (padded subview, last axis fastest)";
    case kind::padded_left: return "LayoutStride (padded subview, first axis fastest)";
    case kind::spread: return "LayoutStride (no unit stride, axis 1 fastest, gaps)";
  }
  return "?";
}

template <kind K>
using array_layout_of = std::conditional_t<
    K == kind::right, Kokkos::LayoutRight,
    std::conditional_t<K == kind::left, Kokkos::LayoutLeft, Kokkos::LayoutStride>>;

template <class T, int R, kind K>
using nd_view = Kokkos::View<typename nd_data<T, R>::type, array_layout_of<K>, Kokkos::HostSpace>;

// Strides, first element and size of the buffer of an array of extents e.
struct placement {
  extents s{};
  std::size_t base = 0, size = 0;
};

template <int R>
placement place(kind k, const extents& e) {
  placement p;
  std::array<int, R> order{};  // axes from fastest to slowest
  for (int m = 0; m < R; ++m) order[m] = (k == kind::right || k == kind::padded_right) ? R - 1 - m : m;
  if (k == kind::spread) {
    order[0] = 1;
    order[1] = 0;
  }
  const bool padded = k != kind::right && k != kind::left;
  std::size_t stride = k == kind::spread ? 2 : 1;
  for (int m = 0; m < R; ++m) {
    const int r = order[m];
    p.s[r] = stride;
    stride *= e[r] + (padded ? 1 + r % 3 : 0);
  }
  for (int r = 0; r < R && padded; ++r) p.base += p.s[r];  // offset 1 on every axis
  p.size = p.base + stride + (padded ? 3 : 0);
  return p;
}

// An N-D View over its own buffer, the buffer filled with a sentinel before the values go in.
template <class T, int R, kind K>
struct nd_array {
  Kokkos::View<T*, Kokkos::HostSpace> buffer;
  placement where;
  extents e{};
  nd_view<T, R, K> view;

  explicit nd_array(const extents& e_) : where(place<R>(K, e_)), e(e_) {
    buffer = Kokkos::View<T*, Kokkos::HostSpace>("buffer", where.size);
    for (std::size_t k = 0; k < where.size; ++k) buffer(k) = T(-1000) - T(k % 17);
    T* p = buffer.data() + where.base;
    if constexpr (K == kind::right || K == kind::left) {
      if constexpr (R == 2) view = nd_view<T, R, K>(p, e[0], e[1]);
      if constexpr (R == 3) view = nd_view<T, R, K>(p, e[0], e[1], e[2]);
      if constexpr (R == 4) view = nd_view<T, R, K>(p, e[0], e[1], e[2], e[3]);
    } else {
      const extents& s = where.s;
      if constexpr (R == 2) view = nd_view<T, R, K>(p, Kokkos::LayoutStride(e[0], s[0], e[1], s[1]));
      if constexpr (R == 3)
        view = nd_view<T, R, K>(p, Kokkos::LayoutStride(e[0], s[0], e[1], s[1], e[2], s[2]));
      if constexpr (R == 4)
        view = nd_view<T, R, K>(
            p, Kokkos::LayoutStride(e[0], s[0], e[1], s[1], e[2], s[2], e[3], s[3]));
    }
    // The View's strides are the planned ones (the unpadded layouts included).
    for (int r = 0; r < R; ++r) REQUIRE(view.stride(r) == where.s[r]);
  }
  T& at(const extents& i) const {
    std::size_t off = where.base;
    for (int r = 0; r < R; ++r) off += i[r] * where.s[r];
    return buffer(off);
  }
  std::vector<T> raw() const { return std::vector<T>(buffer.data(), buffer.data() + where.size); }
  // Buffer offsets outside the array (padding and gaps).
  std::vector<bool> inside() const {
    std::vector<bool> in(where.size, false);
    for_each_index<R>(e, [&](const extents& idx) {
      std::size_t off = where.base;
      for (int r = 0; r < R; ++r) off += idx[r] * where.s[r];
      in[off] = true;
    });
    return in;
  }

  template <int Rank, class F>
  static void for_each_index(const extents& ext, F&& f) {
    std::size_t total = 1;
    for (int r = 0; r < Rank; ++r) total *= ext[r];
    for (std::size_t k = 0; k < total; ++k) {
      extents idx{};
      std::size_t rest = k;
      for (int r = Rank - 1; r >= 0; --r) {
        idx[r] = rest % ext[r];
        rest /= ext[r];
      }
      f(idx);
    }
  }
};

// Index of row i of line (system) s along `axis`: the documented numbering, batch indices in
// axis order, last fastest.
template <int R>
extents line_index(const extents& e, int axis, std::size_t s, std::size_t i) {
  extents idx{};
  for (int r = R - 1; r >= 0; --r) {
    if (r == axis) continue;
    idx[r] = s % e[r];
    s /= e[r];
  }
  idx[axis] = i;
  return idx;
}

template <int R>
std::size_t lines_along(const extents& e, int axis) {
  std::size_t nsys = 1;
  for (int r = 0; r < R; ++r)
    if (r != axis) nsys *= e[r];
  return nsys;
}

template <class T, int R, kind K>
void scatter(const nd_array<T, R, K>& x, const std::vector<T>& h, int axis) {
  const std::size_t n = x.e[axis], nsys = lines_along<R>(x.e, axis);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i) x.at(line_index<R>(x.e, axis, s, i)) = h[s * n + i];
}

template <class T, int R, kind K>
std::vector<T> gather(const nd_array<T, R, K>& x, int axis) {
  const std::size_t n = x.e[axis], nsys = lines_along<R>(x.e, axis);
  std::vector<T> h(nsys * n);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i) h[s * n + i] = x.at(line_index<R>(x.e, axis, s, i));
  return h;
}

// Bitwise equality of the buffer outside the array (padding, gaps).
template <class T, int R, kind K>
bool padding_untouched(const nd_array<T, R, K>& x, const std::vector<T>& before) {
  const auto now = x.raw();
  const auto in = x.inside();
  for (std::size_t k = 0; k < now.size(); ++k)
    if (!in[k] && std::memcmp(&now[k], &before[k], sizeof(T)) != 0) return false;
  return true;
}

// Thomas on the extracted systems (row layout, Serial): the reference the N-D solve must match.
template <class T>
std::vector<T> thomas_reference(const host_batch<T>& p) {
  auto a = bstest::to_device<bandsolve::layout::row, T>("a", p.a, p.nsys, p.n);
  auto b = bstest::to_device<bandsolve::layout::row, T>("b", p.b, p.nsys, p.n);
  auto c = bstest::to_device<bandsolve::layout::row, T>("c", p.c, p.nsys, p.n);
  auto d = bstest::to_device<bandsolve::layout::row, T>("d", p.d, p.nsys, p.n);
  auto info = bstest::make_info(p.nsys);
  bandsolve::solve(Kokkos::DefaultHostExecutionSpace(), thomas{}, a, b, c, d, info);
  Kokkos::fence();
  REQUIRE(bstest::info_to_host(info) == std::vector<int>(p.nsys, 0));
  return bstest::to_host(d, p.nsys);
}

// max |got - (u0 + x)| / max(|u0| + |x|): the increment against u0 plus a reference x.
template <class T>
double add_error(const std::vector<T>& got, const std::vector<T>& u0, const std::vector<T>& x) {
  double err = 0, scale = std::numeric_limits<double>::min();
  for (std::size_t k = 0; k < got.size(); ++k) {
    if (!std::isfinite(double(got[k]))) return std::numeric_limits<double>::infinity();
    err = std::max(err, std::abs(double(got[k]) - (double(u0[k]) + double(x[k]))));
    scale = std::max(scale, std::abs(double(u0[k])) + std::abs(double(x[k])));
  }
  return err / scale;
}

// One solve along `axis` of an array of extents e: d (and u) in kind KD, full coefficients in
// kind KC (ignored when Shared: then rank-1 coefficient Views of length n). Device: through the
// device backend's kernels (backend::device{}).
template <class T, int R, kind KD, kind KC, bool Shared, bool Add, class Exec, bool Device = false>
void check_case(Exec exec, const extents& e, int axis, std::uint32_t seed) {
  // Calls solve_along or solve_along_add (u given) on the chosen backend.
  const auto along = [&](const auto& a, const auto& b, const auto& c, const auto& d,
                         const auto& info) {
    if constexpr (Device)
      bandsolve::solve_along(exec, thomas{}, axis, a, b, c, d, info, bandsolve::backend::device{});
    else
      bandsolve::solve_along(exec, thomas{}, axis, a, b, c, d, info);
  };
  const auto along_add = [&](const auto& a, const auto& b, const auto& c, const auto& d,
                             const auto& u, const auto& info) {
    if constexpr (Device)
      bandsolve::solve_along_add(exec, thomas{}, axis, a, b, c, d, u, info,
                                 bandsolve::backend::device{});
    else
      bandsolve::solve_along_add(exec, thomas{}, axis, a, b, c, d, u, info);
  };
  const std::size_t n = e[axis], nsys = lines_along<R>(e, axis);
  INFO("rank " << R << ", extents " << e[0] << " x " << e[1] << (R > 2 ? " x " : "")
               << (R > 2 ? std::to_string(e[2]) : "") << (R > 3 ? " x " : "")
               << (R > 3 ? std::to_string(e[3]) : "") << ", axis " << axis << ", d: "
               << kind_name(KD) << ", coefficients: "
               << (Shared ? std::string("shared rank-1") : std::string(kind_name(KC)))
               << (Add ? ", solve_along_add" : ", solve_along") << (Device ? " (device)" : "")
               << ", " << Exec::name()
               << ", seed " << seed);
  host_batch<T> p = bstest::random_dominant<T>(nsys, n, seed);
  if (Shared)  // one matrix for every line
    for (std::size_t s = 1; s < nsys; ++s)
      for (std::size_t i = 0; i < n; ++i) {
        p.a[p.idx(s, i)] = p.a[i];
        p.b[p.idx(s, i)] = p.b[i];
        p.c[p.idx(s, i)] = p.c[i];
      }
  const std::vector<T> u0 = bstest::random_rhs<T>(nsys, n, seed + 7);

  nd_array<T, R, KD> d(e), u(e);
  scatter(d, p.d, axis);
  scatter(u, u0, axis);
  const auto d_before = d.raw(), u_before = u.raw();
  auto info = bstest::make_info(nsys);

  std::vector<T> out_raw_before;
  if constexpr (Shared) {
    Kokkos::View<T*, Kokkos::HostSpace> a("a", n), b("b", n), c("c", n);
    for (std::size_t i = 0; i < n; ++i) {
      a(i) = p.a[i];
      b(i) = p.b[i];
      c(i) = p.c[i];
    }
    if (n > 0) {  // ignored entries: a[0] and c[n-1] may hold anything
      a(0) = std::numeric_limits<T>::quiet_NaN();
      c(n - 1) = std::numeric_limits<T>::quiet_NaN();
    }
    if constexpr (Add)
      along_add(a, b, c, d.view, u.view, info);
    else
      along(a, b, c, d.view, info);
  } else {
    nd_array<T, R, KC> a(e), b(e), c(e);
    scatter(a, p.a, axis);
    scatter(b, p.b, axis);
    scatter(c, p.c, axis);
    for (std::size_t s = 0; s < nsys && n > 0; ++s) {  // ignored entries may hold anything
      a.at(line_index<R>(e, axis, s, 0)) = std::numeric_limits<T>::quiet_NaN();
      c.at(line_index<R>(e, axis, s, n - 1)) = std::numeric_limits<T>::quiet_NaN();
    }
    const auto a0 = a.raw(), b0 = b.raw(), c0 = c.raw();
    if constexpr (Add)
      along_add(a.view, b.view, c.view, d.view, u.view, info);
    else
      along(a.view, b.view, c.view, d.view, info);
    exec.fence();
    CHECK(bstest::bitwise_equal(a.raw(), a0));
    CHECK(bstest::bitwise_equal(b.raw(), b0));
    CHECK(bstest::bitwise_equal(c.raw(), c0));
  }
  exec.fence();
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));

  const auto x_thomas = thomas_reference(p);
  const auto x_lapack = bstest::reference_solve(p);
  // The shared form solves with stored factors (r d - l d'), one rounding apart from the
  // one-shot recurrence: factored_tol, as for thomas_factorization. The device kernels'
  // register chunks reassociate the recurrence: within the same bound.
  const double tol_thomas = bstest::factored_tol<T>(), tol_lapack = bstest::lapack_tol<T>();
  if constexpr (Add) {
    const auto got = gather(u, axis);
    CHECK(add_error(got, u0, x_thomas) <= tol_thomas);
    CHECK(add_error(got, u0, x_lapack) <= tol_lapack);
    CHECK(bstest::bitwise_equal(d.raw(), d_before));  // d is only read
    CHECK(padding_untouched(u, u_before));
  } else {
    const auto got = gather(d, axis);
    CHECK(bstest::max_rel_diff(got, x_thomas, nsys, n) <= tol_thomas);
    CHECK(bstest::max_rel_diff(got, x_lapack, nsys, n) <= tol_lapack);
    CHECK(bstest::max_residual(p, got) <= bstest::residual_tol<T>());
    CHECK(padding_untouched(d, d_before));
    CHECK(bstest::bitwise_equal(u.raw(), u_before));
  }
}

// Every axis of shape e, in every placement of d, both coefficient forms, both variants.
template <class T, int R>
void check_every_axis(const extents& e, std::uint32_t& seed) {
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    for (int axis = 0; axis < R; ++axis) {
      check_case<T, R, kind::right, kind::right, false, false>(exec, e, axis, seed++);
      check_case<T, R, kind::left, kind::left, false, true>(exec, e, axis, seed++);
      check_case<T, R, kind::padded_right, kind::padded_right, false, false>(exec, e, axis, seed++);
      check_case<T, R, kind::padded_right, kind::padded_left, false, true>(exec, e, axis, seed++);
      check_case<T, R, kind::padded_left, kind::padded_left, false, false>(exec, e, axis, seed++);
      check_case<T, R, kind::spread, kind::spread, false, false>(exec, e, axis, seed++);
      check_case<T, R, kind::right, kind::left, false, false>(exec, e, axis, seed++);
      check_case<T, R, kind::padded_left, kind::right, false, true>(exec, e, axis, seed++);
      check_case<T, R, kind::padded_right, kind::right, true, false>(exec, e, axis, seed++);
      check_case<T, R, kind::padded_right, kind::right, true, true>(exec, e, axis, seed++);
      check_case<T, R, kind::left, kind::right, true, false>(exec, e, axis, seed++);
      check_case<T, R, kind::padded_left, kind::right, true, true>(exec, e, axis, seed++);
      check_case<T, R, kind::spread, kind::right, true, true>(exec, e, axis, seed++);
      check_case<T, R, kind::spread, kind::spread, false, true>(exec, e, axis, seed++);
    }
    (void)sizeof(Exec);
  });
}


#if !defined(BSTEST_DOUBLES_ONLY)
// Every axis of shape e through the device backend's kernels, on the host execution spaces: the
// placements that give lines a thread each, lines in row tiles (unit-stride axis) and rank-4
// batch axes that do not fold (padded, spread), full and shared coefficients, solve_along and
// solve_along_add; with register chunks and without (chunked_thomas off: the per-line and
// row-tile kernels), and with register chunks through tiles in team scratch where the lines'
// rows are contiguous (chunk_stage_rows_on_host, as on a device).
template <class T, int R>
void check_every_axis_device(const extents& e, std::uint32_t& seed) {
  namespace dev = bandsolve::detail::device;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    for (const int pass : {0, 1, 2}) {
      const bool chunks = pass != 1;
      INFO("register chunks " << (chunks ? "on" : "off") << (pass == 2 ? ", tiles" : ""));
      const bool saved = dev::chunked_thomas;
      dev::chunked_thomas = chunks;
      dev::chunk_stage_rows_on_host = pass == 2;
      for (int axis = 0; axis < R; ++axis) {
        check_case<T, R, kind::right, kind::right, false, false, Exec, true>(exec, e, axis, seed++);
        check_case<T, R, kind::left, kind::left, false, false, Exec, true>(exec, e, axis, seed++);
        check_case<T, R, kind::padded_right, kind::padded_left, false, false, Exec, true>(
            exec, e, axis, seed++);
        check_case<T, R, kind::spread, kind::spread, false, false, Exec, true>(exec, e, axis,
                                                                                seed++);
        check_case<T, R, kind::padded_left, kind::right, true, false, Exec, true>(exec, e, axis,
                                                                                  seed++);
        check_case<T, R, kind::left, kind::right, false, true, Exec, true>(exec, e, axis, seed++);
        check_case<T, R, kind::spread, kind::right, true, true, Exec, true>(exec, e, axis, seed++);
      }
      dev::chunked_thomas = saved;
      dev::chunk_stage_rows_on_host = false;
    }
  });
}
#endif
}  // namespace

// Extents chosen so that lines along the unit-stride batch axis are not a multiple of the pack
// widths (lane-contiguous packs of 64 doubles / 128 floats, gathered packs of 32 / 64) and span
// several packs, plus n = 1, 2, 3 on some axis of every rank.
TEMPLATE_TEST_CASE("solve_along matches Thomas and LAPACK along every axis of 2-D arrays",
                   "[axis][lapack]", BSTEST_SCALARS) {
  std::uint32_t seed = 100;
  check_every_axis<TestType, 2>({67, 9, 0, 0}, seed);
  check_every_axis<TestType, 2>({3, 133, 0, 0}, seed);
  check_every_axis<TestType, 2>({1, 2, 0, 0}, seed);
}

TEMPLATE_TEST_CASE("solve_along matches Thomas and LAPACK along every axis of 3-D arrays",
                   "[axis][lapack]", BSTEST_SCALARS) {
  std::uint32_t seed = 200;
  check_every_axis<TestType, 3>({7, 5, 67}, seed);
  check_every_axis<TestType, 3>({66, 3, 2}, seed);
  check_every_axis<TestType, 3>({3, 2, 1}, seed);
}

// A lane extent that is a multiple of the lane-contiguous pack width (64 doubles, 128 floats):
// every pack is full and the full-coefficient solve goes through chains of packs, two in flight
// (40 or more packs along axes 0 and 1, so several per chain on up to 2 threads).
TEMPLATE_TEST_CASE("solve_along through chains of full packs matches Thomas and LAPACK",
                   "[axis][lapack][chain]", BSTEST_SCALARS) {
  std::uint32_t seed = 250;
  check_every_axis<TestType, 3>({5, 40, 128}, seed);
}

// Many long lines whose rows are lane-contiguous take the column runs of solve(thomas) (runs of
// 8 KiB of every row from 256 rows, 2 KiB from 512 doubles or 2048 floats; at least two per
// thread), in solve_along and solve_along_add: along x of a contiguous LayoutRight cube (y folded
// into the lane axis), along z of a LayoutLeft one, and along x of a padded cube, whose lane rows
// (z alone) end in a partial run.
// Float lines of 2 KiB runs (2049 rows) take one placement: the runs' width is the only change.
// Not rerun by the builds that repack doubles (BSTEST_DOUBLES_ONLY): runs keep their width there.
#if !defined(BSTEST_DOUBLES_ONLY)
TEMPLATE_TEST_CASE("solve_along in column runs matches Thomas and LAPACK", "[axis][lapack][runs]",
                   float, double) {
  using T = TestType;
  std::uint32_t seed = 270;
  bstest::for_each_exec([&](auto exec) {
    if (!bstest::runs_fill_threads_of(exec)) return;
    const std::size_t long_below = bstest::short_runs_from_rows<T>;
    for (const std::size_t n : {std::size_t(300), long_below + 1}) {
      const auto [runs, row] = bstest::lines_in_runs_of<T>(n, exec.concurrency());
      check_case<T, 3, kind::right, kind::right, false, false>(exec, {n, runs, row, 0}, 0, seed++);
      if (n > long_below && sizeof(T) < 8) continue;
      check_case<T, 3, kind::right, kind::right, false, true>(exec, {n, runs, row, 0}, 0, seed++);
      check_case<T, 3, kind::padded_right, kind::padded_right, false, false>(
          exec, {n, runs, row, 0}, 0, seed++);
      if (n < long_below && sizeof(T) >= 8)  // the same runs with x as the lane axis
        check_case<T, 3, kind::left, kind::left, false, false>(exec, {row, runs, n, 0}, 2, seed++);
    }
  });
}
#endif

TEMPLATE_TEST_CASE("solve_along matches Thomas and LAPACK along every axis of 4-D arrays",
                   "[axis][lapack]", BSTEST_SCALARS) {
  std::uint32_t seed = 300;
  check_every_axis<TestType, 4>({3, 4, 5, 35}, seed);
  check_every_axis<TestType, 4>({34, 2, 3, 1}, seed);
}

#if !defined(BSTEST_DOUBLES_ONLY)
#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEMPLATE_TEST_CASE("solve_along on the device backend matches Thomas and LAPACK on every axis",
                   "[axis][lapack][device]", float, double) {
  std::uint32_t seed = 400;
  check_every_axis_device<TestType, 2>({3, 133, 0, 0}, seed);
  check_every_axis_device<TestType, 3>({7, 5, 67}, seed);
  check_every_axis_device<TestType, 4>({3, 4, 5, 35}, seed);
  check_every_axis_device<TestType, 4>({34, 2, 3, 1}, seed);
}
#endif
#endif

// Along x of a contiguous LayoutRight cube the lines of all y form one lane row (as columns do):
// 12 x 90 lines in packs of W (64 doubles, 128 floats) that run across y, the last one partial.
// The cube starts 0 .. 2W-1 elements into its buffers (the packs' runs at every offset from a
// pack-sized boundary); bad pivots in the first, a middle and the last line report on their
// numbers, and nothing outside the cube is written (solve_along and solve_along_add).
TEMPLATE_TEST_CASE("solve_along x of a contiguous cube: y folded into the lane axis",
                   "[axis][lapack]", BSTEST_SCALARS) {
  using T = TestType;
  constexpr std::size_t W = 512 / sizeof(T), n = 4, ny = 12, nz = 90, nsys = ny * nz;
  using Cube = Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  auto p = bstest::random_dominant<T>(nsys, n, 77);
  const std::vector<int> expected = bstest::zero_pivots_first_middle_last(p);
  const auto u0 = bstest::random_rhs<T>(nsys, n, 78);
  const auto x_ref = bstest::reference_solve(p);
  const auto failed = [&] {
    std::vector<bool> f(nsys);
    for (std::size_t s = 0; s < nsys; ++s) f[s] = expected[s] != 0;
    return f;
  }();
  const T sentinel = T(-777);
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    for (std::size_t off = 0; off < 2 * W; ++off) {
      INFO(Exec::name() << ", cube at element " << off << " of its buffers");
      const std::size_t size = off + n * nsys + W;
      std::vector<Kokkos::View<T*, Kokkos::HostSpace>> buf;
      for (const char* name : {"a", "b", "c", "d", "u"}) {
        buf.emplace_back(std::string(name), size);
        Kokkos::deep_copy(buf.back(), sentinel);
      }
      // Element (i, y, z) of line s = y*nz + z, row i: off + i*nsys + s, as in p's column order.
      const std::vector<T>* values[5] = {&p.a, &p.b, &p.c, &p.d, &u0};
      for (int k = 0; k < 5; ++k)
        for (std::size_t s = 0; s < nsys; ++s)
          for (std::size_t i = 0; i < n; ++i) buf[k](off + i * nsys + s) = (*values[k])[s * n + i];
      const auto cube = [&](int k) { return Cube(buf[k].data() + off, n, ny, nz); };
      auto info = bstest::make_info(nsys), info_add = bstest::make_info(nsys);
      bandsolve::solve_along_add(exec, thomas{}, 0, cube(0), cube(1), cube(2), cube(3), cube(4),
                                 info_add);
      bandsolve::solve_along(exec, thomas{}, 0, cube(0), cube(1), cube(2), cube(3), info);
      exec.fence();
      CHECK(bstest::info_to_host(info) == expected);
      CHECK(bstest::info_to_host(info_add) == expected);
      std::vector<T> x(nsys * n), u_ok, u0_ok, x_ok;  // *_ok: the lines that did not fail
      for (std::size_t s = 0; s < nsys; ++s)
        for (std::size_t i = 0; i < n; ++i) {
          x[s * n + i] = buf[3](off + i * nsys + s);
          if (failed[s]) continue;
          u_ok.push_back(buf[4](off + i * nsys + s));
          u0_ok.push_back(u0[s * n + i]);
          x_ok.push_back(x_ref[s * n + i]);
        }
      CHECK(bstest::max_rel_diff(x, x_ref, nsys, n, failed) <= bstest::lapack_tol<T>());
      CHECK(add_error(u_ok, u0_ok, x_ok) <= bstest::lapack_tol<T>());
      std::size_t written_outside = 0;
      for (int k = 0; k < 5; ++k)
        for (std::size_t e = 0; e < size; ++e)
          if ((e < off || e >= off + n * nsys) && !(buf[k](e) == sentinel)) ++written_outside;
      CHECK(written_outside == 0);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Info codes on the documented system numbers.

TEMPLATE_TEST_CASE("solve_along reports bad pivots on the documented system numbers",
                   "[axis][info]", BSTEST_SCALARS) {
  using T = TestType;
  const extents e = {5, 7, 70, 0};  // lines along axis 1: system ix*70 + iz
  constexpr int axis = 1;
  const std::size_t n = e[axis], nsys = lines_along<3>(e, axis);
  auto p = bstest::random_dominant<T>(nsys, n, 11);
  std::vector<int> expected(nsys, 0);
  // Line (2, :, 65) (in the partial second pack of 64 lanes): b[0] = 0 -> info 1.
  const std::size_t s1 = 2 * 70 + 65;
  p.b[p.idx(s1, 0)] = T(0);
  expected[s1] = 1;
  // Line (4, :, 3): row 4 all zero -> pivot 0 at row 4 -> info 5.
  const std::size_t s2 = 4 * 70 + 3;
  p.a[p.idx(s2, 4)] = T(0);
  p.b[p.idx(s2, 4)] = T(0);
  p.c[p.idx(s2, 4)] = T(0);
  expected[s2] = 5;
  std::vector<bool> skip(nsys, false);
  skip[s1] = skip[s2] = true;
  const auto ref = bstest::reference_solve(p);

  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    INFO(Exec::name());
    // Full coefficients, LayoutRight (lane-contiguous packs) and LayoutLeft with the solve axis
    // gathered (axis 0 is the unit-stride batch axis there).
    nd_array<T, 3, kind::right> a(e), b(e), c(e), d(e);
    nd_array<T, 3, kind::padded_left> dl(e);
    scatter(a, p.a, axis);
    scatter(b, p.b, axis);
    scatter(c, p.c, axis);
    scatter(d, p.d, axis);
    scatter(dl, p.d, axis);
    auto info = bstest::make_info(nsys), info_left = bstest::make_info(nsys);
    bandsolve::solve_along(exec, thomas{}, axis, a.view, b.view, c.view, d.view, info);
    bandsolve::solve_along(exec, thomas{}, axis, a.view, b.view, c.view, dl.view, info_left);
    exec.fence();
    CHECK(bstest::info_to_host(info) == expected);
    CHECK(bstest::info_to_host(info_left) == expected);
    CHECK_THROWS_WITH(bandsolve::throw_if_failed("along y", info),
                      Catch::Matchers::StartsWith("along y: system 205 of 350 failed: "));
    CHECK(bstest::max_rel_diff(gather(d, axis), ref, nsys, n, skip) <= bstest::lapack_tol<T>());
    CHECK(bstest::max_rel_diff(gather(dl, axis), ref, nsys, n, skip) <= bstest::lapack_tol<T>());

    // Shared coefficients: one singular matrix, every line reports it.
    Kokkos::View<T*, Kokkos::HostSpace> sa("a", n), sb("b", n), sc("c", n);
    Kokkos::deep_copy(sb, T(4));
    Kokkos::deep_copy(sa, T(1));
    Kokkos::deep_copy(sc, T(1));
    sb(3) = T(0);
    sa(3) = T(0);
    auto info_shared = bstest::make_info(nsys);
    bandsolve::solve_along(exec, thomas{}, axis, sa, sb, sc, d.view, info_shared);
    exec.fence();
    CHECK(bstest::info_to_host(info_shared) == std::vector<int>(nsys, 4));
#if !defined(BSTEST_DOUBLES_ONLY)
    // The device backend's kernels report on the same numbers.
    for (const bool chunks : {true, false}) {
      INFO("device backend, register chunks " << (chunks ? "on" : "off"));
      const bool saved = bandsolve::detail::device::chunked_thomas;
      bandsolve::detail::device::chunked_thomas = chunks;
      nd_array<T, 3, kind::right> dd(e);
      scatter(dd, p.d, axis);
      auto info_device = bstest::make_info(nsys), info_device_shared = bstest::make_info(nsys);
      bandsolve::solve_along(exec, thomas{}, axis, a.view, b.view, c.view, dd.view, info_device,
                             bandsolve::backend::device{});
      exec.fence();
      CHECK(bstest::info_to_host(info_device) == expected);
      CHECK(bstest::max_rel_diff(gather(dd, axis), ref, nsys, n, skip) <= bstest::lapack_tol<T>());
      bandsolve::solve_along(exec, thomas{}, axis, sa, sb, sc, dd.view, info_device_shared,
                             bandsolve::backend::device{});
      exec.fence();
      CHECK(bstest::info_to_host(info_device_shared) == std::vector<int>(nsys, 4));
      bandsolve::detail::device::chunked_thomas = saved;
    }
#endif
  });
}

// ---------------------------------------------------------------------------------------------
// Empty batches and empty lines.

TEST_CASE("solve_along with no lines or no rows", "[axis]") {
  using V3 = Kokkos::View<double***, Kokkos::HostSpace>;
  V3 d("d", 4, 0, 3), a("a", 4, 0, 3);
  auto none = bstest::make_info(0);
  bandsolve::solve_along(Kokkos::DefaultHostExecutionSpace(), thomas{}, 0, a, a, a, d, none);
  auto info = bstest::make_info(12);  // lines along axis 1: 4 * 3, each of 0 rows
  bandsolve::solve_along(Kokkos::DefaultHostExecutionSpace(), thomas{}, 1, a, a, a, d, info);
  Kokkos::fence();
  CHECK(bstest::info_to_host(info) == std::vector<int>(12, 0));
  CHECK(bstest::info_to_host(none).empty());
}

// ---------------------------------------------------------------------------------------------
// Bad arguments.

TEST_CASE("solve_along rejects bad axes and mismatched shapes with the values",
          "[axis][errors]") {
  using Catch::Matchers::Equals;
  using V3 = Kokkos::View<double***, Kokkos::HostSpace>;
  using V1 = Kokkos::View<double*, Kokkos::HostSpace>;
  const Kokkos::DefaultHostExecutionSpace exec;
  V3 a("a", 4, 5, 6), b("b", 4, 5, 6), c("c", 4, 5, 6), d("d", 4, 5, 6), u("u", 4, 5, 6);
  V3 a_bad("a", 4, 7, 6), u_bad("u", 4, 5, 2);
  V1 la("a", 5), lb("b", 5), lc_bad("c", 6);
  auto info = bstest::make_info(24);  // lines along axis 1
  const std::string sa = "bandsolve::solve_along(thomas): ";
  const std::string sadd = "bandsolve::solve_along_add(thomas): ";

  CHECK_THROWS_WITH(bandsolve::solve_along(exec, thomas{}, 3, a, b, c, d, info),
                    Equals(sa + "axis = 3 but d has rank 3 (axes 0 to 2)"));
  CHECK_THROWS_WITH(bandsolve::solve_along(exec, thomas{}, -1, a, b, c, d, info),
                    Equals(sa + "axis = -1 but d has rank 3 (axes 0 to 2)"));
  CHECK_THROWS_WITH(bandsolve::solve_along(exec, thomas{}, 1, a_bad, b, c, d, info),
                    Equals(sa + "a.extent(1) = 7 but d.extent(1) = 5"));
  CHECK_THROWS_WITH(bandsolve::solve_along(exec, thomas{}, 1, la, lb, lc_bad, d, info),
                    Equals(sa + "c.extent(0) = 6 but d.extent(1) = 5 (shared coefficients need "
                                "one value per row of the solve axis)"));
  CHECK_THROWS_WITH(bandsolve::solve_along(exec, thomas{}, 2, a, b, c, d, info),
                    Equals(sa + "info.extent(0) = 24 but d has 20 lines along axis 2 (the "
                                "product of its other extents)"));
  CHECK_THROWS_WITH(bandsolve::solve_along_add(exec, thomas{}, 1, a, b, c, d, u_bad, info),
                    Equals(sadd + "u.extent(2) = 2 but d.extent(2) = 6"));
  // The same array passed twice is named as such where the View is strided, else as an overlap.
  using Catch::Matchers::StartsWith;
  CHECK_THROWS_WITH(bandsolve::solve_along(exec, thomas{}, 1, a, b, c, a, info),
                    StartsWith(sa + "d overlaps a in memory") ||
                        StartsWith(sa + "d and a are the same array"));
  CHECK_THROWS_WITH(bandsolve::solve_along_add(exec, thomas{}, 1, a, b, c, d, d, info),
                    StartsWith(sadd + "u overlaps d in memory") ||
                        StartsWith(sadd + "u and d are the same array"));
  CHECK_THROWS_WITH(bandsolve::solve_along_add(exec, thomas{}, 1, a, b, c, d, b, info),
                    StartsWith(sadd + "u overlaps b in memory") ||
                        StartsWith(sadd + "u and b are the same array"));
  // Nothing ran: the checks come before any work.
  CHECK(bstest::info_to_host(info) == std::vector<int>(24, -12345));
}

#undef BSTEST_SCALARS

}  // namespace test_axis
