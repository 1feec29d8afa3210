#pragma once
// Facts about the host CPU read at run time (CPUID), for the choices that measured differently on
// machines that one build runs on: -march=native with GCC 12 names an AMD Zen 4 and a Zen 5 alike
// (znver3 with AVX-512), so no macro tells them apart.

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#include <cpuid.h>
#define BANDSOLVE_HAS_CPUID 1
#else
#define BANDSOLVE_HAS_CPUID 0
#endif

namespace bandsolve::detail {

// Whether the host executes 512-bit vector instructions as two 256-bit halves: AMD's Zen 4
// (family 0x19, the only AMD family with AVX-512 and 256-bit units) does; Intel's AVX-512 cores
// and AMD's Zen 5 server parts run them whole. False where CPUID cannot be read.
inline bool host_splits_512_bit_vectors() {
#if BANDSOLVE_HAS_CPUID
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) == 0) return false;
  const bool amd = ebx == 0x68747541u && edx == 0x69746e65u && ecx == 0x444d4163u;  // AuthenticAMD
  if (!amd || eax < 7 || __get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return false;
  unsigned family = (eax >> 8) & 0xfu;
  if (family == 0xfu) family += (eax >> 20) & 0xffu;
  if (family != 0x19u || __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) == 0) return false;
  return ((ebx >> 16) & 1u) != 0;  // AVX-512F
#else
  return false;
#endif
}

}  // namespace bandsolve::detail
