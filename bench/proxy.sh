#!/usr/bin/env bash
# bench/proxy.sh: throughput and added latency of `campusconf proxy`, with
# wrk on loopback, in one run: the simulator served directly, through a
# bare httputil.ReverseProxy hop (bench/barehop/main.go, no checks), and
# through the proxy. The page is a 20-entry list (E10, limit=20) in front
# of `campusconf serve`.
#
#   bench/proxy.sh [ROUNDS] [SECONDS]     (defaults 3 rounds of 10 s)
#
# The server and the hop (bare or proxy) are pinned to CPU 0, wrk to CPU 1
# (taskset). Each round measures, for each of direct, bare and proxy,
# throughput (wrk -t1 -c32) and latency on one connection (wrk -t1 -c1
# --latency, the median); the figures printed are the medians over the
# rounds. Everything listens on 127.0.0.1 and stops when the script ends.
# Without wrk the script says so and exits 0 (nothing measured).
set -euo pipefail

rounds=${1:-3}
secs=${2:-10}
cd "$(dirname "$0")/.."

if ! command -v wrk >/dev/null; then
	echo "bench/proxy.sh: wrk is not installed (apt-get install wrk): nothing measured"
	exit 0
fi
pin0=() pin1=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
	pin0=(taskset -c 0) pin1=(taskset -c 1)
else
	echo "bench/proxy.sh: taskset or a second core missing: processes not pinned"
fi

. bench/lib.sh
tmp=$work

go build -o "$tmp/campusconf" ./cmd/campusconf
go build -o "$tmp/barehop" bench/barehop/main.go

sim=127.0.0.1:18180 bare=127.0.0.1:18182 prox=127.0.0.1:18181
"$tmp/campusconf" fixtures >"$tmp/sim.json"
"${pin0[@]}" "$tmp/campusconf" serve --addr "$sim" --log off >"$tmp/serve.log" 2>&1 &
pids+=($!)
wait_up "http://$sim/" $! "$tmp/serve.log"
"${pin0[@]}" "$tmp/barehop" -addr "$bare" -target "http://$sim" >"$tmp/bare.log" 2>&1 &
barepid=$!
pids+=($barepid)
"${pin0[@]}" "$tmp/campusconf" proxy --target "http://$sim" --fixtures "$tmp/sim.json" --addr "$prox" \
	--quiet --report-dir "$tmp/report" >"$tmp/proxy.log" 2>&1 &
proxypid=$!
pids+=($proxypid)
wait_up "http://$bare/" "$barepid" "$tmp/bare.log"
wait_up "http://$prox/" "$proxypid" "$tmp/proxy.log"

key=$(jq -r .subscriptionKey "$tmp/sim.json")
auth=$(jq -r .users.owner.headers.Authorization "$tmp/sim.json")
folder=$(jq -r .records.folder "$tmp/sim.json")
path="/files/$folder/downloaded?limit=20"
n=$(curl -s "http://$sim$path" -H "Ocp-Apim-Subscription-Key: $key" -H "Authorization: $auth" | jq length)
echo "page: GET $path ($n entries); $rounds round(s) of ${secs}s; load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# wrk's "Requests/sec" and its 50% latency in ms
rps() { "${pin1[@]}" wrk -t1 -c32 -d"${secs}s" -H "Ocp-Apim-Subscription-Key: $key" -H "Authorization: $auth" "http://$1$path" | awk '/Requests\/sec/ {print $2}'; }
p50() {
	"${pin1[@]}" wrk -t1 -c1 -d"${secs}s" --latency -H "Ocp-Apim-Subscription-Key: $key" -H "Authorization: $auth" "http://$1$path" |
		awk '$1 == "50%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; print v }'
}

declare -A R L
for r in $(seq "$rounds"); do
	for name in direct bare proxy; do
		case $name in direct) a=$sim ;; bare) a=$bare ;; proxy) a=$prox ;; esac
		R[$name]+="$(rps "$a") "
		L[$name]+="$(p50 "$a") "
	done
	echo "round $r: rps direct ${R[direct]##* }" >/dev/null
done

printf '%-7s %12s %14s   %s\n' "" "requests/s" "p50 1 conn ms" "(rounds: requests/s | p50 ms)"
for name in direct bare proxy; do
	printf '%-7s %12s %14s   %s| %s\n' "$name" "$(tr ' ' '\n' <<<"${R[$name]}" | grep . | median)" \
		"$(tr ' ' '\n' <<<"${L[$name]}" | grep . | median)" "${R[$name]}" "${L[$name]}"
done
bare_rps=$(tr ' ' '\n' <<<"${R[bare]}" | grep . | median)
proxy_rps=$(tr ' ' '\n' <<<"${R[proxy]}" | grep . | median)
bare_p50=$(tr ' ' '\n' <<<"${L[bare]}" | grep . | median)
direct_p50=$(tr ' ' '\n' <<<"${L[direct]}" | grep . | median)
proxy_p50=$(tr ' ' '\n' <<<"${L[proxy]}" | grep . | median)
awk -v b="$bare_rps" -v p="$proxy_rps" -v d="$direct_p50" -v bp="$bare_p50" -v pp="$proxy_p50" 'BEGIN {
	printf "proxy/bare throughput: %.2fx; added at the median on one connection: %.3f ms over direct, %.3f ms over the bare hop\n", p / b, pp - d, pp - bp }'
kill -INT "$proxypid"
wait "$proxypid" 2>/dev/null || true
grep -h "stopped by\|unchecked" "$tmp/proxy.log" || true
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
