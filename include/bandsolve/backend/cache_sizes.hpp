#pragma once
// The host's level-2 cache, as the operating system reports it: the distributed solves size their
// batches of lines by it (mpi/options.hpp). Host code; read once per process.
#include <cstddef>
#include <fstream>
#include <string>

#if defined(__linux__)
#include <unistd.h>
#endif

namespace bandsolve::detail {

// "2048K", "1M" or "524288" (sysfs' cache sizes) in bytes; 0 for anything else.
inline std::size_t parse_cache_size(const std::string& text) {
  std::size_t value = 0, i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
    value = value * 10 + static_cast<std::size_t>(text[i] - '0');
  if (i == 0) return 0;
  const char unit = i < text.size() ? text[i] : '\0';
  if (unit == 'K') return value << 10;
  if (unit == 'M') return value << 20;
  if (unit == 'G') return value << 30;
  return unit == '\0' || unit == '\n' ? value : 0;
}

// The size of the level-2 data (or unified) cache of CPU 0 in bytes: glibc's sysconf where it
// knows it (x86), else Linux's sysfs description of the caches; 0 where neither says. On the
// x86 cores measured (AMD EPYC Zen 4 and 5, Intel Xeon) each core has its own L2.
inline std::size_t level2_cache_bytes() {
  static const std::size_t bytes = [] {
#if defined(__linux__) && defined(_SC_LEVEL2_CACHE_SIZE)
    const long reported = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (reported > 0) return static_cast<std::size_t>(reported);
#endif
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index";
    for (int index = 0; index < 8; ++index) {
      std::ifstream level(dir + std::to_string(index) + "/level");
      std::ifstream type(dir + std::to_string(index) + "/type");
      std::ifstream size(dir + std::to_string(index) + "/size");
      std::string l, t, s;
      if (!(level >> l) || !(type >> t) || !(size >> s)) continue;
      if (l == "2" && t != "Instruction") return parse_cache_size(s);
    }
    return std::size_t(0);
  }();
  return bytes;
}

}  // namespace bandsolve::detail
