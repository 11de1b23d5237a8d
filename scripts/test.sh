#!/usr/bin/env bash
# Runs every test: installs the test tools if missing, then builds and verifies all modules
# (compilation with warnings as errors, formatting check, unit tests and MinIO tests).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if [ -z "${S3_ENDPOINT:-}" ] && [ -z "${MINIO_BIN:-}" ]; then
  ./scripts/install-test-tools.sh
fi
./mvnw -B -ntp verify "$@"
