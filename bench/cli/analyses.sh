#!/usr/bin/env bash
# Time of every analysis command on the large generated traces, beside the import of the same trace (issue 24):
# a StarPU trace with its tasks.rec (bench/paje/generate.py --tasks-rec, replicating the real chol-lws-nb12 run)
# and a Kineto trace (bench/chrome/generate_kineto.py, replicating kineto-cuda-sampled-rank0). Each trace is
# imported with ./hetscope, then each command that applies to that store runs once, as users run it (whole
# processes, GNU time -v: wall clock, CPU user+system, peak RSS). Output of the commands goes to a work folder.
#   usage: bench/cli/analyses.sh [STARPU_MB (default 520)] [KINETO_MB (default 1024)]   (0 skips that trace)
# Needs the packaged CLI (mvn -o -B -q -DskipTests package -pl cli -am, or ./build.sh), python3, GNU time.
# Traces are generated under bench/out/ (ignored by git) and reused when present; KEEP=0 deletes the traces and
# the stores (with the .lod files that plot and report write beside them) at the end. Writes the table to
# bench/out/analyses-DATE.md too.
# A command that takes more than 180 s or more than twice its import is marked "SLOW" (issue 24: every analysis
# O(n log n)).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$root/bench/out"
starpu_mb="${1:-520}"
kineto_mb="${2:-1024}"
hs="$root/hetscope"
fixtures="$root/../shared/fixtures"
mkdir -p "$out"
work="$(mktemp -d "$out/analyses-work.XXXX")"
trap 'rm -rf "$work"' EXIT
report="$out/analyses-$(date -u +%Y%m%dT%H%M).md"

field() { grep -F "$1" "$2" | head -1 | sed 's/.*: //'; }
seconds() { # GNU time's "h:mm:ss" or "m:ss.cc" to seconds
  awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }' <<< "$1"
}
import_wall=1
row() { # trace label wall cpu rss exit
  local ratio slow=""
  ratio=$(awk -v w="$3" -v i="$import_wall" 'BEGIN { printf "%.2f", w / i }')
  if [ "$2" != import ] && awk -v w="$3" -v i="$import_wall" 'BEGIN { exit !(w > 180 || w > 2 * i) }'; then
    slow=" SLOW"
  fi
  [ "$6" = 0 ] || slow="$slow exit $6"
  printf '| %s | %s | %s | %s | %s | %s |%s\n' "$1" "$2" "$3" "$4" "$5" "$ratio" "$slow" | tee -a "$report"
}
measure() { # trace label command...: runs it once under time -v and prints a table row
  local trace=$1 label=$2; shift 2
  /usr/bin/time -v -o "$work/time.txt" "$@" > "$work/stdout.txt" 2> "$work/stderr.txt"
  local code=$? wall cpu rss
  wall=$(seconds "$(field 'Elapsed (wall clock)' "$work/time.txt")")
  cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$work/time.txt")
  rss=$(( $(field 'Maximum resident set size' "$work/time.txt") / 1024 ))
  [ "$label" = import ] && import_wall=$wall
  row "$trace" "$label" "$wall" "$cpu" "$rss" "$code"
  [ "$code" = 0 ] || sed 's/^/    /' "$work/stderr.txt" | tail -3 >&2
}
sql() { "$hs" sql "$1" "$2" --csv | tail -1; }

{
  echo "# hetscope analysis commands on large traces, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "$(nproc) cores, load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); one run each."
  echo
  echo "| trace | command | wall s | CPU s | max RSS MB | wall / import wall |"
  echo "|---|---|---:|---:|---:|---:|"
} > "$report"
cat "$report"

if [ "$starpu_mb" != 0 ]; then
  dir="$out/starpu-${starpu_mb}m"
  store="$out/starpu-${starpu_mb}m.duckdb"
  mkdir -p "$dir"
  [ -f "$dir/paje.trace" ] || python3 "$root/bench/paje/generate.py" \
      "$fixtures/starpu/chol-lws-nb12/paje.trace" "$dir/paje.trace" "$starpu_mb" --tasks-rec > /dev/null
  t="StarPU $(( $(stat -c %s "$dir/paje.trace") / 1000000 )) MB"
  t="$t + $(( $(stat -c %s "$dir/tasks.rec") / 1000000 )) MB tasks.rec"
  rm -f "$store" "$store.lod"
  measure "$t" import "$hs" import "$dir/paje.trace" -o "$store"
  # a block and an instant that exist in this trace: the first block, the middle of the run
  block=$(sql "$store" "select handle from memory_block order by id limit 1")
  mid=$(sql "$store" "select (max(ts + dur) - min(ts)) // 2 from slice")
  measure "$t" info "$hs" info "$store"
  measure "$t" stats "$hs" stats "$store"
  measure "$t" gpu "$hs" gpu "$store"
  measure "$t" "memory residency" "$hs" memory "$store" residency
  measure "$t" "memory history" "$hs" memory "$store" history "$block"
  measure "$t" "memory snapshot" "$hs" memory "$store" snapshot "$mid"
  measure "$t" "memory heatmap" "$hs" memory "$store" heatmap
  measure "$t" "memory gantt" "$hs" memory "$store" gantt
  measure "$t" "memory detect" "$hs" memory "$store" detect
  measure "$t" "tasks critical-path" "$hs" tasks "$store" critical-path
  measure "$t" report "$hs" report "$store" -o "$work/report.html"
  measure "$t" "plot timeline" "$hs" plot "$store" timeline -o "$work/plot.svg"
fi

if [ "$kineto_mb" != 0 ]; then
  json="$out/kineto-${kineto_mb}m.json"
  store="$out/kineto-${kineto_mb}m.duckdb"
  [ -f "$json" ] || python3 "$root/bench/chrome/generate_kineto.py" \
      "$fixtures/chrome/kineto-cuda-sampled-rank0.json.gz" "$json" "$kineto_mb" > /dev/null
  t="Kineto $(( $(stat -c %s "$json") / 1000000 )) MB"
  rm -f "$store" "$store.lod"
  measure "$t" import "$hs" import "$json" -o "$store"
  measure "$t" info "$hs" info "$store"
  measure "$t" stats "$hs" stats "$store"
  measure "$t" gpu "$hs" gpu "$store"
  measure "$t" flows "$hs" flows "$store"
  measure "$t" lanes "$hs" lanes "$store"
  measure "$t" advise "$hs" advise "$store"
  measure "$t" report "$hs" report "$store" -o "$work/report.html"
  measure "$t" "plot timeline" "$hs" plot "$store" timeline -o "$work/plot.svg"
  measure "$t" "diff (itself)" "$hs" diff "$store" "$store"
  measure "$t" "export --parquet" "$hs" export "$store" --parquet "$work/parquet"
fi

echo >> "$report"
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)." | tee -a "$report"
echo "written: $report"
if [ "${KEEP:-1}" = 0 ]; then
  rm -rf "$out/starpu-${starpu_mb}m" "$out/starpu-${starpu_mb}m.duckdb" "$out/starpu-${starpu_mb}m.duckdb.lod" \
      "$out/kineto-${kineto_mb}m.json" "$out/kineto-${kineto_mb}m.duckdb" "$out/kineto-${kineto_mb}m.duckdb.lod"
fi
