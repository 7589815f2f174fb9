# bench/lib.sh: what the loopback benchmark scripts share; sourced by
# bench/loopback.sh and bench/proxy.sh, never run.
#
# It makes a temporary folder, $work, and a list of background processes,
# pids: both go when the script ends, however it ends.

work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

# wait_up URL PID LOG: wait until URL answers (any HTTP status), for at
# most 10 s; when process PID stops first, or the time is up, print its
# LOG and stop the script.
wait_up() {
	for _ in $(seq 200); do
		curl -s -o /dev/null "$1" && return 0
		kill -0 "$2" 2>/dev/null || break
		sleep 0.05
	done
	echo "$(basename "$0"): $1 did not come up" >&2
	cat "$3" >&2
	exit 1
}

# median: the median of the numbers on standard input, one a line.
median() { sort -g | awk '{a[NR] = $1} END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
