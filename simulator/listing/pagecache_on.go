//go:build !campusconf_nopagecache

package listing

// pageCaching says List.Encoded keeps the pages it encodes (encoded.go).
// A build with -tags campusconf_nopagecache encodes every page on every
// request: bench/loopback.sh measures one against the other
// (AGAINST_TAGS, BENCHMARKS.md "What the hand-written machinery buys").
const pageCaching = true
