package redact

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
)

// Redacted is the placeholder for a credential the Redactor was not told
// about (an always-redacted header carrying an unknown value).
const Redacted = "<REDACTED>"

// Redactor replaces known secret values by placeholders in everything the
// suite records: URLs, headers and bodies. It matches each secret on the
// decoded form of the text (see String), so a target that echoes one
// escaped, encoded or in another case is caught as well as one that echoes
// it as sent, and it hides every run of Window characters of a secret, so
// a part of one cut off by the target survives no better than the whole.
// A nil *Redactor still redacts the credential headers (see Headers) and
// leaves other text as it is.
type Redactor struct {
	secrets []secret // longest first
	places  map[string]bool
	// windows maps each run of Window bytes of a secret at least that
	// long, in lower case, to the secret's placeholder; filter has the bit
	// of each one's rolling hash set, so that most positions of a text
	// need no lookup.
	windows map[string]string
	filter  []uint64
	// longest is the length of the longest secret.
	longest int
	// spaced is true when a secret holds a space, which a query may
	// carry as "+".
	spaced bool
	// shortest is the length of the shortest text that can hold a secret
	// or a run of Window bytes of one: a shorter text is left alone.
	shortest int
}

// secret is one value to find. exact values are found as they are
// (encoded forms of a secret, which decoding would not restore), others on
// the decoded text, regardless of case where fold says so.
type secret struct {
	value, placeholder string
	exact, fold        bool
	// needle is value as find looks for it: in lower case where fold
	needle []byte
}

// Window is the length of the shortest run of a secret a Redactor hides
// on its own: every run of Window bytes of a secret is a secret.
const Window = 12

// With returns a Redactor for secrets, a map from secret value to
// its placeholder, such as "<SUBSCRIPTION_KEY>" or "<TOKEN_owner>". Empty
// values are ignored. Each value is also found in the encodings a target
// may echo it in or a report may write it in (Encodings, and any nesting
// of the escapes String decodes).
func With(secrets map[string]string) *Redactor {
	r := &Redactor{places: map[string]bool{}, windows: map[string]string{}}
	seen := map[string]bool{}
	add := func(v, p string, exact bool) {
		if v == "" || seen[v] {
			return
		}
		seen[v] = true
		sec := secret{value: v, placeholder: p, exact: exact, fold: !exact && foldable(v), needle: []byte(v)}
		if sec.fold {
			sec.needle = lowerASCII(sec.needle)
		}
		r.secrets = append(r.secrets, sec)
		if r.shortest == 0 || len(v) < r.shortest {
			r.shortest = min(len(v), Window)
		}
	}
	// Sorted, so that where two secrets share an encoding or a window the
	// same one wins in every run.
	values := slices.Sorted(maps.Keys(secrets))
	for _, v := range values {
		if v == "" {
			continue
		}
		p := secrets[v]
		r.places[p] = true
		add(v, p, false)
		r.longest = max(r.longest, len(v))
		r.spaced = r.spaced || strings.Contains(v, " ")
		lv := lowerASCII([]byte(v))
		for i := 0; i+Window <= len(lv); i++ {
			if _, ok := r.windows[string(lv[i:i+Window])]; !ok {
				r.windows[string(lv[i:i+Window])] = p
			}
			if r.filter == nil {
				r.filter = make([]uint64, filterBits/64)
			}
			h := windowHash(lv[i : i+Window])
			r.filter[h>>6%(filterBits/64)] |= 1 << (h & 63)
		}
	}
	// Encoded forms come second so that a value that is also another
	// secret's encoded form keeps its own placeholder. Decoding finds most
	// of them again; base64 of a secret shorter than a window it cannot.
	for _, v := range values {
		if v == "" {
			continue
		}
		for _, e := range Encodings(v) {
			add(e, secrets[v], true)
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

// Empty reports whether r knows no secret: String then changes nothing.
func (r *Redactor) Empty() bool { return r == nil || len(r.secrets) == 0 }

// foldable reports whether a secret is found regardless of case: one of
// at least Window bytes, or one of hex digits only (a key a target may
// echo upper-cased). A short word, such as a user name, keeps its case.
func foldable(v string) bool {
	if len(v) >= Window {
		return true
	}
	for i := 0; i < len(v); i++ {
		if !isHex(v[i]) {
			return false
		}
	}
	return true
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

// String returns s with every secret replaced by its placeholder. It
// finds them on the decoded form of s: JSON and Go string escapes (\uXXXX
// with surrogate pairs, \xHH, \n, \/ ...), URL escapes (%HH in either
// case), HTML character references, nested up to three deep, then base64
// (standard or URL alphabet, at any alignment) of what that leaves; and
// regardless of case for secrets foldable says so of. Every run of Window
// bytes of a secret counts as a secret, so a secret cut short is found as
// well. The placeholder replaces the whole encoded span of s. Where
// occurrences overlap, the longest starting first wins and the overlapping
// part of the other is dropped with it, so no byte of a secret survives;
// placeholders are never scanned again.
func (r *Redactor) String(s string) string {
	if r == nil || len(r.secrets) == 0 || len(s) < r.shortest {
		return s
	}
	end, ph := r.marks(s)
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

// marks finds the secrets in s: end[i] is the end (in s) of the longest
// occurrence starting at byte i, ph[i] its placeholder; both nil when s
// holds none.
func (r *Redactor) marks(s string) (end []int, ph []string) {
	mark := func(from, to int, p string) {
		if end == nil {
			end = make([]int, len(s))
			ph = make([]string, len(s))
		}
		if to > end[from] {
			end[from], ph[from] = to, p
		}
	}
	// the encoded forms, as they are
	for _, sec := range r.secrets {
		if !sec.exact || len(sec.value) > len(s) {
			continue
		}
		for from := 0; ; {
			k := strings.Index(s[from:], sec.value)
			if k < 0 {
				break
			}
			mark(from+k, from+k+len(sec.value), sec.placeholder)
			from += k + 1
		}
	}
	v := decoded(s)
	r.find(v, v.b, mark)
	if r.spaced && bytes.IndexByte(v.b, '+') >= 0 {
		// a query's "+" may stand for a space
		r.find(v, bytes.ReplaceAll(v.b, []byte("+"), []byte(" ")), mark)
	}
	// base64 of what decoding left: a run hiding a secret goes whole
	for _, run := range base64Runs(v.b) {
		if p, ok := r.inBase64(v.b[run[0]:run[1]]); ok {
			mark(v.from(run[0]), v.to(run[1]-1), p)
		}
	}
	return end, ph
}

// find marks the secrets found in text, the bytes of view v (or the same
// number of bytes derived from them one for one).
func (r *Redactor) find(v view, text []byte, mark func(from, to int, p string)) {
	lower := lowerASCII(text)
	for _, sec := range r.secrets {
		if sec.exact || len(sec.needle) > len(text) {
			continue
		}
		hay, needle := text, sec.needle
		if sec.fold {
			hay = lower
		}
		for from := 0; ; {
			k := bytes.Index(hay[from:], needle)
			if k < 0 {
				break
			}
			i := from + k
			mark(v.from(i), v.to(i+len(needle)-1), sec.placeholder)
			from = i + 1
		}
	}
	if len(r.windows) == 0 {
		return
	}
	if len(lower) < Window {
		return
	}
	h := windowHash(lower[:Window])
	for i := 0; ; i++ {
		if r.filter[h>>6%(filterBits/64)]&(1<<(h&63)) != 0 {
			if p, ok := r.windows[string(lower[i:i+Window])]; ok {
				mark(v.from(i), v.to(i+Window-1), p)
			}
		}
		if i+Window >= len(lower) {
			break
		}
		h = (h-uint64(lower[i])*hashTop)*hashBase + uint64(lower[i+Window])
	}
}

// The rolling hash of windows: a polynomial in hashBase, modulo 2^64, and
// the filter's size in bits.
const (
	hashBase   = 1000003
	filterBits = 1 << 20
)

// hashTop is hashBase to the power Window-1, the weight of a window's
// first byte.
var hashTop = func() uint64 {
	t := uint64(1)
	for range Window - 1 {
		t *= hashBase
	}
	return t
}()

// windowHash is the rolling hash of one window.
func windowHash(w []byte) uint64 {
	var h uint64
	for _, c := range w {
		h = h*hashBase + uint64(c)
	}
	return h
}

// inBase64 reports whether a run of base64 characters decodes, at one of
// its four alignments and in either alphabet, to text holding a secret,
// and the secret's placeholder.
func (r *Redactor) inBase64(run []byte) (string, bool) {
	out := make([]byte, base64.RawStdEncoding.DecodedLen(len(run)))
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		for skip := 0; skip < 4 && len(run)-skip >= 4; skip++ {
			body := run[skip:]
			body = body[:len(body)/4*4]
			n, err := enc.Decode(out, body)
			if err != nil && n == 0 || !printableRun(out[:n]) {
				continue // no text there to hold a secret
			}
			found := ""
			v := decoded(string(out[:n]))
			r.find(v, v.b, func(_, _ int, p string) {
				if found == "" {
					found = p
				}
			})
			if found != "" {
				return found, true
			}
			for _, sec := range r.secrets {
				if sec.exact && bytes.Contains(out[:n], []byte(sec.value)) {
					return sec.placeholder, true
				}
			}
		}
	}
	return "", false
}

// printableRun reports whether b holds a run of printable ASCII as long
// as the shortest secret a base64 run is searched for.
func printableRun(b []byte) bool {
	run := 0
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			run = 0
			continue
		}
		if run++; run >= minBase64Text {
			return true
		}
	}
	return false
}

// minBase64Text is the shortest decoded text worth searching: a secret
// shorter than a window is found by its own base64 forms (Encodings).
const minBase64Text = Window

// base64Runs returns the [start, end) of each run of base64 characters
// (either alphabet, with its padding) long enough to hide Window bytes.
func base64Runs(b []byte) [][2]int {
	var runs [][2]int
	for i := 0; i < len(b); {
		if !isBase64(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && isBase64(b[j]) {
			j++
		}
		k := j
		for k < len(b) && k-j < 2 && b[k] == '=' {
			k++
		}
		if j-i >= (Window+2)/3*4 {
			runs = append(runs, [2]int{i, k})
		}
		i = k
		if k == j {
			i = j
		}
	}
	return runs
}

func isBase64(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// lowerASCII returns a copy of b with ASCII letters in lower case, byte
// for byte.
func lowerASCII(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// Prefix returns the first n bytes of b, or a little less, redacted: where
// b is longer than n, the tail of the prefix that could hold the beginning
// of a secret cut by the end of the prefix, in its longest encoding, is
// dropped as well. It lets a caller keep the start of a large body without
// scanning all of it.
func (r *Redactor) Prefix(b []byte, n int) string {
	if len(b) <= n {
		return r.String(string(b))
	}
	out := r.String(string(b[:n]))
	longest := 0
	if r != nil {
		longest = maxEscape * r.longest
	}
	return out[:max(0, len(out)-longest)]
}

// maxEscape is the most bytes an escape String decodes takes per byte it
// stands for (\u00XX is six for one).
const maxEscape = 6

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
