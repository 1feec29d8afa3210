// The host's level-2 cache (backend/cache_sizes.hpp), which sizes the distributed solves' batches:
// sysfs' size strings in bytes, and the size this host reports.
#include "test_support.hpp"

#include <bandsolve/backend/cache_sizes.hpp>

#include <catch2/catch_all.hpp>

#include <cstddef>
#include <fstream>
#include <string>

namespace test_cache_sizes {  // units compile in groups: tests/CMakeLists.txt

TEST_CASE("parse_cache_size: sysfs' sizes in bytes, 0 for anything else", "[cache_sizes]") {
  using bandsolve::detail::parse_cache_size;
  CHECK(parse_cache_size("2048K") == std::size_t(2) << 20);
  CHECK(parse_cache_size("48K") == std::size_t(48) << 10);
  CHECK(parse_cache_size("1M") == std::size_t(1) << 20);
  CHECK(parse_cache_size("1G") == std::size_t(1) << 30);
  CHECK(parse_cache_size("524288") == std::size_t(524288));
  CHECK(parse_cache_size("524288\n") == std::size_t(524288));
  CHECK(parse_cache_size("") == std::size_t(0));
  CHECK(parse_cache_size("K") == std::size_t(0));
  CHECK(parse_cache_size("12X") == std::size_t(0));
  CHECK(parse_cache_size("x12K") == std::size_t(0));
}

TEST_CASE("level2_cache_bytes: what the host reports, the same on every call", "[cache_sizes]") {
  const std::size_t bytes = bandsolve::detail::level2_cache_bytes();
  CHECK(bytes == bandsolve::detail::level2_cache_bytes());
  // Where Linux describes CPU 0's caches, an L2 is found and has a plausible size.
  bool described = false;
  for (int index = 0; index < 8; ++index) {
    std::ifstream level("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) +
                        "/level");
    std::string l;
    if (level >> l && l == "2") described = true;
  }
  if (described) {
    CHECK(bytes >= std::size_t(64) << 10);
    CHECK(bytes <= std::size_t(1) << 30);
  }
}

}  // namespace test_cache_sizes
