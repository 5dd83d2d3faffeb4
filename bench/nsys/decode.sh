#!/usr/bin/env bash
# Decoding cost of the nsys reader alone (issue 5): the export decoded into a sink that drops every record, through
# the pure-Java file scanner and through sqlite-jdbc (-Dhetscope.sqlite.scanner=false), against the sqlite3
# aggregate over the same file. Wall and CPU seconds of each (the machine is shared: read the CPU columns).
# With STORE also writes a store after the decode-only pass (bench/nsys/ReaderPhases.java).
# Usage: bench/nsys/decode.sh [N] [WORKDIR]   (needs sqlite3 and the formats/nsys module installed: mvn -o install)
set -euo pipefail
n="${1:-1000000}"
work="${2:-/tmp/hetscope-bench-nsys}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$here/../.."
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
mkdir -p "$work"
db="$work/kernels-$n.sqlite"
[ -f "$db" ] || "$here/generate.sh" "$db" "$n"
cp_file="$work/nsys-classpath.txt"
(cd "$root" && mvn -q -o -pl formats/nsys dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$cp_file" > /dev/null 2>&1)
cp="$(tr ':' '\n' < "$cp_file" | grep -v -e junit -e opentest -e apiguardian | paste -sd:):$root/formats/nsys/target/classes"
query='SELECT shortName, count(*), sum("end" - start) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1'
echo "rows=$n  load: $(uptime | sed 's/.*load/load/')"
sqlite3 "$db" "$query" > /dev/null   # warm the page cache once
/usr/bin/time -f "sqlite3 aggregate (baseline)   wall %e s  CPU user %U s sys %S s" sqlite3 "$db" "$query" > /dev/null
for scan in true false; do
  /usr/bin/time -f "hetscope decode, scanner=$scan  wall %e s  CPU user %U s sys %S s (whole JVM)" \
    "$java_bin" -Xmx1g -Dhetscope.sqlite.scanner=$scan --enable-native-access=ALL-UNNAMED -cp "$cp" \
    "$here/ReaderPhases.java" "$db"
done
/usr/bin/time -f "sqlite3 aggregate (again)      wall %e s  CPU user %U s sys %S s" sqlite3 "$db" "$query" > /dev/null
echo "load after: $(uptime | sed 's/.*load/load/')"
