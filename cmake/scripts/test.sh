#!/usr/bin/env bash
# Builds and runs BandSolve's tests: sets up the machine (Debian bookworm, see setup-debian.sh), then
#   build/test      Release at -O1 -fstrict-aliasing: unit tests, warnings test, package tests,
#                   examples (the SIMD paths are explicit vector code, the same at any level;
#                   -O2 took a third more compile time: docs/development.md, "Build and CI times");
#                   tests/device (the device backend's kernels) on Kokkos::OpenMP in a GPU's
#                   teams of 32 threads (BANDSOLVE_TEST_DEVICE_TEAMS_ON_HOST), not the other
#                   units' device cases, which build/sanitize runs with the memory checks;
#   build/sanitize  -O0 -g1 with ASan + UBSan (skipped with BANDSOLVE_SKIP_SANITIZE=1), on
#                   Kokkos 3.4 with Kokkos::Threads (setup-kokkos-threads.sh) where build/test
#                   has OpenMP: the other threaded host backend, the same tests; compiled
#                   by Clang where it is installed (setup-debian.sh installs it; GCC otherwise):
#                   a second compiler for the same code, which at -O0 with the sanitizers compiles
#                   the units in about half GCC's time; the sanitizers instrument every access at
#                   any level, and -O0 compiles in a third of the time -O1 takes (both measured in
#                   docs/development.md, "Build and CI times"). Built for this machine
#                   (-march=native), where build/test is for baseline x86-64: the paths that the
#                   vector extensions select (AVX-512 register sweeps, GNU vector packs) run under
#                   the memory checks, the baseline ones in the other tree. Runs tests/device in
#                   teams of one thread (a GPU's 32 on Kokkos::Threads took minutes per case).
#                   Also checks that the host benchmarks compile (BANDSOLVE_CHECK_BENCHMARKS:
#                   -fsyntax-only, no link);
#   build/tsan      only with BANDSOLVE_THREAD_SANITIZER=1 (not in CI: 14 minutes more on 2 vCPUs):
#                   -O0 -g1 with ThreadSanitizer, Clang, on Kokkos 3.4 with OpenMP built with TSan
#                   (setup-kokkos-tsan.sh), LLVM's Archer tool reporting OpenMP's
#                   synchronization: data races between the threads of the host backends'
#                   kernels and within the device kernels' teams of 32 threads
#                   (docs/development.md, "ThreadSanitizer");
#   build/cuda      nvcc (Kokkos' nvcc_wrapper) against Kokkos 3.4 built with CUDA by
#                   setup-kokkos-cuda.sh: CHECKS the tests labelled cuda (tests/cuda, tests/device)
#                   and the CUDA benchmarks with nvcc (target bandsolve_cuda_compile_check: front
#                   end, device code through cicc and ptxas, no host code generation, no link) and
#                   runs nothing, as CI has no GPU; on a GPU machine build bandsolve_cuda_tests at
#                   -O2 to run them (docs/development.md). Skipped with BANDSOLVE_SKIP_CUDA=1 or
#                   where there is no nvcc (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin);
#   build/hip       hipcc (Debian's ROCm 5.2, installed by setup-kokkos-hip.sh with Kokkos 3.4
#                   built with HIP for gfx908): CHECKS the tests labelled hip (tests/device,
#                   tests/gpu, the MPI device test) with target bandsolve_hip_compile_check (the
#                   device side only, through the AMDGPU back end; no host code, no link) and runs
#                   nothing (no AMD GPU). Skipped with BANDSOLVE_SKIP_HIP=1.
# Works from any directory. Extra arguments go to ctest (e.g. -R tridiag/ or -L unit).
# Environment: Kokkos_ROOT (use your own Kokkos, in both host trees), BANDSOLVE_JOBS (parallel
# jobs, default nproc).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
log() { echo "[bandsolve-test] $*" >&2; }

setup_start=$SECONDS
kokkos_root=$(bash cmake/scripts/setup-debian.sh | tail -n1)
[ -n "$kokkos_root" ] || { log "setup-debian.sh printed no Kokkos prefix"; exit 1; }
jobs=${BANDSOLVE_JOBS:-$(nproc)}

# build_and_test DIR KOKKOS_ROOT CMAKE_ARGS...
build_and_test() {
  local dir=$1 kokkos=$2; shift 2
  local t0=$SECONDS
  log "configuring $dir (Kokkos in $kokkos)"
  # -U Kokkos_DIR: a tree configured before with another Kokkos finds this one.
  cmake -U Kokkos_DIR -S . -B "$dir" -DKokkos_ROOT="$kokkos" \
    -DBANDSOLVE_BUILD_TESTS=ON -DBANDSOLVE_BUILD_EXAMPLES=ON -DBANDSOLVE_BUILD_BENCHMARKS=OFF "$@"
  log "building $dir"
  env "${build_env[@]}" cmake --build "$dir" -j "$jobs"
  local t1=$SECONDS
  log "testing $dir"
  (cd "$dir" && ctest --output-on-failure -j "$jobs" "${ctest_args[@]}")
  log "$dir: built in $((t1 - t0)) s, tested in $((SECONDS - t1)) s"
}

ctest_args=("$@")
build_env=()  # variables for the compilers of one tree (the sanitizer tree's Clang, below)
# Both trees link with lld where it is there: half GNU ld's time or less per test executable
# (docs/development.md, "Build and CI times").
linker=()
command -v ld.lld >/dev/null && linker=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld)
log "set-up took $((SECONDS - setup_start)) s"
start=$SECONDS
build_and_test build/test "$kokkos_root" -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -fstrict-aliasing -DNDEBUG" \
  -DBANDSOLVE_SANITIZE=OFF -DBANDSOLVE_TEST_DEVICE_KERNELS_ON_HOST=OFF \
  -DBANDSOLVE_TEST_DEVICE_TEAMS_ON_HOST=ON "${linker[@]}"
if [ "${BANDSOLVE_SKIP_SANITIZE:-0}" != 1 ]; then
  # Kokkos builds one threaded host backend: the sanitizer tree takes Kokkos::Threads, so that
  # both run every test (unless Kokkos_ROOT names a Kokkos of the user's, which both trees use).
  sanitize_kokkos=$kokkos_root
  if [ -z "${Kokkos_ROOT:-}" ]; then
    sanitize_kokkos=$(bash cmake/scripts/setup-kokkos-threads.sh | tail -n1)
    [ -n "$sanitize_kokkos" ] || { log "setup-kokkos-threads.sh printed no Kokkos prefix"; exit 1; }
  fi
  # Clang links against the Kokkos that GCC built (with OpenMP, where Kokkos_ROOT names one: the
  # OpenMP calls GCC compiled into it are served by LLVM's libomp, which implements them).
  sanitize_compiler=()
  if command -v clang++ >/dev/null && command -v clang >/dev/null; then
    sanitize_compiler=(-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang)
    # Clang's allocations on transparent huge pages (glibc 2.35 and later; older ones ignore the
    # tunable): 15% less compile time per unit here, where page faults are costly. Not for GCC,
    # whose compiles it slowed by as much (docs/development.md, "Build and CI times").
    build_env=("GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1")
  else
    log "no clang++: the sanitizer tree is compiled by the default compiler"
  fi
  isa=$(grep -m1 -ow 'avx2\|avx512f\|asimd' /proc/cpuinfo 2>/dev/null | tr '\n' ' ' || true)
  log "build/sanitize: -march=native (of avx2, avx512f, asimd this machine has: ${isa:-none})"
  # The package tests check packaging, not memory: they run in build/test only.
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  build_and_test build/sanitize "$sanitize_kokkos" -DCMAKE_BUILD_TYPE=Debug \
    "-DCMAKE_CXX_FLAGS_DEBUG=-O0 -g1" \
    -DBANDSOLVE_SANITIZE=ON -DBANDSOLVE_NATIVE=ON -DBANDSOLVE_CHECK_BENCHMARKS=ON \
    -DBANDSOLVE_TEST_DEVICE_TEAMS_ON_HOST=OFF \
    -DBANDSOLVE_BUILD_PACKAGE_TESTS=OFF "${sanitize_compiler[@]}" "${linker[@]}"
  build_env=()
else
  log "BANDSOLVE_SKIP_SANITIZE=1: sanitizer build skipped"
fi

if [ "${BANDSOLVE_THREAD_SANITIZER:-0}" = 1 ]; then
  tsan_kokkos=$(bash cmake/scripts/setup-kokkos-tsan.sh | tail -n1)
  [ -n "$tsan_kokkos" ] || { log "setup-kokkos-tsan.sh printed no Kokkos prefix"; exit 1; }
  build_env=("GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1")
  build_and_test build/tsan "$tsan_kokkos" -DCMAKE_BUILD_TYPE=Debug \
    "-DCMAKE_CXX_FLAGS_DEBUG=-O0 -g1" -DBANDSOLVE_SANITIZE_THREAD=ON \
    -DBANDSOLVE_NATIVE=ON -DBANDSOLVE_BUILD_PACKAGE_TESTS=OFF \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang "${linker[@]}"
  build_env=()
fi

# The CUDA tree: Kokkos with CUDA (built once, cached like the host Kokkos), then only the targets
# that need nvcc, never the host suite (it would take several times longer under nvcc).
compile_cuda() {
  local dir=build/cuda t0=$SECONDS cuda_kokkos
  cuda_kokkos=$(CUDA_HOME=$cuda_home bash cmake/scripts/setup-kokkos-cuda.sh | tail -n1)
  [ -n "$cuda_kokkos" ] || { log "setup-kokkos-cuda.sh printed no Kokkos prefix"; exit 1; }
  local t1=$SECONDS
  log "configuring $dir"
  # Nothing runs here, so the host compiler does not optimize (-O0) and generates no code
  # (bandsolve_cuda_compile_check: -fsyntax-only, no link), while cicc and ptxas still compile
  # and optimize the device code they check.
  PATH="$cuda_home/bin:$PATH" cmake -S . -B "$dir" -DKokkos_ROOT="$cuda_kokkos" \
    -DCMAKE_CXX_COMPILER="$cuda_kokkos/bin/nvcc_wrapper" -DCMAKE_CXX_EXTENSIONS=OFF \
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG" -DBANDSOLVE_BUILD_TESTS=ON \
    -DBANDSOLVE_BUILD_PACKAGE_TESTS=OFF -DBANDSOLVE_BUILD_EXAMPLES=OFF -DBANDSOLVE_BUILD_BENCHMARKS=ON
  log "building $dir: nvcc checks the tests labelled cuda and the CUDA benchmarks"
  PATH="$cuda_home/bin:$PATH" cmake --build "$dir" -j "$jobs" \
    --target bandsolve_cuda_compile_check
  log "$dir: Kokkos with CUDA ready in $((t1 - t0)) s, checked in $((SECONDS - t1)) s;" \
    "not linked or run (no GPU; on a GPU machine build bandsolve_cuda_tests at -O2 and run" \
    "ctest -L cuda, with BANDSOLVE_CUDA_ARCH=90 on an H100 or H200: docs/development.md)"
}
cuda_home=${CUDA_HOME:-}
if [ -z "$cuda_home" ] && command -v nvcc >/dev/null; then
  cuda_home=$(dirname "$(dirname "$(command -v nvcc)")")
fi
[ -n "$cuda_home" ] || cuda_home=/usr/local/cuda
if [ "${BANDSOLVE_SKIP_CUDA:-0}" = 1 ]; then
  log "BANDSOLVE_SKIP_CUDA=1: CUDA build skipped"
elif [ ! -x "$cuda_home/bin/nvcc" ]; then
  log "no nvcc (PATH, CUDA_HOME, /usr/local/cuda): CUDA build skipped"
else
  compile_cuda
fi
# The HIP tree: as the CUDA one, with Debian's hipcc; the device code unoptimized (-O0), as the
# CUDA check compiles it (what Clang rejects, it rejects at any level).
compile_hip() {
  local dir=build/hip t0=$SECONDS hip_kokkos
  hip_kokkos=$(bash cmake/scripts/setup-kokkos-hip.sh | tail -n1)
  [ -n "$hip_kokkos" ] || { log "setup-kokkos-hip.sh printed no Kokkos prefix"; exit 1; }
  local t1=$SECONDS
  log "configuring $dir"
  cmake -S . -B "$dir" -DKokkos_ROOT="$hip_kokkos" -DCMAKE_CXX_COMPILER="$(command -v hipcc)" \
    -DCMAKE_CXX_EXTENSIONS=OFF -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG" \
    -DBANDSOLVE_BUILD_TESTS=ON -DBANDSOLVE_BUILD_PACKAGE_TESTS=OFF -DBANDSOLVE_BUILD_EXAMPLES=OFF \
    -DBANDSOLVE_BUILD_BENCHMARKS=OFF
  log "building $dir: hipcc checks the tests labelled hip"
  cmake --build "$dir" -j "$jobs" --target bandsolve_hip_compile_check
  log "$dir: Kokkos with HIP ready in $((t1 - t0)) s, checked in $((SECONDS - t1)) s;" \
    "not linked or run (no AMD GPU; on one build bandsolve_hip_tests and run ctest -L hip)"
}
if [ "${BANDSOLVE_SKIP_HIP:-0}" = 1 ]; then
  log "BANDSOLVE_SKIP_HIP=1: HIP build skipped"
else
  compile_hip
fi
log "all tests passed ($((SECONDS - start)) s after set-up, $((SECONDS - setup_start)) s in all)"
