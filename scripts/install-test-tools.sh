#!/usr/bin/env bash
# Builds the test tools (MinIO, Toxiproxy) at pinned versions into the git-ignored tool cache
# .tools/bin with `go install`. Does nothing for a tool that is already there.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${SEEKWELL_TOOLS_DIR:-$root/.tools}/bin"
mkdir -p "$bin"

# install NAME MODULE@VERSION: builds MODULE and stores its binary as .tools/bin/NAME.
install() {
  local name="$1" module="$2"
  if [ -x "$bin/$name" ]; then
    echo "$name: already in $bin"
    return
  fi
  if ! command -v go >/dev/null 2>&1; then
    echo "Go is needed to build $name (or set MINIO_BIN or S3_ENDPOINT, see README.md)." >&2
    exit 1
  fi
  echo "$name: building $module (the first build takes a few minutes)"
  local scratch
  scratch="$(mktemp -d)"
  GOBIN="$scratch" GOFLAGS="-trimpath" go install "$module"
  mv "$scratch/$(basename "${module%@*}")" "$bin/$name"
  rm -rf "$scratch"
}

install minio "github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c"
install toxiproxy-server "github.com/Shopify/toxiproxy/v2/cmd/server@v2.12.0"
install toxiproxy-cli "github.com/Shopify/toxiproxy/v2/cmd/cli@v2.12.0"
