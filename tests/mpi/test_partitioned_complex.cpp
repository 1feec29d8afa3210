// Complex lines across ranks: bandsolve::mpi::solve, factorize, solve_along and factorize_along
// with Kokkos::complex<float> and Kokkos::complex<double> coefficients and right-hand sides, and
// with real coefficients and complex right-hand sides (the Fourier modes of a real operator),
// equal the single-process solves of the whole lines to rounding: every batch layout, lines with
// ends and periodic lines, even and uneven splits, both exchange schemes, lines in batches, the
// host and the device backend's local passes (run on the host), a singular line's info code, the
// words sent, and the scalar types agreed across the ranks. Run by mpiexec with 1-4 ranks.
//
// Every rank builds every row of every line from a hash of (line, global row), so it can compute
// the reference itself. Only CHECK is used: a REQUIRE failing on one rank would skip the
// collective calls that the other ranks then wait in.
#include <bandsolve/mpi.hpp>
#include <bandsolve/tridiag/periodic.hpp>
#include <bandsolve/tridiag/thomas.hpp>
#include <test_support.hpp>

#include <Kokkos_Core.hpp>
#include <catch2/catch_test_macros.hpp>
#include <mpi.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "whole_lines.hpp"
#include "mpi_test_main.hpp"

namespace test_partitioned_complex {  // units compile in groups: tests/mpi/CMakeLists.txt
namespace {  // all internal: in a group GCC warns of external templates taking internal types

namespace {

using bandsolve::index_t;
namespace layout = bandsolve::layout;
namespace bmpi = bandsolve::mpi;
using zfloat = Kokkos::complex<float>;
using zdouble = Kokkos::complex<double>;

using bstest_mpi::rank_space;
using bstest_mpi::world_rank;
using bstest_mpi::world_size;

template <class V>
V make_value(double re, double im) {
  if constexpr (bandsolve::is_complex_v<V>)
    return V(static_cast<typename V::value_type>(re), static_cast<typename V::value_type>(im));
  else
    return static_cast<V>(re);
}

template <class V>
double modulus(const V& v) {
  if constexpr (bandsolve::is_complex_v<V>)
    return std::hypot(static_cast<double>(v.real()), static_cast<double>(v.imag()));
  else
    return std::abs(static_cast<double>(v));
}

template <class V>
std::string scalar_label() {
  const std::string real = std::is_same_v<bandsolve::real_type_t<V>, float> ? "float" : "double";
  return bandsolve::is_complex_v<V> ? "complex<" + real + ">" : real;
}

// nsys lines of N rows, coefficients of type C (real or complex), right-hand sides of type D:
// diagonally dominant in modulus with margin 1; `singular`: a line whose row `singular_row` has
// a = b = c = 0; `shared`: every line has line 0's a, b, c (its own d).
template <class C, class D>
struct lines {
  std::size_t nsys, N;
  bool periodic = false;
  std::uint64_t rhs = 3;  // which hashes give d (another value: another right-hand side)
  long singular = -1;
  std::size_t singular_row = 0;
  bool shared = false;

  static double h(std::size_t s, std::size_t g, std::uint64_t which) {
    return bstest_mpi::hashed_value((s * 1000003u + g) * 32u + which);
  }
  C coef(std::size_t s, std::size_t g, int which) const {  // 0: a, 1: b, 2: c
    if (shared) s = 0;
    if (static_cast<long>(s) == singular && g == singular_row) return C(0);
    const C a = g == 0 && !periodic ? C(0) : make_value<C>(0.7 * h(s, g, 0), 0.7 * h(s, g, 5));
    const C c = g + 1 == N && !periodic ? C(0) : make_value<C>(0.7 * h(s, g, 2), 0.7 * h(s, g, 6));
    if (which == 0) return a;
    if (which == 2) return c;
    const double margin = modulus(a) + modulus(c) + 1.5 + 0.5 * h(s, g, 1);
    return make_value<C>(h(s, g, 4) < 0 ? -margin : margin, 0.8 * h(s, g, 7));
  }
  D rhs_value(std::size_t s, std::size_t g) const {
    return make_value<D>(h(s, g, 8 + rhs), h(s, g, 16 + rhs));
  }
  // The single-process Thomas (periodic) solve of the whole lines (row layout, one thread).
  std::pair<std::vector<D>, std::vector<int>> reference() const {
    using CV = Kokkos::View<C**, Kokkos::LayoutRight, Kokkos::HostSpace>;
    CV a("a", nsys, N), b("b", nsys, N), c("c", nsys, N);
    Kokkos::View<D**, Kokkos::LayoutRight, Kokkos::HostSpace> d("d", nsys, N);
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t g = 0; g < N; ++g)
        a(s, g) = coef(s, g, 0), b(s, g) = coef(s, g, 1), c(s, g) = coef(s, g, 2),
        d(s, g) = rhs_value(s, g);
    std::vector<int> codes = bstest_mpi::solve_whole_lines(periodic, a, b, c, d);
    return {std::vector<D>(d.data(), d.data() + nsys * N), codes};
  }
};

// Rows held by each of P ranks: even, or 1, 2, .., P - 1 rows and the rest on the last rank.
std::vector<std::size_t> parts(bool even, int P, std::size_t N) {
  std::vector<std::size_t> n(static_cast<std::size_t>(P));
  std::size_t used = 0;
  for (int r = 0; r < P; ++r) {
    auto& m = n[static_cast<std::size_t>(r)];
    m = even ? N / static_cast<std::size_t>(P) + (static_cast<std::size_t>(r) < N % P ? 1 : 0)
             : (r + 1 < P ? static_cast<std::size_t>(r) + 1 : N - used);
    used += m;
  }
  return n;
}

// This rank's first global row and rows under the split `sizes`.
std::pair<std::size_t, std::size_t> my_rows(const std::vector<std::size_t>& sizes) {
  const std::size_t me = static_cast<std::size_t>(world_rank());
  std::size_t g0 = 0;
  for (std::size_t r = 0; r < me; ++r) g0 += sizes[r];
  return {g0, sizes[me]};
}

// Rows i of this rank's part of each line s as a batch View in Layout, value(s, i) (strided:
// rows 1 .. m of a row-layout array with two rows of padding per system).
template <class Layout, class V, class Value>
auto local_view(const std::string& label, std::size_t nsys, std::size_t m, const Value& value) {
  if constexpr (std::is_same_v<Layout, layout::strided>) {
    Kokkos::View<V**, Kokkos::LayoutRight, Kokkos::HostSpace> base(label, nsys, m + 2);
    Kokkos::deep_copy(base, make_value<V>(1e30, -1e30));  // never read
    Kokkos::View<V**, Kokkos::LayoutStride, Kokkos::HostSpace> v =
        Kokkos::subview(base, Kokkos::ALL, Kokkos::make_pair(std::size_t(1), m + 1));
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 0; i < m; ++i) v(s, i) = value(s, i);
    return v;
  } else {
    auto v = bandsolve::make_batch<Layout, V, Kokkos::HostSpace>(label, nsys, m);
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 0; i < m; ++i)
        bandsolve::at(v, static_cast<index_t>(s), static_cast<index_t>(i)) = value(s, i);
    return v;
  }
}

// Largest |x - x_ref| / (1 + |x_ref|) over this rank's rows (row i of line s: x(s, i)) of the
// lines the reference solves.
template <class C, class D, class X>
double max_error(const lines<C, D>& L, std::size_t g0, std::size_t m, const X& x) {
  const auto [ref, ref_info] = L.reference();
  double worst = 0;
  for (std::size_t s = 0; s < L.nsys; ++s) {
    if (ref_info[s] != 0) continue;
    for (std::size_t i = 0; i < m; ++i) {
      const D r = ref[s * L.N + g0 + i];
      const double e = modulus(D(x(s, i)) - r) / (1 + modulus(r));
      if (!(e <= worst)) worst = std::isfinite(e) ? e : 1e300;  // NaN too
    }
  }
  return worst;
}

template <class D>
double tolerance() {
  return 200 * static_cast<double>(std::numeric_limits<bandsolve::real_type_t<D>>::epsilon());
}

// Words (values of d's scalar type) per line per rank that every rank's exchanges sent since
// words_sent was 0 (mpi_test_main.hpp).
double words_per_line_per_rank(std::size_t nsys) {
  long long total = bstest_mpi::words_sent;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return static_cast<double>(total) /
         static_cast<double>(nsys * static_cast<std::size_t>(world_size()));
}

// Rows of a line's reduced system: 2 per part (1 for a part of one row).
double reduced_rows(const std::vector<std::size_t>& sizes) {
  double K = 0;
  for (const auto m : sizes) K += m == 1 ? 1 : 2;
  return K;
}

// Where the local passes run: the host backend's, or the device backend's (the path of
// Kokkos::Cuda) on the host space.
enum class passes { host, device };

// One-shot solve of the lines split as `sizes`; returns this rank's info codes after checking x
// and the words sent.
template <class Layout, class Algo, passes Path, class C, class D, class Exec>
std::vector<int> one_shot(const Exec& exec, const lines<C, D>& L,
                          const std::vector<std::size_t>& sizes, const bmpi::options& opts) {
  const auto [g0, m] = my_rows(sizes);
  const auto coefficient = [&, g0 = g0, m = m](int which) {
    return local_view<Layout, C>("coefficient", L.nsys, m, [&](std::size_t s, std::size_t i) {
      return L.coef(s, g0 + i, which);
    });
  };
  auto a = coefficient(0), b = coefficient(1), c = coefficient(2);
  auto d = local_view<Layout, D>("d", L.nsys, m, [&, g0 = g0](std::size_t s, std::size_t i) {
    return L.rhs_value(s, g0 + i);
  });
  Kokkos::View<int*, Kokkos::HostSpace> info("info", L.nsys);
  bstest_mpi::words_sent = 0;
  if constexpr (Path == passes::device)
    bmpi::solve(exec, MPI_COMM_WORLD, Algo{}, a, b, c, d, info, opts, bandsolve::backend::device{});
  else
    bmpi::solve(exec, MPI_COMM_WORLD, Algo{}, a, b, c, d, info, opts);
  // 3 words per reduced row there (2 over real coefficients: a' and c' as the parts of one
  // complex word), 1 back: (W + 1) K / P <= 8 (none with one rank).
  const double row_words = bandsolve::is_complex_v<C> ? 3 : 2;
  const double words = words_per_line_per_rank(L.nsys);
  CHECK(words ==
        (world_size() == 1 ? 0.0 : (row_words + 1) * reduced_rows(sizes) / world_size()));
  CHECK(max_error(L, g0, m, [&](std::size_t s, std::size_t i) {
          return bandsolve::at(d, static_cast<index_t>(s), static_cast<index_t>(i));
        }) <= tolerance<D>());
  return std::vector<int>(info.data(), info.data() + L.nsys);
}

// Factorizes the lines split as `sizes` and solves two right-hand sides; returns f.info() (and
// f.finish_tip_rows() in *tip where given).
template <class Layout, class Algo, passes Path, class C, class D, class Exec>
std::vector<int> factored(const Exec& exec, lines<C, D> L, const std::vector<std::size_t>& sizes,
                          const bmpi::options& opts, std::size_t batches = 0,
                          std::ptrdiff_t* tip = nullptr) {
  const auto [g0, m] = my_rows(sizes);
  const auto coefficient = [&, g0 = g0, m = m](int which) {
    return local_view<Layout, C>("coefficient", L.nsys, m, [&](std::size_t s, std::size_t i) {
      return L.coef(s, g0 + i, which);
    });
  };
  auto a = coefficient(0), b = coefficient(1), c = coefficient(2);
  const auto f = [&] {
    if constexpr (Path == passes::device)
      return bmpi::factorize(exec, MPI_COMM_WORLD, Algo{}, a, b, c, L.nsys, opts,
                             bandsolve::backend::device{});
    else
      return bmpi::factorize(exec, MPI_COMM_WORLD, Algo{}, a, b, c, L.nsys, opts);
  }();
  CHECK(f.on_device_backend() == (Path == passes::device));
  if (batches > 0) CHECK(f.batches() == bstest_mpi::expected_batches(f, batches));
  for (const std::uint64_t rhs : {3, 5}) {
    L.rhs = rhs;
    auto d = local_view<Layout, D>("d", L.nsys, m, [&, g0 = g0](std::size_t s, std::size_t i) {
      return L.rhs_value(s, g0 + i);
    });
    bstest_mpi::words_sent = 0;
    f.solve(exec, d);
    // 1 word per reduced row there, 1 back: 2K/P <= 4.
    CHECK(words_per_line_per_rank(L.nsys) == 2 * reduced_rows(sizes) / world_size());
    CHECK(max_error(L, g0, m, [&](std::size_t s, std::size_t i) {
            return bandsolve::at(d, static_cast<index_t>(s), static_cast<index_t>(i));
          }) <= tolerance<D>());
  }
  if (tip) *tip = f.finish_tip_rows();
  return std::vector<int>(f.info().data(), f.info().data() + L.nsys);
}

// Every split, one line and many, both schemes, lines with ends and periodic, one-shot and
// factored, on the passes Path.
template <class Layout, class C, class D, passes Path = passes::host>
void check_lines() {
  const int P = world_size();
  const std::size_t N = 13;
  for (const bool even : {true, false})
    for (const std::size_t nsys : {std::size_t(1), std::size_t(37)})
      for (const auto scheme : {bmpi::exchange::all_to_all, bmpi::exchange::gather}) {
        const auto sizes = parts(even, P, N);
        bmpi::options opts;
        opts.scheme = scheme;
        INFO(bstest::layout_name<Layout>() << ", coefficients " << scalar_label<C>() << ", d "
                                           << scalar_label<D>() << ", " << P << " ranks, "
                                           << (even ? "even" : "1, 2, rest") << ", nsys " << nsys
                                           << ", scheme " << static_cast<int>(scheme) << ", "
                                           << (Path == passes::device ? "device" : "host")
                                           << " passes");
        const Kokkos::DefaultHostExecutionSpace exec;
        const std::vector<int> good(nsys, 0);
        lines<C, D> L{nsys, N};
        CHECK(one_shot<Layout, bandsolve::algo::thomas, Path>(exec, L, sizes, opts) == good);
        CHECK(factored<Layout, bandsolve::algo::thomas, Path>(exec, L, sizes, opts) == good);
        L.periodic = true;
        CHECK(one_shot<Layout, bandsolve::algo::periodic, Path>(exec, L, sizes, opts) == good);
        CHECK(factored<Layout, bandsolve::algo::periodic, Path>(exec, L, sizes, opts) == good);
      }
}

}  // namespace

TEST_CASE("mpi::solve and mpi::factorize: complex lines equal the single-process solve", "[mpi]") {
  check_lines<layout::row, zdouble, zdouble>();
  check_lines<layout::row, zfloat, zfloat>();
  check_lines<layout::column, zdouble, zdouble>();
  check_lines<layout::column, zfloat, zfloat>();
  check_lines<layout::interleaved<4>, zdouble, zdouble>();
  check_lines<layout::interleaved<4>, zfloat, zfloat>();
  check_lines<layout::strided, zdouble, zdouble>();
  check_lines<layout::strided, zfloat, zfloat>();
}

TEST_CASE("mpi::solve and mpi::factorize: real coefficients with complex right-hand sides",
          "[mpi]") {
  check_lines<layout::row, double, zdouble>();
  check_lines<layout::row, float, zfloat>();
  check_lines<layout::column, double, zdouble>();
  check_lines<layout::column, float, zfloat>();
  check_lines<layout::interleaved<4>, double, zdouble>();
  check_lines<layout::strided, float, zfloat>();
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("mpi::solve and mpi::factorize: complex lines on the device backend's passes", "[mpi]") {
  check_lines<layout::row, zdouble, zdouble, passes::device>();
  check_lines<layout::column, zfloat, zfloat, passes::device>();
  check_lines<layout::row, double, zdouble, passes::device>();
}
#endif

// Parts of 200 rows per rank, whose coupling to the interface values dies out within each end:
// the factored solve's finish corrects only the tips, on the complex lanes and parts of every
// layout, in batches, lines with ends and periodic.
template <class Layout, class C, class D>
void check_truncated_finish() {
  const int P = world_size();
  const std::size_t nsys = 70, m = 200;
  const auto sizes = parts(true, P, m * static_cast<std::size_t>(P));
  bmpi::options batches;
  batches.batch_bytes_per_thread = 1;
  for (const bool periodic : {false, true}) {
    INFO(bstest::layout_name<Layout>() << ", coefficients " << scalar_label<C>() << ", d "
                                       << scalar_label<D>() << ", " << P << " ranks, "
                                       << (periodic ? "periodic" : "with ends"));
    lines<C, D> L{nsys, m * static_cast<std::size_t>(P)};
    L.periodic = periodic;
    std::ptrdiff_t tip = -1;
    const Kokkos::DefaultHostExecutionSpace exec;
    if (periodic)
      CHECK(factored<Layout, bandsolve::algo::periodic, passes::host>(exec, L, sizes, batches, 0,
                                                                      &tip) ==
            std::vector<int>(nsys, 0));
    else
      CHECK(factored<Layout, bandsolve::algo::thomas, passes::host>(exec, L, sizes, batches, 0,
                                                                    &tip) ==
            std::vector<int>(nsys, 0));
    CHECK(tip >= 1);
    CHECK(2 * tip <= static_cast<std::ptrdiff_t>(m) - 2);
  }
}

TEST_CASE("mpi::factorize: complex parts whose coupling dies out finish only near their ends",
          "[mpi]") {
  check_truncated_finish<layout::row, zdouble, zdouble>();
  check_truncated_finish<layout::column, zfloat, zfloat>();
  check_truncated_finish<layout::interleaved<4>, zdouble, zdouble>();
  check_truncated_finish<layout::strided, zfloat, zfloat>();
  check_truncated_finish<layout::row, double, zdouble>();
  check_truncated_finish<layout::column, double, zdouble>();
  check_truncated_finish<layout::column, float, zfloat>();
  check_truncated_finish<layout::interleaved<4>, float, zfloat>();
}

// Lines in batches of 64 (the fewest options::batch_bytes_per_thread allows: 3 batches of the
// 150 lines on one thread, the last one shorter), parts longer than a tile of the row passes, and a
// singular line in the second batch whose info code must be the single-process solve's.
template <class Layout, class C, class D>
void check_batches() {
  const int P = world_size();
  const std::size_t nsys = 150, N = 19 * static_cast<std::size_t>(P);
  const std::vector<std::size_t> sizes(static_cast<std::size_t>(P), 19);
  bmpi::options batches;
  batches.batch_bytes_per_thread = 1;
  INFO(bstest::layout_name<Layout>() << ", coefficients " << scalar_label<C>() << ", d "
                                     << scalar_label<D>() << ", " << P << " ranks");
  lines<C, D> L{nsys, N};
  L.singular = 70;
  L.singular_row = 5;
  const std::vector<int> expected = L.reference().second;
  CHECK(expected[70] == 6);
  CHECK(one_shot<Layout, bandsolve::algo::thomas, passes::host>(rank_space(), L, sizes,
                                                                 batches) == expected);
  CHECK(factored<Layout, bandsolve::algo::thomas, passes::host>(rank_space(), L, sizes,
                                                                 batches, 3) == expected);
  L.periodic = true;
  CHECK(factored<Layout, bandsolve::algo::periodic, passes::host>(
            Kokkos::DefaultHostExecutionSpace(), L, sizes, batches) == L.reference().second);
}

TEST_CASE("mpi::solve and mpi::factorize: complex lines in batches, a singular line", "[mpi]") {
  check_batches<layout::row, zdouble, zdouble>();
  check_batches<layout::column, zfloat, zfloat>();
  check_batches<layout::row, double, zdouble>();
  check_batches<layout::column, float, zfloat>();
}

// A rank-3 array of extents `global` in LayoutRight, split along `axis` as `sizes`: this rank's
// part, element (i0, i1, i2) = value(line, global row), lines numbered as solve_along numbers
// them (the other two indices in order, the last fastest).
template <class V, class Value>
Kokkos::View<V***, Kokkos::LayoutRight, Kokkos::HostSpace> along_part(
    const std::string& label, std::array<std::size_t, 3> global, int axis,
    const std::vector<std::size_t>& sizes, const Value& value) {
  const auto [g0, m] = my_rows(sizes);
  std::array<std::size_t, 3> local = global;
  local[static_cast<std::size_t>(axis)] = m;
  Kokkos::View<V***, Kokkos::LayoutRight, Kokkos::HostSpace> v(label, local[0], local[1],
                                                               local[2]);
  for (std::size_t i0 = 0; i0 < local[0]; ++i0)
    for (std::size_t i1 = 0; i1 < local[1]; ++i1)
      for (std::size_t i2 = 0; i2 < local[2]; ++i2) {
        const std::array<std::size_t, 3> i = {i0, i1, i2};
        std::size_t line = 0;
        for (std::size_t k = 0; k < 3; ++k)
          if (static_cast<int>(k) != axis) line = line * global[k] + i[k];
        v(i0, i1, i2) = value(line, g0 + i[static_cast<std::size_t>(axis)]);
      }
  return v;
}

// Largest error of this rank's part x of the array against the reference lines.
template <class C, class D, class X>
double along_error(const lines<C, D>& L, std::array<std::size_t, 3> global, int axis,
                   const std::vector<std::size_t>& sizes, const X& x) {
  const auto [g0, m] = my_rows(sizes);
  std::vector<D> got(L.nsys * m);
  const auto index = along_part<std::size_t>(
      "index", global, axis, sizes,
      [&, g0 = g0, m = m](std::size_t s, std::size_t g) { return s * m + (g - g0); });
  for (std::size_t k = 0; k < index.size(); ++k) got[index.data()[k]] = x.data()[k];
  return max_error(L, g0, m, [&, m = m](std::size_t s, std::size_t i) { return got[s * m + i]; });
}

// solve_along (lines with ends and periodic), factorize_along with full coefficient arrays and
// with rank-1 ones shared by every line, along each axis of a 7 x 8 x 9 array split unevenly.
template <class C, class D>
void check_along() {
  const int P = world_size();
  const std::array<std::size_t, 3> global = {7, 8, 9};
  const Kokkos::DefaultHostExecutionSpace exec;
  for (int axis = 0; axis < 3; ++axis) {
    const std::size_t N = global[static_cast<std::size_t>(axis)];
    const std::size_t nsys = global[0] * global[1] * global[2] / N;
    const auto sizes = parts(false, P, N);
    INFO("axis " << axis << ", coefficients " << scalar_label<C>() << ", d " << scalar_label<D>()
                 << ", " << P << " ranks");
    for (const bool periodic : {false, true}) {
      lines<C, D> L{nsys, N};
      L.periodic = periodic;
      const auto coefficient = [&](int which) {
        return along_part<C>("coefficient", global, axis, sizes,
                             [&](std::size_t s, std::size_t g) { return L.coef(s, g, which); });
      };
      const auto a = coefficient(0), b = coefficient(1), c = coefficient(2);
      const auto rhs = [&] {
        return along_part<D>("d", global, axis, sizes,
                             [&](std::size_t s, std::size_t g) { return L.rhs_value(s, g); });
      };
      const auto error = [&](const auto& x) { return along_error(L, global, axis, sizes, x); };
      if constexpr (std::is_same_v<C, D>) {
        auto d = rhs();
        Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
        if (periodic)
          bmpi::solve_along(exec, MPI_COMM_WORLD, bandsolve::algo::periodic{}, axis, a, b, c, d,
                            info);
        else
          bmpi::solve_along(exec, MPI_COMM_WORLD, axis, a, b, c, d, info);
        CHECK(error(d) <= tolerance<D>());
        CHECK(std::vector<int>(info.data(), info.data() + nsys) == std::vector<int>(nsys, 0));
      }
      const auto two_solves = [&](const auto& f) {
        for (const std::uint64_t k : {3, 5}) {
          L.rhs = k;
          auto d = rhs();
          f.solve(exec, d);
          CHECK(error(d) <= tolerance<D>());
        }
      };
      if (periodic)
        two_solves(bmpi::factorize_along(exec, MPI_COMM_WORLD, bandsolve::algo::periodic{}, axis,
                                         a, b, c));
      else
        two_solves(bmpi::factorize_along(exec, MPI_COMM_WORLD, axis, a, b, c));
    }
    // One line's coefficients (this rank's rows of line 0) shared by every line.
    lines<C, D> L{nsys, N};
    L.shared = true;
    const auto [g0, m] = my_rows(sizes);
    Kokkos::View<C*, Kokkos::HostSpace> a("a", m), b("b", m), c("c", m);
    for (std::size_t i = 0; i < m; ++i)
      a(i) = L.coef(0, g0 + i, 0), b(i) = L.coef(0, g0 + i, 1), c(i) = L.coef(0, g0 + i, 2);
    auto d = along_part<D>("d", global, axis, sizes,
                           [&](std::size_t s, std::size_t g) { return L.rhs_value(s, g); });
    const auto f = bmpi::factorize_along(exec, MPI_COMM_WORLD, axis, a, b, c, d);
    f.solve(exec, d);
    CHECK(along_error(L, global, axis, sizes, d) <= tolerance<D>());
  }
}

TEST_CASE("mpi::solve_along and mpi::factorize_along: complex arrays", "[mpi]") {
  check_along<zdouble, zdouble>();
  check_along<zfloat, zfloat>();
  check_along<double, zdouble>();
}

TEST_CASE("mpi: the ranks must pass the same scalar type", "[mpi]") {
  const int P = world_size();
  if (P < 2) return;
  const std::size_t nsys = 5;
  const auto sizes = parts(true, P, 2 * static_cast<std::size_t>(P));
  const auto [g0, m] = my_rows(sizes);
  lines<double, zdouble> L{nsys, 2 * static_cast<std::size_t>(P)};
  const auto view = [&, g0 = g0, m = m](auto v, int which) {
    using V = decltype(v);
    return local_view<layout::row, V>("v", nsys, m, [&](std::size_t s, std::size_t i) {
      return which < 3 ? V(L.coef(s, g0 + i, which)) : V(L.rhs_value(s, g0 + i).real());
    });
  };
  using bstest_mpi::thrown;
  // Rank 0 solves complex lines, the others real ones.
  Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
  const std::string one_shot_message = thrown([&] {
    if (world_rank() == 0) {
      auto a = view(zdouble(), 0), b = view(zdouble(), 1), c = view(zdouble(), 2),
           d = view(zdouble(), 3);
      bmpi::solve(rank_space(), MPI_COMM_WORLD, a, b, c, d, info);
    } else {
      auto a = view(0.0, 0), b = view(0.0, 1), c = view(0.0, 2), d = view(0.0, 3);
      bmpi::solve(rank_space(), MPI_COMM_WORLD, a, b, c, d, info);
    }
  });
  CHECK(one_shot_message ==
        "bandsolve::mpi::solve: the ranks pass different scalar types: "
        "Kokkos::complex<double> on rank 0 but double on rank 1");
  // A factorization of real lines: complex right-hand sides on the last rank only.
  auto a = view(0.0, 0), b = view(0.0, 1), c = view(0.0, 2);
  const auto f = bmpi::factorize(rank_space(), MPI_COMM_WORLD, a, b, c);
  const std::string factored_message = thrown([&] {
    if (world_rank() == P - 1) {
      auto d = view(zdouble(), 3);
      f.solve(rank_space(), d);
    } else {
      auto d = view(0.0, 3);
      f.solve(rank_space(), d);
    }
  });
  CHECK(factored_message == "bandsolve::mpi::factorization::solve: the ranks pass different "
                            "scalar types: double on rank 0 but Kokkos::complex<double> on rank " +
                                std::to_string(P - 1));
}

}  // namespace
}  // namespace test_partitioned_complex
