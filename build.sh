#!/usr/bin/env bash
# Builds hetscope with a JDK >= 21 (the machine's default Java may be older).
#   ./build.sh        build everything, skip tests; then ./hetscope runs the CLI
#   ./build.sh test   build and run every module's tests
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -qE 'version "(2[2-9]|[3-9][0-9])'; then
  JAVA_HOME=""
  for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-2[2-9]-jdk-amd64 /usr/lib/jvm/java-2[2-9]-openjdk-amd64; do
    if [ -x "$candidate/bin/java" ]; then JAVA_HOME="$candidate"; break; fi
  done
  if [ -z "$JAVA_HOME" ]; then
    echo "build.sh: hetscope needs a JDK 22 or newer under /usr/lib/jvm (or set JAVA_HOME)" >&2
    exit 2
  fi
fi
export JAVA_HOME
# On JDK 25 and newer, training runs of the everyday commands leave ahead-of-time caches beside the jar (linked
# classes and method profiles, see AotTraining): one per family of commands, run with the JVM options ./hetscope uses
# for that family, plus one for every other command. ./hetscope maps the one of the command it runs and starts about
# 0.1 s sooner. Optional: without them (older JDK, failed training) the launcher simply starts without a cache.
train_aot() {
  local jar="$PWD/cli/target/hetscope.jar" dir="$PWD/cli/target/aot" fixtures="$PWD/../shared/fixtures" work family
  rm -rf "$dir" cli/target/hetscope.aot
  grep -qE '^JAVA_VERSION="(2[5-9]|[3-9][0-9])' "$JAVA_HOME/release" 2>/dev/null || return 0
  mkdir -p "$dir"
  work="$(mktemp -d)"
  # "all" first: the query family reads the stores it writes
  for family in all import query ctf; do
    # shellcheck disable=SC2046 # the launcher prints the options one per word
    if ! "$JAVA_HOME/bin/java" $(HETSCOPE_JVM_OPTIONS_OF="$family" ./hetscope) -XX:AOTCacheOutput="$dir/$family.aot" \
        --enable-native-access=ALL-UNNAMED -cp "$jar" org.hetscope.cli.AotTraining "$family" "$work" \
        "$PWD/examples/kineto-cuda-simple-add.json.gz" "$fixtures/ctf/cyg-profile/glxgears-cyg-profile" \
        "$fixtures/nsys/perlmutter-cloverleaf-cuda.sqlite" "$fixtures/starpu/chol-lws-nb12" \
        > "cli/target/aot-training-$family.log" 2>&1; then
      rm -f "$dir/$family.aot"
      echo "build.sh: AOT training of '$family' failed (see cli/target/aot-training-$family.log);" \
          "those commands start without the cache" >&2
    fi
  done
  rm -rf "$work"
}
case "${1:-build}" in
  build) mvn -B -q -DskipTests install ;;
  test)  mvn -B install ;;
  aot) ;;
  *) echo "usage: ./build.sh [build|test]" >&2; exit 2 ;;
esac
train_aot
