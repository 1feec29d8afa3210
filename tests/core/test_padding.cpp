// Padded storage (layout/padding.hpp): the pitch rule, make_padded_batch and make_padded_array,
// and every solver family on padded column batches and padded N-D arrays: the same solution as
// on dense storage, and the padding never read nor written (it holds NaN).
#include <bandsolve/bandsolve.hpp>
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <test_support.hpp>
#include <vector>

namespace test_padding {  // units compile in groups: tests/CMakeLists.txt

namespace algo = bandsolve::algo;
namespace bl = bandsolve::layout;

namespace {

bool odd_multiple_of_512(std::size_t bytes) {
  return bytes % 1024 == 512;
}

template <class T>
void check_pitch_rule(std::size_t count) {
  const std::size_t p = bandsolve::padded_pitch<T>(count);
  const std::size_t bytes = count * sizeof(T);
  INFO("count = " << count << ", sizeof(T) = " << sizeof(T) << ", pitch = " << p);
  std::size_t spread = count;  // the smallest pitch >= count that spreads over the page
  while (!odd_multiple_of_512(spread * sizeof(T))) ++spread;
  CHECK(spread - count < 1024 / sizeof(T));
  if (bytes < 4096 || spread > count + count / 8)
    CHECK(p == count);  // short rows, or no such pitch within an eighth
  else
    CHECK(p == spread);
}

}  // namespace

TEST_CASE(
    "padded_pitch: an odd multiple of 512 bytes from 4 KiB up, the "
    "smallest one",
    "[padding]") {
  STATIC_REQUIRE(bandsolve::padded_pitch<double>(65536) == 65600);
  CHECK(bandsolve::padded_pitch<double>(65600) == 65600);
  CHECK(bandsolve::padded_pitch<double>(512) == 576);
  CHECK(bandsolve::padded_pitch<double>(511) == 511);  // under 4 KiB: as is
  CHECK(bandsolve::padded_pitch<float>(65536) == 65664);
  CHECK(bandsolve::padded_pitch<float>(1023) == 1023);
  CHECK(bandsolve::padded_pitch<double>(0) == 0);
  for (std::size_t count = 0; count < 5000; ++count) {
    check_pitch_rule<float>(count);
    check_pitch_rule<double>(count);
    check_pitch_rule<Kokkos::complex<double>>(count);
  }
  for (std::size_t count : {100000, 1 << 20, (1 << 20) + 1, 3 << 16})
    check_pitch_rule<double>(count);
}

TEST_CASE(
    "make_padded_batch: column batches at the padded pitch, other "
    "layouts as make_batch",
    "[padding]") {
  auto c = bandsolve::make_padded_batch<bl::column, double, Kokkos::HostSpace>("c", 65536, 3);
  STATIC_REQUIRE(std::is_same_v<decltype(c), bl::column::view_type<double, Kokkos::HostSpace>>);
  CHECK(c.extent(0) == 65536);
  CHECK(c.extent(1) == 3);
  CHECK(c.stride(0) == 1);
  CHECK(c.stride(1) == 65600);
  CHECK(bandsolve::capacity(c) == 65536);
  CHECK(bandsolve::rows(c) == 3);
  bool zero = true;
  for (std::size_t k = 0; k < c.span(); ++k) zero = zero && c.data()[k] == 0.0;
  CHECK(zero);

  auto small = bandsolve::make_padded_batch<bl::column, float, Kokkos::HostSpace>("s", 13, 5);
  CHECK(small.stride(1) == 13);  // rows under 4 KiB: dense
  auto r = bandsolve::make_padded_batch<bl::row, double, Kokkos::HostSpace>("r", 65536, 4);
  STATIC_REQUIRE(std::is_same_v<decltype(r), bl::row::view_type<double, Kokkos::HostSpace>>);
  CHECK(r.span() == 65536 * 4);
  auto i8 = bandsolve::make_padded_batch<bl::interleaved<8>, double, Kokkos::HostSpace>("i", 13, 5);
  CHECK(i8.extent(0) == 2);
  auto empty = bandsolve::make_padded_batch<bl::column, double, Kokkos::HostSpace>("e", 0, 4);
  CHECK(empty.extent(0) == 0);
}

TEST_CASE(
    "make_padded_array: requested extents, strides an odd multiple of "
    "512 bytes from 4 KiB",
    "[padding]") {
  auto u = bandsolve::make_padded_array<double***, Kokkos::HostSpace>("u", 256, 256, 256);
  STATIC_REQUIRE(std::is_same_v<decltype(u)::array_layout, Kokkos::LayoutStride>);
  CHECK(u.extent(0) == 256);
  CHECK(u.extent(1) == 256);
  CHECK(u.extent(2) == 256);
  CHECK(u.stride(2) == 1);
  CHECK(u.stride(1) == 264);
  CHECK(u.stride(0) == 264 * 264);

  // Padding stays within an eighth (plus the fastest axis's rounding to whole cache lines).
  const std::vector<std::size_t> sizes = {1, 3, 7, 8, 33, 64, 100, 128, 255, 256, 300, 512};
  for (std::size_t nx : {std::size_t(2), std::size_t(5)})
    for (std::size_t ny : sizes)
      for (std::size_t nz : sizes) {
        INFO("extents " << nx << " x " << ny << " x " << nz);
        auto f = bandsolve::make_padded_array<float***, Kokkos::HostSpace>("f", nx, ny, nz);
        auto d = bandsolve::make_padded_array<double***, Kokkos::HostSpace>("d", nx, ny, nz);
        CHECK((f.extent(0) == nx && f.extent(1) == ny && f.extent(2) == nz));
        CHECK((d.extent(0) == nx && d.extent(1) == ny && d.extent(2) == nz));
        // From 64 on, each axis's window (an eighth) holds a pitch that spreads over the page.
        if (ny >= 64 && nz >= 64)
          for (int k = 0; k < 2; ++k) {
            const std::size_t fb = f.stride(k) * sizeof(float), db = d.stride(k) * sizeof(double);
            if (fb >= 4096) CHECK(odd_multiple_of_512(fb));
            if (db >= 4096) CHECK(odd_multiple_of_512(db));
          }
        CHECK(d.stride(1) <= (nz + 7) / 8 * 8 + nz / 8);
        CHECK(d.stride(0) <= d.stride(1) * (ny + ny / 8));
      }

  auto q = bandsolve::make_padded_array<double****, Kokkos::HostSpace>("q", 3, 5, 100, 7);
  CHECK((q.extent(0) == 3 && q.extent(1) == 5 && q.extent(2) == 100 && q.extent(3) == 7));
  auto e = bandsolve::make_padded_array<double**, Kokkos::HostSpace>("e", 0, 0);
  CHECK(e.size() == 0);
  CHECK_THROWS_WITH((bandsolve::make_padded_array<double**, Kokkos::HostSpace>("e", 4, -1)),
                    Catch::Matchers::ContainsSubstring("bandsolve::make_padded_array") &&
                        Catch::Matchers::ContainsSubstring("extent 1 = -1"));
}

// ---------------------------------------------------------------------------------------------
// Solvers on padded column batches: the padding is NaN; the solutions equal the dense batch's.

namespace {

template <class View>
void fill_padding_nan(const View& v) {
  using T = typename View::non_const_value_type;
  const std::size_t nsys = v.extent(0), pitch = v.stride(1);
  for (std::size_t i = 0; i < v.extent(1); ++i)
    for (std::size_t s = nsys; s < pitch && i * pitch + s < v.span(); ++s)
      v.data()[i * pitch + s] = std::numeric_limits<T>::quiet_NaN();
}

template <class View>
bool padding_still_nan(const View& v) {
  const std::size_t nsys = v.extent(0), pitch = v.stride(1);
  for (std::size_t i = 0; i < v.extent(1); ++i)
    for (std::size_t s = nsys; s < pitch && i * pitch + s < v.span(); ++s)
      if (!std::isnan(v.data()[i * pitch + s])) return false;
  return true;
}

template <class T>
struct padded_and_dense {
  using view = bl::column::view_type<T, Kokkos::HostSpace>;
  view pa, pb, pc, pd, da, db, dc, dd;
  padded_and_dense(const bstest::host_batch<T>& p)
      : pa(make("a", p)),
        pb(make("b", p)),
        pc(make("c", p)),
        pd(make("d", p)),
        da(bstest::to_device<bl::column, T>("da", p.a, p.nsys, p.n)),
        db(bstest::to_device<bl::column, T>("db", p.b, p.nsys, p.n)),
        dc(bstest::to_device<bl::column, T>("dc", p.c, p.nsys, p.n)),
        dd(bstest::to_device<bl::column, T>("dd", p.d, p.nsys, p.n)) {
    bstest::fill(pa, p.a, p.nsys);
    bstest::fill(pb, p.b, p.nsys);
    bstest::fill(pc, p.c, p.nsys);
    bstest::fill(pd, p.d, p.nsys);
  }
  static view make(const char* label, const bstest::host_batch<T>& p) {
    const view v =
        bandsolve::make_padded_batch<bl::column, T, Kokkos::HostSpace>(label, p.nsys, p.n);
    REQUIRE(v.stride(1) > v.extent(0));  // the test needs real padding
    fill_padding_nan(v);
    return v;
  }
  bool padding_untouched() const {
    return padding_still_nan(pa) && padding_still_nan(pb) && padding_still_nan(pc) &&
           padding_still_nan(pd);
  }
};

// Solves the padded and the dense batch with `method` (one-shot, then factored when it has a
// factorization) and compares them bit for bit.
template <class T, bool Factored, class Exec, class Method>
void check_padded_family(const Exec& exec, Method method, std::size_t nsys, std::size_t n,
                         std::uint32_t seed) {
  const auto p = bstest::random_dominant<T>(nsys, n, seed);
  padded_and_dense<T> v(p);
  auto info_p = bstest::make_info(nsys), info_d = bstest::make_info(nsys);
  bandsolve::solve(exec, method, v.pa, v.pb, v.pc, v.pd, info_p);
  bandsolve::solve(exec, method, v.da, v.db, v.dc, v.dd, info_d);
  exec.fence();
  CHECK(bstest::info_to_host(info_p) == std::vector<int>(nsys, 0));
  CHECK(bstest::info_to_host(info_p) == bstest::info_to_host(info_d));
  const auto x = bstest::to_host(v.pd, nsys);
  CHECK(bstest::bitwise_equal(x, bstest::to_host(v.dd, nsys)));
  CHECK(bstest::max_residual(p, x) <= bstest::residual_tol<T>());
  CHECK(v.padding_untouched());
  if constexpr (Factored) {
    const auto rhs = bstest::random_rhs<T>(nsys, n, seed + 1);
    bstest::fill(v.pd, rhs, nsys);
    bstest::fill(v.dd, rhs, nsys);
    const auto fp = bandsolve::factorize(exec, method, v.pa, v.pb, v.pc);
    const auto fd = bandsolve::factorize(exec, method, v.da, v.db, v.dc);
    fp.solve(exec, v.pd);
    fd.solve(exec, v.dd);
    exec.fence();
    CHECK(bstest::bitwise_equal(bstest::to_host(v.pd, nsys), bstest::to_host(v.dd, nsys)));
    CHECK(v.padding_untouched());
  }
}

}  // namespace

TEMPLATE_TEST_CASE("every tridiagonal family solves padded column batches as dense ones",
                   "[padding]", float, double) {
  using T = TestType;
  // Rows of 4 KiB and more (padded), a last column block that is not full.
  const std::size_t nsys = 4096 / sizeof(T) + 37;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    if constexpr (std::is_same_v<typename Exec::memory_space, Kokkos::HostSpace>) {
      std::uint32_t seed = 77;
      for (std::size_t n : {1, 2, 3, 17, 64}) {
        INFO(bstest::exec_name<Exec>() << ", nsys = " << nsys << ", n = " << n);
        check_padded_family<T, true>(exec, algo::thomas{}, nsys, n, seed++);
        check_padded_family<T, false>(exec, algo::pcr{}, nsys, n, seed++);
        check_padded_family<T, false>(exec, algo::cr{}, nsys, n, seed++);
        check_padded_family<T, false>(exec, algo::thomas_pcr{}, nsys, n, seed++);
        check_padded_family<T, false>(exec, algo::automatic{}, nsys, n, seed++);
        check_padded_family<T, true>(exec, algo::partial_pivoting{}, nsys, n, seed++);
        if (n >= 3) check_padded_family<T, true>(exec, algo::periodic{}, nsys, n, seed++);
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------
// solve_along on padded N-D arrays: same solution as on a dense LayoutRight array, padding NaN.

namespace {

template <class Padded>
void nan_everywhere(const Padded& v) {
  using T = typename Padded::non_const_value_type;
  for (std::size_t k = 0; k < v.span(); ++k) v.data()[k] = std::numeric_limits<T>::quiet_NaN();
}

template <class T>
double max_rel_gap(const std::vector<T>& x, const std::vector<T>& y) {
  double scale = 0, gap = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    scale = std::max(scale, std::abs(double(y[k])));
    gap = std::max(gap, std::abs(double(x[k]) - double(y[k])));
  }
  return scale > 0 ? gap / scale : gap;
}

}  // namespace

TEMPLATE_TEST_CASE(
    "solve_along on padded 3-D arrays equals the dense array's "
    "solve, every axis",
    "[padding][axis]", float, double) {
  using T = TestType;
  using Dense = Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const std::size_t nx = 5, ny = 70, nz = 33;  // padded to 5 x 72 x 40 (double)
  const Kokkos::Serial serial;
  for (int axis = 0; axis < 3; ++axis) {
    INFO("axis " << axis);
    auto pa = bandsolve::make_padded_array<T***, Kokkos::HostSpace>("a", nx, ny, nz);
    auto pb = bandsolve::make_padded_array<T***, Kokkos::HostSpace>("b", nx, ny, nz);
    auto pc = bandsolve::make_padded_array<T***, Kokkos::HostSpace>("c", nx, ny, nz);
    auto pd = bandsolve::make_padded_array<T***, Kokkos::HostSpace>("d", nx, ny, nz);
    REQUIRE(pd.stride(1) > nz);
    Dense da("da", nx, ny, nz), db("db", nx, ny, nz), dc("dc", nx, ny, nz), dd("dd", nx, ny, nz);
    for (auto* v : {&pa, &pb, &pc, &pd}) nan_everywhere(*v);
    std::uint32_t k = 0;
    for (std::size_t x = 0; x < nx; ++x)
      for (std::size_t y = 0; y < ny; ++y)
        for (std::size_t z = 0; z < nz; ++z, ++k) {
          const T lo = T(-0.25) - T(0.5) * T((k * 37 % 101) / 101.0);
          const T up = T(-0.25) - T(0.5) * T((k * 53 % 103) / 103.0);
          pa(x, y, z) = da(x, y, z) = lo;
          pc(x, y, z) = dc(x, y, z) = up;
          pb(x, y, z) = db(x, y, z) = T(1) - lo - up;
          pd(x, y, z) = dd(x, y, z) = T(1) + T((k * 29 % 97) / 97.0);
        }
    const std::size_t lines = nx * ny * nz / (axis == 0 ? nx : axis == 1 ? ny : nz);
    auto info_p = bstest::make_info(lines), info_d = bstest::make_info(lines);
    for (bool threads : {false, true}) {
      if (threads) {
        bstest::for_each_exec([&](auto exec) {
          bandsolve::solve_along(exec, algo::thomas{}, axis, pa, pb, pc, pd, info_p);
          bandsolve::solve_along(exec, algo::thomas{}, axis, da, db, dc, dd, info_d);
          exec.fence();
        });
      } else {
        bandsolve::solve_along(serial, algo::thomas{}, axis, pa, pb, pc, pd, info_p);
        bandsolve::solve_along(serial, algo::thomas{}, axis, da, db, dc, dd, info_d);
      }
      CHECK(bstest::info_to_host(info_p) == std::vector<int>(lines, 0));
      std::vector<T> xp, xd;
      for (std::size_t x = 0; x < nx; ++x)
        for (std::size_t y = 0; y < ny; ++y)
          for (std::size_t z = 0; z < nz; ++z) {
            xp.push_back(pd(x, y, z));
            xd.push_back(dd(x, y, z));
          }
      CHECK(max_rel_gap(xp, xd) <= 64 * std::numeric_limits<T>::epsilon());
      // The padding (everything outside the view) is still NaN.
      std::size_t inside = 0;
      for (std::size_t q = 0; q < pd.span(); ++q) inside += !std::isnan(pd.data()[q]);
      CHECK(inside == nx * ny * nz);
    }
  }
}

}  // namespace test_padding
