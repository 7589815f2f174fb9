#!/usr/bin/env bash
# Step 3 of the campusconf Action: run the suite. With CAMPUSCONF_WAIT (a
# duration: 90, 90s, 2m, 1h) the run waits for the target to come up
# first: through campusconf run --wait where this build has the flag,
# else by asking the target until it answers anything over HTTP.
# Sets the output exit-code; exits with campusconf run's code.
#
# Environment: CAMPUSCONF_TARGET, CAMPUSCONF_FIXTURES, CAMPUSCONF_BASELINE,
# CAMPUSCONF_STRICT, CAMPUSCONF_REPORT_DIR, CAMPUSCONF_ARGS,
# CAMPUSCONF_WAIT, GITHUB_OUTPUT.
set -uo pipefail

finish() {
  echo "exit-code=$1" >> "$GITHUB_OUTPUT"
  exit "$1"
}

flags=(--target "$CAMPUSCONF_TARGET" --fixtures "$CAMPUSCONF_FIXTURES" --report-dir "$CAMPUSCONF_REPORT_DIR")
if [ -n "${CAMPUSCONF_BASELINE:-}" ]; then
  flags+=(--baseline "$CAMPUSCONF_BASELINE")
fi
case "${CAMPUSCONF_STRICT:-}" in
  true) flags+=(--strict) ;;
  false | "") ;;
  *)
    echo "::error::input strict: expected true or false, got '$CAMPUSCONF_STRICT'"
    finish 2
    ;;
esac

wait="${CAMPUSCONF_WAIT:-}"
if [ -n "$wait" ]; then
  if ! [[ "$wait" =~ ^([0-9]+)(s|m|h)?$ ]]; then
    echo "::error::input wait: expected a duration such as 90s, 2m or 1h, got '$wait'"
    finish 2
  fi
  n="${BASH_REMATCH[1]}"
  case "${BASH_REMATCH[2]}" in
    m) seconds=$((n * 60)) ;;
    h) seconds=$((n * 3600)) ;;
    *) seconds=$n ;;
  esac
  help="$(campusconf run --help 2>&1 || true)"
  if grep -qE '^ +-wait( |$)' <<< "$help"; then
    flags+=(--wait "${seconds}s")
  else
    # this build has no run --wait: wait here for any HTTP answer
    deadline=$((SECONDS + seconds))
    until curl -s -o /dev/null --max-time 5 "$CAMPUSCONF_TARGET"; do
      if [ "$SECONDS" -ge "$deadline" ]; then
        echo "target $CAMPUSCONF_TARGET did not answer within ${seconds}s (input wait)"
        break # campusconf run reports it unreachable, with its reason
      fi
      sleep 1
    done
  fi
fi

# shellcheck disable=SC2086 # extra flags are split on purpose
campusconf run "${flags[@]}" ${CAMPUSCONF_ARGS:-}
finish $?
