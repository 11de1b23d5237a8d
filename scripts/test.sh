#!/usr/bin/env bash
# Runs every test: installs the test tools if missing, then builds and verifies all modules
# (compilation with warnings as errors, formatting check, unit tests and MinIO tests).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

source scripts/lib/tools.sh
require_tools # MinIO, unless S3_ENDPOINT names a store
./mvnw -B -ntp verify "$@"
