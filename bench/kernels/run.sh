#!/bin/sh
# Kernel instrumentation overhead on the default OpenCL device (PoCL on CPU in this project).
# Usage: bench/kernels/run.sh [SCALE] [REPS]   (from the repository root)
set -e
cd "$(dirname "$0")/../.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
mvn -q -o -pl capture/kernels test-compile 2>&1 | grep -v WARNING || true
mvn -q -o -pl capture/kernels dependency:build-classpath -Dmdep.outputFile="$PWD/capture/kernels/target/kernels-bench.cp" >/dev/null 2>&1
CP="$(cat capture/kernels/target/kernels-bench.cp):capture/kernels/target/classes:capture/kernels/target/test-classes"
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Dhetscope.root="$PWD" -cp "$CP" \
    bench/kernels/KernelBench.java "$@" 2>&1 | grep -v "warnings generated"
