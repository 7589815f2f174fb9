package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/reports/redact"
)

// echoForms are the forms in which a hostile target echoes what it got:
// each turns a text (a header value, the URL, the body) into its echo.
var echoForms = map[string]func(string) string{
	"raw": func(s string) string { return s },
	"\\u-escaped": func(s string) string {
		var b strings.Builder
		for _, c := range s {
			fmt.Fprintf(&b, `\u%04x`, c)
		}
		return b.String()
	},
	"upper case": strings.ToUpper,
	"URL-escaped": func(s string) string {
		var b strings.Builder
		for _, c := range []byte(s) {
			fmt.Fprintf(&b, "%%%02x", c)
		}
		return b.String()
	},
	"HTML references": func(s string) string {
		var b strings.Builder
		for _, c := range s {
			fmt.Fprintf(&b, "&#x%x;", c)
		}
		return b.String()
	},
	"base64 of the header line": func(s string) string { return base64.StdEncoding.EncodeToString([]byte("echo: " + s)) },
	"cut to 25 bytes": func(s string) string {
		if len(s) > 25 {
			return s[:25]
		}
		return s
	},
}

// echoIn returns a target that answers every request 403 with a JSON
// string holding, in form, every request header value, the URL and the
// body, and echoes each header value in response headers, in form.
// Because the JSON is built by hand around \u escapes, the body stays
// valid JSON whatever form does.
func echoIn(form func(string) string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		names := make([]string, 0, len(r.Header))
		for name := range r.Header {
			names = append(names, name)
		}
		sort.Strings(names)
		var parts []string
		for _, name := range names {
			v := r.Header.Get(name)
			parts = append(parts, name+": "+form(v))
			w.Header().Set("X-Echo-"+name, strings.Map(func(c rune) rune {
				if c < 0x20 || c > 0x7e {
					return '?'
				}
				return c
			}, form(v)))
		}
		parts = append(parts, form(r.URL.String()), form(string(body)))
		msg := strings.Join(parts, " | ")
		quoted, _ := json.Marshal("forbidden: " + msg)
		if strings.Contains(msg, `\u`) {
			// keep the target's own \u escapes as it wrote them
			quoted = []byte(`"forbidden: ` + strings.NewReplacer(`"`, `\"`, "\n", `\n`).Replace(msg) + `"`)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write(quoted)
	}
}

// leaks returns, for each output of a run, a run of redact.Window
// characters of a secret (the whole secret when shorter) found in it once
// decoded the ways a reader could (JSON \u escapes, URL escapes, HTML and
// XML references, base64 of a run, each and then each of those again),
// in any case; an empty map when there is none. It is written apart from
// the redactor, so a redactor that misses a form cannot hide it here.
func leaks(outputs map[string]string, secrets []string) map[string]string {
	uEsc := regexp.MustCompile(`\\u([0-9a-fA-F]{4})`)
	pct := regexp.MustCompile(`%([0-9a-fA-F]{2})`)
	b64 := regexp.MustCompile(`[A-Za-z0-9+/_-]{16,}`)
	once := func(s string) []string {
		out := []string{html.UnescapeString(s)}
		out = append(out, uEsc.ReplaceAllStringFunc(s, func(m string) string {
			var r rune
			_, _ = fmt.Sscanf(m[2:], "%04x", &r)
			return string(r)
		}))
		out = append(out, pct.ReplaceAllStringFunc(s, func(m string) string {
			var c byte
			_, _ = fmt.Sscanf(m[1:], "%02x", &c)
			return string([]byte{c})
		}))
		for _, run := range b64.FindAllString(s, -1) {
			for skip := 0; skip < 4 && skip < len(run); skip++ {
				r := run[skip:]
				r = r[:len(r)/4*4]
				for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
					if b, err := enc.DecodeString(r); err == nil {
						out = append(out, string(b))
					}
				}
			}
		}
		return out
	}
	found := map[string]string{}
	for name, text := range outputs {
		forms := []string{text}
		for _, f := range once(text) {
			forms = append(forms, f)
			if f != text {
				forms = append(forms, once(f)...)
			}
		}
	search:
		for _, f := range forms {
			lf := strings.ToLower(f)
			for _, s := range secrets {
				ls := strings.ToLower(s)
				n := min(redact.Window, len(ls))
				for i := 0; i+n <= len(ls); i++ {
					if strings.Contains(lf, ls[i:i+n]) {
						found[name] = ls[i : i+n]
						break search
					}
				}
			}
		}
	}
	return found
}

// stagingFixture is hostileFixture with a hex subscription key, as real
// keys are, so that a case change of an echo is a change.
func stagingFixture(t *testing.T) *fixtures.File {
	t.Helper()
	f := hostileFixture(t)
	f.SubscriptionKey = "43cb54111e874a116b4008667caf0e40"
	return f
}

// targetSecrets are the secrets of the --target URL of these tests.
var targetSecrets = []string{"us3r:Pa55w0rd-of-the-target", "Pa55w0rd-of-the-target", "tokenInTheQuery0123456789"}

// withTargetSecrets returns url with userinfo and a token in its query.
func withTargetSecrets(u string) string {
	return strings.Replace(u, "http://", "http://us3r:Pa55w0rd-of-the-target@", 1) + "/?access_token=tokenInTheQuery0123456789"
}

// TestNoSecretSurvivesAnEcho runs against a target echoing every request
// in each form, with and without generated requests, with a --target
// holding userinfo and a query token: no run of 12 characters of any
// secret survives in the console or in any report file, decoded.
func TestNoSecretSurvivesAnEcho(t *testing.T) {
	f := stagingFixture(t)
	secrets := append(f.Secrets(), targetSecrets...)
	forms := []string{"raw", "\\u-escaped", "upper case", "URL-escaped", "HTML references", "base64 of the header line", "cut to 25 bytes"}
	// under -short, two forms: one with generated requests, one without
	short := map[string]string{"\\u-escaped": "2", "cut to 25 bytes": "0"}
	for _, name := range forms {
		for _, generate := range []string{"0", "2"} {
			if testing.Short() && short[name] != generate {
				continue
			}
			t.Run(name+"/generate="+generate, func(t *testing.T) {
				t.Parallel()
				srv := httptest.NewServer(echoIn(echoForms[name]))
				defer srv.Close()
				code, outputs := runAt(t, withTargetSecrets(srv.URL), f, t.TempDir(), "--tags", "@E1 or @E9 or @E13 or @GB", "--generate", generate, "--no-credentials-check")
				// every call refused with 403: a setup mistake's symptom
				if code != exitUsage {
					t.Errorf("exit %d, want %d\n%s", code, exitUsage, outputs["stderr"])
				}
				if !strings.Contains(outputs["report.json"], "forbidden: ") {
					t.Fatalf("the reports do not quote the echoes: the test would prove nothing")
				}
				for file, leak := range leaks(outputs, secrets) {
					t.Errorf("%s holds %q of a secret (echo %s); reproduce: go test ./cmd/campusconf -run 'TestNoSecretSurvivesAnEcho/%s'", file, leak, name, name)
				}
			})
		}
	}
}

// TestNoSecretSurvivesTheProxy sends the suite through `campusconf proxy`
// to a target echoing in each form: neither the proxy's console nor its
// report files hold a run of 12 characters of a secret, decoded.
func TestNoSecretSurvivesTheProxy(t *testing.T) {
	f := stagingFixture(t)
	secrets := append(f.Secrets(), targetSecrets...)
	forms := []string{"\\u-escaped", "upper case", "base64 of the header line", "cut to 25 bytes"}
	if testing.Short() {
		forms = forms[:1]
	}
	fixtureFile := writeFixture(t, f)
	for _, name := range forms {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(echoIn(echoForms[name]))
			defer srv.Close()
			dir := filepath.Join(t.TempDir(), "proxy")
			c, err := parseProxy([]string{"--target", withTargetSecrets(srv.URL), "--fixtures", fixtureFile, "--report-dir", dir}, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var console, consoleErr bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- runProxy(ctx, c, ln, &console, &consoleErr) }()
			_, runOut := runAt(t, "http://"+ln.Addr().String(), f, t.TempDir(), "--tags", "@E1 or @E9 or @E13", "--no-credentials-check")
			cancel()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the proxy did not stop")
			}
			outputs := runOutputs(t, dir, &console, &consoleErr)
			if !strings.Contains(outputs["report.json"], "forbidden: ") {
				t.Fatalf("the proxy's report does not quote the echoes: the test would prove nothing")
			}
			for file, leak := range leaks(outputs, secrets) {
				t.Errorf("proxy %s holds %q of a secret (echo %s)", file, leak, name)
			}
			// the run knows the fixture's secrets, not those of the proxy's
			// target URL, which the proxy adds to what it forwards
			for file, leak := range leaks(runOut, f.Secrets()) {
				t.Errorf("run through the proxy: %s holds %q of a secret (echo %s)", file, leak, name)
			}
		})
	}
}

// TestLeaksSeesEveryForm holds the detector to the forms: a text holding a
// secret in any echo form is found, so that the tests above can fail.
func TestLeaksSeesEveryForm(t *testing.T) {
	const key = "43cb54111e874a116b4008667caf0e40"
	for name, form := range echoForms {
		if got := leaks(map[string]string{"x": "a " + form(key) + " b"}, []string{key}); got["x"] == "" {
			t.Errorf("%s: the detector missed the key in %q", name, form(key))
		}
	}
	if got := leaks(map[string]string{"x": url.QueryEscape("nothing") + " <SUBSCRIPTION_KEY>"}, []string{key}); len(got) > 0 {
		t.Errorf("the detector found a leak in a redacted text: %v", got)
	}
}
