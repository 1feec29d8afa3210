// libFuzzer target over the host API's argument checks (built with Clang only, see
// tests/fuzz/CMakeLists.txt and docs/development.md). The input chooses a family, the extents
// and strides of a, b, c, d and info, and where each lies in one shared buffer, so that
// mismatched shapes, partly overlapping and aliased arguments and odd sizes all occur. The
// contract checked: a call either returns with every info code in [0, n], or throws
// std::invalid_argument whose message starts with "bandsolve::". Anything else (a crash, an
// out-of-bounds access seen by ASan, another exception) is a finding.
#include "fuzz_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using fuzz::byte_reader;

using strided2 = Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace,
                              Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using info_view = Kokkos::View<int*, Kokkos::HostSpace>;

constexpr std::size_t buffer_values = 4096;

// A (nsys, n) View over the shared buffer: row or column strides, sometimes padded, at an offset
// the input chooses. Extents are kept small and the span inside the buffer.
strided2 view_in(std::vector<double>& buffer, byte_reader& in, std::size_t nsys, std::size_t n) {
  const std::size_t pad = in.below(3);
  const bool column = in.next() & 1u;
  const std::size_t s_sys = column ? 1 : n + pad, s_row = column ? nsys + pad : 1;
  const std::size_t span = nsys == 0 || n == 0 ? 0 : (nsys - 1) * s_sys + (n - 1) * s_row + 1;
  const std::size_t room = buffer_values - span;
  const std::size_t offset = room == 0 ? 0 : (in.next() * 37u + in.next()) % (room + 1);
  Kokkos::LayoutStride layout(nsys, s_sys, n, s_row);
  return strided2(buffer.data() + offset, layout);
}

template <class Algo>
void call_and_check(const Algo& algo, const strided2& a, const strided2& b, const strided2& c,
                    const strided2& d, const info_view& info, std::size_t n) {
  Kokkos::Serial exec;
  if (fuzz::returns([&] { bandsolve::solve(exec, algo, a, b, c, d, info); }))
    fuzz::check_codes(info, n);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) { return fuzz::initialize_kokkos(); }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in{data, size};
  const unsigned family = in.below(7);
  // Mostly matching shapes (so the solve runs), sometimes one argument off by one.
  const std::size_t nsys = in.below(12), n = in.below(40);
  const unsigned odd_one = in.below(10);
  const auto extent = [&](unsigned which, std::size_t v) {
    return odd_one == which ? v + 1 : v;
  };
  // The Views first (the buffer's address does not change when it is filled), then the values
  // from the bytes left: diagonally dominant-ish, with zeros, NaN and Inf where the input says.
  std::vector<double> buffer(buffer_values);
  auto a = view_in(buffer, in, extent(0, nsys), n);
  auto b = view_in(buffer, in, nsys, extent(1, n));
  auto c = view_in(buffer, in, nsys, n);
  auto d = view_in(buffer, in, extent(2, nsys), extent(3, n));
  for (std::size_t i = 0; i < buffer_values; ++i) {
    const unsigned v = in.pos < in.size ? in.next() : 0u;
    buffer[i] = v == 255   ? std::nan("")
                : v == 254 ? HUGE_VAL
                : v == 253 ? 0.0
                           : (i % 3 == 0 ? 8.0 : 1.0) + v / 64.0;
  }
  info_view info("info", extent(4, nsys));
  switch (family) {
    case 0: call_and_check(bandsolve::algo::thomas{}, a, b, c, d, info, n); break;
    case 1: call_and_check(bandsolve::algo::pcr{}, a, b, c, d, info, n); break;
    case 2: call_and_check(bandsolve::algo::cr{}, a, b, c, d, info, n); break;
    case 3: call_and_check(bandsolve::algo::thomas_pcr{}, a, b, c, d, info, n); break;
    case 4: call_and_check(bandsolve::algo::partial_pivoting{}, a, b, c, d, info, n); break;
    case 5: call_and_check(bandsolve::algo::periodic{}, a, b, c, d, info, n); break;
    default: call_and_check(bandsolve::algo::automatic{}, a, b, c, d, info, n); break;
  }
  return 0;
}
