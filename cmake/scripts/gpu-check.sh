#!/usr/bin/env bash
# The GPU checks of a CUDA build, for builds made on one machine and run on another:
#
#   bash cmake/scripts/gpu-check.sh pack BUILD_DIR OUT_DIR
#       copies the executables of the tests labelled cuda, mpi_test_device_views and
#       bandsolve_bench_mpi_device (when built) and bandsolve_bench_cuda from BUILD_DIR (see docs/development.md, "Compiling for CUDA without
#       a GPU") into OUT_DIR/bin, stripped and gzipped, the shared libraries they need that are
#       not the C/C++ runtime, the CUDA driver or cuSPARSE into OUT_DIR/lib, and this script.
#   bash OUT_DIR/gpu-check.sh run OUT_DIR RESULTS_DIR
#       on the GPU machine: every test program and compute-sanitizer memcheck on each, side by
#       side (tests.log, memcheck.log), mpi_test_device_views at 2 ranks (and under memcheck)
#       when it is there and mpiexec is found, then the benchmark's families (device.json) and
#       shape sweep (sweep.json, sweep_cusparse.json), one after the other, and the MPI device
#       benchmark at 2 ranks (mpi_device.json). About 5 minutes on an H200.
#
# Environment: GPU_CHECK_TIMEOUT (seconds per test program, default 300), GPU_CHECK_BENCH (all,
# the default; families: device.json alone, the sweeps and the MPI benchmark left out).
set -u

die() { echo "gpu-check: $*" >&2; exit 1; }

pack() {
  local build=$1 out=$2
  [ -d "$build/tests" ] || die "no $build/tests: configure and build a CUDA tree first"
  mkdir -p "$out/bin" "$out/lib"
  local exe=() f
  for f in "$build"/tests/device_* "$build"/tests/cuda_test_* "$build"/tests/gpu_test_* \
           "$build"/tests/mpi/mpi_test_device_views "$build"/bench/bandsolve_bench_cuda \
           "$build"/bench/bandsolve_bench_mpi_device; do
    [ -x "$f" ] && [ -f "$f" ] && exe+=("$f")
  done
  [ ${#exe[@]} -gt 0 ] || die "no CUDA test or benchmark executables in $build"
  for f in "${exe[@]}"; do
    cp "$f" "$out/bin/" && strip "$out/bin/$(basename "$f")" && gzip -9f "$out/bin/$(basename "$f")"
  done
  # The libraries to carry: what ldd resolves, less the C/C++ runtime, the CUDA driver, cuSPARSE
  # and its JIT linker (large, and part of a CUDA toolkit) and MPI (the GPU machine's own).
  local skip='^(lib(c|m|dl|rt|pthread|stdc\+\+|gcc_s|cuda|cusparse|nvJitLink|z|udev)\.so'
  skip+='|lib(mpi|open-|hwloc|event|nl-|ibverbs|fabric|psm|uc[pst]|pmix|munge))'
  ldd "${exe[@]}" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | sort -u |
    grep -v -E "$skip" | while read -r name path; do cp -L "$path" "$out/lib/$name"; done
  cp "${BASH_SOURCE[0]}" "$out/gpu-check.sh"
  echo "gpu-check: packed ${#exe[@]} executables and $(ls "$out/lib" | wc -l) libraries into $out" \
    "($(du -sh "$out" | cut -f1))"
}

run() {
  local dir results
  dir=$(cd "$1" && pwd) || die "no $1"
  mkdir -p "$2" && results=$(cd "$2" && pwd)
  local limit=${GPU_CHECK_TIMEOUT:-300}
  export LD_LIBRARY_PATH="$dir/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
  export PATH="/usr/local/cuda/bin:$PATH"
  cd "$dir/bin" || die "no $dir/bin"
  ls ./*.gz >/dev/null 2>&1 && gunzip -f ./*.gz
  chmod +x ./*
  {
    date
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    for f in ./*; do ldd "$f" | grep "not found" | sed "s|^|$f: |"; done
  } > "$results/env.log" 2>&1
  local work
  work=$(mktemp -d)
  one() {  # name, then the command
    local name=$1 start=$SECONDS
    shift
    timeout "$limit" "$@" > "$work/$name.log" 2>&1
    echo "== $name rc=$? $((SECONDS - start)) s" >> "$work/$name.log"
  }
  local t
  for t in device_* cuda_test_* gpu_test_*; do
    [ -x "$t" ] || continue
    one "test_$t" "./$t" &
    if command -v compute-sanitizer >/dev/null; then
      if [ "$t" = cuda_test_device_callable ]; then
        one "memcheck_$t" compute-sanitizer --tool memcheck --print-limit 20 "./$t" --quick &
      else
        one "memcheck_$t" compute-sanitizer --tool memcheck --print-limit 20 "./$t" &
      fi
    fi
  done
  if [ -x mpi_test_device_views ] && command -v mpiexec >/dev/null; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      one test_mpi_device_views mpiexec --oversubscribe -n 2 ./mpi_test_device_views &
    if command -v compute-sanitizer >/dev/null; then
      OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        one memcheck_mpi_device_views mpiexec --oversubscribe -n 2 \
        compute-sanitizer --tool memcheck --print-limit 20 ./mpi_test_device_views &
    fi
  fi
  wait
  cat "$work"/test_*.log > "$results/tests.log"
  cat "$work"/memcheck_*.log > "$results/memcheck.log" 2>/dev/null
  rm -rf "$work"
  local bench=./bandsolve_bench_cuda
  if [ -x "$bench" ]; then
    timeout 300 "$bench" --benchmark_filter=-sweep --benchmark_min_time=0.2 \
      --benchmark_out="$results/device.json" --benchmark_out_format=json > "$results/bench.log" 2>&1
  fi
  # GPU_CHECK_BENCH=families: the shape sweeps and the MPI benchmark are left out.
  local more_bench=1
  [ "${GPU_CHECK_BENCH:-all}" = families ] && more_bench=0
  if [ -x "$bench" ] && [ $more_bench = 1 ]; then
    timeout 300 "$bench" --benchmark_filter='^sweep/automatic' --benchmark_min_time=0.05 \
      --benchmark_out="$results/sweep.json" --benchmark_out_format=json >> "$results/bench.log" 2>&1
    timeout 300 "$bench" --benchmark_filter='^sweep/cusparse' --benchmark_min_time=0.05 \
      --benchmark_out="$results/sweep_cusparse.json" --benchmark_out_format=json \
      >> "$results/bench.log" 2>&1
  fi
  if [ -x bandsolve_bench_mpi_device ] && [ $more_bench = 1 ] &&
     command -v mpiexec >/dev/null; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 \
      mpiexec --oversubscribe -n 2 ./bandsolve_bench_mpi_device \
      --benchmark_out="$results/mpi_device.json" --benchmark_out_format=json \
      >> "$results/bench.log" 2>&1
  fi
  date >> "$results/env.log"
  grep -E "^==|passed|failed|ERROR SUMMARY" "$results/tests.log" "$results/memcheck.log"
}

case "${1:-}" in
  pack) [ $# -eq 3 ] || die "usage: gpu-check.sh pack BUILD_DIR OUT_DIR"; pack "$2" "$3" ;;
  run) [ $# -eq 3 ] || die "usage: gpu-check.sh run OUT_DIR RESULTS_DIR"; run "$2" "$3" ;;
  *) die "usage: gpu-check.sh pack BUILD_DIR OUT_DIR | run OUT_DIR RESULTS_DIR" ;;
esac
