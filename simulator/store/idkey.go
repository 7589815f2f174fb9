package store

import (
	"encoding/hex"

	"github.com/campusconf/campusconf/internal/uuid"
)

// idKey is a run-time id in its 16 bytes. Run-time ids are drawn as UUIDs
// (gofakeit's UUID: lowercase, in the form internal/uuid reads), and a key
// holds no pointer, so the garbage collector does not scan a map or slice
// of keys however many it holds. An id parseID refuses (one from a state
// file, in another form) is kept as its string by whoever needs it.
type idKey [16]byte

// groups are the hex groups of a formatted id, as [start, end) offsets.
var groups = [5][2]int{{0, 8}, {9, 13}, {14, 18}, {19, 23}, {24, 36}}

// parseID returns the key of id, and false unless id is a uuid in lower
// case: then no key formats back to id.
func parseID(id string) (idKey, bool) {
	var k idKey
	if canon, err := uuid.Parse(id); err != nil || canon != id {
		return k, false
	}
	j := 0
	for _, g := range groups {
		n, err := hex.Decode(k[j:], []byte(id[g[0]:g[1]]))
		if err != nil {
			return idKey{}, false // unreachable after uuid.Parse
		}
		j += n
	}
	return k, true
}

// String formats k as the id it was parsed from.
func (k idKey) String() string {
	var b [36]byte
	j := 0
	for _, g := range groups {
		n := (g[1] - g[0]) / 2
		hex.Encode(b[g[0]:g[1]], k[j:j+n])
		j += n
		if g[1] < len(b) {
			b[g[1]] = '-'
		}
	}
	return string(b[:])
}
