#!/usr/bin/env bash
# Builds Kokkos 3.4 with the Serial and OpenMP backends by Clang with ThreadSanitizer
# (-fsanitize=thread) into $deps_dir/kokkos-3.4-openmp-tsan, skipping the build when it is there:
# the Kokkos of test.sh's optional ThreadSanitizer tree (BANDSOLVE_THREAD_SANITIZER=1). TSan sees
# only the synchronization it instruments, so Kokkos' own (its atomics, the OpenMP threads' team
# data) is compiled with it. The sources are those setup-debian.sh fetched, unchanged.
# Prints the Kokkos prefix as the last line of stdout (Kokkos_ROOT).
#
# Quiet: the output of each step goes to $deps_dir/setup-tsan.log (rewritten on each run);
# stderr gets one line per step with its time.
# Environment: BANDSOLVE_DEPS_DIR (default ~/.cache/bandsolve).
set -euo pipefail

scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
log_tag=bandsolve-setup-tsan
# shellcheck source=setup-steps.sh
source "$scripts/setup-steps.sh"
help_or_no_argument "${BASH_SOURCE[0]}" 2,11 "$@"
start_log setup-tsan.log
command -v clang++ >/dev/null && command -v clang >/dev/null ||
  { log "no clang++: ThreadSanitizer on OpenMP needs Clang (setup-debian.sh installs it)"; exit 1; }
build_kokkos "$deps_dir/kokkos-3.4-openmp-tsan" "Kokkos OpenMP with TSan (Serial + OpenMP, Clang)" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
  "-DCMAKE_CXX_FLAGS=-fsanitize=thread -fno-omit-frame-pointer" \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON
