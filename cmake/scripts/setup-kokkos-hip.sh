#!/usr/bin/env bash
# Installs Debian's HIP compiler (hipcc of ROCm 5.2, Clang 15: setup-debian.sh --hip) where it is
# missing and builds Kokkos 3.4 with the Serial and HIP backends for AMD's gfx908 (MI100,
# Kokkos_ARCH_VEGA908: the newest AMD GPU Kokkos 3.4 knows) into $deps_dir/kokkos-3.4-hip,
# skipping the build when it is there. A GPU is not needed: CI only compiles HIP code. The
# sources are those setup-debian.sh fetched, unchanged.
# Prints the Kokkos prefix as the last line of stdout (Kokkos_ROOT; the C++ compiler to use is
# hipcc).
#
# Quiet: the output of each step goes to $deps_dir/setup-hip.log (rewritten on each run); stderr
# gets one line per step with its time.
# Environment: BANDSOLVE_DEPS_DIR (default ~/.cache/bandsolve).
set -euo pipefail

scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
log_tag=bandsolve-setup-hip
# shellcheck source=setup-steps.sh
source "$scripts/setup-steps.sh"
help_or_no_argument "${BASH_SOURCE[0]}" 2,12 "$@"
prefix="$deps_dir/kokkos-3.4-hip"
start_log setup-hip.log

# Packages first (hipcc may be missing even where Kokkos was built), then the sources.
src=$(bash "$scripts/setup-debian.sh" --hip --kokkos-source | tail -n1)
[ -f "$src/.bandsolve-complete" ] ||
  { log "setup-debian.sh --kokkos-source printed no source directory"; exit 1; }
command -v hipcc >/dev/null || { log "no hipcc after setup-debian.sh --hip"; exit 1; }

if [ -f "$prefix/.bandsolve-complete" ]; then
  note "Kokkos HIP: already built in $prefix"
  echo "$prefix"
  exit 0
fi

work="$deps_dir/kokkos-hip-work"
rm -rf "$work" && mkdir -p "$work"
step "Kokkos HIP: configured (Serial + HIP, gfx908)" \
  cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_COMPILER="$(command -v hipcc)" \
  -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_HIP=ON -DKokkos_ARCH_VEGA908=ON -DBUILD_SHARED_LIBS=OFF
step "Kokkos HIP: built" cmake --build "$work/build" -j "$(nproc)"
rm -rf "$prefix"
step "Kokkos HIP: installed into $prefix" cmake --install "$work/build"
touch "$prefix/.bandsolve-complete"
rm -rf "$work"
echo "$prefix"
