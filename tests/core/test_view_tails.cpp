// The sanitizer tree's guard on Views (support/view_tail_poisoning.hpp): under AddressSanitizer the
// first byte after every host View's data is poisoned, whatever the rank, layout, scalar type,
// size or way of allocating, and the View's own last value is not; from the next allocation on,
// so are the header bytes just before its data, its label kept readable. Skipped without ASan.
#include <bandsolve/bandsolve.hpp>
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <test_support.hpp>
#include <view_tail_poisoning.hpp>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>

namespace test_view_tails {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;

namespace {

#ifdef BSTEST_ADDRESS_SANITIZER
// `v` holds the first `values` values of its allocation (its span unless it is a subview), which
// Kokkos rounded up to 8 bytes: the value before that end is addressable, the byte at it is not.
template <class View>
void check_tail_poisoned(const View& v, std::size_t values) {
  using T = typename View::value_type;
  INFO("View \"" << v.label() << "\", " << values << " values of " << sizeof(T) << " bytes");
  REQUIRE(values > 0);
  const char* data = reinterpret_cast<const char*>(v.data());
  const char* last = data + (values - 1) * sizeof(T);
  const char* end = data + (values * sizeof(T) + 7) / 8 * 8;
  CHECK(__asan_region_is_poisoned(const_cast<char*>(last), sizeof(T)) == nullptr);
  CHECK(__asan_address_is_poisoned(end));
}

template <class View>
void check_tail_poisoned(const View& v) {
  check_tail_poisoned(v, v.span());
}
#endif

}  // namespace

TEMPLATE_TEST_CASE("view tails: the byte after a host View's data is poisoned under ASan",
                   "[view_tails]", float, double, std::complex<double>) {
#ifndef BSTEST_ADDRESS_SANITIZER
  SKIP("needs AddressSanitizer (the sanitizer tree)");
#else
  using T = TestType;
  for (int n : {1, 2, 3, 5, 7, 8, 9, 63, 64, 65, 1000}) {
    check_tail_poisoned(Kokkos::View<T*, Kokkos::HostSpace>("one-d", n));
    check_tail_poisoned(Kokkos::View<T*, Kokkos::HostSpace>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "uninitialized"), n));
    check_tail_poisoned(Kokkos::View<T**, Kokkos::LayoutLeft, Kokkos::HostSpace>("left", n, 3));
    check_tail_poisoned(
        Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace>("right", 2, n, 3));
  }
#endif
}

TEST_CASE("view tails: the library's batches and scratch Views are guarded too", "[view_tails]") {
#ifndef BSTEST_ADDRESS_SANITIZER
  SKIP("needs AddressSanitizer (the sanitizer tree)");
#else
  for (int nsys : {1, 3, 9}) {
    for (int n : {1, 2, 7}) {
      check_tail_poisoned(bandsolve::make_batch<bl::row, double>("row", nsys, n));
      check_tail_poisoned(bandsolve::make_batch<bl::column, float>("column", nsys, n));
      check_tail_poisoned(bandsolve::make_batch<bl::interleaved<4>, double>("packs", nsys, n));
      const auto padded = bandsolve::make_padded_batch<bl::column, double>("padded", nsys, n);
      check_tail_poisoned(padded, padded.stride(1) * padded.extent(1));
    }
  }
  using host_view = Kokkos::View<double*, Kokkos::HostSpace>;
  check_tail_poisoned(bandsolve::detail::allocate_zeroed<host_view>(
      Kokkos::DefaultHostExecutionSpace(), "zeroed", 333));
#endif
}

TEMPLATE_TEST_CASE("view heads: the bytes before a host View's data are poisoned from the next "
                   "allocation on, its label kept",
                   "[view_tails]", float, double) {
#ifndef BSTEST_ADDRESS_SANITIZER
  SKIP("needs AddressSanitizer (the sanitizer tree)");
#else
  using T = TestType;
  using header_t = Kokkos::Impl::SharedAllocationHeader;
  const std::string long_label(300, 'x');
  for (const std::string& label : {std::string("a"), std::string("head"), long_label}) {
    for (int n : {1, 5, 64}) {
      INFO("label of " << label.size() << " characters, " << n << " values");
      const Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace> v(label, 2, n);
      const Kokkos::View<int*, Kokkos::HostSpace> next("next allocation", 1);
      const char* data = reinterpret_cast<const char*>(v.data());
      const auto* header = reinterpret_cast<const header_t*>(data - sizeof(header_t));
      const std::size_t room = static_cast<std::size_t>(data - header->label());
      const std::size_t stored = label.size() < room ? label.size() : room - 1;
      CHECK(v.label() == label.substr(0, stored));
      CHECK(__asan_region_is_poisoned(const_cast<char*>(header->label()), stored + 1) == nullptr);
      CHECK(__asan_region_is_poisoned(const_cast<char*>(data), sizeof(T)) == nullptr);
      if (stored + 1 < room) {
        CHECK(__asan_address_is_poisoned(data - 1));
        CHECK(__asan_address_is_poisoned(header->label() + stored + 1));
      }
    }
  }
#endif
}

TEST_CASE("view tails: an allocation observer sees allocations and the tails stay poisoned",
          "[view_tails]") {
  static std::size_t observed_bytes;
  observed_bytes = 0;
  bstest::observe_allocations(
      [](Kokkos::Tools::SpaceHandle, const char* label, const void*, std::uint64_t size) {
        if (std::string(label) == "observed") observed_bytes += size;
      });
  const Kokkos::View<double*, Kokkos::HostSpace> observed("observed", 11);
  bstest::observe_allocations(nullptr);
  const Kokkos::View<double*, Kokkos::HostSpace> unobserved("observed", 5);
  CHECK(observed_bytes == 11 * sizeof(double));
#ifdef BSTEST_ADDRESS_SANITIZER
  check_tail_poisoned(observed);
  check_tail_poisoned(unobserved);
#endif
}

}  // namespace test_view_tails
