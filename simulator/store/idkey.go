package store

// idKey is a run-time id in its 16 bytes. Run-time ids are drawn as UUIDs
// (gofakeit's UUID: 36 characters, lowercase hex in groups of 8-4-4-4-12),
// and a key holds no pointer, so the garbage collector does not scan a map
// or slice of keys however many it holds. An id parseID refuses (one from
// a state file, in another form) is kept as its string by whoever needs it.
type idKey [16]byte

// idLen is the length of a formatted id.
const idLen = 36

// isDash says whether a formatted id has a dash at i.
func isDash(i int) bool { return i == 8 || i == 13 || i == 18 || i == 23 }

const hexDigits = "0123456789abcdef"

// parseID returns the key of id, and false when id is not 36 characters
// of lowercase hex grouped 8-4-4-4-12: then no key formats back to id.
func parseID(id string) (idKey, bool) {
	var k idKey
	if len(id) != idLen {
		return k, false
	}
	for i, j := 0, 0; i < idLen; {
		if isDash(i) {
			if id[i] != '-' {
				return idKey{}, false
			}
			i++
			continue
		}
		hi, ok1 := unhex(id[i])
		lo, ok2 := unhex(id[i+1])
		if !ok1 || !ok2 {
			return idKey{}, false
		}
		k[j] = hi<<4 | lo
		i, j = i+2, j+1
	}
	return k, true
}

// unhex is the value of a lowercase hex digit.
func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// String formats k as the id it was parsed from.
func (k idKey) String() string {
	var b [idLen]byte
	j := 0
	for i := range k {
		if isDash(j) {
			b[j] = '-'
			j++
		}
		b[j], b[j+1] = hexDigits[k[i]>>4], hexDigits[k[i]&0x0f]
		j += 2
	}
	return string(b[:])
}
