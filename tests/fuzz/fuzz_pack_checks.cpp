// libFuzzer target over the argument checks of interleaved packs and mixed scalar types, which
// fuzz_argument_checks.cpp and fuzz_family_checks.cpp (strided double Views) do not reach:
// interleaved<8> Views of double and interleaved<16> Views of float placed at offsets of one
// shared buffer (packs that overlap or alias), the number of systems taken from info or the nsys
// argument against the packs' slots, and complex<double> right-hand sides over real
// coefficients. The contract, as in the others: a call returns with every info code in [0, n],
// or throws std::invalid_argument whose message starts with "bandsolve::".
#include "fuzz_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <Kokkos_Complex.hpp>

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
using fuzz::check_codes;
using fuzz::returns;

// 64-byte aligned storage for every View of one input (interleaved packs are one cache line).
constexpr std::size_t buffer_bytes = 1 << 17;
struct alignas(64) line {
  unsigned char bytes[64];
};

template <class T, int W>
using pack_view = Kokkos::View<T** [W], Kokkos::LayoutRight, Kokkos::HostSpace,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using info_view = Kokkos::View<int*, Kokkos::HostSpace>;

// A pack View of `packs` x n at a whole number of T the input chooses (sometimes a misaligned
// start), inside the buffer.
template <class T, int W>
pack_view<T, W> packs_in(std::vector<line>& buffer, byte_reader& in, std::size_t packs,
                         std::size_t n) {
  const std::size_t values = buffer.size() * sizeof(line) / sizeof(T);
  const std::size_t span = packs * n * W;
  const std::size_t room = span > values ? 0 : values - span;
  if (span > values) packs = n = 0;
  const std::size_t offset = room == 0 ? 0 : (in.next() * 509u + in.next()) % (room + 1);
  return pack_view<T, W>(reinterpret_cast<T*>(buffer.data()) + offset, packs, n);
}

// Fills the buffer as T values from the bytes left: dominant-ish, with zeros, NaN and Inf.
template <class T>
void fill(std::vector<line>& buffer, byte_reader& in) {
  T* v = reinterpret_cast<T*>(buffer.data());
  const std::size_t values = buffer.size() * sizeof(line) / sizeof(T);
  for (std::size_t i = 0; i < values; ++i) {
    const unsigned b = in.next();
    v[i] = b == 255   ? T(std::nan(""))
           : b == 254 ? T(HUGE_VAL)
           : b == 253 ? T(0)
                      : T((i % 3 == 0 ? 8.0 : 1.0) + b / 64.0);
  }
}

namespace bs = bandsolve;
using exec_space = Kokkos::Serial;

// Tridiagonal families on packs of W lanes of T; d of D (T, or complex over real T).
template <class T, int W, class D = T>
void packs(byte_reader& in, std::vector<line>& buffer, unsigned family) {
  const std::size_t packs_n = in.below(5), n = in.below(48);
  const std::size_t nsys = in.below(static_cast<unsigned>(W * 5 + 2));
  const unsigned off = in.below(8);
  const auto more = [&](unsigned which, std::size_t v) { return off == which ? v + 1 : v; };
  auto a = packs_in<T, W>(buffer, in, more(0, packs_n), n);
  auto b = packs_in<T, W>(buffer, in, packs_n, more(1, n));
  auto c = packs_in<T, W>(buffer, in, packs_n, n);
  auto d = packs_in<D, W>(buffer, in, more(2, packs_n), n);
  const info_view info("info", nsys);
  fill<T>(buffer, in);  // a complex d's parts are T values too
  exec_space exec;
  const auto one_shot = [&](auto alg) {
    if (returns([&] { bs::solve(exec, alg, a, b, c, d, info); })) check_codes(info, n);
  };
  switch (family) {
    case 0: one_shot(bs::algo::thomas{}); break;
    case 1: one_shot(bs::algo::automatic{}); break;
    case 2: one_shot(bs::algo::periodic{}); break;
    case 3: one_shot(bs::algo::partial_pivoting{}); break;
    case 4:  // PCR takes d of the coefficients' type only
      if constexpr (std::is_same_v<D, T>) one_shot(bs::algo::pcr{});
      break;
    case 5:
      if (returns([&] { bs::solve(exec, bs::algo::symmetric{}, b, c, d, info); }))
        check_codes(info, n);
      break;
    case 6:
      if (returns([&] {
            bs::solve(exec, bs::algo::thomas{}, a, b, c, d, info, bs::backend::device{});
          }))
        check_codes(info, n);
      break;
    default:
      returns([&] {
        auto f = bs::factorize(exec, bs::algo::automatic{}, a, b, c, nsys);
        check_codes(f.info(), n);
        returns([&] { f.solve(exec, d); });
      });
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) { return fuzz::initialize_kokkos(); }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in{data, size};
  std::vector<line> buffer(buffer_bytes / sizeof(line));
  const unsigned kind = in.below(3), family = in.below(8);
  switch (kind) {
    case 0: packs<double, 8>(in, buffer, family); break;
    case 1: packs<float, 16>(in, buffer, family); break;
    default: packs<double, 8, Kokkos::complex<double>>(in, buffer, family); break;
  }
  return 0;
}
