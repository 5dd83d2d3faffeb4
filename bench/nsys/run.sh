#!/usr/bin/env bash
# Benchmark of the Nsight Systems reader (issue 5): an nsys-shaped export with N kernel rows (default 10 M).
#   baseline  : sqlite3 aggregate over the export  (select shortName, count(*), sum(end-start) ... group by 1)
#   import    : hetscope import of the export into a store, then the same statistics on the store
#   stats     : the statistics alone on the imported store
# Usage: bench/nsys/run.sh [N] [WORKDIR]   (needs sqlite3 and a built cli jar; see README)
# FLOOR=1 also times DuckDB alone writing the imported store's rows (bench/store/floor.sh) beside the goal's budget.
set -euo pipefail
n="${1:-10000000}"
work="${2:-/tmp/hetscope-bench-nsys}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
hetscope="${HETSCOPE:-$here/../../hetscope}"
mkdir -p "$work"
db="$work/kernels-$n.sqlite"
store="$work/kernels-$n.duckdb"
[ -f "$db" ] || "$here/generate.sh" "$db" "$n"
query='SELECT shortName, count(*), sum("end" - start) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1'
stats="SELECT name, count(*), sum(dur) FROM slice WHERE category = 'kernel' GROUP BY 1"
now() { date +%s.%N; }
sync; sqlite3 "$db" "$query" > "$work/sqlite.txt"   # warm the page cache once
t0=$(now); sqlite3 "$db" "$query" > "$work/sqlite.txt"; t1=$(now)
rm -f "$store"
t2=$(now); "$hetscope" import "$db" -o "$store" 2> "$work/import.err"; t3=$(now)
"$hetscope" sql "$store" "$stats" --csv > "$work/store.txt"; t4=$(now)
"$hetscope" sql "$store" "$stats" --csv > "$work/store.txt"; t5=$(now)
base=$(echo "$t1 - $t0" | bc -l)
imp=$(echo "$t3 - $t2" | bc -l)
st1=$(echo "$t4 - $t3" | bc -l)
st2=$(echo "$t5 - $t4" | bc -l)
echo "rows=$n"
printf 'sqlite3 aggregate (baseline)      %8.2f s\n' "$base"
printf 'hetscope import                   %8.2f s\n' "$imp"
printf 'hetscope stats on store (1st run) %8.2f s  (JVM start included)\n' "$st1"
printf 'hetscope stats on store (2nd run) %8.2f s  (JVM start included)\n' "$st2"
printf 'import + stats / baseline         %8.2f x\n' "$(echo "($imp + $st2) / $base" | bc -l)"
printf 'baseline / stats on store         %8.2f x\n' "$(echo "$base / $st2" | bc -l)"
# the same totals both ways (store names vs StringIds ids): compare count and time sums
sqlite3 "$db" "SELECT count(*), sum(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_KERNEL" | tr '|' ' ' > "$work/check-sqlite.txt"
"$hetscope" sql "$store" "SELECT count(*), sum(dur) FROM slice WHERE category = 'kernel'" --csv | tail -1 | tr ',' ' ' > "$work/check-store.txt"
if diff -q "$work/check-sqlite.txt" "$work/check-store.txt" > /dev/null; then echo "totals agree: $(cat "$work/check-store.txt")"; else echo "TOTALS DIFFER"; exit 1; fi
if [ "${FLOOR:-0}" = 1 ]; then # DuckDB alone writing the same rows, against the 2x goal's time budget
  printf "goal's budget: 2 x baseline - stats = %.2f s; DuckDB alone:\n" "$(echo "2 * $base - $st2" | bc -l)"
  "$here/../store/floor.sh" "$store"
fi
