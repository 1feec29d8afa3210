#!/usr/bin/env bash
# Builds and runs BandSolve's tests: sets up the machine (Debian bookworm, see setup-debian.sh), then
#   build/test      Release: unit tests, package tests, examples;
#   build/sanitize  RelWithDebInfo at -O1 with ASan + UBSan (skipped with BANDSOLVE_SKIP_SANITIZE=1).
# Works from any directory. Extra arguments go to ctest (e.g. -R tridiag/ or -L unit).
# Environment: Kokkos_ROOT (use your own Kokkos), BANDSOLVE_JOBS (parallel jobs, default nproc).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
log() { echo "[bandsolve-test] $*" >&2; }

kokkos_root=$(bash cmake/scripts/setup-debian.sh | tail -n1)
[ -n "$kokkos_root" ] || { log "setup-debian.sh printed no Kokkos prefix"; exit 1; }
jobs=${BANDSOLVE_JOBS:-$(nproc)}

build_and_test() {
  local dir=$1; shift
  log "configuring $dir"
  cmake -S . -B "$dir" -DKokkos_ROOT="$kokkos_root" \
    -DBANDSOLVE_BUILD_TESTS=ON -DBANDSOLVE_BUILD_EXAMPLES=ON -DBANDSOLVE_BUILD_BENCHMARKS=OFF "$@"
  log "building $dir"
  cmake --build "$dir" -j "$jobs"
  log "testing $dir"
  (cd "$dir" && ctest --output-on-failure -j "$jobs" "${ctest_args[@]}")
}

ctest_args=("$@")
start=$SECONDS
build_and_test build/test -DCMAKE_BUILD_TYPE=Release -DBANDSOLVE_SANITIZE=OFF
if [ "${BANDSOLVE_SKIP_SANITIZE:-0}" != 1 ]; then
  # The package tests check packaging, not memory: they run in build/test only.
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  build_and_test build/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" -DBANDSOLVE_SANITIZE=ON \
    -DBANDSOLVE_BUILD_PACKAGE_TESTS=OFF
else
  log "BANDSOLVE_SKIP_SANITIZE=1: sanitizer build skipped"
fi
log "all tests passed ($((SECONDS - start)) s)"
