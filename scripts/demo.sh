#!/usr/bin/env bash
# The demo: starts MinIO behind emulated S3 latency (Toxiproxy: 25 ms, 90 MB/s per connection),
# writes a sample Parquet table, reads a projection of it with a plain SDK range-read stream and
# with Seekwell, prints what each cost, and stops everything it started.
# Usage: ./scripts/demo.sh [--profile s3|loopback]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/local-s3.sh
parse_profile "$@"
if [ "$PROFILE" = faults ]; then echo "The demo runs with --profile s3 or loopback" >&2; exit 2; fi
build_benchmarks
start_local_s3 "$PROFILE"
run_benchmarks_class io.seekwell.bench.demo.Demo "${S3_ARGS[@]}"
