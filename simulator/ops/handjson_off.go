//go:build campusconf_nohandjson

package ops

// handJSON is off in this build: the poll response too is encoded with
// encoding/json (handjson_on.go).
const handJSON = false
