#!/usr/bin/env bash
# Import benchmark for the Chrome/Kineto reader + store (issue: foundation).
# Generates Kineto-shaped JSON by replicating a real fixture (sizes in MB, default "256 1024"), then times in one
# run: python3 json.load (the baseline) and `hetscope import`, with /usr/bin/time -v for wall, CPU and peak RSS.
# Usage: bench/chrome/run.sh [SIZE_MB...]      (needs ./build.sh first)
# FLOOR=1 also times DuckDB alone writing the imported store's rows (bench/store/floor.sh) beside the goal's budget.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
data="$root/bench/data"
mkdir -p "$data"
fixture="$root/../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz"
[ -f "$fixture" ] || fixture="$root/examples/kineto-cuda-simple-add.json.gz"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(256 1024)

measure() { # command... -> "wall user sys rss_kb"
  local t
  t=$(mktemp)
  /usr/bin/time -f '%e %U %S %M' -o "$t" "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; cat "$t" >&2; }
  tail -1 "$t"
  rm -f "$t"
}

printf '%-8s %-10s %9s %9s %9s %9s %9s %12s %12s\n' size_MB tool wall_s cpu_s MB_per_s rss_MB rss/input wall_ratio cpu_ratio
for mb in "${sizes[@]}"; do
  json="$data/kineto-${mb}m.json"
  [ -f "$json" ] || python3 "$root/bench/chrome/generate_kineto.py" "$fixture" "$json" "$mb"
  bytes=$(stat -c %s "$json")
  read -r pw pu ps pr <<<"$(measure python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$json")"
  rm -f "$data/bench.duckdb"
  read -r hw hu hs hr <<<"$(measure "$root/hetscope" import "$json" -o "$data/bench.duckdb")"
  for row in "python3 $pw $pu $ps $pr" "hetscope $hw $hu $hs $hr"; do
    read -r tool w u s r <<<"$row"
    awk -v mb="$mb" -v tool="$tool" -v w="$w" -v u="$u" -v s="$s" -v r="$r" -v b="$bytes" -v pw="$pw" -v pc="$(echo "$pu $ps" | awk '{print $1 + $2}')" 'BEGIN {
      printf "%-8s %-10s %9.2f %9.2f %9.1f %9.0f %9.2f %11.2fx %11.2fx\n", mb, tool, w, u + s, b / 1e6 / w, r / 1024, r * 1024 / b, pw / w, pc / (u + s) }'
  done
  slices=$("$root/hetscope" sql "$data/bench.duckdb" "select count(*) from slice" --csv | tail -1)
  echo "         ($slices slices stored from $((bytes / 1000000)) MB)"
  if [ "${FLOOR:-0}" = 1 ]; then # DuckDB alone writing the same rows, against the 10x goal's time budget
    echo "         goal's budget: json.load / 10 = $(echo "$pw / 10" | bc -l | xargs printf '%.2f') s; DuckDB alone:"
    "$root/bench/store/floor.sh" "$data/bench.duckdb" | sed 's/^/         /'
  fi
done
rm -f "$data/bench.duckdb"
