package redact

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRedactorString(t *testing.T) {
	red := With(map[string]string{
		"abc":           "<A>",
		"abcdef":        "<LONG>",
		"k+y/z":         "<KEY>",
		"cdefgh":        "<C>",
		"":              "<EMPTY>",
		"TOKEN":         "<TOKEN_owner>",
		"sk-0123456789": "<SUBSCRIPTION_KEY>",
	})
	tests := []struct{ in, want string }{
		{"", ""},
		{"nothing secret", "nothing secret"},
		{"abc", "<A>"},
		{"xabcdefx", "x<LONG>x"}, // the longest wins where both start
		{"abcabc", "<A><A>"},
		{"xabcdefghx", "x<LONG><C>x"}, // overlap: no byte of either survives
		{"key=k%2By%2Fz&x=k+y/z", "key=<KEY>&x=<KEY>"},
		{"path/k+y%2Fz", "path/<KEY>"},
		{"Bearer TOKEN and TOKEN", "Bearer <TOKEN_owner> and <TOKEN_owner>"},
		{`{"key":"sk-0123456789"}`, `{"key":"<SUBSCRIPTION_KEY>"}`},
		{"ünïcødé abc ✓", "ünïcødé <A> ✓"},
	}
	for _, tt := range tests {
		if got := red.String(tt.in); got != tt.want {
			t.Errorf("String(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
	// One pass: a placeholder that holds another secret is not scanned
	// again.
	red2 := With(map[string]string{"abc": "<TOKEN>", "TOKEN": "<T>"})
	if got, want := red2.String("abc TOKEN"), "<TOKEN> <T>"; got != want {
		t.Errorf("String: got %q, want %q", got, want)
	}
	var nilRed *Redactor
	if got := nilRed.String("abc"); got != "abc" {
		t.Errorf("nil Redactor String: got %q, want the input", got)
	}
}

func TestRedactorHeaders(t *testing.T) {
	red := With(map[string]string{
		"tok-owner": "<TOKEN_owner>",
		"sk-1":      "<SUBSCRIPTION_KEY>",
		"alice":     "<USER_alice>",
	})
	var nilRed *Redactor
	tests := []struct {
		name string
		red  *Redactor
		in   http.Header
		want map[string]string
	}{
		{"empty", red, nil, nil},
		{"known bearer token", red, http.Header{"Authorization": {"Bearer tok-owner"}}, map[string]string{"Authorization": "Bearer <TOKEN_owner>"}},
		{"unknown bearer token", red, http.Header{"Authorization": {"Bearer zzz"}}, map[string]string{"Authorization": "Bearer <REDACTED>"}},
		{"token without scheme", red, http.Header{"Authorization": {"zzz"}}, map[string]string{"Authorization": "<REDACTED>"}},
		{"token partly known", red, http.Header{"Authorization": {"Bearer tok-owner-extra"}}, map[string]string{"Authorization": "Bearer <REDACTED>"}},
		{"proxy authorization", red, http.Header{"Proxy-Authorization": {"Basic dXNlcjpwYXNz"}}, map[string]string{"Proxy-Authorization": "Basic <REDACTED>"}},
		{"known key", red, http.Header{"Ocp-Apim-Subscription-Key": {"sk-1"}}, map[string]string{"Ocp-Apim-Subscription-Key": "<SUBSCRIPTION_KEY>"}},
		{"unknown key", red, http.Header{"Ocp-Apim-Subscription-Key": {"other"}}, map[string]string{"Ocp-Apim-Subscription-Key": "<REDACTED>"}},
		{"non-canonical name", red, http.Header{"ocp-apim-subscription-key": {"other"}}, map[string]string{"Ocp-Apim-Subscription-Key": "<REDACTED>"}},
		{"cookie keeps names", red, http.Header{"Cookie": {"session=s3cr3t; theme=dark"}}, map[string]string{"Cookie": "session=<REDACTED>; theme=<REDACTED>"}},
		{"set-cookie keeps attributes", red, http.Header{"Set-Cookie": {"id=abc; Path=/; HttpOnly", "b=2"}}, map[string]string{"Set-Cookie": "id=<REDACTED>; Path=/; HttpOnly\nb=<REDACTED>"}},
		{"other headers: known secrets only", red, http.Header{"X-User": {"alice"}, "Accept": {"application/json", "text/plain"}}, map[string]string{"X-User": "<USER_alice>", "Accept": "application/json, text/plain"}},
		{"nil redactor still redacts credentials", nilRed, http.Header{"Authorization": {"Bearer tok-owner"}, "Ocp-Apim-Subscription-Key": {"sk-1"}, "Accept": {"*/*"}},
			map[string]string{"Authorization": "Bearer <REDACTED>", "Ocp-Apim-Subscription-Key": "<REDACTED>", "Accept": "*/*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.red.Headers(tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Headers(%v) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestRedactorEncodings: a secret echoed in any of its usual encodings is
// replaced by the secret's placeholder.
func TestRedactorEncodings(t *testing.T) {
	const key = "sk/a+b&<c>=\"d\""
	red := With(map[string]string{key: "<SUBSCRIPTION_KEY>", "Bearer t/k+n": "<AUTHORIZATION_owner>"})
	tests := []struct{ name, in string }{
		{"raw", key},
		{"query", "sk%2Fa%2Bb%26%3Cc%3E%3D%22d%22"},
		{"query, lower hex", "sk%2fa%2bb%26%3cc%3e%3d%22d%22"},
		{"path", "sk%2Fa+b&%3Cc%3E=%22d%22"},
		{"json", `sk/a+b\u0026\u003cc\u003e=\"d\"`},
		{"json, plain", `sk/a+b&<c>=\"d\"`},
		{"json, escaped slash", `sk\/a+b&<c>=\"d\"`},
		{"html", "sk/a+b&amp;&lt;c&gt;=&#34;d&#34;"},
		{"base64", "c2svYStiJjxjPj0iZCI="},
		{"base64 url", "c2svYStiJjxjPj0iZCI="},
		{"base64 raw", "c2svYStiJjxjPj0iZCI"},
		{"base64 of a header value", "QmVhcmVyIHQvaytu"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := red.String("echo [" + tt.in + "]")
			if strings.Contains(got, tt.in) || !strings.Contains(got, "<") {
				t.Errorf("String(echo [%s]): expected a placeholder, got %q", tt.in, got)
			}
		})
	}
}

// TestRedactorDecodedForms: a secret is found on the decoded form of the
// text, however a target echoes it: every character \u-escaped (valid
// JSON), in upper or lower case, URL-escaped in either case, as HTML
// character references, escapes nested in escapes, base64 of a header line
// holding it at any alignment, and cut short to any run of Window
// characters.
func TestRedactorDecodedForms(t *testing.T) {
	const key = "43cb54111e874a116b4008667caf0e40"
	const token = "owner-0da1f76d10728ec59396abb44df514fd"
	red := With(map[string]string{key: "<SUBSCRIPTION_KEY>", token: "<TOKEN_owner>", "Bearer " + token: "<AUTHORIZATION_owner>", "914273": "<OTP>"})
	uEscape := func(s string) string {
		var b strings.Builder
		for _, c := range s {
			fmt.Fprintf(&b, `\u%04x`, c)
		}
		return b.String()
	}
	pctEscape := func(s string) string {
		var b strings.Builder
		for _, c := range []byte(s) {
			fmt.Fprintf(&b, "%%%02x", c)
		}
		return b.String()
	}
	htmlRefs := func(s string) string {
		var b strings.Builder
		for _, c := range s {
			fmt.Fprintf(&b, "&#%d;", c)
		}
		return b.String()
	}
	b64 := base64.StdEncoding.EncodeToString
	tests := []struct{ name, in string }{
		{"\\u-escaped, valid JSON", `{"echo":"` + uEscape(key) + `"}`},
		{"upper case", "key " + strings.ToUpper(key)},
		{"mixed case token", "Bearer " + strings.ToUpper(token[:10]) + token[10:]},
		{"URL-escaped, lower hex", "?k=" + pctEscape(key)},
		{"URL-escaped, upper hex", "?k=" + strings.ToUpper(pctEscape(key))},
		{"HTML references", "<p>" + htmlRefs(key) + "</p>"},
		{"JSON of a URL escape", `"` + strings.ReplaceAll(pctEscape(key), "%", `\u0025`) + `"`},
		{"base64 of the header line", "h: " + b64([]byte("Ocp-Apim-Subscription-Key: "+key))},
		{"base64 of a header block, shifted", `"` + b64([]byte("xy\nAuthorization: Bearer "+token+"\n")) + `"`},
		{"base64 URL alphabet of JSON", base64.RawURLEncoding.EncodeToString([]byte(`{"k":"` + key + `"}`))},
		{"base64 of \\u-escapes", b64([]byte(uEscape(key)))},
		{"cut to 25 characters", `{"echo":"` + key[:25] + `…"}`},
		{"cut to 12 characters", "tail " + token[len(token)-12:]},
		{"cut and \\u-escaped", uEscape(key[3:17])},
		{"a short hex secret in upper case", "otp=914273"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := red.String(tt.in)
			if leak := leakedRun(got, []string{key, token, "914273"}); leak != "" {
				t.Errorf("String(%.60q…) = %.120q: a run of the secret survives, decoded: %q", tt.in, got, leak)
			}
			if !strings.Contains(got, "<") {
				t.Errorf("String(%.60q…) = %.120q: expected a placeholder", tt.in, got)
			}
		})
	}
	// what is no secret stays as it is, escapes and all
	for _, plain := range []string{`{"id":"7df59f42-570d-476d-84ce-6a384e847c9c","a":"\u00e9"}`, "%41%42 &amp; QUJDREVGR0hJSktMTU5PUA==", strings.Repeat("0", 40)} {
		if got := red.String(plain); got != plain {
			t.Errorf("String(%q): expected it unchanged, got %q", plain, got)
		}
	}
}

// leakedRun returns a run of Window characters of one of secrets (or a
// whole secret when shorter) that text holds in any case after decoding
// it the simple ways a reader would (JSON \u escapes, URL escapes, HTML
// references, base64 of a run), each applied alone; "" when none.
func leakedRun(text string, secrets []string) string {
	forms := []string{text, html.UnescapeString(text)}
	if s, err := url.PathUnescape(text); err == nil {
		forms = append(forms, s)
	}
	var js string
	if json.Unmarshal([]byte(`"`+strings.ReplaceAll(text, `"`, `\"`)+`"`), &js) == nil {
		forms = append(forms, js)
	}
	for _, f := range forms {
		for _, run := range regexp.MustCompile(`[A-Za-z0-9+/_-]{16,}`).FindAllString(f, -1) {
			for skip := range 4 {
				if len(run) <= skip {
					break
				}
				r := run[skip:]
				r = r[:len(r)/4*4]
				for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
					if b, err := enc.DecodeString(r); err == nil {
						forms = append(forms, string(b))
					}
				}
			}
		}
	}
	for _, f := range forms {
		lf := strings.ToLower(f)
		for _, s := range secrets {
			ls := strings.ToLower(s)
			for i := 0; i+min(Window, len(ls)) <= len(ls); i++ {
				if w := ls[i : i+min(Window, len(ls))]; strings.Contains(lf, w) {
					return w
				}
			}
		}
	}
	return ""
}

// TestRedactorPrefixCutsAfterRedacting: a body kept in part loses no
// secret through the cut, whatever the secret's encoding and wherever the
// cut falls through it.
func TestRedactorPrefixCutsAfterRedacting(t *testing.T) {
	const key = "43cb54111e874a116b4008667caf0e40"
	red := With(map[string]string{key: "<SUBSCRIPTION_KEY>"})
	var esc strings.Builder
	for _, c := range key {
		fmt.Fprintf(&esc, `\u%04x`, c)
	}
	for _, form := range []string{key, esc.String(), base64.StdEncoding.EncodeToString([]byte("key: " + key))} {
		body := strings.Repeat("x", 100) + form + strings.Repeat("y", 100)
		for n := 90; n < 100+len(form)+10; n++ {
			if got := red.Prefix([]byte(body), n); leakedRun(got, []string{key}) != "" || len(got) > n {
				t.Fatalf("Prefix(body with %.20q…, %d) = %q: a run of the key survives, or more than %d bytes", form, n, got, n)
			}
		}
	}
}
