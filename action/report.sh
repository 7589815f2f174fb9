#!/usr/bin/env bash
# Step 4 of the campusconf Action, whatever the run's outcome: the diff
# against a base report when one is given (its exit code is the output
# diff-exit-code, and the step's), then campusconf report github: the
# outputs verdict, failed-must and report-dir, an annotation per failed
# requirement, the job summary (the diff, else summary.md) and, when a
# comment is asked for, its body in the report directory (comment.md).
#
# Environment: CAMPUSCONF_REPORT_DIR, CAMPUSCONF_BASE_REPORT,
# CAMPUSCONF_COMMENT, CAMPUSCONF_ARTIFACT, GITHUB_OUTPUT,
# GITHUB_STEP_SUMMARY.
set -uo pipefail
dir="$CAMPUSCONF_REPORT_DIR"
if ! command -v campusconf >/dev/null 2>&1; then
  # the install steps failed: their log says why
  echo "campusconf was not installed: see the log of the steps before." >> "$GITHUB_STEP_SUMMARY"
  printf 'verdict=no report\nfailed-must=0\nfailed-must-ids=\nreport-dir=%s\n' "$dir" >> "$GITHUB_OUTPUT"
  exit 0
fi
base="${CAMPUSCONF_BASE_REPORT:-}"
rm -f "$dir/diff.md" "$dir/comment.md" # of an earlier job on this workspace
code=0
args=(--report-dir "$dir")
if [ -n "$base" ] && [ ! -e "$base" ]; then
  echo "::warning::base-report $base does not exist (a first run has nothing to compare with): the job summary shows this run's summary instead"
  base=""
fi
if [ -n "$base" ] && [ -f "$dir/report.json" ]; then
  campusconf diff "$base" "$dir/report.json" > "$dir/diff.md"
  code=$?
  echo "diff-exit-code=$code" >> "$GITHUB_OUTPUT"
  args+=(--diff "$dir/diff.md")
fi
if [ "${CAMPUSCONF_COMMENT:-false}" = true ] && [ -d "$dir" ]; then
  args+=(--comment "$dir/comment.md" --marker "<!-- campusconf:${CAMPUSCONF_ARTIFACT:-conformance-report} -->")
fi
campusconf report github "${args[@]}" || exit $?
exit $code
