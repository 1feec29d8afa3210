#!/usr/bin/env bash
# Builds Kokkos 3.4 with the Serial and Threads backends (Kokkos::Threads, C++ threads: the
# PTHREAD option of Kokkos 3, THREADS from Kokkos 4) into $deps_dir/kokkos-3.4-threads, skipping
# the build when it is there. Kokkos builds one threaded host backend at most, so this is a
# second Kokkos beside setup-debian.sh's (Serial + OpenMP); test.sh's sanitizer tree runs on it.
# The sources are those setup-debian.sh fetched, unchanged.
# Prints the Kokkos prefix as the last line of stdout (Kokkos_ROOT).
#
# Quiet: the output of each step goes to $deps_dir/setup-threads.log (rewritten on each run);
# stderr gets one line per step with its time.
# Environment: BANDSOLVE_DEPS_DIR (default ~/.cache/bandsolve).
set -euo pipefail

scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
log_tag=bandsolve-setup-threads
# shellcheck source=setup-steps.sh
source "$scripts/setup-steps.sh"
help_or_no_argument "${BASH_SOURCE[0]}" 2,11 "$@"
prefix="$deps_dir/kokkos-3.4-threads"
start_log setup-threads.log

if [ -f "$prefix/.bandsolve-complete" ]; then
  note "Kokkos Threads: already built in $prefix"
  echo "$prefix"
  exit 0
fi

src=$(bash "$scripts/setup-debian.sh" --kokkos-source | tail -n1)
[ -f "$src/.bandsolve-complete" ] ||
  { log "setup-debian.sh --kokkos-source printed no source directory"; exit 1; }

work="$deps_dir/kokkos-threads-work"
rm -rf "$work" && mkdir -p "$work"
step "Kokkos Threads: configured (Serial + Threads)" \
  cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_PTHREAD=ON \
  -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON
step "Kokkos Threads: built" cmake --build "$work/build" -j "$(nproc)"
rm -rf "$prefix"
step "Kokkos Threads: installed into $prefix" cmake --install "$work/build"
touch "$prefix/.bandsolve-complete"
rm -rf "$work"
echo "$prefix"
