#!/usr/bin/env bash
# Generates an Nsight-Systems-shaped SQLite export with N kernel rows (default 10 million), using the table
# layout of the real export in ../shared/fixtures/nsys (StringIds, TARGET_INFO_GPU, CUPTI_ACTIVITY_KIND_KERNEL).
# Usage: bench/nsys/generate.sh OUT.sqlite [N]
set -euo pipefail
out="${1:?usage: generate.sh OUT.sqlite [N]}"
n="${2:-10000000}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fixture="$here/../../../shared/fixtures/nsys/perlmutter-cloverleaf-cuda.sqlite"
rm -f "$out"
sqlite3 "$out" <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
ATTACH '$fixture' AS fx;
$(sqlite3 "$fixture" ".schema StringIds" ".schema TARGET_INFO_GPU" ".schema CUPTI_ACTIVITY_KIND_KERNEL")
INSERT INTO StringIds SELECT * FROM fx.StringIds;
INSERT INTO TARGET_INFO_GPU SELECT * FROM fx.TARGET_INFO_GPU;
-- 48 kernel names taken from the fixture's own kernels, reused round robin with pseudo-random durations
CREATE TEMP TABLE names AS SELECT row_number() OVER (ORDER BY shortName) - 1 AS i, shortName, demangledName
  FROM (SELECT DISTINCT shortName, demangledName FROM fx.CUPTI_ACTIVITY_KIND_KERNEL);
WITH RECURSIVE seq(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM seq WHERE x + 1 < $n)
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid,
  demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory,
  dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId)
SELECT 1000000 + x * 2000, 1000000 + x * 2000 + 500 + (x * 7919) % 1400, x % 4, 1, 7 + x % 3, x + 1,
  310028053512192, n.demangledName, n.shortName, 32, 64 + x % 100, 1, 1, 128, 1, 1, 0, 0, 0, 0, x
FROM seq JOIN names n ON n.i = x % (SELECT count(*) FROM names);
DETACH fx;
SQL
echo "$out: $(sqlite3 "$out" 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL') kernel rows"
