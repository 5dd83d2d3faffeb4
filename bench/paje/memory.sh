#!/usr/bin/env bash
# Which StarPU trace sizes `hetscope import` holds in its default heap (1 GB): generates StarPU-shaped traces of the
# given sizes (bench/paje/generate.py, replicating the real chol-lws-nb12 trace), imports each with ./hetscope and
# prints the exit code, wall time, peak RSS and, for a run that ran out of heap, how far it read.
#   usage: bench/paje/memory.sh [MEGABYTES...] (default: 520 1000 1500)   WORKDIR=... (default /tmp/hetscope-bench-paje)
#   TASKS_REC=1: each trace gets the fixture's tasks.rec replicated beside it (generate.py --tasks-rec), in its own
#   folder WORKDIR/MB-tasks, which the import then reads as well
# Needs python3, GNU time and the built CLI (./build.sh). Each trace is deleted after its run unless KEEP=1.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="${WORKDIR:-/tmp/hetscope-bench-paje}"
mkdir -p "$work"
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(520 1000 1500)
printf '%-8s %-5s %9s %9s  %s\n' size_MB exit wall_s rss_MB note
for mb in "${sizes[@]}"; do
  trace="$work/starpu-${mb}mb.trace"
  extra=()
  if [ "${TASKS_REC:-0}" = 1 ]; then
    mkdir -p "$work/$mb-tasks"
    trace="$work/$mb-tasks/paje.trace"
    extra=(--tasks-rec)
  fi
  [ -f "$trace" ] || python3 "$root/bench/paje/generate.py" "$root/../shared/fixtures/starpu/chol-lws-nb12/paje.trace" \
      "$trace" "$mb" "${extra[@]}" > /dev/null
  rm -f "$work/memory.duckdb"
  /usr/bin/time -f '%e %M' -o "$work/time.txt" "$root/hetscope" import "$trace" -o "$work/memory.duckdb" \
      > /dev/null 2> "$work/err.txt"
  code=$?
  read -r wall rss < <(tail -1 "$work/time.txt")
  note=$(grep -o 'out of memory[^;]*' "$work/err.txt" | head -1)
  printf '%-8s %-5s %9.1f %9.0f  %s\n' "$mb" "$code" "$wall" "$((rss / 1024))" "$note"
  rm -f "$work/memory.duckdb"
  if [ "${KEEP:-0}" != 1 ]; then
    rm -f "$trace"
    [ "${TASKS_REC:-0}" = 1 ] && rm -rf "$work/$mb-tasks"
  fi
done
