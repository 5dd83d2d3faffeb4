#!/bin/sh
# Paje parsing benchmark: PajeNG's pj_dump against hetscope's reader on the same generated StarPU-shaped trace.
# usage: bench/paje/run.sh [MEGABYTES (default 520)] [WORKDIR (default /tmp/hetscope-bench-paje)]
# Needs: python3, pj_dump (Debian package pajeng), GNU time (/usr/bin/time), JAVA_HOME (21+), and the modules
# installed in ~/.m2 (mvn -q -o -pl model,store,formats/paje install -DskipTests).
# Prints wall time and CPU time (user + system, all threads) of each run, and the ratios. On a shared, loaded
# machine compare the CPU times; wall times count the time spent waiting for a core.
# DUMP=1 also times pj_dump's default mode, which writes every entity as CSV (to a file in WORKDIR, removed
# after): the goal is taken against `pj_dump -q` (it simulates the trace without writing it), the stricter one.
set -e
MB=${1:-520}
WORK=${2:-/tmp/hetscope-bench-paje}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
JBIN=${JAVA_HOME:+$JAVA_HOME/bin/}
mkdir -p "$WORK/classes"
TRACE="$WORK/starpu-${MB}mb.trace"
if [ ! -f "$TRACE" ]; then
  python3 "$ROOT/bench/paje/generate.py" "$ROOT/../shared/fixtures/starpu/chol-lws-nb12/paje.trace" "$TRACE" "$MB"
fi
M2=$HOME/.m2/repository
CP="$ROOT/formats/paje/target/classes:$M2/org/hetscope/hetscope-model/0.1.0-SNAPSHOT/hetscope-model-0.1.0-SNAPSHOT.jar"
CP="$CP:$M2/org/hetscope/hetscope-store/0.1.0-SNAPSHOT/hetscope-store-0.1.0-SNAPSHOT.jar"
CP="$CP:$(ls $M2/org/duckdb/duckdb_jdbc/*/duckdb_jdbc-*.jar | head -1)"
"${JBIN}javac" -d "$WORK/classes" -cp "$CP" "$ROOT/bench/paje/PajeBench.java"
# The JVM options ./hetscope gives an import (JIT settings), with this benchmark's heap.
JAVA="${JBIN}java $(HETSCOPE_JVM_OPTIONS_OF=import "$ROOT/hetscope") -Xmx${BENCH_XMX:-8g}"
JAVA="$JAVA --enable-native-access=ALL-UNNAMED -cp $WORK/classes:$CP PajeBench"

measure() { # label command...: prints "label wall cpu"
  label=$1; shift
  /usr/bin/time -f "%e %U %S" -o "$WORK/time.txt" "$@"
  set -- $(cat "$WORK/time.txt")
  echo "$label $1 $(python3 -c "print(round($2 + $3, 2))")" >> "$WORK/results.txt"
  echo "-- $label: wall $1 s, cpu $(python3 -c "print(round($2 + $3, 2))") s"
}
rm -f "$WORK/results.txt"
echo "== $TRACE: $(python3 -c "import os; print(round(os.path.getsize('$TRACE') / 1e6, 1))") MB, $(wc -l < "$TRACE") lines"
measure pj_dump pj_dump -q "$TRACE"
if [ "${DUMP:-0}" = 1 ]; then
  measure pj_dump_csv sh -c "pj_dump '$TRACE' > '$WORK/dump.csv'"
  rm -f "$WORK/dump.csv"
fi
measure model $JAVA model "$TRACE"
measure import $JAVA import "$TRACE" "$WORK/bench.hets"
python3 - "$WORK/results.txt" <<'PY'
import sys
r = {l.split()[0]: (float(l.split()[1]), float(l.split()[2])) for l in open(sys.argv[1])}
for base in ("pj_dump", "pj_dump_csv"):
    if base not in r:
        continue
    pw, pc = r[base]
    for k in ("model", "import"):
        w, c = r[k]
        print("%s / hetscope %-6s: wall %.2fx, cpu %.2fx" % (base, k, pw / w, pc / c))
PY
