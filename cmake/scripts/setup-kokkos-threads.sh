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
start_log setup-threads.log
build_kokkos "$deps_dir/kokkos-3.4-threads" "Kokkos Threads (Serial + Threads)" \
  -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_PTHREAD=ON
