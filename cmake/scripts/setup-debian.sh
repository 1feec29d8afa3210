#!/usr/bin/env bash
# Installs what BandSolve's tests and benchmarks need on Debian bookworm, skipping what is there:
#   - Debian packages: compiler, CMake, Google Benchmark, Catch2 v3 (bookworm-backports), LAPACK(E), FFTW (examples/poisson_fft);
#   - Kokkos 3.4 with the Serial and OpenMP backends, built from Debian's `trilinos` source package
#     into a local prefix (Debian's binary package has the Serial backend only).
# Prints the Kokkos prefix as the last line of stdout so callers can pass it as Kokkos_ROOT.
# Users who bring their own Kokkos set Kokkos_ROOT and this script leaves Kokkos alone.
set -euo pipefail

log() { echo "[bandsolve-setup] $*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

deps_dir=${BANDSOLVE_DEPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bandsolve}
kokkos_prefix="$deps_dir/kokkos-3.4-openmp"

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

extra_sources=/etc/apt/sources.list.d/bandsolve-extra.sources
need_update=0
if [ ! -f "$extra_sources" ]; then
  mirror=$(apt_mirror)
  log "adding bookworm-backports and deb-src entries for $mirror"
  as_root tee "$extra_sources" >/dev/null <<SRC
Types: deb deb-src
URIs: $mirror
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: $mirror
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  need_update=1
fi

# --- Debian packages ------------------------------------------------------------------------------
missing=()
for p in g++ cmake make libbenchmark-dev liblapack-dev liblapacke-dev libfftw3-dev dpkg-dev xz-utils; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
catch2_ok=0
dpkg-query -W -f='${Version}' catch2 2>/dev/null | grep -q '^3' && catch2_ok=1
if [ ${#missing[@]} -gt 0 ] || [ $catch2_ok -eq 0 ] || [ $need_update -eq 1 ]; then
  log "installing Debian packages: ${missing[*]} $( [ $catch2_ok -eq 0 ] && echo 'catch2 (v3, backports)')"
  as_root apt-get update -qq
  export DEBIAN_FRONTEND=noninteractive
  [ ${#missing[@]} -gt 0 ] && as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  [ $catch2_ok -eq 1 ] || as_root apt-get install -y -qq --no-install-recommends -t bookworm-backports catch2 >&2
fi

# --- Kokkos -------------------------------------------------------------------------------------
if [ -n "${Kokkos_ROOT:-}" ]; then
  log "using Kokkos from Kokkos_ROOT=$Kokkos_ROOT"
  echo "$Kokkos_ROOT"
  exit 0
fi
if [ -f "$kokkos_prefix/.bandsolve-complete" ]; then
  log "Kokkos already built in $kokkos_prefix"
  echo "$kokkos_prefix"
  exit 0
fi

log "building Kokkos (Serial + OpenMP) from Debian's trilinos source into $kokkos_prefix"
work="$deps_dir/kokkos-src"
rm -rf "$work" && mkdir -p "$work"
(cd "$work" && apt-get source --download-only trilinos >&2)
tarball=$(ls "$work"/trilinos_*.orig.tar.* | head -n1)
# Only packages/kokkos is needed from the (large) Trilinos tarball.
top=$( (tar -tf "$tarball" || true) | head -n1 | cut -d/ -f1)
tar -xf "$tarball" -C "$work" "$top/packages/kokkos"
src="$work/$top/packages/kokkos"
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 \
  -DCMAKE_INSTALL_PREFIX="$kokkos_prefix" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON \
  -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON >&2
cmake --build "$work/build" -j "$(nproc)" >&2
cmake --install "$work/build" >&2
touch "$kokkos_prefix/.bandsolve-complete"
rm -rf "$work"
echo "$kokkos_prefix"
