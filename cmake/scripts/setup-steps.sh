# Sourced by the setup scripts: quiet steps, one line each on stderr with its time.
# The caller sets log_tag (the prefix of each line) and setup_log (where each command's output
# goes: start_log sets it). deps_dir is where the setup keeps what it builds.
deps_dir=${BANDSOLVE_DEPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bandsolve}

# start_log NAME: $deps_dir/NAME, emptied, becomes the log.
start_log() {
  mkdir -p "$deps_dir"
  setup_log="$deps_dir/$1"
  : >"$setup_log"
}

log() { echo "[$log_tag] $*" >&2; }
now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }
seconds_since() { local ms=$(($(now_ms) - $1)); printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)); }

# step WHAT COMMAND...: runs COMMAND with its output appended to the log; prints "WHAT: N s".
# When it fails: prints the command and the tail of the log, and exits with its status.
step() {
  local what=$1; shift
  local t0 rc=0
  t0=$(now_ms)
  printf '\n### %s\n### %s\n' "$what" "$(printf '%q ' "$@")" >>"$setup_log"
  "$@" >>"$setup_log" 2>&1 </dev/null || rc=$?
  if [ $rc -ne 0 ]; then
    log "$what: FAILED after $(seconds_since "$t0") s (exit status $rc)"
    log "command: $(printf '%q ' "$@")"
    log "last lines of $setup_log:"
    tail -n 25 "$setup_log" | sed 's/^/    /' >&2
    exit $rc
  fi
  log "$what: $(seconds_since "$t0") s"
}
# note WHAT: a step with nothing to do.
note() { log "$1: 0.0 s"; }

# help_or_no_argument SCRIPT LINES [ARG]: for -h or --help prints LINES (a sed range such as 2,12)
# of SCRIPT's header comment and exits; any other argument is an error; none returns.
help_or_no_argument() {
  local script=$1 lines=$2
  case "${3:-}" in
    "") ;;
    -h|--help) sed -n "${lines}p" "$script" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) log "unknown argument: $3"; exit 2 ;;
  esac
}

# build_kokkos PREFIX NAME CMAKE_ARGS...: configures, builds and installs into PREFIX the Kokkos
# sources that setup-debian.sh fetched (unchanged), with CMAKE_ARGS, unless PREFIX holds a
# finished build; prints PREFIX as the last line of stdout. NAME names the build in the log lines.
build_kokkos() {
  local prefix=$1 name=$2; shift 2
  if [ -f "$prefix/.bandsolve-complete" ]; then
    note "$name: already built in $prefix"
    echo "$prefix"
    return 0
  fi
  local src work
  src=$(bash "$(dirname "${BASH_SOURCE[0]}")/setup-debian.sh" --kokkos-source | tail -n1)
  [ -f "$src/.bandsolve-complete" ] ||
    { log "setup-debian.sh --kokkos-source printed no source directory"; exit 1; }
  work="$prefix-work"
  rm -rf "$work" && mkdir -p "$work"
  step "$name: configured" cmake -S "$src" -B "$work/build" -DCMAKE_CXX_STANDARD=17 \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON "$@"
  step "$name: built" cmake --build "$work/build" -j "$(nproc)"
  rm -rf "$prefix"
  step "$name: installed into $prefix" cmake --install "$work/build"
  touch "$prefix/.bandsolve-complete"
  rm -rf "$work"
  echo "$prefix"
}
