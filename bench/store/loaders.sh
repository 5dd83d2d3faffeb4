#!/usr/bin/env bash
# Compares the store's two batch loaders on whole imports: the Arrow stream (default) and the DuckDB driver's
# public appender, its fall-back (forced with -Dhetscope.store.loader=appender). Same jar, same input, runs
# alternating between the two, whole process under /usr/bin/time -v; prints the medians of wall time, CPU
# (user + sys, all threads) and peak RSS per loader, and appender / arrow-stream ratios measured in the same run.
# Each store's trace_info store_loader is checked to name the loader that was asked for.
#   usage: bench/store/loaders.sh INPUT...     (REPS=3 by default; needs cli/target/hetscope.jar: mvn package -pl cli -am)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
[ $# -gt 0 ] || { echo "usage: $0 INPUT..." >&2; exit 2; }
reps="${REPS:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

run() { # loader input -> "wall cpu rss_kb"
  rm -f "$work/out.duckdb"
  HETSCOPE_JAVA_OPTS="${HETSCOPE_JAVA_OPTS:-} -Dhetscope.store.loader=$1" /usr/bin/time -v -o "$work/time.txt" \
      "$root/hetscope" import "$2" -o "$work/out.duckdb" > /dev/null 2> "$work/err.txt" \
      || { cat "$work/err.txt" >&2; exit 1; }
  got=$("$root/hetscope" sql "$work/out.duckdb" "SELECT value FROM trace_info WHERE key = 'store_loader'" --csv \
      | tail -1 | tr -d '\r"')
  [ "$got" = "$1" ] || { echo "store written by '$got', not '$1'" >&2; exit 1; }
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + p[i] }
    /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { r = $2 }
    END { printf "%.2f %.2f %d\n", w, u + s, r }' "$work/time.txt"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-28s %-13s %8s %8s %8s\n' input loader wall_s cpu_s rss_MB
for input in "$@"; do
  : > "$work/arrow-stream.txt"; : > "$work/appender.txt"
  for _ in $(seq "$reps"); do
    run arrow-stream "$input" >> "$work/arrow-stream.txt"
    run appender "$input" >> "$work/appender.txt"
  done
  for loader in arrow-stream appender; do
    w=$(cut -d' ' -f1 "$work/$loader.txt" | median); c=$(cut -d' ' -f2 "$work/$loader.txt" | median)
    r=$(cut -d' ' -f3 "$work/$loader.txt" | median)
    printf '%-28s %-13s %8.2f %8.2f %8d\n' "$(basename "$input")" "$loader" "$w" "$c" "$((r / 1024))"
    eval "${loader//-/_}_w=$w ${loader//-/_}_c=$c"
  done
  printf '%-28s appender/arrow-stream: wall %.2fx, cpu %.2fx (medians of %s alternating runs)\n' \
      "$(basename "$input")" "$(echo "$appender_w / $arrow_stream_w" | bc -l)" \
      "$(echo "$appender_c / $arrow_stream_c" | bc -l)" "$reps"
done
echo "load average after: $(cut -d ' ' -f 1-3 /proc/loadavg)"
