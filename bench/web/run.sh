#!/usr/bin/env bash
# Web benchmark: generates a store of SLICES slices over TRACKS tracks (default 100M / 1000) unless it exists,
# then measures the window API (cold/warm, widest/narrow, 1,920 px) and the page's first drawn timeline.
# Usage: bench/web/run.sh [SLICES] [TRACKS] [REPEATS]   (from the repository root; builds web first)
set -euo pipefail
cd "$(dirname "$0")/../.."
SLICES=${1:-100000000}
TRACKS=${2:-1000}
REPEATS=${3:-100}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
mkdir -p bench/out bench/data
# package, not install: the modules this run needs come from their target/classes, ahead of ~/.m2 on the classpath
mvn -q -o -pl store,analysis/profiling,web package -DskipTests
# the first-draw timing drives the page with playwright-core (from npm's cache: ./build.sh skips the web tests
# that install it) and a Chromium (.ci/apt-packages); without Chromium only the window API is timed
[ -d web/e2e/node_modules/playwright-core ] || (cd web/e2e && npm ci --no-audit --no-fund --prefer-offline >/dev/null)
(cd web && mvn -q -o dependency:build-classpath -Dmdep.outputFile=../bench/out/web-classpath.txt -Dmdep.includeScope=test >/dev/null)
CP="store/target/classes:analysis/profiling/target/classes:web/target/classes:$(cat bench/out/web-classpath.txt)"
STORE=bench/data/web-${SLICES}x${TRACKS}.duckdb
if [ ! -f "$STORE" ]; then
  "$JAVA_HOME/bin/java" -Xmx4g --enable-native-access=ALL-UNNAMED -cp "$CP" bench/web/GenerateTrace.java "$STORE" "$SLICES" "$TRACKS"
fi
# the heap `hetscope serve` gets (half the machine's memory): it bounds the slices the server holds in memory
HEAP=$(HETSCOPE_JVM_OPTIONS_OF=serve ./hetscope)
"$JAVA_HOME/bin/java" $HEAP ${BENCH_JAVA_OPTS:-} --enable-native-access=ALL-UNNAMED -cp "$CP" bench/web/WindowBench.java "$STORE" "$REPEATS" bench/web/first-draw.mjs \
  2>&1 | grep -v '^WARNING' | tee bench/out/web-$(date +%Y%m%dT%H%M%S).md
