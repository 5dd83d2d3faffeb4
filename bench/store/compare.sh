#!/usr/bin/env bash
# Imports the same inputs with two builds of the hetscope CLI jar, alternately, and prints wall time, CPU time
# (user + sys, all threads) and peak RSS of each run, with the ratio old / new per input (medians over REPS runs).
# Used to measure changes of the store's write path on the import of every format.
#   usage: bench/store/compare.sh OLD.jar NEW.jar INPUT...      (REPS=3 by default; JAVA_HOME 22+)
# A copy of cli/target/hetscope.jar needs the libduckdb_java.so_* files of cli/target beside it (DuckDB's driver loads
# its native library from the jar's folder).
set -euo pipefail
old="${1:?usage: compare.sh OLD.jar NEW.jar INPUT...}"
new="${2:?usage: compare.sh OLD.jar NEW.jar INPUT...}"
shift 2
reps="${REPS:-3}"
java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

run() { # jar input -> "wall cpu rss_kb"
  rm -f "$work/out.duckdb"
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$java" -Xmx1g --enable-native-access=ALL-UNNAMED \
      -jar "$1" import "$2" -o "$work/out.duckdb" > /dev/null 2> "$work/err.txt" || { cat "$work/err.txt" >&2; exit 1; }
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$work/time.txt"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-28s %-4s %8s %8s %9s\n' input jar wall_s cpu_s rss_MB
for input in "$@"; do
  : > "$work/old.txt"; : > "$work/new.txt"
  for _ in $(seq "$reps"); do
    run "$old" "$input" >> "$work/old.txt"
    run "$new" "$input" >> "$work/new.txt"
  done
  for which in old new; do
    w=$(cut -d' ' -f1 "$work/$which.txt" | median); c=$(cut -d' ' -f2 "$work/$which.txt" | median)
    r=$(cut -d' ' -f3 "$work/$which.txt" | median)
    printf '%-28s %-4s %8.2f %8.2f %9.0f\n' "$(basename "$input")" "$which" "$w" "$c" "$((r / 1024))"
    eval "${which}_w=$w ${which}_c=$c"
  done
  printf '%-28s old/new: wall %.2fx, cpu %.2fx\n' "$(basename "$input")" \
      "$(echo "$old_w / $new_w" | bc -l)" "$(echo "$old_c / $new_c" | bc -l)"
done
echo "load average after: $(cut -d ' ' -f 1-3 /proc/loadavg)"
