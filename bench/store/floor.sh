#!/usr/bin/env bash
# The least time DuckDB itself needs to write the rows of a finished store (no reader, no Java records, no Arrow
# batches): every table copied into memory first, then inserted into a fresh store in one transaction, the slices
# sorted by (track, ts) as docs/schema.md promises, committed and checkpointed; and the same without the sort.
# Any import of the same trace takes at least this long, so a speed goal whose time budget is below it cannot be
# met with DuckDB as the store of record on this machine.
#   usage: bench/store/floor.sh STORE [REPS]    (MEMORY=512MB is the import's own DuckDB memory limit; default 8GB,
#          more than the import gets, so the floor errs low)
set -euo pipefail
store="${1:?usage: floor.sh STORE [REPS]}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
duckdb="$(ls "$HOME"/.m2/repository/org/duckdb/duckdb_jdbc/*/duckdb_jdbc-*.jar | grep -v sources | tail -1)"
exec "$java" -Dfloor.memory="${MEMORY:-8GB}" ${CHUNK:+-Dfloor.chunk=$CHUNK} --enable-native-access=ALL-UNNAMED \
    -cp "$duckdb" "$here/StoreFloor.java" "$store" "${2:-1}"
