#!/usr/bin/env bash
# CTF decode benchmark: babeltrace2 (dummy sink) vs `hetscope ctf count` (decodes every field of every event, prints
# only counts) vs `hetscope import` (the full import into a store), each a fresh process, timed with GNU time.
#   usage: bench/ctf/run.sh [SIZES...]     sizes are multiples of make-lttng-trace.sh's default (default: 1 4)
# Needs lttng-tools, liblttng-ust-dev, gcc, babeltrace2 and the built CLI (./build.sh; HETSCOPE=path overrides the
# launcher). Prints wall and CPU seconds, events/s, peak RSS and ratios per size.
# CTF_BENCH_SKIP_IMPORT=1 times only babeltrace2 and the decode; CTF_BENCH_DIR keeps recorded traces.
# FLOOR=1 also times DuckDB alone writing the imported store's rows (bench/store/floor.sh) beside the goal's budget.
# REPS=N (default 3) runs babeltrace2 and the decode N times each, alternately, and keeps each one's median wall
# time (with that run's CPU and memory): single runs of these short commands vary by 20 % on a shared machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
hetscope="${HETSCOPE:-$root/hetscope}"
work="${CTF_BENCH_DIR:-/tmp/hetscope-ctf-bench}"
mkdir -p "$work"
sizes=("$@"); [ ${#sizes[@]} -eq 0 ] && sizes=(1 4)
measure() { # label command... -> "wall user sys maxrss_kb" on stdout, command output in $work/out.txt
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$@" > "$work/out.txt" 2>"$work/err.txt"
  cat "$work/time.txt"
}
# The launcher's debug flag makes hetscope print its peak Java heap (the RSS also counts the mapped trace pages).
# Reading the heap pools starts the JVM's management classes (~0.03 s), so the timed runs of `ctf count` go
# without it and one more, untimed run reports the heap; the import's single run carries the flag.
opts="${HETSCOPE_JAVA_OPTS:-}"
debug() { HETSCOPE_JAVA_OPTS="$opts -Dhetscope.debug=true" "$@"; }
heap() { awk '/peak heap/ { print $4 }' "$work/err.txt"; }
printf '%-5s %-10s %10s %8s %8s %12s %8s %8s %9s %9s\n' size tool events wall_s cpu_s events/s heap_MiB rss_MiB x_wall x_cpu
for n in "${sizes[@]}"; do
  dir="$work/trace-${n}x"
  if [ ! -f "$dir/.done" ]; then
    bash "$root/../shared/scripts/make-lttng-trace.sh" "$dir" $((1500000 * n)) > /dev/null
    touch "$dir/.done"
  fi
  trace="$(dirname "$(find "$dir" -name metadata | head -1)")"
  : > "$work/b.runs"; : > "$work/c.runs"
  for _ in $(seq "${REPS:-3}"); do
    measure babeltrace2 -c source.ctf.fs -p "inputs=[\"$trace\"]" -c sink.utils.dummy >> "$work/b.runs"
    measure "$hetscope" ctf count "$dir" >> "$work/c.runs"
  done
  debug "$hetscope" ctf count "$dir" > /dev/null 2> "$work/err.txt"
  cheap=$(heap)
  events=$(awk '$1 == "total" { print $2 }' "$work/out.txt")
  median() { sort -n "$1" | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'; }
  read -r bw bu bs _ < <(median "$work/b.runs")
  bcpu=$(echo "$bu + $bs" | bc)
  read -r cw cu cs crss < <(median "$work/c.runs")
  ccpu=$(echo "$cu + $cs" | bc)
  if [ "${CTF_BENCH_SKIP_IMPORT:-0}" != 1 ]; then
    rm -f "$work/import.duckdb"
    read -r iw iu is irss < <(debug measure "$hetscope" import "$dir" -o "$work/import.duckdb")
    iheap=$(heap)
    stored=$("$hetscope" sql "$work/import.duckdb" "select count(*) from slice" --csv 2>/dev/null | tail -1)
    icpu=$(echo "$iu + $is" | bc)
  fi
  row() { printf '%-5s %-10s %10s %8.2f %8.2f %12.0f %8s %8s %9.2f %9.2f\n' "${n}x" "$1" "$events" "$2" "$3" \
      "$(echo "$events / $2" | bc -l)" "$4" "$5" "$(echo "$bw / $2" | bc -l)" "$(echo "$bcpu / $3" | bc -l)"; }
  row babeltrace2 "$bw" "$bcpu" - -
  row count "$cw" "$ccpu" "$cheap" $((crss / 1024))
  if [ "${CTF_BENCH_SKIP_IMPORT:-0}" != 1 ]; then
    row import "$iw" "$icpu" "$iheap" $((irss / 1024))
    echo "      (import stored $stored slices)"
    if [ "${FLOOR:-0}" = 1 ]; then # DuckDB alone writing the same rows, against the 3x goal's time budget
      echo "      goal's budget: babeltrace2 / 3 = $(echo "$bw / 3" | bc -l | xargs printf '%.2f') s; DuckDB alone:"
      "$root/bench/store/floor.sh" "$work/import.duckdb" | sed 's/^/      /'
    fi
  fi
done
load="$(cut -d ' ' -f 1-3 /proc/loadavg)"
echo "x_wall, x_cpu: babeltrace2's time divided by the tool's (higher is faster); load average after: $load"
