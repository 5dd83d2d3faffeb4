#!/usr/bin/env bash
# Start-up cost of the command line with and without build.sh's ahead-of-time caches (cli/target/aot/*.aot):
# runs `./hetscope ARGS...` REPS times each way, alternately, and prints the median and fastest wall time of each.
#   usage: bench/cli/startup.sh ARGS...        (REPS=9 by default; after ./build.sh on JDK 25+)
# The caches are moved aside for the runs without them and put back at the end, also on interruption.
# AOT_CACHE=all runs the "with" side on the cache of every command instead of the command family's own.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
aot="$root/cli/target/aot"
[ -f "$aot/all.aot" ] || { echo "startup.sh: no $aot/all.aot (run ./build.sh with JDK 25 or newer)" >&2; exit 2; }
reps="${REPS:-9}"
work="$(mktemp -d)"
restore() { # puts every cache back where build.sh left it
  if [ -d "$work/aot" ]; then rm -rf "$aot"; mv "$work/aot" "$aot"; fi
  if [ -d "$work/families" ]; then mv "$work/families"/*.aot "$aot"/ 2>/dev/null || true; fi
  rm -rf "$work"
}
trap restore EXIT
if [ "${AOT_CACHE:-}" = all ]; then
  # only all.aot stays for the "with" runs; the family caches wait in $work/families
  mkdir -p "$work/families"
  for f in "$aot"/*.aot; do [ "$(basename "$f")" = all.aot ] || mv "$f" "$work/families/"; done
fi
one() { # -> wall seconds of one run
  /usr/bin/time -f "%e" -o "$work/t" "$root/hetscope" "$@" > /dev/null 2>&1
  cat "$work/t"
}
: > "$work/with"; : > "$work/without"
for _ in $(seq "$reps"); do
  one "$@" >> "$work/with"
  mv "$aot" "$work/aot"
  one "$@" >> "$work/without"
  mv "$work/aot" "$aot"
done
stat() { sort -n "$1" | awk '{ v[NR] = $1 } END { printf "median %.3f s, fastest %.3f s", v[int((NR + 1) / 2)], v[1] }'; }
echo "hetscope $*"
echo "  with the AOT cache${AOT_CACHE:+ ($AOT_CACHE)}:    $(stat "$work/with")"
echo "  without the AOT cache: $(stat "$work/without")"
