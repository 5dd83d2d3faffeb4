#!/usr/bin/env bash
# GPU checks in one run of under 5 minutes, through OpenCL, writing one results file (markdown):
#   1. the capture agent's overhead on a launch-heavy and a transfer-heavy example program (goal: <= 5 % of the
#      wall time, <= 1 us per traced OpenCL call), alternating runs without and with the agent;
#   2. in-kernel tracing: the three strategies (two-phase, shared buffer, sub-buffers), naive against reduced
#      tracepoints (the CFG reduction) and trip counts, on the benchmark kernels (bench/kernels/KernelBench.java;
#      Darche et al. report a 1.25x median);
#   3. kernel counters on the kNN kernel at the seed's sizes, checked against the kernel's arithmetic.
#
# The machine with the GPU may have no network, no Maven and no OpenCL ICD loader: everything runs from a bundle
# made on the build machine (after ./build.sh) that carries the jars, the compiled benchmarks, the kernel sources,
# libOpenCL (ocl-icd) and, unless --no-jre, a trimmed Java runtime (jlink). Nothing is installed. Where no
# /etc/OpenCL/vendors/*.icd exists, an ICD file naming the NVIDIA driver's libnvidia-opencl.so.1 is made in the
# bundle and given to the loader with OCL_ICD_VENDORS.
#
# Usage (from anywhere; the repository is found from this script):
#   bench/gpu/run.sh --bundle-only          build machine: make bench/out/gpu-bundle (~50 MB; ~7 MB with --no-jre)
#   bench/gpu/run.sh [--out FILE]           GPU machine: the full run (the bundle is made first where missing)
#   bench/gpu/run.sh --dry-run [--out FILE] tiny sizes, any OpenCL device (PoCL here): checks the script itself
# HETSCOPE_GPU_BUNDLE=DIR puts the bundle elsewhere. Results go to FILE (default bench/out/gpu-results-TIME.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bundle="${HETSCOPE_GPU_BUNDLE:-$root/bench/out/gpu-bundle}"
dry=0 bundle_only=0 jre=1 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry=1 ;;
    --bundle-only) bundle_only=1 ;;
    --no-jre) jre=0 ;;
    --out) out="$2"; shift ;;
    *) echo "usage: bench/gpu/run.sh [--dry-run] [--bundle-only] [--no-jre] [--out FILE]" >&2; exit 2 ;;
  esac
  shift
done
start_s=$(date +%s)

# ---- the bundle (build machine) --------------------------------------------------------------------------------
build_jdk() {
  local c
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-2[1-9]-jdk-amd64 \
      /usr/lib/jvm/java-2[1-9]-openjdk-amd64; do
    if [ -n "$c" ] && [ -x "$c/bin/javac" ] && [ -x "$c/bin/jlink" ]; then echo "$c"; return 0; fi
  done
  return 1
}

make_bundle() {
  local jdk agent examples jocl ocl cp
  jdk="$(build_jdk)" || { echo "gpu/run.sh: no JDK 21+ with javac and jlink to make the bundle" >&2; exit 2; }
  agent="$root/capture/agent/target/hetscope-agent.jar"
  examples="$(ls "$root"/capture/agent/target/*-examples.jar 2>/dev/null | head -1)"
  jocl="$HOME/.m2/repository/org/jocl/jocl/2.0.5/jocl-2.0.5.jar"
  for f in "$agent" "$examples" "$jocl" "$root/capture/kernels/target/classes" "$root/capture/kernels/target/test-classes" \
      "$root/model/target/classes"; do
    [ -e "$f" ] || { echo "gpu/run.sh: $f is missing: build first (./build.sh, or ./build.sh test for the test classes)" >&2; exit 2; }
  done
  ocl="$(ldconfig -p 2>/dev/null | awk '/libOpenCL\.so\.1 .*x86-64/ {print $NF; exit}')"
  [ -n "$ocl" ] || ocl=/usr/lib/x86_64-linux-gnu/libOpenCL.so.1
  [ -e "$ocl" ] || { echo "gpu/run.sh: no libOpenCL.so.1 here (Debian package ocl-icd-libopencl1)" >&2; exit 2; }
  rm -rf "$bundle"
  mkdir -p "$bundle/lib" "$bundle/jars" "$bundle/classes" "$bundle/root/capture/kernels/src/test/resources" \
      "$bundle/shared/fixtures/starpu"
  cp "$agent" "$bundle/jars/hetscope-agent.jar"
  cp "$examples" "$bundle/jars/examples.jar"
  cp "$jocl" "$bundle/jars/jocl.jar"
  "$jdk/bin/jar" cf "$bundle/jars/kernels.jar" -C "$root/capture/kernels/target/classes" .
  "$jdk/bin/jar" cf "$bundle/jars/kernels-suite.jar" -C "$root/capture/kernels/target/test-classes" org/hetscope/capture/kernels/Suite.class \
      -C "$root/capture/kernels/target/test-classes" org/hetscope/capture/kernels/SuiteKernel.class
  # nested classes of the suite, if it has any (Suite$...)
  local nested
  nested="$(cd "$root/capture/kernels/target/test-classes" && ls org/hetscope/capture/kernels/Suite\$*.class \
      org/hetscope/capture/kernels/SuiteKernel\$*.class 2>/dev/null || true)"
  if [ -n "$nested" ]; then
    # shellcheck disable=SC2086 # class file names without spaces
    (cd "$root/capture/kernels/target/test-classes" && "$jdk/bin/jar" uf "$bundle/jars/kernels-suite.jar" $nested)
  fi
  "$jdk/bin/jar" cf "$bundle/jars/model.jar" -C "$root/model/target/classes" .
  cp -r "$root/capture/kernels/src/test/resources/kernels" "$bundle/root/capture/kernels/src/test/resources/"
  [ -f "$root/../shared/fixtures/starpu/gemm.cl" ] && cp "$root/../shared/fixtures/starpu/gemm.cl" "$bundle/shared/fixtures/starpu/"
  # the loader under both names: JOCL asks for libOpenCL.so first
  cp -L "$ocl" "$bundle/lib/libOpenCL.so.1"
  cp -L "$ocl" "$bundle/lib/libOpenCL.so"
  cp="$bundle/jars/jocl.jar:$bundle/jars/kernels.jar:$bundle/jars/kernels-suite.jar:$bundle/jars/model.jar"
  # compiled for Java 21, so that a JDK 21 on the GPU machine runs them too
  "$jdk/bin/javac" -nowarn --release 21 -d "$bundle/classes" -cp "$cp" "$root/bench/kernels/KernelBench.java" \
      "$root/bench/gpu/KnnCounters.java" 2>&1 | grep -v '^Note:' || true
  [ -f "$bundle/classes/KernelBench.class" ] && [ -f "$bundle/classes/KnnCounters.class" ] \
      || { echo "gpu/run.sh: compiling the benchmarks failed" >&2; exit 2; }
  if [ "$jre" = 1 ]; then
    # what the agent (instrumentation, ByteBuddy: jdk.unsupported) and the programs need; about 43 MB
    "$jdk/bin/jlink" --add-modules java.base,java.instrument,java.management,java.logging,jdk.unsupported \
        --strip-debug --no-header-files --no-man-pages --compress zip-9 --output "$bundle/jre" >/dev/null
  fi
  (cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown) > "$bundle/VERSION"
  echo "gpu/run.sh: bundle made in $bundle ($(du -sh "$bundle" | cut -f1))" >&2
}

agent_src="$root/capture/agent/target/hetscope-agent.jar"
if [ ! -f "$bundle/VERSION" ] || { [ -f "$agent_src" ] && [ "$agent_src" -nt "$bundle/VERSION" ]; }; then
  make_bundle
fi
[ "$bundle_only" = 1 ] && exit 0

# ---- the run (any machine with an OpenCL device) ---------------------------------------------------------------
java=""
good_java() { [ -x "$1/bin/java" ] && grep -qE '^JAVA_VERSION="(2[1-9]|[3-9][0-9])' "$1/release" 2>/dev/null; }
for c in "$bundle/jre" "${JAVA_HOME:-}" /usr/lib/jvm/*; do
  if [ -n "$c" ] && good_java "$c"; then java="$c/bin/java"; break; fi
done
[ -n "$java" ] || { echo "gpu/run.sh: no Java 21+ (the bundle has none: made with --no-jre?)" >&2; exit 2; }
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -z "${OCL_ICD_VENDORS:-}" ] && ! ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then
  mkdir -p "$bundle/vendors"
  echo "libnvidia-opencl.so.1" > "$bundle/vendors/nvidia.icd"
  export OCL_ICD_VENDORS="$bundle/vendors"
fi
mkdir -p "$root/bench/out"
[ -n "$out" ] || out="$root/bench/out/gpu-results-$(date +%Y%m%dT%H%M%S).md"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ "$dry" = 1 ]; then
  reps=1 launches=300 stages=2 block=4096 kscale=1 kreps=1 kargs=(all vadd,divergent) knn=(50 8 64 16 1)
else
  reps=5 launches=20000 stages=16 block=262144 kscale=large kreps=15 kargs=() knn=(5000 784 5120 256 10)
fi
failed=0
{
  echo "# hetscope GPU checks ($([ "$dry" = 1 ] && echo "dry run, tiny sizes" || echo "full sizes"))"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ); host: $(hostname); bundle: $(cat "$bundle/VERSION")"
  echo "- java: $("$java" -version 2>&1 | head -1)"
  echo "- OpenCL ICDs: ${OCL_ICD_VENDORS:-$(ls /etc/OpenCL/vendors 2>/dev/null | tr '\n' ' ')}"
  command -v nvidia-smi >/dev/null 2>&1 && echo "- GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo
} > "$out"

# 1. capture agent overhead. One run: wall time of the whole process and the calls the program made itself.
ms_now() { echo $(( $(date +%s%N) / 1000000 )); }
program() { # NAME WITH_AGENT(0/1) ARGS... -> "wall_ms calls"
  local name="$1" traced="$2" report="$work/report" t0 t1 calls
  shift 2
  local cmd=("$java" --enable-native-access=ALL-UNNAMED)
  [ "$traced" = 1 ] && cmd+=("-javaagent:$bundle/jars/hetscope-agent.jar=out=$work/trace,cache=$work/cache")
  cmd+=("-Dhetscope.example.report=$report" -cp "$bundle/jars/jocl.jar:$bundle/jars/examples.jar"
      "org.hetscope.capture.examples.$name" "$@")
  rm -rf "$work/trace" "$report"
  t0=$(ms_now)
  "${cmd[@]}" > "$work/program.log" 2>&1 || { echo "FAILED: ${cmd[*]}" >&2; cat "$work/program.log" >&2; return 1; }
  t1=$(ms_now)
  calls=$(awk -F= '/^call\./ {s += $2} END {print s + 0}' "$report")
  echo "$((t1 - t0)) $calls"
}
median() { sort -n | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
overhead() { # NAME LABEL ARGS...
  local name="$1" label="$2" i base=() traced=() calls=0 r mb mt
  shift 2
  program "$name" 1 "$@" > /dev/null # fills the agent's class cache; its cold start is not what the goal measures
  for i in $(seq "$reps"); do
    r=$(program "$name" 0 "$@"); base+=("${r% *}")
    r=$(program "$name" 1 "$@"); traced+=("${r% *}"); calls="${r#* }"
  done
  mb=$(printf '%s\n' "${base[@]}" | median)
  mt=$(printf '%s\n' "${traced[@]}" | median)
  awk -v l="$label" -v b="$mb" -v t="$mt" -v c="$calls" -v n="$reps" 'BEGIN {
    pct = 100 * (t - b) / b; us = c > 0 ? 1000 * (t - b) / c : 0
    printf "| %s | %d | %d | %.0f | %.0f | %+.1f %% | %.3f us | %s |\n", l, n, c, b, t, pct, us,
        (pct <= 5 && us <= 1) ? "met" : "NOT met"
  }'
}
{
  echo "## 1. Capture agent overhead (process wall time, median of alternating runs after one cold run)"
  echo
  echo "| program | runs | traced calls | without agent ms | with agent ms | overhead | per traced call | goal (<= 5 %, <= 1 us) |"
  echo "|---|---|---|---|---|---|---|---|"
} >> "$out"
if timeout 100 bash -c "$(declare -f ms_now program median overhead); java='$java' bundle='$bundle' work='$work' reps=$reps
    overhead LaunchHeavy 'launch-heavy (LaunchHeavy $launches)' $launches
    overhead TransferPipeline 'transfer-heavy (TransferPipeline $stages x $block)' $stages $block" >> "$out" 2>"$work/capture.err"; then
  :
else
  failed=1; { echo; echo "capture overhead FAILED or timed out:"; echo '```'; tail -20 "$work/capture.err"; echo '```'; } >> "$out"
fi

# 2. in-kernel tracing overhead: strategies and the CFG reduction
cpk="$bundle/classes:$bundle/jars/jocl.jar:$bundle/jars/kernels.jar:$bundle/jars/kernels-suite.jar:$bundle/jars/model.jar"
{ echo; echo "## 2. In-kernel tracing: strategies, naive vs reduced tracepoints, trip counts (KernelBench $kscale $kreps)"; echo; } >> "$out"
if timeout 140 "$java" --enable-native-access=ALL-UNNAMED -Dhetscope.root="$bundle/root" -cp "$cpk" \
    KernelBench "$kscale" "$kreps" "${kargs[@]}" > "$work/kernels.out" 2> "$work/kernels.err"; then
  grep -v 'warnings generated' "$work/kernels.out" >> "$out"
  grep '^device:' "$work/kernels.err" | head -1 | sed 's/^/- /' >> "$out"
else
  failed=1; { echo "kernel tracing FAILED or timed out:"; echo '```'; tail -20 "$work/kernels.err"; echo '```'; } >> "$out"
fi

# 3. counters on kNN
{ echo; echo "## 3. Kernel counters on kNN"; echo; } >> "$out"
if timeout 40 "$java" --enable-native-access=ALL-UNNAMED -Dhetscope.root="$bundle/root" -cp "$cpk" KnnCounters "${knn[@]}" \
    > "$work/knn.out" 2> "$work/knn.err"; then
  cat "$work/knn.out" >> "$out"
else
  failed=1; { cat "$work/knn.out"; echo "kNN counters FAILED or timed out:"; echo '```'; tail -20 "$work/knn.err"; echo '```'; } >> "$out"
fi
echo >> "$out"
echo "total: $(( $(date +%s) - start_s )) s" >> "$out"
echo "gpu/run.sh: results in $out ($(( $(date +%s) - start_s )) s)" >&2
exit "$failed"
