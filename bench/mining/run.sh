#!/usr/bin/env bash
# Benchmark of the itemset miners (bench/mining/MiningBench.java): closed (LCM) and all frequent (Eclat) itemsets
# on generated databases of 100k, 1M and 10M transactions, sparse and dense, at 1 % support, one JVM per size,
# one core. Needs the module built: mvn -q -o -pl analysis/mining install -DskipTests
# Usage: [SHAPES="sparse dense"] bench/mining/run.sh [sizes...]   (default sizes: 100000 1000000 10000000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
java=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
cp="$root/analysis/mining/target/classes:$(ls ~/.m2/repository/org/hetscope/hetscope-model/0.1.0-SNAPSHOT/hetscope-model-0.1.0-SNAPSHOT.jar)"
sizes=("${@:-100000 1000000 10000000}")
[ -n "${NO_HEADER:-}" ] || echo "shape,transactions,avg_items,min_count,baseline_cpu_ms,closed_cpu_ms,closed,frequent_cpu_ms,frequent,heap_peak_mb,rss_peak_mb"
for shape in ${SHAPES:-sparse dense}; do
  for n in ${sizes[@]}; do
    "$java" -Xmx12g -XX:ActiveProcessorCount=1 -XX:+UseSerialGC -cp "$cp" "$here/MiningBench.java" "$shape" "$n" 1%
  done
done
