#!/usr/bin/env bash
# `hetscope memory STORE detect` against the size of the StarPU trace: generates StarPU-shaped traces with their
# tasks.rec (bench/paje/generate.py --tasks-rec, replicating the real chol-lws-nb12 run) at a base size and at
# four times it, imports each with ./hetscope, then times the detectors on the store. Whole processes, measured by
# GNU time (/usr/bin/time -v: wall clock, CPU user+system, peak RSS).
#   usage: bench/paje/detect.sh [BASE_MEGABYTES (default 32)]   WORKDIR=... (default /tmp/hetscope-bench-detect)
# Prints per size: import and detect wall/CPU/RSS, detect/import, and at the end the 4x/1x detect time ratio
# (linear growth gives about 4; the goal is <= 4.5), by wall and by CPU time. Needs python3, GNU time and the built CLI (cli/target).
# Traces and stores are deleted after the run unless KEEP=1.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="${WORKDIR:-/tmp/hetscope-bench-detect}"
base="${1:-32}"
mkdir -p "$work"
field() { grep -F "$1" "$2" | head -1 | sed 's/.*: //'; }
wall_s() { # GNU time's "h:mm:ss" or "m:ss.cc" to seconds
  awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }' <<< "$1"
}
measure() { # label out_file command...: runs it under time -v, prints one line, sets $WALL and $CPU
  local label=$1 out=$2; shift 2
  /usr/bin/time -v -o "$work/time.txt" "$@" > "$out" 2> "$work/err.txt"
  local code=$?
  WALL=$(wall_s "$(field 'Elapsed (wall clock)' "$work/time.txt")")
  local rss
  CPU=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$work/time.txt")
  rss=$(( $(field 'Maximum resident set size' "$work/time.txt") / 1024 ))
  printf '%-8s %-7s %5s %9s %9s %8s\n' "$size" "$label" "$code" "$WALL" "$CPU" "$rss"
  [ "$code" = 0 ] || { tail -5 "$work/err.txt"; exit 1; }
}
printf '%-8s %-7s %5s %9s %9s %8s\n' size_MB step exit wall_s cpu_s rss_MB
declare -A detect import detect_cpu
for size in "$base" "$((4 * base))"; do
  dir="$work/$size"
  mkdir -p "$dir"
  [ -f "$dir/paje.trace" ] || python3 "$root/bench/paje/generate.py" \
      "$root/../shared/fixtures/starpu/chol-lws-nb12/paje.trace" "$dir/paje.trace" "$size" --tasks-rec > /dev/null
  rm -f "$work/$size.duckdb"
  measure import /dev/null "$root/hetscope" import "$dir/paje.trace" -o "$work/$size.duckdb"
  import[$size]=$WALL
  measure detect "$work/detect-$size.txt" "$root/hetscope" memory "$work/$size.duckdb" detect
  detect[$size]=$WALL
  detect_cpu[$size]=$CPU
  tasks=$("$root/hetscope" sql "$work/$size.duckdb" "select count(*) as n from task" --csv 2>/dev/null | tail -1)
  echo "         $tasks tasks; detect/import $(awk -v d="$WALL" -v i="${import[$size]}" 'BEGIN { printf "%.2f", d / i }')"
  rm -f "$work/$size.duckdb"
  [ "${KEEP:-0}" = 1 ] || rm -rf "$dir"
done
awk -v a="${detect[$base]}" -v b="${detect[$((4 * base))]}" -v c="${detect_cpu[$base]}" \
    -v d="${detect_cpu[$((4 * base))]}" \
    'BEGIN { printf "detect time ratio 4x/1x: %.2f wall, %.2f CPU (goal <= 4.5)\n", b / a, d / c }'
