#!/usr/bin/env bash
# Checks what the scripts promise a new user: the tools come from MINIO_BIN, TOXIPROXY_BIN or
# S3_ENDPOINT as given, with no Go needed; a bad one is named; and a tool being built says how far
# it is at least every 10 s; a release refuses a bad version, a dirty tree or a SNAPSHOT. Uses
# stand-ins for Go and the tools; takes about 45 s.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "check-scripts: $*" >&2
  exit 1
}
mkdir -p "$scratch/tools" "$scratch/empty" "$scratch/go"
printf '#!/bin/sh\nexit 0\n' >"$scratch/tools/minio"
printf '#!/bin/sh\nexit 0\n' >"$scratch/tools/toxiproxy-server"
chmod +x "$scratch/tools/minio" "$scratch/tools/toxiproxy-server"

echo "... MINIO_BIN and TOXIPROXY_BIN are used as given, with nothing on the PATH"
(
  PATH="$scratch/empty"
  MINIO_BIN="$scratch/tools/minio"
  TOXIPROXY_BIN="$scratch/tools/toxiproxy-server"
  unset S3_ENDPOINT
  source scripts/lib/tools.sh
  require_tools toxiproxy
  [ "$MINIO" = "$MINIO_BIN" ] && [ "$TOXIPROXY_SERVER" = "$TOXIPROXY_BIN" ]
) || fail "MINIO_BIN or TOXIPROXY_BIN was not used as given"

echo "... S3_ENDPOINT needs no MinIO"
(
  PATH="$scratch/empty"
  S3_ENDPOINT="http://127.0.0.1:9"
  unset MINIO_BIN
  source scripts/lib/tools.sh
  require_tools
  [ -z "$MINIO" ]
) || fail "S3_ENDPOINT still asked for MinIO"

echo "... a MINIO_BIN that is no executable is named"
message="$(
  PATH="$scratch/empty"
  MINIO_BIN="$scratch/no-such-minio"
  unset S3_ENDPOINT
  source scripts/lib/tools.sh
  require_tools 2>&1 || true
)"
[[ "$message" == *"$scratch/no-such-minio (from the environment) is not an executable file"* ]] ||
  fail "a bad MINIO_BIN was not named: $message"

echo "... a tool build says how far it is every 10 s"
cat >"$scratch/go/go" <<'GO'
#!/bin/sh
# A stand-in for `go install MODULE@VERSION`: slow and silent, then a binary.
sleep 21
touch "$GOBIN/minio"
chmod +x "$GOBIN/minio"
GO
chmod +x "$scratch/go/go"
progress="$(PATH="$scratch/go:$PATH" SEEKWELL_TOOLS_DIR="$scratch/built" ./scripts/install-test-tools.sh minio)"
echo "$progress" | sed 's/^/    /'
[ "$(echo "$progress" | grep -c '^minio: [0-9]* s, ')" -ge 2 ] ||
  fail "the build of minio did not say how far it was every 10 s"
[ -x "$scratch/built/bin/minio" ] || fail "the built minio is not in SEEKWELL_TOOLS_DIR"
echo "... a release refuses a bad version, a dirty tree and a SNAPSHOT"
git clone -q . "$scratch/repo"
(cd "$scratch/repo" && ./scripts/release.sh 0.1 2>"$scratch/release.err") && fail "release 0.1 ran"
grep -q "MAJOR.MINOR.PATCH" "$scratch/release.err" || fail "release 0.1 did not say what a version is"
touch "$scratch/repo/stray"
(cd "$scratch/repo" && ./scripts/release.sh 9.9.9 2>"$scratch/release.err") && fail "a dirty release ran"
grep -q "stray" "$scratch/release.err" || fail "a dirty release did not name the stray file"
rm "$scratch/repo/stray"
(
  cd "$scratch/repo"
  sed -i 's#<jmh.version>\([^<]*\)</jmh.version>#<jmh.version>\1-SNAPSHOT</jmh.version>#' pom.xml
  # Without the SNAPSHOT in place, the release below would run all the tests: stop first.
  grep -q '<jmh.version>[^<]*-SNAPSHOT</jmh.version>' pom.xml || exit 0
  git -c user.name=check -c user.email=check@localhost commit -q -am "a SNAPSHOT dependency"
  ./scripts/release.sh 9.9.9 >/dev/null 2>"$scratch/release.err"
) && fail "a release with a SNAPSHOT dependency ran, or jmh.version is no longer in pom.xml"
grep -q "jmh.*SNAPSHOT\|SNAPSHOT.*jmh\|refused" "$scratch/release.err" ||
  fail "a release with a SNAPSHOT dependency did not name it: $(tail -3 "$scratch/release.err")"
echo "check-scripts: all passed"
