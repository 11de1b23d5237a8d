# Sourced by demo.sh and bench.sh: builds the benchmarks module, starts MinIO (and Toxiproxy for
# the s3 profile) on free ports of 127.0.0.1, and stops them when the script exits. The tools are
# found as scripts/lib/tools.sh says ($MINIO_BIN, $TOXIPROXY_BIN, $S3_ENDPOINT).
# After start_local_s3 PROFILE: $S3_ARGS holds the endpoint, credential and Toxiproxy arguments.
source scripts/lib/tools.sh

build_benchmarks() { # [MODULES]: more modules to build, comma-separated (benchmarks-spark)
  echo "... building Seekwell with Maven (the first build downloads its dependencies: a few minutes)"
  ./mvnw -B install -DskipTests -pl "benchmarks${1:+,$1}" -am 2>&1 | maven_progress
  ./mvnw -B -q -ntp dependency:build-classpath -pl benchmarks \
    -Dmdep.outputFile=target/classpath.txt >/dev/null
}

# maven_progress: Maven's batch log on stdin, shown as a line per module built and per 100
# artifacts downloaded, with errors in full.
maven_progress() {
  awk '/^\[INFO\] Building / && !/Building (jar|tar|zip)/ { print "... " substr($0, 8); fflush() }
       /^\[INFO\] Downloaded from / { if (++n % 100 == 0) { print "... " n " artifacts downloaded"; fflush() } }
       /^\[ERROR\]/ { print; fflush() }'
}

# The code the reports measure, taken once when this file is sourced, before any run writes a
# report into the tree ("-dirty": the working tree had changes).
BENCH_REVISION=${BENCH_REVISION:-$(git describe --always --dirty 2>/dev/null || echo unknown)}

run_benchmarks_class() { # CLASS ARGS... (BENCH_JAVA_OPTS: more JVM options, e.g. log levels)
  local main="$1"
  shift
  # shellcheck disable=SC2086 # BENCH_JAVA_OPTS holds several options
  java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -Dseekwell.bench.revision="$BENCH_REVISION" \
    ${BENCH_JAVA_OPTS:-} \
    -Dorg.slf4j.simpleLogger.log.org.apache.parquet.hadoop.InternalParquetRecordWriter=error \
    -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" "$main" "$@"
}

free_port() {
  run_benchmarks_class io.seekwell.bench.store.FreePort
}

await_http() { # URL
  run_benchmarks_class io.seekwell.bench.store.AwaitHttp "$1"
}

start_local_s3() { # PROFILE [harness-proxy]
  # With "harness-proxy", Toxiproxy is not started here: $S3_ARGS names its binary instead and the
  # benchmark harness runs (and restarts) it. With $S3_ENDPOINT set, that store is used instead of
  # a MinIO started here.
  LOCAL_S3_WORK="$(mktemp -d)"
  LOCAL_S3_PIDS=()
  trap stop_local_s3 EXIT
  if [ "$1" = s3 ]; then
    require_tools toxiproxy
  else
    require_tools
  fi
  local endpoint access_key secret_key
  if [ -n "${S3_ENDPOINT:-}" ]; then
    endpoint="$S3_ENDPOINT"
    access_key="${S3_ACCESS_KEY:?S3_ENDPOINT is set: set S3_ACCESS_KEY and S3_SECRET_KEY too}"
    secret_key="${S3_SECRET_KEY:?S3_ENDPOINT is set: set S3_ACCESS_KEY and S3_SECRET_KEY too}"
    echo "... using the store at $endpoint (S3_ENDPOINT)"
  else
    local minio_port
    minio_port="$(free_port)"
    access_key=seekwell-local
    secret_key=seekwell-local-secret
    MINIO_ROOT_USER="$access_key" MINIO_ROOT_PASSWORD="$secret_key" MINIO_BROWSER=off \
      "$MINIO" server --quiet --address "127.0.0.1:$minio_port" \
      --console-address "127.0.0.1:$(free_port)" "$LOCAL_S3_WORK/data" >"$LOCAL_S3_WORK/minio.log" 2>&1 &
    LOCAL_S3_PIDS+=("$!")
    endpoint="http://127.0.0.1:$minio_port"
    echo "... starting MinIO ($MINIO) on 127.0.0.1:$minio_port"
    await_http "$endpoint/minio/health/live"
  fi
  S3_ARGS=(--endpoint "$endpoint" --access-key "$access_key" --secret-key "$secret_key" --profile "$1")
  if [ "$1" = s3 ] && [ "${2:-}" = harness-proxy ]; then
    S3_ARGS+=(--toxiproxy-server "$TOXIPROXY_SERVER")
    echo "... Toxiproxy (25 ms, 90 MB/s per connection) is started by the benchmark, afresh for every iteration"
  elif [ "$1" = s3 ]; then
    local toxi_port
    toxi_port="$(free_port)"
    "$TOXIPROXY_SERVER" -host 127.0.0.1 -port "$toxi_port" >"$LOCAL_S3_WORK/toxiproxy.log" 2>&1 &
    LOCAL_S3_PIDS+=("$!")
    echo "... starting Toxiproxy on 127.0.0.1:$toxi_port (25 ms, 90 MB/s per connection)"
    await_http "http://127.0.0.1:$toxi_port/version"
    S3_ARGS+=(--toxiproxy "http://127.0.0.1:$toxi_port")
  fi
}

stop_local_s3() {
  local status=$?
  for pid in "${LOCAL_S3_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "$status" -ne 0 ]; then
    # A failed run keeps the store's and the proxy's logs: the store may be what failed.
    local kept
    kept="benchmarks/target/local-s3-logs-$(date -u +%Y%m%dT%H%M%SZ)"
    mkdir -p "$kept"
    cp "$LOCAL_S3_WORK"/*.log "$kept"/ 2>/dev/null || true
    echo "... the run failed (exit $status): MinIO's and Toxiproxy's logs are kept in $kept" >&2
  fi
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
  case "$PROFILE" in s3|loopback|faults|planning|rate|soak|tpch) ;; *) echo "Unknown profile: $PROFILE (s3, loopback, faults, planning, rate, soak or tpch)" >&2; exit 2 ;; esac
}
