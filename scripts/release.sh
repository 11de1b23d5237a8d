#!/usr/bin/env bash
# Makes release VERSION of Seekwell, ready to upload to a public Maven repository:
#  1. refuses a VERSION that is not MAJOR.MINOR.PATCH, a JDK other than 17 (two builds give the
#     same bytes only with the same JDK: the jars name it), or a tree with uncommitted changes;
#  2. sets VERSION in every POM (and the jars' time stamp to now, UTC), and refuses the release if
#     any module still depends on, or builds with, a SNAPSHOT (the release profile's enforcer rule
#     then checks transitive dependencies too);
#  3. runs the project's full test command (scripts/test.sh) with the release profile, which also
#     checks the public API against api-baseline/ and builds the Javadoc without a warning;
#  4. builds again without tests (the build is reproducible: the bytes are those just tested) and
#     stages every published module into target/staging, a repository directory: for each, the
#     POM, the jar, its -sources and -javadoc jars and its CycloneDX bill of materials, each with
#     checksums; then checks that each has what a public repository requires.
# The version change is left in the tree to be committed and tagged. The steps after it are printed
# last: among them, recording the release's public API as the baseline of the next version (in the
# commit that starts it, so that a build from the tag is the build that was staged).
# Usage: ./scripts/release.sh VERSION
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"

version="${1:-}"
if [[ ! "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "Usage: $0 VERSION, VERSION as MAJOR.MINOR.PATCH (for example 0.1.0); got '$version'" >&2
  exit 2
fi
java_version="$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
if [ "$java_version" != 17 ]; then
  echo "Releases are built with JDK 17, so that anyone can rebuild the same bytes; java is $java_version" >&2
  exit 1
fi
if [ -n "$(git status --porcelain)" ]; then
  echo "The tree has uncommitted changes; a release is built from a commit:" >&2
  git status --short >&2
  exit 1
fi

echo "Setting version $version..."
./mvnw -B -ntp -q versions:set -DnewVersion="$version" -DgenerateBackupPoms=false \
  -DprocessAllModules=true
timestamp="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
# The two Spark modules are not children of the parent POM: they name the bundles' version.
while read -r pom; do
  sed -i -e "s#<seekwell.version>[^<]*</seekwell.version>#<seekwell.version>$version</seekwell.version>#" \
    -e "s#<project.build.outputTimestamp>[^<]*</project.build.outputTimestamp>#<project.build.outputTimestamp>$timestamp</project.build.outputTimestamp>#" \
    -e "s#<tag>HEAD</tag>#<tag>v$version</tag>#" \
    "$pom"
done < <(git ls-files '*pom.xml')

effective="$(mktemp)"
trap 'rm -f "$effective"' EXIT
./mvnw -B -ntp -q help:effective-pom -Prelease -Doutput="$effective"
if grep -n -- '-SNAPSHOT' "$effective" >&2; then
  echo "Release $version refused: the lines above name a SNAPSHOT (a dependency, a plug-in or a" \
    "module's version). The POMs now carry $version: 'git checkout -- .' undoes it." >&2
  exit 1
fi

echo "Running the full test command with the release profile..."
./scripts/test.sh -Prelease

echo "Staging into target/staging..."
staging="$root/target/staging"
./mvnw -B -ntp -q clean deploy -DskipTests -Prelease -DdeployAtEnd=true \
  -DaltDeploymentRepository="staging::file://$staging"

# What a public repository requires of each published module: the artefacts and POM elements.
missing=0
while read -r pom; do
  dir="$(dirname "$pom")"
  base="${pom%.pom}"
  for element in '<name>' '<description>' '<url>' '<licenses>' '<developers>' '<scm[ >]'; do
    if ! grep -q "$element" "$pom" && ! grep -q "$element" "$staging"/io/seekwell/seekwell-parent/"$version"/*.pom; then
      echo "$pom: no $element" >&2
      missing=$((missing + 1))
    fi
  done
  if grep -q '<packaging>pom</packaging>' "$pom"; then
    continue
  fi
  for artefact in "$base.jar" "$base-sources.jar" "$base-javadoc.jar" "$base-cyclonedx.json"; do
    if [ ! -f "$artefact" ] || [ ! -f "$artefact.sha1" ]; then
      echo "$dir: no $(basename "$artefact") (with its checksum)" >&2
      missing=$((missing + 1))
    fi
  done
done < <(find "$staging" -name "*-$version.pom" | sort)
if [ "$missing" -gt 0 ]; then
  echo "Release $version: $missing things missing in target/staging (above)" >&2
  exit 1
fi

modules="$(find "$staging" -name "*-$version.pom" | wc -l)"
echo
echo "Release $version staged: $modules modules in target/staging."
echo "Next:"
echo "  git add -A && git commit -m 'Release $version' && git tag -a v$version -m 'Seekwell $version'"
echo "  sign (gpg --detach-sign --armor) every file in target/staging and upload it to the repository"
echo "  then start the next version in one commit: ./scripts/record-api-baseline.sh $version (from the"
echo "  jars just built), ./mvnw versions:set -DnewVersion=NEXT-SNAPSHOT -DgenerateBackupPoms=false" \
  "-DprocessAllModules=true, seekwell.version in the two Spark modules, <tag>HEAD</tag> in pom.xml"
