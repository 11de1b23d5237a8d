#!/usr/bin/env bash
# Builds every module twice from the same sources, with the release profile (jars, sources, Javadoc,
# bills of materials, POMs), each build installing into its own empty local repository, and fails
# unless the two hold the same bytes. What differs is listed: for a jar, the entries whose CRC or
# time stamp differ.
# Usage: ./scripts/check-reproducible.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

build_into() {
  echo "Build $1 of 2 (release profile, no tests)..."
  # Dependencies come from the usual local repository; only what this build installs lands in $work.
  ./mvnw -B -ntp -q clean install -DskipTests -Prelease \
    -Dmaven.repo.local="$work/$1" -Dmaven.repo.local.tail="$HOME/.m2/repository" > "$work/$1.log" 2>&1 \
    || { tail -50 "$work/$1.log" >&2; exit 1; }
}

artefacts() {
  (cd "$work/$1" && find io/seekwell -type f ! -name 'maven-metadata*' ! -name '_remote.repositories' | sort)
}

build_into one
build_into two
if ! diff <(artefacts one) <(artefacts two) > "$work/names.diff"; then
  echo "The two builds installed different files:" >&2
  cat "$work/names.diff" >&2
  exit 1
fi
count=0
differing=0
while read -r file; do
  count=$((count + 1))
  if ! cmp -s "$work/one/$file" "$work/two/$file"; then
    differing=$((differing + 1))
    echo "Differs: $file" >&2
    if [[ "$file" == *.jar ]]; then
      diff <(unzip -Zv "$work/one/$file" | grep -E '^(Central directory entry|  file last modified|  32-bit CRC)' ) \
        <(unzip -Zv "$work/two/$file" | grep -E '^(Central directory entry|  file last modified|  32-bit CRC)') \
        | head -20 >&2 || true
    fi
  fi
done < <(artefacts one)
if [ "$differing" -gt 0 ]; then
  echo "$differing of $count artefacts differ between two builds of the same sources" >&2
  exit 1
fi
echo "Reproducible: $count artefacts byte-identical in two builds"
