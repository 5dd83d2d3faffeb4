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
case "${1:-build}" in
  build) exec mvn -B -q -DskipTests install ;;
  test)  exec mvn -B install ;;
  *) echo "usage: ./build.sh [build|test]" >&2; exit 2 ;;
esac
