#!/bin/sh
# Recording pass of two-phase tracing (trip counts): an older commit (A) against the working tree (B), interleaved
# in one process. Usage: bench/kernels/compare.sh COMMIT [SCALE|large] [REPS]   (from the repository root)
set -e
cd "$(dirname "$0")/../.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
COMMIT=$1
mvn -q -o -pl capture/kernels test-compile 2>&1 | grep -v WARNING || true
mvn -q -o -pl capture/kernels dependency:build-classpath -Dmdep.outputFile="$PWD/capture/kernels/target/kernels-bench.cp" >/dev/null 2>&1
DEP="$(cat capture/kernels/target/kernels-bench.cp)"
BASE="$PWD/capture/kernels/target/baseline-$COMMIT"
if [ ! -d "$BASE/test-classes" ]; then
    rm -rf "$BASE" && mkdir -p "$BASE/src" "$BASE/classes" "$BASE/test-classes"
    git archive "$COMMIT" capture/kernels/src | tar -x -C "$BASE/src"
    S="$BASE/src/capture/kernels/src"
    # the baseline runs on the working tree's suite (Suite.large() may be newer than COMMIT)
    cp capture/kernels/src/test/java/org/hetscope/capture/kernels/Suite.java "$S/test/java/org/hetscope/capture/kernels/"
    "$JAVA_HOME/bin/javac" -nowarn -d "$BASE/classes" -cp "$DEP" $(find "$S/main/java" -name '*.java')
    [ -d "$S/main/resources" ] && cp -r "$S/main/resources/." "$BASE/classes/"
    "$JAVA_HOME/bin/javac" -nowarn -d "$BASE/test-classes" -cp "$DEP:$BASE/classes" $(find "$S/test/java" -name '*.java')
fi
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Dhetscope.root="$PWD" -cp "$DEP" bench/kernels/CompareBuilds.java \
    "$BASE/classes:$BASE/test-classes" capture/kernels/target/classes:capture/kernels/target/test-classes \
    "${2:-4}" "${3:-30}" 2>&1 | grep -v "warning"
