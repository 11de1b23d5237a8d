#!/usr/bin/env bash
# Where one read path's client CPU goes in one workload, on the loopback profile: runs the
# benchmark (--iterations 10 after --warmup 3 unless given) with Linux perf sampling every CPU
# (-a, 999 Hz) from the first measured iteration to the report, then prints, per measured
# iteration, the benchmark JVM's CPU milliseconds by thread group (fetch threads, client threads,
# the reader, the JIT compilers, the garbage collector; "kernel" is their time in the kernel) and
# its hottest frames. Java frames are named from the JVM's perf map (-XX:+DumpPerfMapAtExit).
# The sampling also covers the benchmark's pauses between iterations (its wait for a quiet machine,
# the full collection before each), so the totals exceed the report's client-CPU column.
# Usage: ./scripts/cpu-profile.sh WORKLOAD PATH [more bench.sh options]
#   e.g. ./scripts/cpu-profile.sh W5 seekwell-iceberg --warmup 20
# Needs perf (linux-tools) and permission to sample every CPU (root, or
# kernel.perf_event_paranoid <= 0). The recording is kept in target/cpu-profile/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ $# -lt 2 ]; then
  echo "Usage: $0 WORKLOAD PATH [more bench.sh options]" >&2
  exit 2
fi
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 2; }
workload="$1"
path="$2"
shift 2
# bench.sh takes the last of a repeated option: the defaults here come first.
iterations=10
args=("$@")
for ((i = 0; i + 1 < ${#args[@]}; i++)); do
  if [ "${args[$i]}" = --iterations ]; then iterations="${args[$((i + 1))]}"; fi
done
out="target/cpu-profile"
mkdir -p "$out"
name="$out/$workload-$path"
BENCH_JAVA_OPTS="${BENCH_JAVA_OPTS:-} -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer" \
  ./scripts/bench.sh --profile loopback --workloads "$workload" --paths "$path" \
  --iterations 10 --warmup 3 --report "$name.md" "$@" >"$name.log" 2>&1 &
bench=$!
until grep -q "iteration 1 of" "$name.log" 2>/dev/null; do
  kill -0 "$bench" 2>/dev/null || { cat "$name.log"; exit 1; }
  sleep 0.2
done
jvm="$(pgrep -f io.seekwell.bench.reads.Benchmark | head -1)"
perf record -F 999 -g -a -o "$name.perf" >/dev/null 2>&1 &
recorder=$!
until grep -q "Report written" "$name.log"; do
  kill -0 "$bench" 2>/dev/null || break
  sleep 0.2
done
kill -INT "$recorder"
wait "$recorder" || true
wait "$bench"
grep "^| $workload" "$name.md" | head -1
echo "CPU ms per measured iteration ($iterations) of the benchmark JVM, by thread group:"
perf report -i "$name.perf" --pid "$jvm" --sort comm,dso --stdio --no-children -g none \
  -F sample,comm,dso 2>/dev/null | grep -v '^#' | awk -v n="$iterations" '
  NF >= 3 {
    samples = $1
    if ($0 ~ /\[JIT\] tid/) { last = NF - 3; where = "" }
    else if ($NF == "[kernel.kallsyms]") { last = NF - 1; where = " (kernel)" }
    else { last = NF - 1; where = ($NF ~ /libjvm/ ? " (JVM)" : "") }
    comm = $2
    for (f = 3; f <= last; f++) comm = comm " " $f
    if (comm ~ /^C[12] Compiler/) group = "JIT compilers"
    else if (comm ~ /^(GC |G1 |VM Thread)/) group = "garbage collector and VM"
    else { group = comm; sub(/[-#0-9]+$/, "", group); group = group where }
    total[group] += samples
  }
  END { for (g in total) printf "%8.0f  %s\n", total[g] / n, g }' | sort -rn | head -15
echo "Hottest frames (ms per measured iteration):"
perf report -i "$name.perf" --pid "$jvm" --sort sym --stdio --no-children -g none -F sample,sym \
  2>/dev/null | grep -v '^#' | sort -rn | head -15 |
  awk -v n="$iterations" 'NF >= 2 { s = $1; $1 = ""; printf "%8.0f %s\n", s / n, substr($0, 1, 140) }'
