package simulator

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/reports/redact"
)

func TestFaults(t *testing.T) {
	e := newEnv(t, Options{Control: true, Faults: Faults{TwoFactorRate: 1, Operation: "E10", OperationRate: 1}})
	e.do("owner", "POST", "/campus/2FA/Push", "").want(t, http.StatusServiceUnavailable).errorString(t)
	e.do("owner", "GET", e.fileLog(), "").want(t, http.StatusInternalServerError).errorString(t)
	e.do("owner", "GET", "/files/FileAnnotation/"+e.fx.Records.File+"/all", "").want(t, http.StatusOK)
	// Faults come after credentials: a caller without a key still gets 401.
	e.doWith("owner", "POST", "/campus/2FA/Push", "", map[string]string{"Ocp-Apim-Subscription-Key": ""}).want(t, http.StatusUnauthorized)
	e.do("", "PUT", e.fx.Control+"/faults", `{"twoFactorRate":0}`).want(t, 200)
	e.do("owner", "POST", "/campus/2FA/Push", "").want(t, 200)
	e.do("owner", "GET", e.fileLog(), "").want(t, 200)
	var f Faults
	e.do("", "GET", e.fx.Control+"/faults", "").want(t, 200).decode(t, &f)
	if f != (Faults{}) {
		t.Errorf("faults after PUT of a zero rate = %+v, want none", f)
	}
	for _, bad := range []string{`{"twoFactorRate":2}`, `{"operation":"E99","operationRate":1}`, `{"operationRate":0.5}`, `{"twoFactorRate":"x"}`} {
		e.do("", "PUT", e.fx.Control+"/faults", bad).want(t, http.StatusBadRequest)
	}
	if _, err := New(Options{Faults: Faults{TwoFactorRate: -0.1}}); err == nil {
		t.Error("New accepted a negative fault rate")
	}
}

func TestLatency(t *testing.T) {
	e := newEnv(t, Options{Latency: Latency{Min: 20 * time.Millisecond, Max: 30 * time.Millisecond}})
	start := time.Now()
	e.do("owner", "GET", "/files/FileAnnotation/"+e.fx.Records.File+"/all", "").want(t, 200)
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Errorf("answer took %v, want at least the 20ms latency", d)
	}
	tests := []struct {
		in      string
		want    Latency
		wantErr bool
	}{
		{"50ms", Latency{Min: 50 * time.Millisecond, Max: 50 * time.Millisecond}, false},
		{"20ms..200ms", Latency{Min: 20 * time.Millisecond, Max: 200 * time.Millisecond}, false},
		{"200ms..20ms", Latency{}, true},
		{"fast", Latency{}, true},
		{"-5ms", Latency{}, true},
	}
	for _, tt := range tests {
		got, err := ParseLatency(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseLatency(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestLogLineHasNoSecrets(t *testing.T) {
	var buf bytes.Buffer
	e := newEnv(t, Options{Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	e.do("owner", "GET", e.fileLog()+"?limit=2", "").want(t, 200)
	e.do("student", "POST", "/Attendance/Default", `{}`).want(t, 403)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("log has %d lines, want one per request:\n%s", len(lines), buf.String())
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first["op"] != "E10" || first["user"] != "owner" || first["status"] != 200.0 {
		t.Errorf("log line = %s, want op E10, user owner, status 200", lines[0])
	}
	for _, secret := range e.fx.Secrets() {
		if strings.Contains(buf.String(), secret) {
			t.Errorf("log contains the secret %q", secret)
		}
	}
	var w bytes.Buffer
	e2 := newEnv(t, Options{LogTo: &w})
	e2.do("owner", "GET", "/healthz", "")
	if !strings.Contains(w.String(), "GET /healthz") {
		t.Errorf("LogTo log = %q, want a line for GET /healthz", w.String())
	}
}

// TestSecretsInTheQueryAreRedacted reproduces issue 45's request log and
// console, which printed ?subscription-key=… as sent, and its base64 and
// upper-case forms, though the docs say the log never holds a key or a
// token. The path and query of every request go through the reports'
// redactor, in every decoded form, before the log (text and JSON) and the
// console's event stream see them.
func TestSecretsInTheQueryAreRedacted(t *testing.T) {
	var text, jsonLog bytes.Buffer
	key := func(e *env) string { return e.fx.SubscriptionKey }
	token := func(e *env) string {
		return strings.TrimPrefix(e.fx.Users["owner"].Headers["Authorization"], "Bearer ")
	}
	forms := []struct {
		name  string
		query func(e *env) string
	}{
		{"the key as sent", func(e *env) string { return "subscription-key=" + key(e) }},
		{"the key upper-cased", func(e *env) string { return "subscription-key=" + strings.ToUpper(key(e)) }},
		{"the key in base64", func(e *env) string {
			return "k=" + base64.StdEncoding.EncodeToString([]byte(key(e)))
		}},
		{"the key URL-escaped twice", func(e *env) string {
			return "k=" + url.QueryEscape(url.QueryEscape(key(e)+"&"))
		}},
		{"the token", func(e *env) string { return "access_token=" + token(e) }},
		{"the token's start", func(e *env) string { return "t=" + token(e)[:redact.Window] }},
	}
	for _, log := range []struct {
		name string
		buf  *bytes.Buffer
		h    slog.Handler
	}{{"text", &text, slog.NewTextHandler(&text, nil)}, {"json", &jsonLog, slog.NewJSONHandler(&jsonLog, nil)}} {
		e := newEnv(t, Options{Logger: slog.New(log.h), Control: true})
		next, lines := e.events(t)
		for _, f := range forms {
			q := f.query(e)
			e.do("owner", "GET", e.fileLog()+"?"+q, "")
			le := next()
			for _, s := range []string{key(e), strings.ToUpper(key(e)), token(e), token(e)[:redact.Window]} {
				if strings.Contains(le.Path, s) || strings.Contains(log.buf.String(), s) {
					t.Errorf("%s log, %s: expected the secret redacted, got console %q and log:\n%s", log.name, f.name, le.Path, log.buf.String())
				}
			}
			if !strings.Contains(le.Path, e.fileLog()+"?") {
				t.Errorf("%s: expected the path kept, got %q", f.name, le.Path)
			}
		}
		e.sim.StopStreams()
		for lines.Scan() {
		}
		if !strings.Contains(log.buf.String(), "<SUBSCRIPTION_KEY>") {
			t.Errorf("%s log: expected the key's placeholder, got:\n%s", log.name, log.buf.String())
		}
	}
}
