#!/usr/bin/env bash
# Builds hetscope with a JDK >= 21 (the machine's default Java may be older).
#   ./build.sh        build everything, skip tests; then ./hetscope runs the CLI
#   ./build.sh test   build and run every module's tests, the end-to-end suite (e2e/) on the packaged jar
#                     included; installs the Debian packages of .ci/apt-packages first when some are missing
#   ./build.sh aot    only train the ahead-of-time caches for the jar built
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
  grep -qE '^JAVA_VERSION="(2[5-9]|[3-9][0-9])' "$JAVA_HOME/release" 2>/dev/null || { rm -rf "$dir"; return 0; }
  # already trained for this jar (the end-to-end tests train before they run)
  if [ -f "$jar" ] && [ "$dir/all.aot" -nt "$jar" ] && [ "$dir/import.aot" -nt "$jar" ] \
      && [ "$dir/query.aot" -nt "$jar" ] && [ "$dir/ctf.aot" -nt "$jar" ]; then
    return 0
  fi
  rm -rf "$dir" cli/target/hetscope.aot
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
# The tests run the tools and libraries of .ci/apt-packages (babeltrace2, PoCL's OpenCL ICD, ...); CI fails where
# they are missing, so `./build.sh test` installs the missing ones first: directly as root, through sudo where that
# needs no password, else it stops and names them.
install_test_packages() {
  local missing=() p
  command -v dpkg-query >/dev/null 2>&1 || {
    echo "build.sh: not a Debian-like system; install the equivalents of .ci/apt-packages yourself" >&2
    return 0
  }
  for p in $(grep -vE '^\s*(#|$)' .ci/apt-packages); do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ]; then
    echo "build.sh: installing the Debian packages the tests need: ${missing[*]}" >&2
    .ci/install-deps
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "build.sh: installing (sudo) the Debian packages the tests need: ${missing[*]}" >&2
    sudo .ci/install-deps
  else
    echo "build.sh: the tests need these Debian packages, which only root can install: ${missing[*]}" >&2
    echo "build.sh: run 'sudo .ci/install-deps' (or ./build.sh test as root), then ./build.sh test again" >&2
    exit 2
  fi
}
case "${1:-build}" in
  build) mvn -B -q -DskipTests install ;;
  # the e2e module's tests run ./hetscope on the packaged jar, and train the AOT caches for it first
  test)  install_test_packages; mvn -B install ;;
  aot) ;;
  *) echo "usage: ./build.sh [build|test]" >&2; exit 2 ;;
esac
train_aot
