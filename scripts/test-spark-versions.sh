#!/usr/bin/env bash
# Runs the Spark end-to-end tests (integration-tests-spark) with the connector bundles on the other
# supported engine sets; ./scripts/test.sh runs the default set (Spark 4.1.1, Iceberg 1.11.0,
# hadoop-aws 3.4.2 with AWS SDK bundle 2.29.52, Delta Lake 4.3.1). Expects the bundles installed in
# the local Maven repository (./scripts/test-hadoop-versions.sh installs them).
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
run "Spark 4.0.1, Iceberg 1.10.0, Hadoop 3.4.1, Delta Lake 4.0.1" \
  -Dspark.version=4.0.1 -Dspark.binary.version=4.0 -Diceberg.version=1.10.0 -Dhadoop.version=3.4.1 \
  -Ddelta.version=4.0.1
# The newest Iceberg (1.12.0) with the newest Spark it has a
# runtime for, and hadoop-aws 3.5.0 with its SDK bundle 2.35.4 on the Hadoop 3.5.0 client.
run "Spark 4.1.1, Iceberg 1.12.0, Hadoop 3.5.0, Delta Lake 4.3.1" \
  -Diceberg.version=1.12.0 -Dhadoop.version=3.5.0
# Spark 4.2.0 ships Hadoop 3.5.0. Iceberg 1.12.0 has no runtime for it: S3A and Delta Lake only.
run "Spark 4.2.0, Hadoop 3.5.0, Delta Lake 4.4.0 (no Iceberg runtime for Spark 4.2)" \
  -Dspark.version=4.2.0 -Dhadoop.version=3.5.0 -Ddelta.version=4.4.0 -Diceberg.skip
