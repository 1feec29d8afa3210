#!/usr/bin/env bash
# Builds and runs BandSolve's benchmarks: sets up the machine (Debian bookworm, see setup-debian.sh),
# builds build/bench (Release, -march=native) and runs bandsolve_bench with threads spread and pinned.
# Arguments go to the benchmark (--benchmark_filter=..., --benchmark_repetitions=...). Unless one of
# them is --benchmark_out=..., the results are also written as JSON to bench/results/latest.json.
# Works from any directory. Environment: Kokkos_ROOT (use your own Kokkos), BANDSOLVE_JOBS.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
log() { echo "[bandsolve-bench] $*" >&2; }

kokkos_root=$(bash cmake/scripts/setup-debian.sh | tail -n1)
[ -n "$kokkos_root" ] || { log "setup-debian.sh printed no Kokkos prefix"; exit 1; }
jobs=${BANDSOLVE_JOBS:-$(nproc)}

log "configuring build/bench"
cmake -S . -B build/bench -DKokkos_ROOT="$kokkos_root" -DCMAKE_BUILD_TYPE=Release \
  -DBANDSOLVE_NATIVE=ON -DBANDSOLVE_SANITIZE=OFF \
  -DBANDSOLVE_BUILD_BENCHMARKS=ON -DBANDSOLVE_BUILD_TESTS=OFF -DBANDSOLVE_BUILD_EXAMPLES=OFF
log "building build/bench"
cmake --build build/bench -j "$jobs"

exe=build/bench/bench/bandsolve_bench
[ -x "$exe" ] || { log "$exe was not built (no bench/**/*.cpp?)"; exit 1; }

args=("$@")
has_out=0
for a in "${args[@]}"; do
  case "$a" in --benchmark_out=*|--benchmark_out) has_out=1 ;; esac
done
if [ $has_out -eq 0 ]; then
  mkdir -p bench/results
  args+=(--benchmark_out=bench/results/latest.json --benchmark_out_format=json)
fi

log "running $exe ${args[*]}"
OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads} "$exe" "${args[@]}"
