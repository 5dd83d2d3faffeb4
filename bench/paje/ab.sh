#!/bin/sh
# Alternating A/B timing of `PajeBench model` for two checkouts of hetscope (e.g. a `git worktree` of an older
# commit and the working tree), so that both see the same machine load; prints each side's wall times, median wall
# and median CPU (user + system) time. Each side runs with the JVM options its own ./hetscope gives imports.
# usage: bench/paje/ab.sh ROUNDS DIR_A DIR_B [TRACE (default /tmp/hetscope-bench-paje/starpu-520mb.trace)]
# Needs in each DIR: `mvn -q -o -pl model,formats/paje compile` done; the store and DuckDB jars from ~/.m2
# (mvn -q -o -pl model,store,formats/paje install -DskipTests); GNU time; JAVA_HOME (21+).
set -e
ROUNDS=$1; A=$2; B=$3
TRACE=${4:-/tmp/hetscope-bench-paje/starpu-520mb.trace}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
JBIN=${JAVA_HOME:+$JAVA_HOME/bin/}
M2=$HOME/.m2/repository
REST="$M2/org/hetscope/hetscope-store/0.1.0-SNAPSHOT/hetscope-store-0.1.0-SNAPSHOT.jar"
REST="$REST:$(ls $M2/org/duckdb/duckdb_jdbc/*/duckdb_jdbc-*.jar | head -1)"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"${JBIN}javac" -d "$WORK" -cp "$B/formats/paje/target/classes:$B/model/target/classes:$REST" \
    "$ROOT/bench/paje/PajeBench.java"
for i in $(seq "$ROUNDS"); do
  for d in "$A" "$B"; do
    # each checkout's own launcher options for imports (JIT settings); the heap is this script's
    # shellcheck disable=SC2046
    /usr/bin/time -f "%e %U %S" -o "$WORK/t.txt" "${JBIN}java" $(HETSCOPE_JVM_OPTIONS_OF=import "$d/hetscope" \
        2>/dev/null) -Xmx8g --enable-native-access=ALL-UNNAMED \
        -cp "$WORK:$d/formats/paje/target/classes:$d/model/target/classes:$REST" PajeBench model "$TRACE" \
        > /dev/null 2>&1
    echo "$d $(cat "$WORK/t.txt")"
  done
done | python3 -c '
import sys, collections, statistics
r = collections.defaultdict(list)
for l in sys.stdin:
    d, w, u, s = l.split()
    r[d].append((float(w), float(u) + float(s)))
for d, v in r.items():
    print(d, "wall", sorted(x[0] for x in v), "median %.2f" % statistics.median(x[0] for x in v),
          "cpu median %.2f" % statistics.median(x[1] for x in v))
'
