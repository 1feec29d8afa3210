#!/usr/bin/env bash
# Builds and runs BandSolve's benchmarks: sets up the machine (Debian bookworm, see setup-debian.sh),
# builds build/bench (Release, -march=native) and runs bandsolve_bench with threads spread and pinned,
# then prints a summary table and writes PNG plots (bench/plot.py).
#
#   bash cmake/scripts/bench.sh            the headline set (a few minutes on 2 cores): Thomas per
#                                          layout at n = 64, 256, 1024 with 65536 systems, the
#                                          Thomas-PCR hybrid on one long system and the nsys sweep,
#                                          block Thomas, Toeplitz, banded LU, the axes of a 256^3
#                                          cube and one ADI step, each with its peer of the same run;
#   bash cmake/scripts/bench.sh --full     the complete suite (211 benchmarks against the headline set's 74);
#   --no-plots                             table only (and no python3-matplotlib installed);
#   any other argument goes to the benchmark (--benchmark_filter=... replaces the headline set,
#   --benchmark_repetitions=..., --benchmark_out=...).
#
# Results: bench/results/<machine>/headline.json (full.json with --full, run.json with a filter of
# your own) unless --benchmark_out is given, plus the plots beside it (full-*.png for --full).
# <machine> is $BANDSOLVE_MACHINE, or made from /proc/cpuinfo (e.g. epyc-zen5-2vcpu).
# Works from any directory. Environment: Kokkos_ROOT (use your own Kokkos), BANDSOLVE_JOBS,
# BANDSOLVE_MACHINE.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
log() { echo "[bandsolve-bench] $*" >&2; }
start=$SECONDS

# The headline set: each solver family at one representative size, with its peer of the same run
# (the LAPACK loop, or the sequential algorithm a single-system solver replaces) and the STREAM-like
# reference kernel.
headline_filter='^('
headline_filter+='stream/4r1w/double'
headline_filter+='|thomas/(one_shot|factored_solve)/(row|column|interleaved8|column_padded)/double/n:(64|256|1024)/nsys:65536/'
headline_filter+='|lapack_gtsv/row/double/n:(64|256|1024)/nsys:65536/'
headline_filter+='|pcr_long/(thomas_pcr|sequential_thomas)/'
headline_filter+='|pcr_sweep/(thomas|thomas_pcr|automatic)/'
headline_filter+='|block_thomas/one_shot/(row|column|interleaved8)/double/m:4/|lapack_gbsv/row/double/m:4/'
headline_filter+='|toeplitz/(toeplitz_batch|thomas_general)/|toeplitz/(divide_and_conquer|sequential_thomas)/double/n:16777216/'
headline_filter+='|banded_lu/one_shot/(row|column|interleaved8)/double/kl:2/|lapack_gbsv/row/double/kl:2/'
headline_filter+='|axis/(full|full_padded|lapack_gtsv)/|axis/adi_step'
headline_filter+=')'

full=0 plots=1 has_out=0 has_filter=0
args=()
for a in "$@"; do
  case "$a" in
    --full) full=1 ;;
    --no-plots) plots=0 ;;
    -h|--help) sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --benchmark_out=*|--benchmark_out) has_out=1; args+=("$a") ;;
    --benchmark_filter=*|--benchmark_filter) has_filter=1; args+=("$a") ;;
    *) args+=("$a") ;;
  esac
done

# A name for this machine's results folder.
machine_name() {
  if [ -n "${BANDSOLVE_MACHINE:-}" ]; then echo "$BANDSOLVE_MACHINE"; return; fi
  local model family cpus kind
  model=$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
  family=$(awk -F': *' '/^cpu family/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
  cpus=$(nproc)
  kind=cpu
  grep -qw hypervisor /proc/cpuinfo 2>/dev/null && kind=vcpu
  if [[ "$model" == *EPYC* ]] && [ "$family" = 26 ]; then
    echo "epyc-zen5-$cpus$kind"
  else
    model=$(echo "${model:-unknown}" | sed -E 's/\((R|TM|tm)\)//g; s/@.*//; s/ (CPU|Processor)//g; s/[0-9]+-Core//g' |
      tr 'A-Z' 'a-z' | sed -E 's/[^a-z0-9]+/-/g; s/^-+//; s/-+$//')
    echo "$model-$cpus$kind"
  fi
}

setup_args=()
[ $plots -eq 1 ] && setup_args+=(--plotting)
kokkos_root=$(bash cmake/scripts/setup-debian.sh "${setup_args[@]}" | tail -n1)
[ -n "$kokkos_root" ] || { log "setup-debian.sh printed no Kokkos prefix"; exit 1; }
jobs=${BANDSOLVE_JOBS:-$(nproc)}

t0=$SECONDS
log "configuring and building build/bench (Release, -march=native, $jobs jobs)"
cmake -S . -B build/bench -DKokkos_ROOT="$kokkos_root" -DCMAKE_BUILD_TYPE=Release \
  -DBANDSOLVE_NATIVE=ON -DBANDSOLVE_SANITIZE=OFF \
  -DBANDSOLVE_BUILD_BENCHMARKS=ON -DBANDSOLVE_BUILD_TESTS=OFF -DBANDSOLVE_BUILD_EXAMPLES=OFF >/dev/null
cmake --build build/bench -j "$jobs"
log "build: $((SECONDS - t0)) s"

exe=build/bench/bench/bandsolve_bench
[ -x "$exe" ] || { log "$exe was not built (no bench/**/*.cpp?)"; exit 1; }

results="bench/results/$(machine_name)"
if [ $full -eq 1 ]; then
  name=full
elif [ $has_filter -eq 1 ]; then
  name=run
else
  name=headline
  args+=("--benchmark_filter=$headline_filter")
fi
out_json=""
if [ $has_out -eq 0 ]; then
  mkdir -p "$results"
  out_json="$results/$name.json"
  args+=("--benchmark_out=$out_json" --benchmark_out_format=json)
fi

t0=$SECONDS
log "running $exe ($name set) ${out_json:+-> $out_json}"
OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads} "$exe" "${args[@]}"
log "benchmarks: $((SECONDS - t0)) s"

if [ -n "$out_json" ]; then
  # Debian's python3 has python3-matplotlib; another python3 first on PATH may not.
  py=python3
  if [ $plots -eq 1 ] && ! python3 -c 'import matplotlib' 2>/dev/null && [ -x /usr/bin/python3 ]; then
    py=/usr/bin/python3
  fi
  plot_args=(--label "$(basename "$results")")
  if [ $plots -eq 1 ]; then
    [ "$name" = headline ] || plot_args+=(--prefix "$name-")
  else
    plot_args+=(--no-plots)
  fi
  echo
  "$py" bench/plot.py "$out_json" "${plot_args[@]}"
fi
log "done in $((SECONDS - start)) s"
