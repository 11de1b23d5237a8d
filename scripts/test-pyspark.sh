#!/usr/bin/env bash
# Runs Seekwell's Hadoop bundle in PySpark 4.3.0 (Spark 4.3.0 on the Hadoop 3.5.0 client it ships),
# as its users deploy it: spark-submit of a Python job on two executor JVMs, hadoop-aws 3.5.0 from
# --packages (its default stream, AAL's analytics stream, is the peer) and the bundle from --jars,
# against a MinIO started here. The job (integration-tests-spark/src/test/python/s3a_on_pyspark.py)
# fails on any answer that differs between the generated rows, Seekwell's stream, S3A's classic
# stream and the default stream. Spark 4.3.0 is on PyPI but not on Maven Central, so the Maven-built
# engine sets (./scripts/test-spark-versions.sh) cannot have it. Downloads pyspark once (456 MB)
# into $SEEKWELL_CACHE (~/.cache/seekwell). Expects the bundle installed in the local Maven
# repository (./scripts/test-hadoop-versions.sh installs it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/tools.sh
require_tools # MinIO, unless S3_ENDPOINT names a store

PYSPARK_VERSION=4.3.0
HADOOP_VERSION=3.5.0
cache="${SEEKWELL_CACHE:-$HOME/.cache/seekwell}"
distribution="$cache/pyspark-$PYSPARK_VERSION"
project_version="$(sed -n 's|^  <version>\(.*\)</version>$|\1|p' pom.xml | head -1)"
bundle="$HOME/.m2/repository/io/seekwell/seekwell-hadoop-bundle/$project_version/seekwell-hadoop-bundle-$project_version.jar"
[ -f "$bundle" ] || { echo "No $bundle: install the bundles first (./mvnw install -pl bundles/hadoop -am -DskipTests)" >&2; exit 1; }

if [ ! -x "$distribution/deps/bin/spark-submit" ]; then
  # Unpacked beside the cache and moved in whole, so that an interrupted run leaves nothing half
  # there.
  mkdir -p "$cache"
  sdist="$(curl -fsS --retry 3 https://pypi.org/pypi/pyspark/json | python3 -c '
import json, sys
files = json.load(sys.stdin)["releases"]["'"$PYSPARK_VERSION"'"]
sdist = [f for f in files if f["packagetype"] == "sdist"][0]
print(sdist["digests"]["sha256"], sdist["url"].split("/packages/", 1)[1])')"
  echo "... downloading pyspark $PYSPARK_VERSION from PyPI (456 MB, once)"
  curl -fsSL --retry 3 -o "$cache/pyspark-$PYSPARK_VERSION.tar.gz" \
    "https://files.pythonhosted.org/packages/${sdist#* }"
  echo "${sdist%% *}  $cache/pyspark-$PYSPARK_VERSION.tar.gz" | sha256sum -c --quiet
  unpacked="$(mktemp -d "$cache/unpacking.XXXXXX")"
  tar xzf "$cache/pyspark-$PYSPARK_VERSION.tar.gz" -C "$unpacked"
  rm -rf "$distribution"
  mv "$unpacked/pyspark-$PYSPARK_VERSION" "$distribution"
  rm -rf "$unpacked" "$cache/pyspark-$PYSPARK_VERSION.tar.gz"
fi

work="$(mktemp -d)"
pids=()
buckets=()
cleanup() {
  # The job deletes what it wrote; its buckets go here (they matter on a store named by
  # S3_ENDPOINT). Local Spark's executors write their logs under $SPARK_HOME/work, in the cache.
  for bucket in ${buckets[@]+"${buckets[@]}"}; do
    curl -fsS -X DELETE --aws-sigv4 "aws:amz:us-east-1:s3" --user "$access_key:$secret_key" \
      "$endpoint/$bucket" >/dev/null 2>&1 || echo "Bucket $bucket not deleted from $endpoint" >&2
  done
  for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work" "$distribution/deps/work"
}
trap cleanup EXIT
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
if [ -n "${S3_ENDPOINT:-}" ]; then
  endpoint="$S3_ENDPOINT"
  access_key="${S3_ACCESS_KEY:?S3_ENDPOINT is set: set S3_ACCESS_KEY and S3_SECRET_KEY too}"
  secret_key="${S3_SECRET_KEY:?S3_ENDPOINT is set: set S3_ACCESS_KEY and S3_SECRET_KEY too}"
else
  port="$(free_port)"
  access_key=seekwell-local
  secret_key=seekwell-local-secret
  MINIO_ROOT_USER="$access_key" MINIO_ROOT_PASSWORD="$secret_key" MINIO_BROWSER=off \
    "$MINIO" server --quiet --address "127.0.0.1:$port" --console-address "127.0.0.1:$(free_port)" \
    "$work/data" >"$work/minio.log" 2>&1 &
  pids+=("$!")
  endpoint="http://127.0.0.1:$port"
  for _ in $(seq 1 300); do
    curl -fsS -o /dev/null "$endpoint/minio/health/live" 2>/dev/null && break
    sleep 0.1
  done
  curl -fsS -o /dev/null "$endpoint/minio/health/live" || { cat "$work/minio.log" >&2; exit 1; }
fi
suffix="$(date +%s)-$$"
for name in seekwell classic default; do
  bucket="pyspark-$name-$suffix"
  curl -fsS -X PUT --aws-sigv4 "aws:amz:us-east-1:s3" --user "$access_key:$secret_key" \
    "$endpoint/$bucket" >/dev/null
  buckets+=("$bucket")
done

echo "... PySpark $PYSPARK_VERSION ($distribution), hadoop-aws $HADOOP_VERSION, $(basename "$bundle")"
export SPARK_HOME="$distribution/deps"
export PYSPARK_PYTHON=python3
py4j="$(ls "$distribution"/lib/py4j-*-src.zip)"
export PYTHONPATH="$distribution/lib/pyspark.zip:$py4j"
# Spark's own log (INFO) goes to a file; the job's lines (...) and any failure to the console.
"$SPARK_HOME/bin/spark-submit" \
  --master 'local-cluster[2,1,1024]' \
  --conf spark.executor.memory=1024m \
  --conf spark.cores.max=2 \
  --conf spark.scheduler.minRegisteredResourcesRatio=1.0 \
  --conf spark.scheduler.maxRegisteredResourcesWaitingTime=120s \
  --conf spark.jars.ivy="$cache/ivy" \
  --packages "org.apache.hadoop:hadoop-aws:$HADOOP_VERSION" \
  --jars "$bundle" \
  integration-tests-spark/src/test/python/s3a_on_pyspark.py \
  --endpoint "$endpoint" --access-key "$access_key" --secret-key "$secret_key" \
  --bucket "${buckets[0]}" --classic-bucket "${buckets[1]}" --default-bucket "${buckets[2]}" \
  --spark-version "$PYSPARK_VERSION" --hadoop-version "$HADOOP_VERSION" \
  2>"$work/spark.log" || {
  status=$?
  echo "PySpark $PYSPARK_VERSION failed (exit $status); the last lines of Spark's log:" >&2
  tail -60 "$work/spark.log" >&2
  for log in "$SPARK_HOME"/work/*/*/stderr; do
    [ -f "$log" ] && { echo "... the last lines of executor log $log:" >&2; tail -30 "$log" >&2; }
  done
  exit "$status"
}
