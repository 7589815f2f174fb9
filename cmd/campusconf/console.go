package main

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// consoleText makes text from a target safe for a terminal: invalid UTF-8
// becomes U+FFFD and every control character (ESC, NUL, a carriage return
// that would overwrite the line, C1 codes) is written as a Go escape such
// as \x1b, so that nothing the target sends can move the cursor, change
// colours or hide a line. Newlines and tabs stay.
func consoleText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexFunc(s, isUnsafeControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if !isUnsafeControl(r) {
			b.WriteRune(r)
			continue
		}
		if r < utf8.RuneSelf {
			fmt.Fprintf(&b, `\x%02x`, r)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func isUnsafeControl(r rune) bool {
	return r != '\n' && r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.In(r, unicode.Bidi_Control))
}
