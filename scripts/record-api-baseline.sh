#!/usr/bin/env bash
# Records the public API of a release as the baseline the build compares later versions with
# (api-baseline/, the japicmp check in pom.xml): each library and connector jar of the last build,
# without the relocated copies of dependencies, as api-baseline/ARTIFACT-VERSION.jar, and VERSION as
# api.baseline.version in pom.xml: after a release's build, in the commit that starts the next
# version (scripts/release.sh says when). The list below is every published library and connector.
# Usage: ./scripts/record-api-baseline.sh VERSION   (the jars must be built: ./mvnw package)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
version="${1:?usage: $0 VERSION}"
modules=(common object-client input-stream parquet-logical-io orc-logical-io
  connectors/parquet connectors/iceberg connectors/hadoop)

jars=()
for module in "${modules[@]}"; do
  artifact="$(sed -n 's#^  <artifactId>\(.*\)</artifactId>#\1#p' "$module/pom.xml" | head -1)"
  jar="$(ls "$module"/target/"$artifact"-*.jar 2>/dev/null \
    | grep -v -e '-sources\.jar$' -e '-javadoc\.jar$' -e '-tests\.jar$' | head -1 || true)"
  if [ -z "$jar" ]; then
    echo "No jar of $artifact in $module/target: build first (./mvnw package)" >&2
    exit 1
  fi
  jars+=("$artifact=$jar")
done

rm -f api-baseline/*.jar
mkdir -p api-baseline
for entry in "${jars[@]}"; do
  baseline="api-baseline/${entry%%=*}-$version.jar"
  cp "${entry#*=}" "$baseline"
  chmod 644 "$baseline"
  if unzip -Z1 "$baseline" | grep '^io/seekwell/shaded/' > /dev/null; then
    zip -q -d "$baseline" 'io/seekwell/shaded/*'
  fi
  echo "$baseline ($(wc -c < "$baseline") bytes)"
done
sed -i "s#<api.baseline.version>.*</api.baseline.version>#<api.baseline.version>$version</api.baseline.version>#" pom.xml
