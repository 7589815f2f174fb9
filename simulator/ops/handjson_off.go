//go:build campusconf_nohandjson

package ops

// handJSON is off in this build: the poll response and the attendance
// record too are encoded with encoding/json (handjson_on.go).
const handJSON = false
