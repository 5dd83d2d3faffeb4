#!/usr/bin/env bash
# Spark import against hetscope import (issue 28): N Kineto traces, one per rank (gen.py, from the shared fixture
# kineto-cuda-sampled-rank0), imported
#   1. by `hetscope import` one after another in one process (all into one store),
#   2. by `hetscope spark import` on local[1] and local[2] (one executor with 1 or 2 cores; in local mode the
#      executor is the driver's JVM, so its peak RSS is the executor's),
# each timed with /usr/bin/time (wall seconds, peak RSS). Prints MB/s, MB/s per core and the 1 -> 2 core speed-up.
#   N=64 SIZE_MB=4 bench/spark/run.sh        (SIZE_MB per trace; the issue's ~2 GB in all is SIZE_MB=32)
# Traces go to bench/data/, stores and datasets to bench/out/ (both git-ignored); KEEP=0 removes them at the end.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
N=${N:-64}
SIZE_MB=${SIZE_MB:-4}
data="bench/data/spark-$N-$SIZE_MB"
out="bench/out/spark"
[ -f spark/target/hetscope-spark.jar ] || { echo "build first: see README.md" >&2; exit 2; }
if [ ! -f "$data/rank$(printf %04d $((N - 1))).json" ]; then
  python3 bench/spark/gen.py "$data" "$N" "$SIZE_MB"
fi
rm -rf "$out"
mkdir -p "$out"
mb=$(du -sb "$data" | awk '{print $1 / 1e6}')
echo "# $N traces, $mb MB, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
measure() { # label cores command...
  local label=$1 cores=$2
  shift 2
  /usr/bin/time -f "%e %M" -o "$out/time" "$@" > "$out/$label.out" 2> "$out/$label.err" || {
    rc=$?; [ $rc -eq 3 ] || { echo "$label failed ($rc), see $out/$label.err" >&2; exit 1; }; }
  read -r wall rss < "$out/time"
  awk -v l="$label" -v c="$cores" -v w="$wall" -v r="$rss" -v mb="$mb" 'BEGIN {
    printf "%-22s cores %d  wall %7.1f s  %6.1f MB/s  %6.1f MB/s per core  peak RSS %5.0f MiB\n",
      l, c, w, mb / w, mb / w / c, r / 1024 }'
  echo "$wall" > "$out/$label.wall"
}
measure "hetscope-import" 1 ./hetscope import "$data"/rank*.json -o "$out/all.duckdb"
for cores in 1 2; do
  HETSCOPE_JAVA_OPTS="-Xmx$((cores * 1024 + 512))m" measure "spark-local-$cores" "$cores" \
    ./hetscope spark import "$data" -o "$out/dataset-$cores" --master "local[$cores]"
done
awk -v a="$(cat "$out/spark-local-1.wall")" -v b="$(cat "$out/spark-local-2.wall")" \
  'BEGIN { printf "speed-up 1 -> 2 cores: %.2fx\n", a / b }'
tail -1 "$out/spark-local-2.out"
if [ "${KEEP:-1}" = 0 ]; then rm -rf "$out" "$data"; fi
