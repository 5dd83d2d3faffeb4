#!/usr/bin/env bash
# CTF decode benchmark: babeltrace2 (dummy sink) vs hetscope decoding every field (ctf count) vs a full import.
#   usage: bench/ctf/run.sh [SIZES...]     sizes are multiples of make-lttng-trace.sh's default (default: 1 4)
# Needs lttng-tools, liblttng-ust-dev, gcc, babeltrace2, and the formats/ctf and store modules installed
# (mvn -q -o -pl formats/ctf install -DskipTests). Prints wall and CPU seconds, events/s and ratios per size.
# CTF_BENCH_SKIP_IMPORT=1 times only babeltrace2 and the decode; CTF_BENCH_DIR keeps recorded traces.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
work="${CTF_BENCH_DIR:-/tmp/hetscope-ctf-bench}"
mkdir -p "$work"
sizes=("$@"); [ ${#sizes[@]} -eq 0 ] && sizes=(1 4)
(cd "$root" && mvn -q -o -pl formats/ctf dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$work/cp.txt" >/dev/null)
cp="$root/formats/ctf/target/classes:$(cat "$work/cp.txt")"
# compiled once here, so that the timings hold no compilation of the bench driver
"${java%/java}/javac" -cp "$cp" -d "$work/classes" "$root/bench/ctf/CtfBench.java"
cp="$work/classes:$cp"
measure() { # label command... -> "wall user sys maxrss_kb" on stdout, command output in $work/out.txt
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$@" > "$work/out.txt" 2>"$work/err.txt"
  cat "$work/time.txt"
}
printf '%-5s %-10s %10s %8s %8s %12s %10s %9s %9s\n' size tool events wall_s cpu_s events/s heap_MiB x_wall x_cpu
for n in "${sizes[@]}"; do
  dir="$work/trace-${n}x"
  if [ ! -f "$dir/.done" ]; then
    bash "$root/../shared/scripts/make-lttng-trace.sh" "$dir" $((1500000 * n)) > /dev/null
    touch "$dir/.done"
  fi
  trace="$(dirname "$(find "$dir" -name metadata | head -1)")"
  read -r bw bu bs _ < <(measure babeltrace2 -c source.ctf.fs -p "inputs=[\"$trace\"]" -c sink.utils.dummy)
  bcpu=$(echo "$bu + $bs" | bc)
  read -r cw cu cs _ < <(measure "$java" -cp "$cp" CtfBench count "$dir")
  read -r _ events _ _ cheap < "$work/out.txt"
  ccpu=$(echo "$cu + $cs" | bc)
  if [ "${CTF_BENCH_SKIP_IMPORT:-0}" != 1 ]; then
    read -r iw iu is _ < <(measure "$java" --enable-native-access=ALL-UNNAMED -cp "$cp" CtfBench import "$dir")
    read -r _ _ _ _ iheap < "$work/out.txt"
    icpu=$(echo "$iu + $is" | bc)
  fi
  row() { printf '%-5s %-10s %10s %8.2f %8.2f %12.0f %10s %9.2f %9.2f\n' "${n}x" "$1" "$events" "$2" "$3" \
      "$(echo "$events / $2" | bc -l)" "$4" "$(echo "$bw / $2" | bc -l)" "$(echo "$bcpu / $3" | bc -l)"; }
  row babeltrace2 "$bw" "$bcpu" -
  row count "$cw" "$ccpu" "$cheap"
  [ "${CTF_BENCH_SKIP_IMPORT:-0}" != 1 ] && row import "$iw" "$icpu" "$iheap"
done
load="$(cut -d ' ' -f 1-3 /proc/loadavg)"
echo "x_wall, x_cpu: babeltrace2's time divided by the tool's (higher is faster); load average after: $load"
