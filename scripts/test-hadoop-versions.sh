#!/usr/bin/env bash
# Runs the S3A connector's tests (Hadoop's contract tests, the parquet-hadoop read, SSE-C) with
# the connector as built (against the root POM's Hadoop version) on each other supported
# hadoop-aws/hadoop-common version (3.4.3, the build's, is tested by ./scripts/test.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/tools.sh
require_tools # MinIO, unless S3_ENDPOINT names a store
./mvnw -B -ntp -q install -DskipTests
for version in 3.4.2 3.5.0; do
  echo "... S3A connector tests on Hadoop $version"
  ./mvnw -B -ntp verify -pl integration-tests -Dhadoop.version="$version" \
    -Dtest='SeekwellS3a*,S3aObjectClientContractTest,!SeekwellS3aSseCustomerKeyMinioTest'
done
