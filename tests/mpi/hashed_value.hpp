#pragma once
// A value in [-1, 1) from a 64-bit key (splitmix64's finalizer), so that every rank computes the
// same rows of every line from (line, global row, which value) alone and can build the reference
// solve of the whole lines itself.
#include <cstdint>

namespace bstest_mpi {

inline double hashed_value(std::uint64_t key) {
  std::uint64_t z = key + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
}

}  // namespace bstest_mpi
