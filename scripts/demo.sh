#!/usr/bin/env bash
# The demo: starts MinIO behind emulated S3 latency (Toxiproxy: 25 ms, 90 MB/s per connection),
# writes a sample Parquet table, reads a projection of it with a plain SDK range-read stream and
# with Seekwell, prints what each cost, and stops everything it started.
# Usage: ./scripts/demo.sh [--profile s3|loopback]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
profile=s3
if [ "${1:-}" = "--profile" ]; then
  profile="${2:?--profile needs s3 or loopback}"
fi
case "$profile" in s3|loopback) ;; *) echo "Unknown profile: $profile (s3 or loopback)" >&2; exit 2 ;; esac

echo "... installing tools if missing"
./scripts/install-test-tools.sh >/dev/null
echo "... building Seekwell"
./mvnw -B -q -ntp install -DskipTests -pl benchmarks -am
./mvnw -B -q -ntp dependency:build-classpath -pl benchmarks -Dmdep.outputFile=target/classpath.txt >/dev/null

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { # asks the kernel for a free port on 127.0.0.1
  java -XX:TieredStopAtLevel=1 -cp benchmarks/target/classes io.seekwell.bench.FreePort
}

minio_port="$(free_port)"
export MINIO_ROOT_USER=seekwell-demo MINIO_ROOT_PASSWORD=seekwell-demo-secret MINIO_BROWSER=off
.tools/bin/minio server --quiet --address "127.0.0.1:$minio_port" \
  --console-address "127.0.0.1:$(free_port)" "$work/data" >"$work/minio.log" 2>&1 &
pids+=("$!")
echo "... starting MinIO on 127.0.0.1:$minio_port"
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$minio_port/minio/health/live" >/dev/null && break
  sleep 0.2
done

args=(--endpoint "http://127.0.0.1:$minio_port" --access-key "$MINIO_ROOT_USER"
  --secret-key "$MINIO_ROOT_PASSWORD")
if [ "$profile" = s3 ]; then
  toxi_port="$(free_port)"
  .tools/bin/toxiproxy-server -host 127.0.0.1 -port "$toxi_port" >"$work/toxiproxy.log" 2>&1 &
  pids+=("$!")
  echo "... starting Toxiproxy on 127.0.0.1:$toxi_port"
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$toxi_port/version" >/dev/null && break
    sleep 0.2
  done
  args+=(--toxiproxy "http://127.0.0.1:$toxi_port")
fi

java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
  io.seekwell.bench.Demo "${args[@]}"
