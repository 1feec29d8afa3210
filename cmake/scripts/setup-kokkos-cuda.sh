#!/usr/bin/env bash
# Builds Kokkos 3.4 with the Serial and CUDA backends (sm_80, CUDA lambdas) into
# $deps_dir/kokkos-3.4-cuda, skipping the build when it is there. A GPU is not needed: CI only
# compiles CUDA code. The sources are those setup-debian.sh fetched (it is called with
# --kokkos-source, so nothing is downloaded twice); a copy of them gets three changes that
# Kokkos 3.4.01 needs under nvcc 13:
#   - bin/nvcc_wrapper: the default architecture sm_35, which nvcc 13 no longer knows, becomes sm_80;
#   - core/src/Cuda/Kokkos_Cuda_Half.hpp: its CUDA half_t, which does not compile with CUDA 13,
#     is left out from CUDA 13 on (BandSolve does not use it);
#   - core/src/Cuda/Kokkos_CudaSpace.cpp: cudaMemPrefetchAsync takes a cudaMemLocation and flags
#     in CUDA 13 instead of a device number.
# Each change fails loudly when its pattern is not found.
# Kokkos 3.4 knows no GPU newer than Ampere, and its start-up refuses kernels of another major
# compute capability: for Hopper (H100, H200) set BANDSOLVE_CUDA_ARCH=90, which builds a second
# copy, kokkos-3.4-cuda-sm90, whose Ampere option emits sm_90 code (one more change, in
# cmake/kokkos_arch.cmake).
# Prints the Kokkos prefix as the last line of stdout (Kokkos_ROOT; the C++ compiler to use is
# its bin/nvcc_wrapper, with the CUDA toolkit's bin in PATH).
#
# Quiet: the output of each step goes to $deps_dir/setup-cuda.log (rewritten on each run); stderr
# gets one line per step with its time.
# Environment: BANDSOLVE_DEPS_DIR (default ~/.cache/bandsolve), CUDA_HOME (default: the nvcc in
# PATH, else /usr/local/cuda), BANDSOLVE_CUDA_ARCH (80, the default, or 90).
set -euo pipefail

scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
log_tag=bandsolve-setup-cuda
# shellcheck source=setup-steps.sh
source "$scripts/setup-steps.sh"
help_or_no_argument "${BASH_SOURCE[0]}" 2,23 "$@"
cuda_arch=${BANDSOLVE_CUDA_ARCH:-80}
case $cuda_arch in
  80) prefix="$deps_dir/kokkos-3.4-cuda" ;;
  90) prefix="$deps_dir/kokkos-3.4-cuda-sm90" ;;
  *) log "BANDSOLVE_CUDA_ARCH must be 80 or 90, not $cuda_arch"; exit 2 ;;
esac
start_log setup-cuda.log

if [ -f "$prefix/.bandsolve-complete" ]; then
  note "Kokkos CUDA: already built in $prefix"
  echo "$prefix"
  exit 0
fi

if [ -z "${CUDA_HOME:-}" ]; then
  if command -v nvcc >/dev/null; then CUDA_HOME=$(dirname "$(dirname "$(command -v nvcc)")")
  else CUDA_HOME=/usr/local/cuda; fi
fi
[ -x "$CUDA_HOME/bin/nvcc" ] || { log "no nvcc in $CUDA_HOME/bin (set CUDA_HOME)"; exit 1; }
export PATH="$CUDA_HOME/bin:$PATH"

src=$(bash "$scripts/setup-debian.sh" --kokkos-source | tail -n1)
[ -f "$src/.bandsolve-complete" ] || { log "setup-debian.sh --kokkos-source printed no source directory"; exit 1; }

work="$deps_dir/kokkos-cuda-work-sm$cuda_arch"
rm -rf "$work" && mkdir -p "$work"
step "Kokkos CUDA: sources copied" cp -r "$src" "$work/src"

# patch FILE PATTERN SED-SCRIPT: applies SED-SCRIPT to FILE, which must contain PATTERN (grep -F)
# before and must not after.
patch_one() {
  local file=$1 pattern=$2 script=$3
  grep -qF -- "$pattern" "$file" || { echo "pattern not found in $file: $pattern"; return 1; }
  sed -i -e "$script" "$file" || return
  if grep -qF -- "$pattern" "$file"; then echo "pattern still in $file after sed: $pattern"; return 1; fi
}
# (step runs it where set -e does not apply: each failure returns at once.)
patch_sources() {
  local s=$1
  patch_one "$s/bin/nvcc_wrapper" 'default_arch="sm_35"' \
    "s/^default_arch=\"sm_35\"/default_arch=\"sm_$cuda_arch\"/" || return
  if [ "$cuda_arch" = 90 ]; then
    patch_one "$s/cmake/kokkos_arch.cmake" 'CHECK_CUDA_ARCH(AMPERE80  sm_80)' \
      's/CHECK_CUDA_ARCH(AMPERE80  sm_80)/CHECK_CUDA_ARCH(AMPERE80  sm_90)/' || return
  fi
  patch_one "$s/core/src/Cuda/Kokkos_Cuda_Half.hpp" '#ifndef KOKKOS_IMPL_HALF_TYPE_DEFINED' \
    's/^#ifndef KOKKOS_IMPL_HALF_TYPE_DEFINED$/#if !defined(KOKKOS_IMPL_HALF_TYPE_DEFINED) \&\& (CUDART_VERSION < 13000)/' \
    || return
  patch_one "$s/core/src/Cuda/Kokkos_CudaSpace.cpp" 'cudaMemPrefetchAsync(ptr, bytes, space.cuda_device(),' \
    's/cudaMemPrefetchAsync(ptr, bytes, space.cuda_device(),/cudaMemPrefetchAsync(ptr, bytes, cudaMemLocation{cudaMemLocationTypeDevice, space.cuda_device()}, 0,/' \
    || return
}
step "Kokkos CUDA: sources patched (sm_$cuda_arch, no half type, cudaMemPrefetchAsync)" \
  patch_sources "$work/src"
step "Kokkos CUDA: configured (Serial + CUDA, sm_$cuda_arch)" \
  cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_COMPILER="$work/src/bin/nvcc_wrapper" \
  -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_AMPERE80=ON \
  -DKokkos_ENABLE_CUDA_LAMBDA=ON -DBUILD_SHARED_LIBS=OFF
step "Kokkos CUDA: built" cmake --build "$work/build" -j "$(nproc)"
rm -rf "$prefix"
step "Kokkos CUDA: installed into $prefix" cmake --install "$work/build"
touch "$prefix/.bandsolve-complete"
rm -rf "$work"
echo "$prefix"
