#!/usr/bin/env bash
# CPU seconds of every compile and link of a build: where a tree's build time goes.
#
#   cmake -S . -B build/times ... \
#     -DCMAKE_CXX_COMPILER_LAUNCHER="$PWD/cmake/scripts/unit-times.sh" \
#     -DCMAKE_CXX_LINKER_LAUNCHER="$PWD/cmake/scripts/unit-times.sh"
#   BANDSOLVE_UNIT_TIMES=/tmp/times.txt cmake --build build/times -j 2
#   bash cmake/scripts/unit-times.sh --report /tmp/times.txt
#
# As a launcher it runs the command it is given and appends "user system output" to
# $BANDSOLVE_UNIT_TIMES (default /tmp/bandsolve-unit-times.txt); --report prints the units by
# CPU seconds (user + system), largest first, and the totals. On two vCPUs that share a core a
# unit compiled beside another reads about 1.4x its time alone: compare units compiled alike.
set -uo pipefail

if [ "${1:-}" = --report ]; then
  awk '{ t = $1 + $2; total += t; if ($3 ~ /\.o$/) c += t; else l += t
         printf "%8.1f  %s\n", t, $3 }
       END { printf "%8.1f  in all (compiles %.1f, links %.1f)\n", total, c, l }' "$2" |
    sort -rn
  exit 0
fi

log=${BANDSOLVE_UNIT_TIMES:-/tmp/bandsolve-unit-times.txt}
output=""
previous=""
for arg in "$@"; do
  [ "$previous" = -o ] && output=$arg
  previous=$arg
done
times=$(mktemp)
TIMEFORMAT="%U %S"
{ time "$@" 2>&3; } 3>&2 2>"$times"
status=$?
echo "$(tail -n 1 "$times") $output" >> "$log"
rm -f "$times"
exit "$status"
