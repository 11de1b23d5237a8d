#!/usr/bin/env bash
# Runs every test: installs the test tools if missing, then builds and verifies all modules
# (compilation with warnings as errors, formatting check, unit tests and MinIO tests).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

source scripts/lib/tools.sh
require_tools # MinIO, unless S3_ENDPOINT names a store
# The build log keeps Maven's lines (a line or two per test class, and any failure): what tests
# print goes to target/surefire-reports/*-output.txt. Other lines here mean something prints past
# that (a dependency's dump, a library writing to the console), which the log must stay free of.
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
./mvnw -B -ntp verify "$@" 2>&1 | tee "$log"
stray="$(grep -c -v -E '^\[(INFO|WARNING|ERROR)\]|^$' "$log" || true)"
if [ "$stray" -gt 20 ]; then
  echo "The build log has $stray lines that are not Maven's; the first of them:" >&2
  grep -v -E '^\[(INFO|WARNING|ERROR)\]|^$' "$log" | head -20 >&2
  exit 1
fi
