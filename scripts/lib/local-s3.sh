# Sourced by demo.sh and bench.sh: builds the benchmarks module, starts MinIO (and Toxiproxy for
# the s3 profile) on free ports of 127.0.0.1, and stops them when the script exits.
# After start_local_s3 PROFILE: $S3_ARGS holds the endpoint, credential and Toxiproxy arguments.

build_benchmarks() {
  echo "... installing tools if missing"
  ./scripts/install-test-tools.sh >/dev/null
  echo "... building Seekwell"
  ./mvnw -B -q -ntp install -DskipTests -pl benchmarks -am
  ./mvnw -B -q -ntp dependency:build-classpath -pl benchmarks \
    -Dmdep.outputFile=target/classpath.txt >/dev/null
}

run_benchmarks_class() { # CLASS ARGS...
  local main="$1"
  shift
  java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" "$main" "$@"
}

free_port() {
  run_benchmarks_class io.seekwell.bench.FreePort
}

await_http() { # URL
  run_benchmarks_class io.seekwell.bench.AwaitHttp "$1"
}

start_local_s3() { # PROFILE [harness-proxy]
  # With "harness-proxy", Toxiproxy is not started here: $S3_ARGS names its binary instead and the
  # benchmark harness runs (and restarts) it.
  LOCAL_S3_WORK="$(mktemp -d)"
  LOCAL_S3_PIDS=()
  trap stop_local_s3 EXIT
  local minio_port
  minio_port="$(free_port)"
  export MINIO_ROOT_USER=seekwell-local MINIO_ROOT_PASSWORD=seekwell-local-secret MINIO_BROWSER=off
  .tools/bin/minio server --quiet --address "127.0.0.1:$minio_port" \
    --console-address "127.0.0.1:$(free_port)" "$LOCAL_S3_WORK/data" >"$LOCAL_S3_WORK/minio.log" 2>&1 &
  LOCAL_S3_PIDS+=("$!")
  echo "... starting MinIO on 127.0.0.1:$minio_port"
  await_http "http://127.0.0.1:$minio_port/minio/health/live"
  S3_ARGS=(--endpoint "http://127.0.0.1:$minio_port" --access-key "$MINIO_ROOT_USER"
    --secret-key "$MINIO_ROOT_PASSWORD" --profile "$1")
  if [ "$1" = s3 ] && [ "${2:-}" = harness-proxy ]; then
    S3_ARGS+=(--toxiproxy-server .tools/bin/toxiproxy-server)
    echo "... Toxiproxy (25 ms, 90 MB/s per connection) is started by the benchmark, afresh for every iteration"
  elif [ "$1" = s3 ]; then
    local toxi_port
    toxi_port="$(free_port)"
    .tools/bin/toxiproxy-server -host 127.0.0.1 -port "$toxi_port" >"$LOCAL_S3_WORK/toxiproxy.log" 2>&1 &
    LOCAL_S3_PIDS+=("$!")
    echo "... starting Toxiproxy on 127.0.0.1:$toxi_port (25 ms, 90 MB/s per connection)"
    await_http "http://127.0.0.1:$toxi_port/version"
    S3_ARGS+=(--toxiproxy "http://127.0.0.1:$toxi_port")
  fi
}

stop_local_s3() {
  for pid in "${LOCAL_S3_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$LOCAL_S3_WORK"
}

parse_profile() { # ARGS... -> sets PROFILE, QUICK and PASS_ARGS (other --name value pairs)
  PROFILE=s3
  QUICK=false
  PASS_ARGS=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --profile) PROFILE="${2:?--profile needs s3 or loopback}"; shift 2 ;;
      --quick) QUICK=true; shift ;;
      --*) PASS_ARGS+=("$1" "${2:?$1 needs a value}"); shift 2 ;;
      *) echo "Unknown argument: $1" >&2; exit 2 ;;
    esac
  done
  case "$PROFILE" in s3|loopback|faults|planning|rate) ;; *) echo "Unknown profile: $PROFILE (s3, loopback, faults, planning or rate)" >&2; exit 2 ;; esac
}
