#!/bin/sh
# The OpenCL implementation's own cost of device times, without the agent (bench/capture/pocl_floor.c): runs its
# modes alternately in separate processes, REPS rounds, and prints each mode's median launch-loop time and
# its ratio to the plain program. usage: bench/capture/pocl_floor.sh [LAUNCHES (200000)] [REPS (7)]
set -e
N=${1:-200000}
REPS=${2:-7}
BIN=${TMPDIR:-/tmp}/hetscope-pocl-floor
gcc -O2 -o "$BIN" "$(dirname "$0")/pocl_floor.c" -lOpenCL -lpthread
OUT=$BIN.runs
: > "$OUT"
"$BIN" plain 1000 > /dev/null   # PoCL compiles and caches the kernel on its first run
r=0
while [ $r -lt "$REPS" ]; do
  for m in plain profq release collect after; do "$BIN" $m "$N" >> "$OUT"; done
  r=$((r + 1))
done
python3 - "$OUT" "$N" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    m, loop, total = line.split()
    runs.setdefault(m, []).append((float(loop), float(total)))
n = int(sys.argv[2])
base = statistics.median(l for l, _ in runs["plain"])
print("%d launches, %d rounds; medians" % (n, len(runs["plain"])))
for m in ("plain", "profq", "release", "collect", "after"):
    loop = statistics.median(l for l, _ in runs[m])
    total = statistics.median(t for _, t in runs[m])
    print("%-8s loop %.3f s (%.2f us/launch) x%.3f   until events released %.3f s x%.3f"
          % (m, loop, loop / n * 1e6, loop / base, total, total / base))
PY
