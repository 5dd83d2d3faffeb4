#!/usr/bin/env bash
# Runs the agent's examples under two builds of the agent jar, alternately, and prints the medians of the
# in-program timings: ApiCallLoop (traced clSetKernelArg loop) and LaunchHeavy's launches alone, with full
# tracing and with device=off; a run without the agent is the baseline of each round.
#   usage: bench/capture/compare.sh OLD.jar NEW.jar [REPS=7] [LAUNCHES=50000] [CALLS=1000000]
# Needs capture/agent built (its examples jar) and JOCL in ~/.m2.
set -euo pipefail
old="${1:?usage: compare.sh OLD.jar NEW.jar}"; new="${2:?usage: compare.sh OLD.jar NEW.jar}"
reps="${3:-7}"; launches="${4:-50000}"; calls="${5:-1000000}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
jocl=~/.m2/repository/org/jocl/jocl/2.0.5/jocl-2.0.5.jar
examples=$(ls "$root"/capture/agent/target/*-examples.jar)
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
run() { # agent|none cachetag opts example arg key -> seconds
  local agent=()
  if [ "$1" != none ]; then agent=("-javaagent:$1=out=$work/trace,cache=$work/cache-$2$3"); fi
  rm -rf "$work/trace"; sync # no dirty pages of the last run left to throttle this one
  "$java" --enable-native-access=ALL-UNNAMED "${agent[@]}" -cp "$jocl:$examples" \
      "org.hetscope.capture.examples.$4" "$5" | grep -o "$6=[0-9.]*" | cut -d= -f2
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for w in old new; do run "$(eval echo \$$w)" $w "" ApiCallLoop 1000 seconds > /dev/null; done # fill the caches
for i in $(seq "$reps"); do
  run none - "" ApiCallLoop "$calls" seconds >> "$work/calls.none"
  run none - "" LaunchHeavy "$launches" launch_loop_s >> "$work/launch.none"
  for w in old new; do
    jar=$(eval echo \$$w)
    run "$jar" $w "" ApiCallLoop "$calls" seconds >> "$work/calls.$w"
    run "$jar" $w "" LaunchHeavy "$launches" launch_loop_s >> "$work/launch.$w"
    run "$jar" $w ",device=off" LaunchHeavy "$launches" launch_loop_s >> "$work/apionly.$w"
  done
done
cn=$(median < "$work/calls.none"); ln=$(median < "$work/launch.none")
printf '%-34s %9s %9s %9s\n' measure none old new
printf '%-34s %9s %9s %9s\n' "ApiCallLoop $calls calls (s)" "$cn" "$(median < "$work/calls.old")" "$(median < "$work/calls.new")"
printf '%-34s %9s %9s %9s\n' "LaunchHeavy launches, full (s)" "$ln" "$(median < "$work/launch.old")" "$(median < "$work/launch.new")"
printf '%-34s %9s %9s %9s\n' "LaunchHeavy launches, device=off" "$ln" "$(median < "$work/apionly.old")" "$(median < "$work/apionly.new")"
for w in old new; do
  c=$(median < "$work/calls.$w"); l=$(median < "$work/launch.$w"); a=$(median < "$work/apionly.$w")
  printf '%s: %.3f us per traced call; launches x%.3f full, x%.3f device=off\n' $w \
      "$(echo "($c - $cn) / $calls * 1000000" | bc -l)" "$(echo "$l / $ln" | bc -l)" "$(echo "$a / $ln" | bc -l)"
done
