#!/usr/bin/env bash
# JMH microbenchmarks of the hot paths. Arguments go to JMH, e.g.:
#   ./scripts/jmh.sh CachedReadBenchmark -prof gc
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/local-s3.sh
./mvnw -B -q -ntp install -DskipTests -pl benchmarks -am
./mvnw -B -q -ntp dependency:build-classpath -pl benchmarks \
  -Dmdep.outputFile=target/classpath.txt >/dev/null
run_benchmarks_class org.openjdk.jmh.Main "$@"
