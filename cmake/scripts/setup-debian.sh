#!/usr/bin/env bash
# Installs what BandSolve's tests and benchmarks need on Debian bookworm, skipping what is there:
#   - Debian packages: compiler, CMake, Google Benchmark, Catch2 v3 (bookworm-backports), LAPACK(E), FFTW (examples/poisson_fft),
#     Open MPI (the MPI component's tests), Clang with its sanitizer runtimes, OpenMP runtime and
#     linker (test.sh's sanitizer tree);
#     with --plotting also python3-matplotlib (bench/plot.py; bench.sh passes it, test.sh does not);
#     with --hip also Debian's ROCm HIP compiler (hipcc, libamdhip64-dev, rocm-device-libs: ROCm 5.2,
#     Clang 15) for setup-kokkos-hip.sh, which passes it;
#   - Kokkos 3.4 with the Serial and OpenMP backends, built from Debian's `trilinos` source package
#     into a local prefix (Debian's binary package has the Serial backend only).
# Prints the Kokkos prefix as the last line of stdout so callers can pass it as Kokkos_ROOT.
# Users who bring their own Kokkos set Kokkos_ROOT and this script leaves Kokkos alone.
# The unpatched Kokkos sources stay in $deps_dir/kokkos-3.4-src for setup-kokkos-cuda.sh, which
# calls this script with --kokkos-source (packages and sources only; prints the source directory);
# setup-kokkos-hip.sh with --hip --kokkos-source.
#
# Quiet: the output of apt and of the Kokkos build goes to $deps_dir/setup.log (rewritten on each run);
# stderr gets one line per step with its time. When a step fails, the script prints the command
# and the tail of the log, and exits with the command's status.
# Environment: BANDSOLVE_DEPS_DIR (default ~/.cache/bandsolve), Kokkos_ROOT.
set -euo pipefail

plotting=0
hip=0
source_only=0
for arg in "$@"; do
  case "$arg" in
    --plotting) plotting=1 ;;
    --hip) hip=1 ;;
    --kokkos-source) source_only=1 ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "[bandsolve-setup] unknown argument: $arg (known: --plotting, --hip, --kokkos-source)" >&2; exit 2 ;;
  esac
done

log_tag=bandsolve-setup
# shellcheck source=setup-steps.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup-steps.sh"
kokkos_prefix="$deps_dir/kokkos-3.4-openmp"
# --kokkos-source runs after a full run (from setup-kokkos-cuda.sh and setup-kokkos-hip.sh): it
# appends to that run's log.
if [ $source_only -eq 1 ]; then
  mkdir -p "$deps_dir"
  setup_log="$deps_dir/setup.log"
else
  start_log setup.log
fi
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# --- apt sources: bookworm-backports (Catch2 v3) and deb-src (trilinos source) --------------------
# The mirror is whatever this machine already uses: read from its own apt configuration.
apt_mirror() {
  local uri=""
  if compgen -G "/etc/apt/sources.list.d/*.sources" >/dev/null; then
    uri=$(awk '/^URIs:/ {print $2}' /etc/apt/sources.list.d/*.sources | grep -v -- '-security' | head -n1)
  fi
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri=$(awk '$1 == "deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) {print $i; exit}}' /etc/apt/sources.list)
  fi
  [ -n "$uri" ] || { log "cannot find a Debian mirror in /etc/apt"; exit 1; }
  echo "$uri"
}

write_extra_sources() {
  as_root tee "$1" >/dev/null <<SRC
Types: deb deb-src
URIs: $2
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: $2
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
}

extra_sources=/etc/apt/sources.list.d/bandsolve-extra.sources
need_update=0
if [ ! -f "$extra_sources" ]; then
  mirror=$(apt_mirror)
  step "apt sources: bookworm-backports and deb-src from this machine's mirror" \
    write_extra_sources "$extra_sources" "$mirror"
  need_update=1
fi

# --- Debian packages ------------------------------------------------------------------------------
packages=(g++ cmake make libbenchmark-dev liblapack-dev liblapacke-dev libfftw3-dev libopenmpi-dev openmpi-bin
          dpkg-dev xz-utils clang libclang-rt-dev libomp-dev lld)
[ $plotting -eq 1 ] && packages+=(python3-matplotlib)
[ $hip -eq 1 ] && packages+=(hipcc libamdhip64-dev rocm-device-libs)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
catch2_ok=0
dpkg-query -W -f='${Version}' catch2 2>/dev/null | grep -q '^3' && catch2_ok=1
if [ ${#missing[@]} -gt 0 ] || [ $catch2_ok -eq 0 ] || [ $need_update -eq 1 ]; then
  step "apt-get update" as_root apt-get update -q
  [ ${#missing[@]} -gt 0 ] && step "Debian packages: ${missing[*]}" \
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  [ $catch2_ok -eq 1 ] || step "Debian package catch2 (v3, bookworm-backports)" \
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends -t bookworm-backports catch2
else
  note "Debian packages: all ${#packages[@]} and catch2 v3 installed"
fi

# --- Kokkos ---------------------------------------------------------------------------------------
# The sources are fetched once: Debian's trilinos source package, of which only packages/kokkos is
# kept, unpatched (the CUDA build patches a copy).
kokkos_src="$deps_dir/kokkos-3.4-src"
kokkos_source() {
  if [ -f "$kokkos_src/.bandsolve-complete" ]; then
    note "Kokkos: sources already in $kokkos_src"
    return
  fi
  local download="$deps_dir/trilinos-download"
  rm -rf "$download" "$kokkos_src" && mkdir -p "$download"
  apt_get_source_trilinos_into() ( cd "$1" && apt-get source --download-only trilinos )
  step "Kokkos: trilinos source package downloaded" apt_get_source_trilinos_into "$download"
  local tarball top
  tarball=$(ls "$download"/trilinos_*.orig.tar.* | head -n1)
  # Only packages/kokkos is needed from the (large) Trilinos tarball.
  top=$( (tar -tf "$tarball" || true) | head -n1 | cut -d/ -f1)
  step "Kokkos: packages/kokkos extracted" tar -xf "$tarball" -C "$download" "$top/packages/kokkos"
  mv "$download/$top/packages/kokkos" "$kokkos_src"
  rm -rf "$download"
  touch "$kokkos_src/.bandsolve-complete"
}

if [ $source_only -eq 1 ]; then
  kokkos_source
  echo "$kokkos_src"
  exit 0
fi
if [ -n "${Kokkos_ROOT:-}" ]; then
  note "Kokkos: Kokkos_ROOT=$Kokkos_ROOT given"
  echo "$Kokkos_ROOT"
  exit 0
fi
if [ -f "$kokkos_prefix/.bandsolve-complete" ]; then
  note "Kokkos: already built in $kokkos_prefix"
  echo "$kokkos_prefix"
  exit 0
fi

kokkos_source
build="$deps_dir/kokkos-build-openmp"
rm -rf "$build"
step "Kokkos: configured (Serial + OpenMP)" \
  cmake -S "$kokkos_src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 \
  -DCMAKE_INSTALL_PREFIX="$kokkos_prefix" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON \
  -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON
step "Kokkos: built" cmake --build "$build" -j "$(nproc)"
step "Kokkos: installed into $kokkos_prefix" cmake --install "$build"
touch "$kokkos_prefix/.bandsolve-complete"
rm -rf "$build"
echo "$kokkos_prefix"
