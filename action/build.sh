#!/usr/bin/env bash
# Step 2 of the campusconf Action, when no release binary was installed:
# build campusconf from the action's own checkout (the Go build cache is
# kept between runs by actions/setup-go), stamped with the ref it was used
# at and its commit, and put it on the PATH.
#
# Environment: CAMPUSCONF_INSTALLED (download.sh's output), CAMPUSCONF_REF,
# CAMPUSCONF_BIN, GITHUB_PATH; run in the action's directory.
set -euo pipefail
if [ "${CAMPUSCONF_INSTALLED:-}" = true ]; then
  exit 0
fi
# the action's checkout may be a source archive without .git: stamp the
# ref it was used at, and its commit where it can be known
commit="$(git rev-parse HEAD 2>/dev/null || true)"
if [ -z "$commit" ] && [[ "${CAMPUSCONF_REF:-}" =~ ^[0-9a-f]{40}$ ]]; then
  commit="$CAMPUSCONF_REF"
fi
pkg=github.com/campusconf/campusconf/internal/version
mkdir -p "$CAMPUSCONF_BIN"
go build -buildvcs=false \
  -ldflags "-X $pkg.version=${CAMPUSCONF_REF:-devel} -X $pkg.commit=${commit:-not recorded}" \
  -o "$CAMPUSCONF_BIN/campusconf" ./cmd/campusconf
echo "$CAMPUSCONF_BIN" >> "$GITHUB_PATH"
"$CAMPUSCONF_BIN/campusconf" version
