#!/usr/bin/env bash
# bench/suite-latency.sh: the suite's wall time against a distant target,
# beside the bound its schedule gives. For each latency L it serves the
# simulator with `campusconf serve --latency L` (every operation answers
# L late, as a target L away would), runs the suite against it once
# (`campusconf run --target`, default concurrency) and prints:
#
#   wall_ms   the wall time of `campusconf run`, start to exit
#   suite_ms  the run's own duration (report.json durationMs: the checks
#             before the suite and the scenarios)
#   preflight the requests the checks before the suite make one after
#             another
#   chain     the requests along the longest chain of the schedule, as the
#             run made them (bench/suitebound reads its report.json)
#   bound_ms  (preflight + chain) x L: the least time the run can take
#   ratio     wall_ms / bound_ms
#   requests  every request of the scenarios, and the run's exit code
#
# The reachability probe and the reset are not delayed by --latency (they
# are no operations): a real target L away adds about 2 L to wall_ms.
#
#   bench/suite-latency.sh                     # latencies 0 20 50 100 ms
#   LATENCIES="50 100" bench/suite-latency.sh
#   CAMPUSCONF=/path/to/campusconf bench/suite-latency.sh   # another build
#                                              # (the bound is this tree's)
#   RUN_ARGS="--concurrency 8" bench/suite-latency.sh       # flags for run
set -euo pipefail

LATENCIES=${LATENCIES:-0 20 50 100}
PORT=${PORT:-18431}
for tool in go curl jq; do
	command -v "$tool" >/dev/null || { echo "suite-latency.sh: $tool is not on PATH" >&2; exit 2; }
done
cd "$(dirname "$0")/.."
. bench/lib.sh
bin=${CAMPUSCONF:-}
if [ -z "$bin" ]; then
	go build -o "$work/campusconf" ./cmd/campusconf
	bin=$work/campusconf
fi
go build -o "$work/suitebound" ./bench/suitebound
"$bin" fixtures >"$work/fx.json"
ms() { echo $((($(date +%s%N) - $1) / 1000000)); }
echo "# bench/suite-latency.sh: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) CPUs, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %8s %8s %9s %6s %9s %6s %8s %4s  %s\n' latency_ms wall_ms suite_ms preflight chain bound_ms ratio requests exit load
for lat in $LATENCIES; do
	"$bin" serve --addr "127.0.0.1:$PORT" --log off --latency "${lat}ms" >"$work/serve.log" 2>&1 &
	pid=$!
	pids+=("$pid")
	wait_up "http://127.0.0.1:$PORT/healthz" "$pid" "$work/serve.log"
	rm -rf "$work/report"
	start=$(date +%s%N)
	rc=0
	"$bin" run --target "http://127.0.0.1:$PORT" --fixtures "$work/fx.json" --report-dir "$work/report" --quiet ${RUN_ARGS:-} >"$work/run.log" 2>&1 || rc=$?
	wall=$(ms "$start")
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	if [ ! -f "$work/report/report.json" ]; then
		echo "suite-latency.sh: the run at ${lat} ms wrote no report (exit $rc):" >&2
		cat "$work/run.log" >&2
		exit 1
	fi
	suite=$(jq '.durationMs | floor' "$work/report/report.json")
	read -r _ pre _ chain _ reqs < <("$work/suitebound" -fixtures "$work/fx.json" -report "$work/report/report.json")
	bound=$(((pre + chain) * lat))
	ratio=-
	[ "$bound" -gt 0 ] && ratio=$(awk -v w="$wall" -v b="$bound" 'BEGIN { printf "%.2f", w / b }')
	printf '%-10s %8s %8s %9s %6s %9s %6s %8s %4s  %s\n' "$lat" "$wall" "$suite" "$pre" "$chain" "$bound" "$ratio" "$reqs" "$rc" "$load"
done
