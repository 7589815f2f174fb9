package redact

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// view is a text with its escapes decoded, each byte knowing the span of
// the original text it came from, so that a secret found in the view is
// replaced where it stands in the original.
type view struct {
	b []byte
	// start and end are the original span of b[i]; nil when b is the
	// original itself
	start, end []int
}

// from is the start in the original of b[i].
func (v view) from(i int) int {
	if v.start == nil {
		return i
	}
	return v.start[i]
}

// to is the end in the original of b[i].
func (v view) to(i int) int {
	if v.end == nil {
		return i + 1
	}
	return v.end[i]
}

// maxUnescape bounds how deep decoded undoes escapes of escapes (a JSON
// string holding a URL-escaped value, an HTML page quoting JSON).
const maxUnescape = 3

// decoded returns s with its escapes decoded (see unescapeOnce), again and
// again while that changes something, at most maxUnescape times.
func decoded(s string) view {
	v := view{b: []byte(s)}
	if !strings.ContainsAny(s, `\%&`) || !hasEscape(v.b) {
		return v // no escape: the text is its own view
	}
	for range maxUnescape {
		next, changed := unescapeOnce(v)
		if !changed {
			break
		}
		v = next
		if !hasEscape(v.b) {
			break
		}
	}
	return v
}

// hasEscape reports whether an escape unescapeOnce decodes starts in b: a
// query's "&" or a lone "%" is no escape, and a text without one needs no
// decoded copy.
func hasEscape(b []byte) bool {
	for i := 0; i < len(b); i++ {
		k := bytes.IndexAny(b[i:], `\%&`)
		if k < 0 {
			return false
		}
		i += k
		if _, n := unescapeAt(b, i); n > 0 {
			return true
		}
	}
	return false
}

// unescapeOnce decodes one layer of escapes of v: JSON and Go string
// escapes (\uXXXX, a surrogate pair of them, \xHH, \n, \t, \r, \b, \f, \/,
// \\, \", \'), URL escapes (%HH, either case) and HTML character
// references (&#NN;, &#xHH;, &amp; &lt; &gt; &quot; &apos;). Text that is
// no complete escape stays as it is.
func unescapeOnce(v view) (view, bool) {
	in := v.b
	out := view{b: make([]byte, 0, len(in)), start: make([]int, 0, len(in)), end: make([]int, 0, len(in))}
	changed := false
	// copy copies in[from:to] as it is
	copyRun := func(from, to int) {
		out.b = append(out.b, in[from:to]...)
		for j := from; j < to; j++ {
			out.start = append(out.start, v.from(j))
			out.end = append(out.end, v.to(j))
		}
	}
	for i := 0; i < len(in); {
		k := bytes.IndexAny(in[i:], `\%&`)
		if k < 0 {
			copyRun(i, len(in))
			break
		}
		copyRun(i, i+k)
		i += k
		bs, n := unescapeAt(in, i)
		if n == 0 {
			copyRun(i, i+1)
			i++
			continue
		}
		changed = true
		for _, c := range bs {
			out.b = append(out.b, c)
			out.start = append(out.start, v.from(i))
			out.end = append(out.end, v.to(i+n-1))
		}
		i += n
	}
	return out, changed
}

// unescapeAt decodes the escape at in[i:], returning its bytes and its
// length in in, or n 0 when none starts there.
func unescapeAt(in []byte, i int) ([]byte, int) {
	switch in[i] {
	case '%':
		if i+2 < len(in) && isHex(in[i+1]) && isHex(in[i+2]) {
			return []byte{unhex(in[i+1])<<4 | unhex(in[i+2])}, 3
		}
	case '\\':
		if i+1 >= len(in) {
			return nil, 0
		}
		switch c := in[i+1]; c {
		case 'u':
			r, ok := hexRune(in, i+2, 4)
			if !ok {
				return nil, 0
			}
			if utf16.IsSurrogate(r) {
				if i+11 < len(in) && in[i+6] == '\\' && in[i+7] == 'u' {
					if lo, ok := hexRune(in, i+8, 4); ok {
						if pair := utf16.DecodeRune(r, lo); pair != utf8.RuneError {
							return utf8.AppendRune(nil, pair), 12
						}
					}
				}
				return nil, 0
			}
			return utf8.AppendRune(nil, r), 6
		case 'x':
			r, ok := hexRune(in, i+2, 2)
			if !ok {
				return nil, 0
			}
			return []byte{byte(r)}, 4
		case 'n':
			return []byte{'\n'}, 2
		case 't':
			return []byte{'\t'}, 2
		case 'r':
			return []byte{'\r'}, 2
		case 'b':
			return []byte{'\b'}, 2
		case 'f':
			return []byte{'\f'}, 2
		case '/', '\\', '"', '\'':
			return []byte{c}, 2
		}
	case '&':
		return htmlReference(in, i)
	}
	return nil, 0
}

// htmlReference decodes the HTML character reference at in[i:].
func htmlReference(in []byte, i int) ([]byte, int) {
	semi := -1
	for j := i + 1; j < len(in) && j < i+12; j++ {
		if in[j] == ';' {
			semi = j
			break
		}
	}
	if semi < 0 {
		return nil, 0
	}
	name := string(in[i+1 : semi])
	n := semi + 1 - i
	switch name {
	case "amp":
		return []byte{'&'}, n
	case "lt":
		return []byte{'<'}, n
	case "gt":
		return []byte{'>'}, n
	case "quot":
		return []byte{'"'}, n
	case "apos":
		return []byte{'\''}, n
	}
	if len(name) < 2 || name[0] != '#' {
		return nil, 0
	}
	var code uint64
	var err error
	if name[1] == 'x' || name[1] == 'X' {
		code, err = strconv.ParseUint(name[2:], 16, 32)
	} else {
		code, err = strconv.ParseUint(name[1:], 10, 32)
	}
	if err != nil || code > utf8.MaxRune {
		return nil, 0
	}
	return utf8.AppendRune(nil, rune(code)), n
}

// hexRune reads n hex digits at in[i:].
func hexRune(in []byte, i, n int) (rune, bool) {
	if i+n > len(in) {
		return 0, false
	}
	var r rune
	for _, c := range in[i : i+n] {
		if !isHex(c) {
			return 0, false
		}
		r = r<<4 | rune(unhex(c))
	}
	return r, true
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
