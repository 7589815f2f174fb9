#!/usr/bin/env bash
# Step 1 of the campusconf Action: when the action is used at a release tag
# (uses: campusconf/campusconf@v1.2.3), download that release's archive for
# this runner, check it against the release's checksums.txt and put the
# binary on the PATH. Sets the output installed=true when it did; anything
# else (a branch, a commit, a tag without a release, no network) leaves
# installed=false and the next steps build from the action's source.
#
# Environment: CAMPUSCONF_REF (github.action_ref), CAMPUSCONF_BIN (where the
# binary goes), RUNNER_OS, RUNNER_ARCH, GITHUB_OUTPUT, GITHUB_PATH;
# CAMPUSCONF_RELEASES_URL overrides where releases are downloaded from (a
# mirror, or a test's server).
set -euo pipefail

installed() {
  echo "installed=$1" >> "$GITHUB_OUTPUT"
  exit 0
}

ref="${CAMPUSCONF_REF:-}"
if ! [[ "$ref" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "ref '${ref}' is not a release tag: building from source"
  installed false
fi
case "${RUNNER_OS:-Linux}" in
  Linux) os=linux ;;
  macOS) os=darwin ;;
  Windows) os=windows ;;
  *) echo "::warning::runner OS ${RUNNER_OS} has no release archive: building from source"; installed false ;;
esac
case "${RUNNER_ARCH:-X64}" in
  X64) arch=amd64 ;;
  ARM64) arch=arm64 ;;
  *) echo "::warning::runner architecture ${RUNNER_ARCH} has no release archive: building from source"; installed false ;;
esac
ext=tar.gz
[ "$os" = windows ] && ext=zip
archive="campusconf_${ref#v}_${os}_${arch}.${ext}"
base="${CAMPUSCONF_RELEASES_URL:-https://github.com/campusconf/campusconf/releases/download}/${ref}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fetch() { curl -fsSL --retry 3 --max-time 120 -o "$work/$1" "$base/$1"; }
if ! fetch "$archive" || ! fetch checksums.txt; then
  echo "::warning::could not download $archive of release $ref from $base: building from source"
  installed false
fi
want="$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$work/checksums.txt")"
if command -v sha256sum >/dev/null 2>&1; then
  got="$(sha256sum "$work/$archive" | awk '{print $1}')"
else
  got="$(shasum -a 256 "$work/$archive" | awk '{print $1}')"
fi
if [ -z "$want" ] || [ "$want" != "$got" ]; then
  # a wrong checksum is no reason to build instead: it may be tampering
  echo "::error::$archive: checksum $got, checksums.txt of $ref says '${want}'"
  exit 1
fi
mkdir -p "$CAMPUSCONF_BIN"
tar -xf "$work/$archive" -C "$CAMPUSCONF_BIN"
echo "$CAMPUSCONF_BIN" >> "$GITHUB_PATH"
"$CAMPUSCONF_BIN/campusconf" version
installed true
