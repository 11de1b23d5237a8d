#!/usr/bin/env bash
# The side-by-side benchmark: starts MinIO (behind Toxiproxy for the s3 profile), generates the
# datasets once (cached in .tools/bench-data), runs every workload on every read path, writes
# docs/benchmarks.md (or target/benchmarks-quick.md with --quick), and stops what it started.
# Usage: ./scripts/bench.sh [--profile s3|loopback] [--quick] [--paths a,b] [--workloads W1,W5]
#        [--iterations N] [--warmup N] [--report FILE]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/local-s3.sh
parse_profile "$@"
build_benchmarks
start_local_s3 "$PROFILE"
if [ "$QUICK" = true ]; then
  run_benchmarks_class io.seekwell.bench.Benchmark "${S3_ARGS[@]}" \
    --scale quick --iterations 1 --warmup 0 --report benchmarks/target/benchmarks-quick.md "${PASS_ARGS[@]}"
else
  run_benchmarks_class io.seekwell.bench.Benchmark "${S3_ARGS[@]}" --scale full --iterations 5 "${PASS_ARGS[@]}"
fi
