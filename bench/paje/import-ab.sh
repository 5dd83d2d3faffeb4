#!/usr/bin/env bash
# Alternating `hetscope import` runs of two built jars on one trace (a StarPU folder or a Paje file), with the
# launcher's import options (1 GB heap, its JIT inlining budgets), each under GNU time: wall, CPU (user + sys) and
# peak RSS per run, and the load average at its start, so that both see the same machine load.
#   usage: bench/paje/import-ab.sh JAR_A JAR_B TRACE [ROUNDS (default 2)]   WORKDIR=... (default /tmp/hetscope-import-ab)
# A jar needs DuckDB's native library beside it, as the build leaves it in cli/target. The stores are deleted.
set -uo pipefail
a=$1; b=$2; trace=$3; rounds=${4:-2}
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="${WORKDIR:-/tmp/hetscope-import-ab}"
mkdir -p "$work"
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
# shellcheck disable=SC2207
opts=($(HETSCOPE_JVM_OPTIONS_OF=import "$root/hetscope" import))
for i in $(seq "$rounds"); do
  for side in A B; do
    jar=$a; [ "$side" = B ] && jar=$b
    rm -f "$work/store.duckdb"
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -v -o "$work/time.txt" "$java_bin" "${opts[@]}" --enable-native-access=ALL-UNNAMED -cp "$jar" \
        org.hetscope.cli.Main import "$trace" -o "$work/store.duckdb" > "$work/$side.log" 2>&1
    rc=$?
    f() { grep -F "$1" "$work/time.txt" | sed 's/.*: //'; }
    echo "$side round $i exit $rc load $load wall $(f 'Elapsed (wall') user $(f 'User time') sys $(f 'System time')" \
        "peak_rss_mib $(( $(f 'Maximum resident') / 1024 ))"
  done
done
rm -f "$work/store.duckdb"
