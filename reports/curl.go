package reports

import (
	"net/http"
	"slices"
	"strings"
)

// curlSkipsHeaders are headers curl computes itself: copying a recorded
// value would break the reproduction (a stale Content-Length) or repeat
// what curl sends anyway.
var curlSkipsHeaders = map[string]bool{
	"Content-Length":    true,
	"Transfer-Encoding": true,
	"Connection":        true,
	"Accept-Encoding":   true,
}

// Curl returns one shell command line that repeats the request of ex with
// curl: method, URL, request headers sorted by name, and the request body
// as --data-raw. Every argument is single-quoted for POSIX shells. ex must
// already be redacted: Curl copies what it is given, so placeholders such
// as <TOKEN_owner> stay for the reader to fill in. A body cut at MaxBody
// gets a trailing shell comment saying the command is incomplete.
func Curl(ex Exchange) string {
	method := strings.ToUpper(strings.TrimSpace(ex.Method))
	if method == "" {
		method = http.MethodGet
	}
	var b strings.Builder
	b.WriteString("curl -sS -i")
	if method != http.MethodGet || ex.RequestBody != "" {
		b.WriteString(" -X ")
		b.WriteString(shellQuote(method))
	}
	b.WriteString(" ")
	b.WriteString(shellQuote(ex.URL))
	names := make([]string, 0, len(ex.RequestHeaders))
	for name := range ex.RequestHeaders {
		if !curlSkipsHeaders[http.CanonicalHeaderKey(name)] {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		b.WriteString(" -H ")
		b.WriteString(shellQuote(name + ": " + ex.RequestHeaders[name]))
	}
	if ex.RequestBody != "" {
		b.WriteString(" --data-raw ")
		b.WriteString(shellQuote(ex.RequestBody))
		if ex.Truncated && len(ex.RequestBody) > MaxBody-4 {
			b.WriteString(" # request body cut at MaxBody bytes: incomplete")
		}
	}
	return b.String()
}

// shellQuote quotes s for a POSIX shell: inside single quotes nothing is
// special except the single quote itself, which ends the quoting, is
// written backslash-escaped, and reopens it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@,+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
