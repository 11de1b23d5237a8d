#!/usr/bin/env bash
# JMH microbenchmarks of the hot paths. Arguments go to JMH, e.g.:
#   ./scripts/jmh.sh CachedReadBenchmark -prof gc
#   ./scripts/jmh.sh PlannerBenchmark -f 1 -wi 1 -i 1 -w 1s -r 1s
# The benchmarks live in two places, each with its own JMH list: the benchmarks module
# (CachedReadBenchmark, CoalesceBenchmark, DiskTierReadBenchmark) and input-stream's tests
# (PlannerBenchmark, which uses the planner's package-private classes). JMH runs in each place
# where the arguments select a benchmark, one place after the other (so with no selection, every
# benchmark runs; a result file named with -rff then holds the second place's results only).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
./mvnw -B -q -ntp install -DskipTests -pl benchmarks -am
# Each module's dependencies, test scope included, in its target/classpath.txt.
./mvnw -B -q -ntp dependency:build-classpath -pl input-stream,benchmarks \
  -Dmdep.outputFile=target/classpath.txt >/dev/null

places=(
  "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
  "input-stream/target/test-classes:input-stream/target/classes:$(cat input-stream/target/classpath.txt)"
)

jmh() { # CLASSPATH ARGS...: JMH's main on that class path (BENCH_JAVA_OPTS: more JVM options)
  local classpath="$1"
  shift
  # shellcheck disable=SC2086 # BENCH_JAVA_OPTS holds several options
  java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn ${BENCH_JAVA_OPTS:-} \
    -Dorg.slf4j.simpleLogger.log.org.apache.parquet.hadoop.InternalParquetRecordWriter=error \
    -cp "$classpath" org.openjdk.jmh.Main "$@"
}

ran=false
for classpath in "${places[@]}"; do
  # JMH's -l lists the benchmarks the arguments select, a name a line after "Benchmarks:".
  listed="$(jmh "$classpath" "$@" -l 2>/dev/null)" || listed=""
  if grep -q -E '^[[:alnum:]_$.]+$' <<<"$listed"; then
    jmh "$classpath" "$@"
    ran=true
  fi
done
# Selecting nothing anywhere: the benchmarks module's JMH says so (or shows its help, for -h).
"$ran" || jmh "${places[0]}" "$@"
