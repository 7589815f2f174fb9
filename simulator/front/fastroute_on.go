//go:build !campusconf_nofastroute

package front

// fastRouting says the Router finds the operations' routes itself
// (fastroute.go) before ServeMux. A build with -tags
// campusconf_nofastroute routes every request with ServeMux alone:
// bench/loopback.sh measures one against the other (AGAINST_TAGS,
// BENCHMARKS.md "What the hand-written machinery buys").
const fastRouting = true
