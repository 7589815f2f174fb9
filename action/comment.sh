#!/usr/bin/env bash
# Step 5 of the campusconf Action, on a pull request when the input comment
# is true: one sticky comment per artifact name, edited on each run rather
# than added again. It finds its earlier comment by the marker on the
# first line of comment.md (report.sh wrote it) and uses gh with the
# input github-token (the job needs pull-requests: write).
#
# Environment: CAMPUSCONF_REPORT_DIR, CAMPUSCONF_PR (the pull request's
# number), GITHUB_REPOSITORY, GH_TOKEN.
set -euo pipefail
body="$CAMPUSCONF_REPORT_DIR/comment.md"
if [ -z "${CAMPUSCONF_PR:-}" ] || [ ! -f "$body" ]; then
  echo "no pull request or no comment body: no comment"
  exit 0
fi
marker="$(head -n 1 "$body")"
id="$(gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$CAMPUSCONF_PR/comments" \
  --jq ".[] | select(.body | startswith($(printf '%s' "$marker" | jq -Rs .))) | .id" | head -n 1)"
if [ -n "$id" ]; then
  gh api --method PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" -F "body=@$body" > /dev/null
  echo "updated comment $id"
else
  gh api --method POST "repos/$GITHUB_REPOSITORY/issues/$CAMPUSCONF_PR/comments" -F "body=@$body" > /dev/null
  echo "added a comment"
fi
