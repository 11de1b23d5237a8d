#!/usr/bin/env bash
# Builds the test tools (MinIO, Toxiproxy) at pinned versions into the git-ignored tool cache
# .tools/bin with `go install`, saying every 10 s how far it is. Does nothing for a tool that is
# already there. Usage: ./scripts/install-test-tools.sh [minio] [toxiproxy-server] [toxiproxy-cli]
# (all three by default). Go keeps what it downloads in its module cache (about 1.4 GB); the
# binaries take about 250 MB.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${SEEKWELL_TOOLS_DIR:-$root/.tools}/bin"
mkdir -p "$bin"

declare -A MODULES=(
  [minio]="github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c"
  [toxiproxy-server]="github.com/Shopify/toxiproxy/v2/cmd/server@v2.12.0"
  [toxiproxy-cli]="github.com/Shopify/toxiproxy/v2/cmd/cli@v2.12.0"
)

# install NAME: builds NAME's module and stores its binary as .tools/bin/NAME.
install() {
  local name="$1" module="${MODULES[$1]:?unknown tool: $1 (minio, toxiproxy-server, toxiproxy-cli)}"
  if [ -x "$bin/$name" ]; then
    echo "$name: already in $bin"
    return
  fi
  if ! command -v go >/dev/null 2>&1; then
    echo "Go is needed to build $name: install Go (https://go.dev/dl), or set MINIO_BIN and" \
      "TOXIPROXY_BIN to binaries you have, or S3_ENDPOINT to a store (see README.md)." >&2
    exit 1
  fi
  echo "$name: building $module with Go; the first build downloads about 300 modules and takes a few minutes"
  local scratch log started last pid
  scratch="$(mktemp -d)"
  log="$scratch/go.log"
  started=$SECONDS
  last=$SECONDS
  GOBIN="$scratch" GOFLAGS="-trimpath" go install "$module" >"$log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    if (( SECONDS - last >= 10 )); then
      last=$SECONDS
      echo "$name: $((SECONDS - started)) s, $(grep -c '^go: downloading' "$log" || true) modules downloaded, compiling"
    fi
  done
  if ! wait "$pid"; then
    cat "$log" >&2
    echo "$name: the build failed (its output is above)" >&2
    exit 1
  fi
  mv "$scratch/$(basename "${module%@*}")" "$bin/$name"
  rm -rf "$scratch"
  echo "$name: built in $((SECONDS - started)) s"
}

if [ $# -eq 0 ]; then
  set -- minio toxiproxy-server toxiproxy-cli
fi
for tool in "$@"; do
  install "$tool"
done
