package reports

import "unicode/utf8"

// TruncateBody returns b as a string of at most MaxBody bytes, cut on a
// UTF-8 character boundary, and whether it cut anything.
func TruncateBody(b []byte) (string, bool) {
	return TruncateBodyAt(b, MaxBody)
}

// TruncateBodyAt is TruncateBody with a limit of max bytes.
func TruncateBodyAt(b []byte, MaxBody int) (string, bool) {
	if len(b) <= MaxBody {
		return string(b), false
	}
	// Back up over at most three continuation bytes to the start of the
	// character that straddles the limit. Where that finds no start the
	// body is not UTF-8, and the cut stays at the limit.
	cut := MaxBody
	for i := 1; i < utf8.UTFMax && !utf8.RuneStart(b[cut]); i++ {
		cut--
	}
	if !utf8.RuneStart(b[cut]) {
		cut = MaxBody
	}
	return string(b[:cut]), true
}
