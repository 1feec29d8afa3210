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

// Whether the host is an AMD CPU of family 0x1A or later (Zen 5 on), the only hosts measured
// where the factored sweeps of wide packs of doubles in registers beat tiles of 8 systems
// (tridiag/thomas.hpp, register_double_tiles): AMD's Zen 4 (family 0x19, 512-bit vectors as two
// halves) and Intel's AVX-512 Xeons took tiles. False where CPUID cannot be read.
inline bool host_is_amd_family_1a_or_later() {
#if BANDSOLVE_HAS_CPUID
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) == 0) return false;
  const bool amd = ebx == 0x68747541u && edx == 0x69746e65u && ecx == 0x444d4163u;  // AuthenticAMD
  if (!amd || __get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return false;
  unsigned family = (eax >> 8) & 0xfu;
  if (family == 0xfu) family += (eax >> 20) & 0xffu;
  return family >= 0x1au;
#else
  return false;
#endif
}

}  // namespace bandsolve::detail
