package reports

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"html"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Redacted is the placeholder for a credential the Redactor was not told
// about (an always-redacted header carrying an unknown value).
const Redacted = "<REDACTED>"

// Redactor replaces known secret values by placeholders in everything the
// suite records: URLs, headers and bodies. A nil *Redactor still redacts
// the credential headers (see Headers) and leaves other text as it is.
type Redactor struct {
	secrets []secret // longest first
	places  map[string]bool
}

type secret struct{ value, placeholder string }

// NewRedactor returns a Redactor for secrets, a map from secret value to
// its placeholder, such as "<SUBSCRIPTION_KEY>" or "<TOKEN_owner>". Empty
// values are ignored. Each value is also redacted in the encodings a target
// may echo it back in or a report may write it in (see Encodings).
func NewRedactor(secrets map[string]string) *Redactor {
	r := &Redactor{places: map[string]bool{}}
	seen := map[string]bool{}
	add := func(v, p string) {
		if v == "" || seen[v] {
			return
		}
		seen[v] = true
		r.secrets = append(r.secrets, secret{v, p})
	}
	// Sorted, so that where two secrets share an encoding the same one
	// wins in every run.
	values := slices.Sorted(maps.Keys(secrets))
	for _, v := range values {
		if v == "" {
			continue
		}
		r.places[secrets[v]] = true
		add(v, secrets[v])
	}
	// Encoded forms come second so that a value that is also another
	// secret's encoded form keeps its own placeholder.
	for _, v := range values {
		if v == "" {
			continue
		}
		for _, e := range Encodings(v) {
			add(e, secrets[v])
		}
	}
	slices.SortFunc(r.secrets, func(a, b secret) int {
		if c := cmp.Compare(len(b.value), len(a.value)); c != 0 {
			return c
		}
		return strings.Compare(a.value, b.value)
	})
	return r
}

// Encodings returns the forms other than v itself in which v may travel or
// be echoed: URL query and path escaping (upper and lower case hex), JSON
// string escaping (with and without the \u escapes of <, > and &, and with
// "/" as "\/"), HTML escaping, Go quoting, and base64 in the standard and
// URL alphabets, padded and not. A target that echoes a credential in one
// of these forms must not get it into a report.
func Encodings(v string) []string {
	var out []string
	add := func(e string) {
		if e != v && e != "" && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	for _, e := range []string{url.QueryEscape(v), url.PathEscape(v)} {
		add(e)
		add(percentHex.ReplaceAllStringFunc(e, strings.ToLower))
	}
	if b, err := json.Marshal(v); err == nil {
		add(string(b[1 : len(b)-1]))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) == nil {
		plain := strings.TrimSuffix(buf.String(), "\n")
		plain = plain[1 : len(plain)-1]
		add(plain)
		add(strings.ReplaceAll(plain, "/", `\/`))
	}
	add(html.EscapeString(v))
	if q := strconv.Quote(v); len(q) >= 2 {
		add(q[1 : len(q)-1])
	}
	for _, e := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		add(e.EncodeToString([]byte(v)))
	}
	return out
}

var percentHex = regexp.MustCompile(`%[0-9A-F]{2}`)

// String returns s with every occurrence of every secret replaced by its
// placeholder. Where occurrences overlap, the longest secret starting first
// wins and the overlapping part of the other is dropped with it, so no byte
// of a secret survives; placeholders are never scanned again.
func (r *Redactor) String(s string) string {
	if r == nil || len(r.secrets) == 0 || s == "" {
		return s
	}
	// end[i] is the end of the longest match starting at i; ph[i] its
	// placeholder. Secrets are sorted longest first, so the first match
	// found at i is the longest.
	var end []int
	var ph []string
	for _, sec := range r.secrets {
		from := 0
		for {
			k := strings.Index(s[from:], sec.value)
			if k < 0 {
				break
			}
			i := from + k
			if end == nil {
				end = make([]int, len(s))
				ph = make([]string, len(s))
			}
			if e := i + len(sec.value); e > end[i] {
				end[i], ph[i] = e, sec.placeholder
			}
			from = i + 1
		}
	}
	if end == nil {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if end[i] == 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		stop, last := end[i], ph[i]
		b.WriteString(last)
		for j := i + 1; j < stop; j++ {
			if end[j] > stop {
				stop = end[j]
				if ph[j] != last {
					last = ph[j]
					b.WriteString(last)
				}
			}
		}
		i = stop
	}
	return b.String()
}

// Prefix returns the first n bytes of b, or a little less, redacted: where
// b is longer than n, the tail of the prefix that could hold the beginning
// of a secret cut by the end of the prefix is dropped as well. It lets a
// caller keep the start of a large body without scanning all of it.
func (r *Redactor) Prefix(b []byte, n int) string {
	if len(b) <= n {
		return r.String(string(b))
	}
	out := r.String(string(b[:n]))
	longest := 0
	if r != nil && len(r.secrets) > 0 {
		longest = len(r.secrets[0].value) // sorted longest first
	}
	return out[:max(0, len(out)-longest)]
}

// alwaysRedacted are headers whose values are credentials whatever their
// value: they are redacted even when the Redactor does not know the value.
var alwaysRedacted = map[string]bool{
	"Authorization":             true,
	"Proxy-Authorization":       true,
	"Ocp-Apim-Subscription-Key": true,
	"Cookie":                    true,
	"Set-Cookie":                true,
}

// Headers returns h as a map from canonical header name to value, values of
// one name joined by ", ", every known secret replaced by its placeholder.
// Authorization, Proxy-Authorization, Ocp-Apim-Subscription-Key, Cookie and
// Set-Cookie are always redacted, even when their value is not a known
// secret: the authorization scheme word ("Bearer ") and cookie names and
// attributes stay, the credentials become a placeholder. It returns nil for
// an empty h.
func (r *Redactor) Headers(h http.Header) map[string]string {
	if len(h) == 0 {
		return nil
	}
	out := make(map[string]string, len(h))
	for name, values := range h {
		name = r.String(http.CanonicalHeaderKey(name))
		red := make([]string, len(values))
		for i, v := range values {
			red[i] = r.headerValue(name, v)
		}
		sep := ", "
		if name == "Set-Cookie" {
			sep = "\n" // cookies are not comma-joinable
		}
		if prev, ok := out[name]; ok {
			red = append([]string{prev}, red...)
		}
		out[name] = strings.Join(red, sep)
	}
	return out
}

// ResponseHeaders is Headers for what a target sent, bounded: at most
// maxNames header names (in name order) and MaxHeaderBytes of values, each
// value cut at MaxHeaderValue bytes after redaction. It also returns the
// number of header fields dropped or cut.
func (r *Redactor) ResponseHeaders(h http.Header, maxNames int) (map[string]string, int) {
	all := r.Headers(h)
	names := slices.Sorted(maps.Keys(all))
	dropped, total := 0, 0
	for i, name := range names {
		v := all[name]
		cut := len(v) > MaxHeaderValue
		if cut {
			v = truncateString(v, MaxHeaderValue) + "…"
		}
		if i >= maxNames || total+len(v) > MaxHeaderBytes {
			delete(all, name)
			dropped++
			continue
		}
		if cut {
			dropped++
		}
		total += len(v)
		all[name] = v
	}
	return all, dropped
}

func (r *Redactor) headerValue(name, v string) string {
	if !alwaysRedacted[name] {
		return r.String(v)
	}
	switch name {
	case "Authorization", "Proxy-Authorization":
		scheme, cred, ok := strings.Cut(strings.TrimSpace(v), " ")
		if !ok {
			return r.credential(scheme)
		}
		return scheme + " " + r.credential(strings.TrimSpace(cred))
	case "Cookie":
		pairs := strings.Split(v, ";")
		for i, p := range pairs {
			pairs[i] = r.cookiePair(p)
		}
		return strings.Join(pairs, ";")
	case "Set-Cookie":
		first, attrs, ok := strings.Cut(v, ";")
		if ok {
			return r.cookiePair(first) + ";" + r.String(attrs)
		}
		return r.cookiePair(first)
	}
	return r.credential(v)
}

// credential returns the placeholder of a credential the Redactor knows,
// Redacted otherwise, never the credential.
func (r *Redactor) credential(v string) string {
	if v == "" {
		return ""
	}
	red := r.String(v)
	if r != nil && r.places[red] {
		return red
	}
	return Redacted
}

func (r *Redactor) cookiePair(p string) string {
	name, val, ok := strings.Cut(p, "=")
	if !ok {
		return r.credential(strings.TrimSpace(p))
	}
	return r.String(name) + "=" + r.credential(val)
}

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
