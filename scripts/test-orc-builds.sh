#!/usr/bin/env bash
# Runs the ORC builds' tests (integration-tests-orc: ORC's own reader over S3A and over the Iceberg
# FileIO with Seekwell's ORC plug-in, against MinIO) on the ORC builds other than the default one
# (plain orc-core 1.9, which ./scripts/test.sh runs). Each build compiles the tests anew. Expects
# Seekwell's modules installed in the local Maven repository (./scripts/test-hadoop-versions.sh
# installs them).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/tools.sh
require_tools # MinIO, unless S3_ENDPOINT names a store
for build in shaded-protobuf-1.9 nohive-1.9 core-2; do
  echo "... ORC build $build"
  ./mvnw -B -ntp clean verify -pl integration-tests-orc -Dorc.build="$build"
done
