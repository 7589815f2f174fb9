package reports

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The escapes of text a writer did not write itself: what a target
// answered, what a fixture, a flag or a report file read back says. Every
// Markdown writer (summary.md, the diff, the traffic report's summary.md)
// and every console line goes through these, so that no such text can
// add an element to a page (a table cell, a link, an image, a heading,
// raw HTML) or a line to a terminal. TestMarkdownOutputsInjectNothing
// renders each Markdown output with a GFM renderer and holds this.

// SafeText makes text from a target safe for a terminal, a CI log or a
// Markdown page: invalid UTF-8 becomes U+FFFD and every control character
// but newline and tab (NUL, ESC, a carriage return that would overwrite
// the line, DEL, the C1 codes, bidirectional overrides, line and paragraph
// separators) is written as a Go escape such as \x1b, so that no byte from
// the target can move the cursor, change colours or hide text.
func SafeText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexFunc(s, isUnsafeControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !isUnsafeControl(r):
			b.WriteRune(r)
		case r < utf8.RuneSelf:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func isUnsafeControl(r rune) bool {
	return r != '\n' && r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.In(r, unicode.Bidi_Control))
}

// LineText is SafeText on one line: a newline or a tab is written as \n
// or \t too, so a value printed on a line of its own cannot start another
// (a project name with a newline in it cannot print a fake line of
// `campusconf report verify`).
func LineText(s string) string {
	s = SafeText(s)
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	return strings.NewReplacer("\n", `\n`, "\t", `\t`).Replace(s)
}

// markdownText makes s safe as inline Markdown text, in a table cell or
// anywhere else: one line (runs of white space, newlines included, become
// one space), control characters visible (SafeText), the HTML-special
// characters as entities (GitHub renders raw HTML in comments), and every
// character that starts Markdown (emphasis, code, links and images, a
// table cell's end, strikethrough, a heading, math) backslash-escaped, as
// are the starts of what GFM turns into a link by itself ("://", "www.",
// an address's "@", which GitHub also reads as a mention).
func markdownText(s string) string {
	s = SafeText(oneLine(s))
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '`', '*', '_', '[', ']', '#', '~', '|', '$', '@', '!':
			b.WriteByte('\\')
			b.WriteByte(c)
		case ':':
			if strings.HasPrefix(s[i:], "://") {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		case '.':
			if i >= 3 && strings.EqualFold(s[i-3:i], "www") {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// markdownAny is markdownText of a value of any type (a typed string, a
// number), for the templates.
func markdownAny(v any) string { return markdownText(fmt.Sprint(v)) }

// markdownCode writes s as one line of inline code outside a table: the
// code span's fence is one backtick longer than the longest run of
// backticks in s, so s shows as it is (control characters visible), and
// nothing in a code span is read as Markdown or HTML.
func markdownCode(s string) string { return codeSpan(SafeText(oneLine(s))) }

// markdownCellCode is markdownCode for a table cell: GFM splits a row at
// every pipe not escaped, inside code spans too, so each pipe is escaped
// (the table drops the backslash again before it reads the span).
func markdownCellCode(s string) string {
	return codeSpan(strings.ReplaceAll(SafeText(oneLine(s)), "|", `\|`))
}

// codeSpan fences s (one line) as a code span.
func codeSpan(s string) string {
	if s == "" {
		return "` `"
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' {
		// a space each side, which the span drops, keeps a backtick at an
		// end from joining the fence, and spaces at both ends from being
		// dropped
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
