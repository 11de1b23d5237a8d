# The test tools, found the same way by every script (demo, bench, test): MinIO from $MINIO_BIN,
# then .tools/bin, then the PATH; Toxiproxy's server from $TOXIPROXY_BIN, then .tools/bin, then
# the PATH. With $S3_ENDPOINT set (and $S3_ACCESS_KEY, $S3_SECRET_KEY) no MinIO is needed: that
# store is used. A tool found nowhere is built with Go by ./scripts/install-test-tools.sh, which
# shows its progress.

# tool_path NAME EXPLICIT: the binary to use for NAME, or nothing if there is none yet.
tool_path() {
  local name="$1" explicit="$2"
  if [ -n "$explicit" ]; then
    if [ ! -x "$explicit" ]; then
      echo "$explicit (from the environment) is not an executable file" >&2
      return 1
    fi
    echo "$explicit"
  elif [ -x ".tools/bin/$name" ]; then
    echo ".tools/bin/$name"
  else
    command -v "$name" || true
  fi
}

# require_tools [toxiproxy]: sets MINIO (empty with S3_ENDPOINT) and, if asked, TOXIPROXY_SERVER,
# building what is missing.
require_tools() {
  local missing=()
  MINIO=""
  TOXIPROXY_SERVER=""
  if [ -z "${S3_ENDPOINT:-}" ]; then
    MINIO="$(tool_path minio "${MINIO_BIN:-}")"
    [ -n "$MINIO" ] || missing+=(minio)
  fi
  if [ "${1:-}" = toxiproxy ]; then
    TOXIPROXY_SERVER="$(tool_path toxiproxy-server "${TOXIPROXY_BIN:-}")"
    [ -n "$TOXIPROXY_SERVER" ] || missing+=(toxiproxy-server)
  fi
  if [ "${#missing[@]}" -gt 0 ]; then
    ./scripts/install-test-tools.sh "${missing[@]}"
    [ -z "${S3_ENDPOINT:-}" ] && MINIO="$(tool_path minio "${MINIO_BIN:-}")"
    [ "${1:-}" = toxiproxy ] && TOXIPROXY_SERVER="$(tool_path toxiproxy-server "${TOXIPROXY_BIN:-}")"
  fi
  return 0
}
