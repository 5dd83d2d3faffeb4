#!/usr/bin/env bash
# Start-up cost of the command line with and without build.sh's ahead-of-time cache (cli/target/hetscope.aot):
# runs `./hetscope ARGS...` REPS times each way, alternately, and prints the median and fastest wall time of each.
#   usage: bench/cli/startup.sh ARGS...        (REPS=9 by default; after ./build.sh on JDK 25+)
# The cache is moved aside for the runs without it and put back at the end, also on interruption.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
aot="$root/cli/target/hetscope.aot"
[ -f "$aot" ] || { echo "startup.sh: no $aot (run ./build.sh with JDK 25 or newer)" >&2; exit 2; }
reps="${REPS:-9}"
work="$(mktemp -d)"
trap 'if [ -f "$work/hetscope.aot" ]; then mv "$work/hetscope.aot" "$aot"; fi; rm -rf "$work"' EXIT
one() { # -> wall seconds of one run
  /usr/bin/time -f "%e" -o "$work/t" "$root/hetscope" "$@" > /dev/null 2>&1
  cat "$work/t"
}
: > "$work/with"; : > "$work/without"
for _ in $(seq "$reps"); do
  one "$@" >> "$work/with"
  mv "$aot" "$work/hetscope.aot"
  one "$@" >> "$work/without"
  mv "$work/hetscope.aot" "$aot"
done
stat() { sort -n "$1" | awk '{ v[NR] = $1 } END { printf "median %.3f s, fastest %.3f s", v[int((NR + 1) / 2)], v[1] }'; }
echo "hetscope $*"
echo "  with the AOT cache:    $(stat "$work/with")"
echo "  without the AOT cache: $(stat "$work/without")"
