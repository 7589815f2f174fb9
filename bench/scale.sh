#!/usr/bin/env bash
# bench/scale.sh: how the cost of one conformance suite run grows with the
# simulator's world. For each --scale K it serves the simulator (pinned to
# CPU 0 when taskset is present), runs the suite once against it
# (campusconf run --target), and prints the start-up time to the first
# answer, the suite's wall time and the simulator's resident memory
# (VmRSS, and its peak VmHWM) right after the run, and VmRSS again after
# IDLE seconds without requests (default 10: at a large scale the server
# lets idle lists go after 2 s, or 10 times what generating one took;
# see simulator/world/seedlists.go). See BENCHMARKS.md.
#
#   bench/scale.sh                 # scales 1 100 1000 5000
#   SCALES="1 1000" bench/scale.sh
set -euo pipefail

SCALES=${SCALES:-1 100 1000 5000}
IDLE=${IDLE:-10}
PORT=${PORT:-18411}
for tool in go curl; do
	command -v "$tool" >/dev/null || { echo "scale.sh: $tool is not on PATH" >&2; exit 2; }
done
pin=()
command -v taskset >/dev/null && pin=(taskset -c "${SERVER_CPU:-0}")
cd "$(dirname "$0")/.."
work=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/campusconf" ./cmd/campusconf
ms() { echo $((($(date +%s%N) - $1) / 1000000)); }
echo "# bench/scale.sh: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) CPUs, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %10s %10s %8s %10s %10s %12s %s\n' scale start_ms suite_ms exit rss_MB hwm_MB rss_idle_MB load
for k in $SCALES; do
	"$work/campusconf" fixtures --scale "$k" >"$work/fx.json"
	start=$(date +%s%N)
	"${pin[@]}" "$work/campusconf" serve --addr "127.0.0.1:$PORT" --log off --scale "$k" >"$work/serve.log" 2>&1 &
	pid=$!
	until curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz"; do
		kill -0 "$pid" 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
		sleep 0.005
	done
	up=$(ms "$start")
	start=$(date +%s%N)
	rc=0
	(cd "$work" && "$work/campusconf" run --target "http://127.0.0.1:$PORT" --fixtures "$work/fx.json" >"$work/run.log" 2>&1) || rc=$?
	took=$(ms "$start")
	read -r rss hwm < <(awk '/^VmRSS/ {r = $2} /^VmHWM/ {h = $2} END {printf "%.1f %.1f\n", r / 1024, h / 1024}' "/proc/$pid/status")
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	sleep "$IDLE"
	idle=$(awk '/^VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
	printf '%-6s %10s %10s %8s %10s %10s %12s %s\n' "$k" "$up" "$took" "$rc" "$rss" "$hwm" "$idle" "$load"
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
done
