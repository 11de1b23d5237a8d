#!/usr/bin/env bash
# Runs the Spark end-to-end tests (integration-tests-spark) with the connector bundles on the other
# supported engine sets; ./scripts/test.sh runs the default set (Spark 4.1.1, Iceberg 1.11.0,
# hadoop-aws 3.4.2 with AWS SDK bundle 2.29.52). Expects the bundles installed in the local Maven
# repository (./scripts/test-hadoop-versions.sh installs them).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/tools.sh
require_tools # MinIO, unless S3_ENDPOINT names a store
run() {
  echo "... Spark end to end: $1"
  shift
  ./mvnw -B -ntp verify -pl integration-tests-spark "$@"
}
# Spark 4.0 ships the Hadoop client 3.4.1, whose S3A has no custom stream type (Seekwell warns);
# Iceberg 1.10.0's AWS bundle carries SDK 2.33, hadoop-aws 3.4.1's SDK bundle 2.24.6.
run "Spark 4.0.1, Iceberg 1.10.0, Hadoop 3.4.1" \
  -Dspark.version=4.0.1 -Dspark.binary.version=4.0 -Diceberg.version=1.10.0 -Dhadoop.version=3.4.1
# hadoop-aws 3.5.0 with its SDK bundle 2.35.4, on the Hadoop 3.5.0 client.
run "Spark 4.1.1, Iceberg 1.11.0, Hadoop 3.5.0" -Dhadoop.version=3.5.0
