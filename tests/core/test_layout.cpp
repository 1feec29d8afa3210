// Layout policies: offsets against the design table, make_batch extents, layout deduction,
// bandsolve::convert between layouts, backend tags.
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace test_layout {  // units compile in groups: tests/CMakeLists.txt

using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;
namespace bl = bandsolve::layout;
using bandsolve::index_t;

// ---------------------------------------------------------------------------------------------
// Backend tags and layout deduction (compile time).

#if defined(KOKKOS_ENABLE_SERIAL)
static_assert(std::is_same_v<bandsolve::backend::default_for_t<Kokkos::Serial>,
                             bandsolve::backend::serial>);
static_assert(std::is_same_v<bandsolve::backend::default_for_t<const Kokkos::Serial>,
                             bandsolve::backend::serial>);
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
static_assert(std::is_same_v<bandsolve::backend::default_for_t<Kokkos::OpenMP>,
                             bandsolve::backend::openmp_simd>);
#endif
#if defined(KOKKOS_ENABLE_THREADS)
static_assert(std::is_same_v<bandsolve::backend::default_for_t<Kokkos::Threads>,
                             bandsolve::backend::openmp_simd>);
#endif
static_assert(!std::is_same_v<bandsolve::backend::serial, bandsolve::backend::openmp_simd>);

static_assert(std::is_same_v<bandsolve::layout_of_t<Kokkos::View<double**, Kokkos::LayoutRight>>,
                             bl::row>);
static_assert(std::is_same_v<bandsolve::layout_of_t<Kokkos::View<float**, Kokkos::LayoutLeft>>,
                             bl::column>);
static_assert(std::is_same_v<bandsolve::layout_of_t<Kokkos::View<double**, Kokkos::LayoutStride>>,
                             bl::strided>);
static_assert(std::is_same_v<
              bandsolve::layout_of_t<Kokkos::View<double** [4], Kokkos::LayoutRight>>,
              bl::interleaved<4>>);
static_assert(std::is_same_v<bandsolve::layout_of_t<Kokkos::View<const float** [8]>>,
                             bl::interleaved<8>>);
// Not batches: rank 1, rank 3 without a static pack width, rank 3 LayoutLeft, non-Views.
static_assert(!bandsolve::is_batch_view_v<Kokkos::View<double*>>);
static_assert(!bandsolve::is_batch_view_v<Kokkos::View<double***, Kokkos::LayoutRight>>);
static_assert(!bandsolve::is_batch_view_v<Kokkos::View<double** [4], Kokkos::LayoutLeft>>);
static_assert(!bandsolve::is_batch_view_v<std::vector<double>>);
using default_mem = Kokkos::DefaultExecutionSpace::memory_space;
static_assert(std::is_same_v<bl::row::view_type<double>,
                             Kokkos::View<double**, Kokkos::LayoutRight, default_mem>>);
static_assert(std::is_same_v<bl::column::view_type<double, Kokkos::HostSpace>,
                             Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>>);
static_assert(std::is_same_v<bl::interleaved<4>::view_type<float>,
                             Kokkos::View<float** [4], Kokkos::LayoutRight, default_mem>>);

TEST_CASE("backend tags have distinct names", "[layout][backend]") {
  CHECK(std::string(bandsolve::backend::serial::name) == "serial");
  CHECK(std::string(bandsolve::backend::openmp_simd::name) == "openmp_simd");
}

// ---------------------------------------------------------------------------------------------
// Offsets: Layout::mapping, bandsolve::at on a make_batch View and the design table agree.

namespace {

// The design table (shared/design/README.md), written out independently of the library.
template <class Layout>
index_t table_offset(index_t nsys, index_t n, index_t s, index_t i) {
  (void)nsys;
  if constexpr (std::is_same_v<Layout, bl::row>)
    return s * n + i;
  else if constexpr (std::is_same_v<Layout, bl::column>)
    return i * nsys + s;
  else {
    constexpr index_t W = Layout::width;
    return (s / W) * n * W + i * W + s % W;
  }
}

template <class Layout>
index_t expected_slots(index_t nsys) {
  if constexpr (std::is_same_v<Layout, bl::row> || std::is_same_v<Layout, bl::column>)
    return nsys;
  else
    return (nsys + Layout::width - 1) / Layout::width * Layout::width;
}

}  // namespace

using mapped_layouts = std::tuple<bl::row, bl::column, bl::interleaved<1>, bl::interleaved<3>,
                                  bl::interleaved<4>, bl::interleaved<8>>;

TEMPLATE_LIST_TEST_CASE("mapping offsets match the design table and the View", "[layout]",
                        mapped_layouts) {
  using Layout = TestType;
  const std::vector<std::pair<index_t, index_t>> shapes = {{1, 1}, {1, 5}, {5, 1}, {7, 3},
                                                           {8, 4}, {13, 5}, {16, 9}, {33, 2}};
  for (auto [nsys, n] : shapes) {
    INFO(bstest::layout_name<Layout>() << " nsys = " << nsys << " n = " << n);
    auto v = bandsolve::make_batch<Layout, double, Kokkos::HostSpace>("v", nsys, n);
    const typename Layout::mapping map{nsys, n};
    REQUIRE(static_cast<index_t>(v.span()) == map.required_span_size());
    REQUIRE(map.required_span_size() == expected_slots<Layout>(nsys) * n);
    std::set<index_t> seen;
    for (index_t s = 0; s < nsys; ++s)
      for (index_t i = 0; i < n; ++i) {
        const index_t from_view = &bandsolve::at(v, s, i) - v.data();
        const index_t from_map = map(s, i);
        const index_t from_table = table_offset<Layout>(nsys, n, s, i);
        if (from_view != from_map || from_map != from_table) {
          INFO("s = " << s << " i = " << i);
          CHECK(from_view == from_table);
          CHECK(from_map == from_table);
        }
        seen.insert(from_map);
      }
    // Distinct real elements, all inside the allocation.
    CHECK(static_cast<index_t>(seen.size()) == nsys * n);
    CHECK(*seen.begin() >= 0);
    CHECK(*seen.rbegin() < map.required_span_size());
  }
}

TEST_CASE("strided mapping matches subviews of row and column arrays", "[layout][strided]") {
  constexpr index_t nsys = 6, n = 5;
  SECTION("every other system of a row array, rows offset by one") {
    // big(s, k, j): system 2s+k, padded rows j = 0..n+1; take k = 1 and rows 1..n.
    Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> big("big", nsys, 2, n + 2);
    Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace> v =
        Kokkos::subview(big, Kokkos::ALL, 1, std::make_pair(index_t(1), n + 1));
    REQUIRE(bandsolve::capacity(v) == std::size_t(nsys));
    REQUIRE(bandsolve::rows(v) == std::size_t(n));
    const bl::strided::mapping map{index_t(v.stride(0)), index_t(v.stride(1))};
    CHECK(map.system_stride == 2 * (n + 2));
    CHECK(map.row_stride == 1);
    for (index_t s = 0; s < nsys; ++s)
      for (index_t i = 0; i < n; ++i) {
        CHECK(&bandsolve::at(v, s, i) - v.data() == map(s, i));
        CHECK(&bandsolve::at(v, s, i) == &big(s, 1, i + 1));
      }
  }
  SECTION("every other system of a column array") {
    Kokkos::View<double***, Kokkos::LayoutLeft, Kokkos::HostSpace> big("big", 2, nsys, n);
    Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace> v =
        Kokkos::subview(big, 0, Kokkos::ALL, Kokkos::ALL);
    const bl::strided::mapping map{index_t(v.stride(0)), index_t(v.stride(1))};
    CHECK(map.system_stride == 2);
    CHECK(map.row_stride == 2 * nsys);
    for (index_t s = 0; s < nsys; ++s)
      for (index_t i = 0; i < n; ++i) {
        CHECK(&bandsolve::at(v, s, i) - v.data() == map(s, i));
        CHECK(&bandsolve::at(v, s, i) == &big(0, s, i));
      }
  }
}

TEST_CASE("make_batch allocates the documented extents, zero-filled", "[layout]") {
  auto r = bandsolve::make_batch<bl::row, double, Kokkos::HostSpace>("r", 13, 5);
  CHECK(r.extent(0) == 13);
  CHECK(r.extent(1) == 5);
  CHECK(r.label() == "r");
  auto c = bandsolve::make_batch<bl::column, float, Kokkos::HostSpace>("c", 13, 5);
  static_assert(std::is_same_v<decltype(c), Kokkos::View<float**, Kokkos::LayoutLeft, Kokkos::HostSpace>>);
  CHECK(c.extent(0) == 13);
  CHECK(c.extent(1) == 5);
  auto i4 = bandsolve::make_batch<bl::interleaved<4>, double, Kokkos::HostSpace>("i4", 13, 5);
  static_assert(decltype(i4)::rank == 3);
  CHECK(i4.extent(0) == 4);
  CHECK(i4.extent(1) == 5);
  CHECK(i4.extent(2) == 4);
  auto i8 = bandsolve::make_batch<bl::interleaved<8>, float, Kokkos::HostSpace>("i8", 16, 3);
  CHECK(i8.extent(0) == 2);
  CHECK(i8.extent(2) == 8);
  auto i8e = bandsolve::make_batch<bl::interleaved<8>, float, Kokkos::HostSpace>("i8e", 0, 3);
  CHECK(i8e.extent(0) == 0);
  auto i1 = bandsolve::make_batch<bl::interleaved<1>, double, Kokkos::HostSpace>("i1", 7, 2);
  CHECK(i1.extent(0) == 7);

  CHECK(bandsolve::capacity(r) == 13);
  CHECK(bandsolve::rows(r) == 5);
  CHECK(bandsolve::capacity(c) == 13);
  CHECK(bandsolve::capacity(i4) == 16);  // padding lanes included
  CHECK(bandsolve::rows(i4) == 5);
  CHECK(bandsolve::capacity(i8) == 16);
  CHECK(bandsolve::capacity(i8e) == 0);
  CHECK(bandsolve::capacity(i1) == 7);

  for (std::size_t k = 0; k < i4.span(); ++k) CHECK(i4.data()[k] == 0.0);
  for (std::size_t k = 0; k < r.span(); ++k) CHECK(r.data()[k] == 0.0);
}

// ---------------------------------------------------------------------------------------------
// convert

namespace {

template <class T>
std::vector<T> pattern(std::size_t nsys, std::size_t n) {
  std::vector<T> h(nsys * n);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i) h[s * n + i] = static_cast<T>(1000 * (s + 1) + i);
  return h;
}

// Padding lanes (slots >= nsys) of an interleaved View all equal `value`.
template <class View>
bool padding_is(const View& v, std::size_t nsys, double value) {
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  for (std::size_t s = nsys; s < bandsolve::capacity(m); ++s)
    for (std::size_t i = 0; i < bandsolve::rows(m); ++i)
      if (bandsolve::at(m, index_t(s), index_t(i)) != value) return false;
  return true;
}

}  // namespace

TEMPLATE_TEST_CASE("convert round trip row -> column -> interleaved<4> -> interleaved<8> -> row",
                   "[layout][convert]", float, double) {
  using T = TestType;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    for (std::size_t nsys : {std::size_t(13), std::size_t(1), std::size_t(16)})
      for (std::size_t n : {std::size_t(1), std::size_t(5)}) {
        INFO(Exec::name() << " nsys = " << nsys << " n = " << n);
        const auto h = pattern<T>(nsys, n);
        auto r0 = bstest::to_device<bl::row, T, Mem>("r0", h, nsys, n);
        auto c = bandsolve::make_batch<bl::column, T, Mem>("c", nsys, n);
        auto i4 = bandsolve::make_batch<bl::interleaved<4>, T, Mem>("i4", nsys, n);
        auto i8 = bandsolve::make_batch<bl::interleaved<8>, T, Mem>("i8", nsys, n);
        auto r1 = bandsolve::make_batch<bl::row, T, Mem>("r1", nsys, n);
        // Padding lanes hold a sentinel: convert from a row batch copies the real systems only.
        Kokkos::deep_copy(i4, T(-7));
        bandsolve::convert(exec, r0, c);
        bandsolve::convert(exec, c, i4);
        exec.fence();
        CHECK(bstest::to_host(c, nsys) == h);
        CHECK(bstest::to_host(i4, nsys) == h);
        CHECK(padding_is(i4, nsys, -7.0));
        bandsolve::convert(exec, i4, i8);
        bandsolve::convert(exec, i8, r1);
        exec.fence();
        CHECK(bstest::to_host(i8, nsys) == h);
        CHECK(bstest::to_host(r1, nsys) == h);
        CHECK(bstest::raw_copy(r1) == bstest::raw_copy(r0));
      }
  });
}

TEST_CASE("convert to and from strided subviews", "[layout][convert][strided]") {
  constexpr std::size_t nsys = 13, n = 5;
  const auto h = pattern<double>(nsys, n);
  bstest::for_each_exec([&](auto exec) {
    using Mem = typename decltype(exec)::memory_space;
    INFO(decltype(exec)::name());
    Kokkos::View<double***, Kokkos::LayoutRight, Mem> big("big", nsys, 2, n);
    Kokkos::deep_copy(big, -1.0);
    Kokkos::View<double**, Kokkos::LayoutStride, Mem> odd =
        Kokkos::subview(big, Kokkos::ALL, 1, Kokkos::ALL);
    auto src = bstest::to_device<bl::interleaved<8>, double, Mem>("src", h, nsys, n);
    bandsolve::convert(exec, src, odd);
    auto back = bandsolve::make_batch<bl::column, double, Mem>("back", nsys, n);
    bandsolve::convert(exec, odd, back);
    exec.fence();
    CHECK(bstest::to_host(back, nsys) == h);
    auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), big);
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 0; i < n; ++i) {
        CHECK(hb(s, 0, i) == -1.0);  // the other half of the array is untouched
        CHECK(hb(s, 1, i) == h[s * n + i]);
      }
  });
}

TEST_CASE("convert with no systems or no rows does nothing", "[layout][convert]") {
  Kokkos::Serial exec;
  auto r = bandsolve::make_batch<bl::row, double, Kokkos::HostSpace>("r", 0, 4);
  auto i8 = bandsolve::make_batch<bl::interleaved<8>, double, Kokkos::HostSpace>("i8", 0, 4);
  CHECK_NOTHROW(bandsolve::convert(exec, r, i8));
  auto r0 = bandsolve::make_batch<bl::row, double, Kokkos::HostSpace>("r0", 5, 0);
  auto c0 = bandsolve::make_batch<bl::column, double, Kokkos::HostSpace>("c0", 5, 0);
  CHECK_NOTHROW(bandsolve::convert(exec, r0, c0));
}

TEST_CASE("convert rejects mismatched rows and capacities", "[layout][convert][errors]") {
  Kokkos::Serial exec;
  using Mem = Kokkos::HostSpace;
  auto r13x5 = bandsolve::make_batch<bl::row, double, Mem>("r", 13, 5);
  Kokkos::deep_copy(r13x5, 3.0);

  SECTION("rows differ") {
    auto c13x4 = bandsolve::make_batch<bl::column, double, Mem>("c", 13, 4);
    CHECK_THROWS_WITH(bandsolve::convert(exec, r13x5, c13x4),
                      StartsWith("bandsolve::convert: ") &&
                          ContainsSubstring("dst has 4 rows but src has 5"));
    CHECK(bstest::raw_copy(c13x4) == std::vector<double>(13 * 4, 0.0));
  }
  SECTION("system counts differ between unpadded layouts") {
    auto c14x5 = bandsolve::make_batch<bl::column, double, Mem>("c", 14, 5);
    CHECK_THROWS_AS(bandsolve::convert(exec, r13x5, c14x5), std::invalid_argument);
    CHECK_THROWS_WITH(bandsolve::convert(exec, r13x5, c14x5),
                      StartsWith("bandsolve::convert: ") &&
                          ContainsSubstring("src holds 13 systems (row)") &&
                          ContainsSubstring("dst holds 14 (column)"));
    CHECK_THROWS_WITH(bandsolve::convert(exec, c14x5, r13x5),
                      ContainsSubstring("src holds 14 systems (column)") &&
                          ContainsSubstring("dst holds 13 (row)"));
    CHECK(bstest::raw_copy(c14x5) == std::vector<double>(14 * 5, 0.0));
  }
  SECTION("more packs than the padding of the last one") {
    // 13 systems need 4 packs of 4 (16 slots); 5 packs (20 slots) is one pack too many.
    auto i4 = bandsolve::make_batch<bl::interleaved<4>, double, Mem>("i4", 20, 5);
    CHECK_THROWS_WITH(bandsolve::convert(exec, r13x5, i4),
                      StartsWith("bandsolve::convert: ") &&
                          ContainsSubstring("src holds 13 systems (row)") &&
                          ContainsSubstring("dst holds 20 (interleaved)"));
    // 8 systems fill exactly one pack of 8: a second pack is not padding.
    auto r8 = bandsolve::make_batch<bl::row, double, Mem>("r8", 8, 5);
    auto i8 = bandsolve::make_batch<bl::interleaved<8>, double, Mem>("i8", 16, 5);
    CHECK_THROWS_WITH(bandsolve::convert(exec, i8, r8),
                      ContainsSubstring("src holds 16 systems (interleaved)") &&
                          ContainsSubstring("dst holds 8 (row)"));
    // Padding of the last pack is fine in both directions.
    auto r9 = bandsolve::make_batch<bl::row, double, Mem>("r9", 9, 5);
    CHECK_NOTHROW(bandsolve::convert(exec, i8, r9));
    CHECK_NOTHROW(bandsolve::convert(exec, r9, i8));
    exec.fence();
  }
}

}  // namespace test_layout
