#!/usr/bin/env bash
# Spark import against hetscope import (issue 28): N Kineto traces, one per rank (gen.py, from the shared fixture
# kineto-cuda-sampled-rank0), imported on 1 and on 2 cores
#   1. by `hetscope import` one after another in one process (all into one store),
#   2. by `hetscope spark import` on local[1] and local[2] (one executor with 1 or 2 cores; in local mode the
#      executor is the driver's JVM, so its peak RSS is the executor's).
# Every run is bound to its cores with taskset (1 core: CPU 0; 2 cores: CPUs 0,1): the JVM, the readers' and
# DuckDB's threads all share them, so that 1 core means 1 core. Each Spark task runs DuckDB on its own share
# (spark.task.cpus, 1). Timed with /usr/bin/time (wall seconds, peak RSS); for Spark also the job alone (the
# import's own summary: from the first task to the merged dataset, without Spark's start). Prints MB/s, MB/s per
# core and the 1 -> 2 core speed-ups. "cores used" is CPU / wall: on a machine that others load, a run bound to CPU 0
# gets that core nearly to itself (the others move to CPU 1) while a 2-core run shares both, so a 2-core run that
# used well under 2 cores says the speed-up was not measurable there.
#   bench/spark/run.sh                       the issue's size: 64 traces of 32 MB (~2 GB)
#   N=8 SIZE_MB=4 bench/spark/run.sh         a quick check
# The one-process import holds all N traces' slices in one store, whose sort at the end needs DuckDB memory in
# proportion (a generated 128 MB rank fails with 64MB): it gets IMPORT_DUCKDB_MEMORY (default 4GB); each Spark task
# holds one trace and keeps the default 512MB.
# Traces go to bench/data/, stores and datasets to bench/out/ (both git-ignored); KEEP=0 removes them at the end.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
N=${N:-64}
SIZE_MB=${SIZE_MB:-32}
data="bench/data/spark-$N-$SIZE_MB"
out="bench/out/spark"
[ -f spark/target/hetscope-spark.jar ] || { echo "build first: see README.md" >&2; exit 2; }
[ "$(nproc --all)" -ge 2 ] || { echo "needs 2 cores" >&2; exit 2; }
if [ ! -f "$data/rank$(printf %04d $((N - 1))).json" ]; then
  python3 bench/spark/gen.py "$data" "$N" "$SIZE_MB"
fi
rm -rf "$out"
mkdir -p "$out"
mb=$(du -sb "$data" | awk '{print $1 / 1e6}')
echo "# $N traces, $mb MB, $(nproc --all) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
cpus() { [ "$1" = 1 ] && echo 0 || echo "0-$(($1 - 1))"; }
measure() { # label cores command...
  local label=$1 cores=$2
  shift 2
  /usr/bin/time -f "%e %U %S %M" -o "$out/time" taskset -c "$(cpus "$cores")" "$@" \
      > "$out/$label.out" 2> "$out/$label.err" || {
    rc=$?; [ $rc -eq 3 ] || { echo "$label failed ($rc), see $out/$label.err" >&2; exit 1; }; }
  read -r wall user sys rss < "$out/time"
  # the Spark job alone, from its summary line ("... MB in S s"); the whole command otherwise
  job=$(sed -n 's/.* MB in \([0-9.]*\) s$/\1/p' "$out/$label.out" | tail -1)
  job=${job:-$wall}
  awk -v l="$label" -v c="$cores" -v w="$wall" -v j="$job" -v u="$user" -v s="$sys" -v r="$rss" \
      -v mb="$mb" 'BEGIN {
    printf "%-18s cores %d  wall %7.1f s (job %7.1f s, CPU %7.1f s, cores used %.2f)  %6.1f MB/s  %6.1f MB/s per core (job)  peak RSS %5.0f MiB\n",
      l, c, w, j, u + s, (u + s) / w, mb / w, mb / j / c, r / 1024 }'
  echo "$wall $job" > "$out/$label.wall"
}
for cores in 1 2; do
  HETSCOPE_JAVA_OPTS="-Dhetscope.duckdb.memory=${IMPORT_DUCKDB_MEMORY:-4GB}" measure "hetscope-import-$cores" "$cores" \
    ./hetscope import "$data"/rank*.json -o "$out/all-$cores.duckdb"
done
for cores in 1 2; do
  HETSCOPE_JAVA_OPTS="-Xmx$((cores * 1024 + 512))m" measure "spark-local-$cores" "$cores" \
    ./hetscope spark import "$data" -o "$out/dataset-$cores" --master "local[$cores]"
done
speedup() { # label
  read -r w1 j1 < "$out/$1-1.wall"
  read -r w2 j2 < "$out/$1-2.wall"
  awk -v l="$1" -v w1="$w1" -v w2="$w2" -v j1="$j1" -v j2="$j2" \
    'BEGIN { printf "speed-up 1 -> 2 cores, %-16s %.2fx wall, %.2fx job\n", l ":", w1 / w2, j1 / j2 }'
}
speedup hetscope-import
speedup spark-local
tail -1 "$out/spark-local-2.out"
echo "# load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${KEEP:-1}" = 0 ]; then rm -rf "$out" "$data"; fi
