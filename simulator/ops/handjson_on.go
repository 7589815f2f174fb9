//go:build !campusconf_nohandjson

package ops

// handJSON says the poll response and the attendance record are encoded
// by hand (encoders.go). A build with -tags campusconf_nohandjson encodes
// them with encoding/json instead: bench/loopback.sh measures one against
// the other (AGAINST_TAGS, BENCHMARKS.md "What the hand-written machinery
// buys").
const handJSON = true
