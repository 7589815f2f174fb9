#!/usr/bin/env bash
# bench/loopback.sh: the simulator measured from outside the process, on
# loopback, against a bare net/http handler that answers the same bytes
# with the same headers (bench/bare). See BENCHMARKS.md for the figures
# of one run and how to read them.
#
# It installs nothing: it needs go, wrk, taskset, jq and curl on PATH.
# The servers run on CPU 0, wrk on CPU 1 (taskset), one wrk thread with
# CONNS connections. Each phase runs ROUNDS rounds; a round measures the
# simulator and the bare handler one after the other for DURATION each,
# the simulator first in odd rounds and second in even ones. A phase
# prints the median requests/s of each, the ratio of the medians, the
# median of the rounds' ratios (r_med: each round's two runs are seconds
# apart, so outside load moves them less) and each round's ratio, the
# median p50 and p99 latency (wrk --latency), the median CPU time each
# server spent per request (from /proc/PID/stat, so other load on the
# machine moves it far less than throughput) and the ratio bare/simulator
# of it, and the resident memory (VmRSS) of both servers after it.
#
#   bench/loopback.sh                       # 3 rounds of 5 s per phase
#   ROUNDS=5 DURATION=8s bench/loopback.sh
#   SCALE=1000 bench/loopback.sh            # the simulator's world at --scale 1000
#   AGAINST_TAGS=campusconf_nopagecache PHASES=E20,E10 FLOOD=0 PROXY=0 bench/loopback.sh
#
# AGAINST_TAGS puts, in the bare handler's place, the simulator built with
# those build tags (the hand-written machinery switched off: tags
# campusconf_nohandjson, campusconf_nopagecache),
# so that the ratios say what the machinery buys (BENCHMARKS.md, "What the
# hand-written machinery buys"). AGAINST_BIN does the same with a
# campusconf binary built elsewhere (an earlier commit, for instance).
# PHASES keeps only the phases named;
# FLOOD=0 leaves out the create flood.
#
# Phases: E20 (a 20-entry page of accessible students), E10 (a 20-entry
# page of the download log), E19 (one poll response, a single record
# read), E7 (create a default attendance), NR (update a notification's
# read status). Then a create flood: FLOOD (8s) of E7 against a fresh
# simulator, and its resident memory after it. Last, the proxy's phase
# (bench/proxy.sh: direct, a bare reverse-proxy hop and `campusconf
# proxy`, ROUNDS rounds of DURATION); PROXY=0 leaves it out.
set -euo pipefail

ROUNDS=${ROUNDS:-3}
FLOOD=${FLOOD:-8s}
DURATION=${DURATION:-5s}
CONNS=${CONNS:-8}
SCALE=${SCALE:-1}
SIM_PORT=${SIM_PORT:-18401}
BARE_PORT=${BARE_PORT:-18402}
SERVER_CPU=${SERVER_CPU:-0}
WRK_CPU=${WRK_CPU:-1}

for tool in go wrk taskset jq curl; do
	command -v "$tool" >/dev/null || { echo "loopback.sh: $tool is not on PATH; install it first" >&2; exit 2; }
done
cd "$(dirname "$0")/.."
. bench/lib.sh

go build -o "$work/campusconf" ./cmd/campusconf
go build -o "$work/bare" ./bench/bare
"$work/campusconf" fixtures --scale "$SCALE" >"$work/fx.json"
fx() { jq -r "$1" "$work/fx.json"; }
KEY=$(fx .subscriptionKey)
AUTH=$(fx .users.owner.headers.Authorization)
RESOURCE=$(fx .records.resource)
FOLDER=$(fx .records.folder)
POLL=$(fx .records.pollResponse)
NOTE=$(fx .records.notification.id)

# start_sim: serve the simulator on CPU 0 and wait for it (SIM_PID).
start_sim() {
	taskset -c "$SERVER_CPU" "$work/campusconf" serve --addr "127.0.0.1:$SIM_PORT" --log off --scale "$SCALE" >"$work/sim.log" 2>&1 &
	SIM_PID=$!
	pids+=("$SIM_PID")
	wait_up "http://127.0.0.1:$SIM_PORT/healthz" "$SIM_PID" "$work/sim.log"
}

# name, method, uri, body
phases=(
	"E20|GET|/resource/$RESOURCE/students?offset=0&limit=20|"
	"E10|GET|/files/$FOLDER/downloaded?offset=10&limit=20|"
	"E19|GET|/poll/Response/$POLL|"
	"E7|POST|/Attendance/Default|{\"resourceID\":\"$RESOURCE\"}"
	"NR|PUT|/notification/read|{\"id\":$NOTE,\"read\":11}"
)

start_sim

create=${phases[3]} # E7: the create flood's request, whatever PHASES keeps
if [ -n "${PHASES:-}" ]; then
	kept=()
	for ph in "${phases[@]}"; do
		[[ ",$PHASES," == *",${ph%%|*},"* ]] && kept+=("$ph")
	done
	[ ${#kept[@]} -gt 0 ] || { echo "loopback.sh: PHASES=$PHASES names none of the phases" >&2; exit 2; }
	phases=("${kept[@]}")
fi

if [ -n "${AGAINST_TAGS:-}" ] || [ -n "${AGAINST_BIN:-}" ]; then
	# the second server: the simulator without the machinery the tags
	# name, or the binary given
	if [ -n "${AGAINST_BIN:-}" ]; then
		cp "$AGAINST_BIN" "$work/against"
	else
		go build -tags "$AGAINST_TAGS" -o "$work/against" ./cmd/campusconf
	fi
	taskset -c "$SERVER_CPU" "$work/against" serve --addr "127.0.0.1:$BARE_PORT" --log off --scale "$SCALE" >"$work/bare.log" 2>&1 &
	BARE_PID=$!
	pids+=("$BARE_PID")
	wait_up "http://127.0.0.1:$BARE_PORT/healthz" "$BARE_PID" "$work/bare.log"
else
	routes=()
	for ph in "${phases[@]}"; do
		IFS='|' read -r _ method uri body <<<"$ph"
		routes+=(-route "$method $uri${body:+ $body}")
	done
	taskset -c "$SERVER_CPU" "$work/bare" -addr "127.0.0.1:$BARE_PORT" -from "http://127.0.0.1:$SIM_PORT" \
		-H "Ocp-Apim-Subscription-Key: $KEY" -H "Authorization: $AUTH" "${routes[@]}" >"$work/bare.log" 2>&1 &
	BARE_PID=$!
	pids+=("$BARE_PID")
	wait_up "http://127.0.0.1:$BARE_PORT/" "$BARE_PID" "$work/bare.log"
fi

# alive PID: the server still runs (a port taken by another process
# would otherwise measure that process).
alive() { kill -0 "$1" 2>/dev/null || { echo "loopback.sh: server $1 has stopped" >&2; exit 1; }; }
rss() { alive "$1"; awk '/^VmRSS/ {printf "%.1f MB", $2/1024}' "/proc/$1/status"; }
# to_us converts a wrk latency (612.00us, 2.10ms, 1.02s) to microseconds.
to_us() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) f = 1; else if (v ~ /ms$/) f = 1000; else if (v ~ /s$/) f = 1000000; else f = 1; printf "%.0f", n * f }'; }

# cputicks PID: the CPU time (user and system, in clock ticks) the process
# has used.
cputicks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# measure PORT METHOD URI BODY [PID]: one wrk run; prints "req/s p50us
# p99us cpu_us", cpu_us being the CPU time server PID spent per request
# (0 without PID). Throughput moves with whatever else the machine runs;
# the CPU time a request costs the server much less.
measure() {
	local port=$1 method=$2 uri=$3 body=$4 pid=${5:-} lua=$work/req.lua out t0=0 t1=0
	{
		echo "wrk.method = \"$method\""
		if [ -n "$body" ]; then
			printf 'wrk.body = %s\n' "$(jq -Rn --arg b "$body" '$b')"
			echo 'wrk.headers["Content-Type"] = "application/json"'
		fi
	} >"$lua"
	[ -n "$pid" ] && t0=$(cputicks "$pid")
	out=$(taskset -c "$WRK_CPU" wrk -t1 -c"$CONNS" -d"$DURATION" --latency -s "$lua" \
		-H "Ocp-Apim-Subscription-Key: $KEY" -H "Authorization: $AUTH" "http://127.0.0.1:$port$uri")
	if grep -q 'Non-2xx' <<<"$out"; then
		echo "loopback.sh: non-2xx answers from port $port $method $uri:" >&2
		echo "$out" >&2
		exit 1
	fi
	[ -n "$pid" ] && t1=$(cputicks "$pid")
	awk -v p50="$(to_us "$(awk '$1 == "50%" {print $2}' <<<"$out")")" \
		-v p99="$(to_us "$(awk '$1 == "99%" {print $2}' <<<"$out")")" \
		-v ticks=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" \
		'/ requests in / {n = $1} /^Requests\/sec:/ {rps = $2} END {printf "%.0f %s %s %.1f\n", rps, p50, p99, (n > 0 ? ticks / hz * 1e6 / n : 0)}' <<<"$out"
}

echo "# bench/loopback.sh: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) CPUs, $(go version | awk '{print $3}'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "# servers on CPU $SERVER_CPU, wrk on CPU $WRK_CPU; wrk -t1 -c$CONNS -d$DURATION; $ROUNDS rounds; simulator --scale $SCALE"
[ -n "${AGAINST_TAGS:-}" ] && echo "# bare: the simulator built with -tags $AGAINST_TAGS (ratio > 1: the machinery those tags switch off buys that much)"
[ -n "${AGAINST_BIN:-}" ] && echo "# bare: $AGAINST_BIN ($("$AGAINST_BIN" version 2>/dev/null | head -1))"
echo "# start: VmRSS simulator $(rss "$SIM_PID"), bare $(rss "$BARE_PID"); load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-4s %10s %10s %6s %6s %-30s %15s %15s %15s %9s %10s %10s %s\n' phase sim_rps bare_rps ratio r_med round_ratios p50_us_sim/bare p99_us_sim/bare cpu_us_sim/bare cpu_ratio rss_sim rss_bare load
for ph in "${phases[@]}"; do
	IFS='|' read -r name method uri body <<<"$ph"
	: >"$work/sim.txt"
	: >"$work/bare.txt"
	ratios=()
	for ((i = 1; i <= ROUNDS; i++)); do
		if ((i % 2)); then order=(sim bare); else order=(bare sim); fi
		for who in "${order[@]}"; do
			if [ "$who" = sim ]; then port=$SIM_PORT pid=$SIM_PID; else port=$BARE_PORT pid=$BARE_PID; fi
			measure "$port" "$method" "$uri" "$body" "$pid" >>"$work/$who.txt"
		done
		s=$(tail -1 "$work/sim.txt" | cut -d' ' -f1)
		b=$(tail -1 "$work/bare.txt" | cut -d' ' -f1)
		ratios+=("$(awk -v s="$s" -v b="$b" 'BEGIN {printf "%.2f", s / b}')")
	done
	srps=$(cut -d' ' -f1 "$work/sim.txt" | median)
	brps=$(cut -d' ' -f1 "$work/bare.txt" | median)
	scpu=$(cut -d' ' -f4 "$work/sim.txt" | median)
	bcpu=$(cut -d' ' -f4 "$work/bare.txt" | median)
	printf '%-4s %10.0f %10.0f %6.2f %6.2f %-30s %15s %15s %15s %9.2f %10s %10s %s\n' "$name" "$srps" "$brps" \
		"$(awk -v s="$srps" -v b="$brps" 'BEGIN {print s / b}')" "$(printf '%s\n' "${ratios[@]}" | median)" "$(
			IFS=,
			echo "${ratios[*]}"
		)" \
		"$(cut -d' ' -f2 "$work/sim.txt" | median)/$(cut -d' ' -f2 "$work/bare.txt" | median)" \
		"$(cut -d' ' -f3 "$work/sim.txt" | median)/$(cut -d' ' -f3 "$work/bare.txt" | median)" \
		"$scpu/$bcpu" "$(awk -v s="$scpu" -v b="$bcpu" 'BEGIN {print (s > 0 ? b / s : 0)}')" \
		"$(rss "$SIM_PID")" "$(rss "$BARE_PID")" "$(cut -d' ' -f1-3 /proc/loadavg)"
done

if [ "$FLOOD" = 0 ]; then
	exit 0
fi

# The create flood, against a simulator started for it: memory after
# FLOOD of creates at full speed.
kill "$SIM_PID"
wait "$SIM_PID" 2>/dev/null || true
start_sim
before=$(rss "$SIM_PID")
IFS='|' read -r _ method uri body <<<"$create"
DURATION=$FLOOD measure "$SIM_PORT" "$method" "$uri" "$body" >"$work/flood.txt"
echo "# create flood: E7 for $FLOOD at $(cut -d' ' -f1 "$work/flood.txt") requests/s; simulator VmRSS $before before, $(rss "$SIM_PID") after (VmHWM $(awk '/^VmHWM/ {printf "%.1f MB", $2/1024}' "/proc/$SIM_PID/status")); load $(cut -d' ' -f1-3 /proc/loadavg)"

# The proxy phase (issue 25): direct, a bare httputil hop and
# `campusconf proxy` in front of the simulator, on a 20-entry page, in the
# same run; PROXY=0 leaves it out. It stops its own servers.
if [ "${PROXY:-1}" != 0 ]; then
	kill "$SIM_PID" 2>/dev/null || true
	wait "$SIM_PID" 2>/dev/null || true
	echo "# proxy phase: bench/proxy.sh $ROUNDS ${DURATION%s}"
	bench/proxy.sh "$ROUNDS" "${DURATION%s}"
fi
