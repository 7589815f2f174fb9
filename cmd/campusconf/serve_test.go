package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/simulator"
)

func TestParseServe(t *testing.T) {
	tests := []struct {
		args    []string
		wantErr string
		check   func(c serveConfig) bool
	}{
		{nil, "", func(c serveConfig) bool {
			return c.addr == "127.0.0.1:8080" && c.opts.Seed == 1 && c.opts.Scale == 1 && c.log == "text"
		}},
		{[]string{"--seed", "7", "--scale", "3", "--control", "--log", "json"}, "", func(c serveConfig) bool {
			return c.opts.Seed == 7 && c.opts.Scale == 3 && c.opts.Control && c.log == "json"
		}},
		{[]string{"--latency", "20ms..200ms"}, "", func(c serveConfig) bool {
			return c.opts.Latency == simulator.Latency{Min: 20 * time.Millisecond, Max: 200 * time.Millisecond}
		}},
		{[]string{"--fault-2fa-rate", "0.5", "--fault-op", "E10", "--fault-rate", "1"}, "", func(c serveConfig) bool {
			return c.opts.Faults == simulator.Faults{TwoFactorRate: 0.5, Operation: "E10", OperationRate: 1}
		}},
		{[]string{"--defect", "e6-status-200", "--defect", "poll-always-7002"}, "", func(c serveConfig) bool {
			return len(c.opts.Defects) == 2
		}},
		{[]string{"--control", "--control-token", "tok-0123456789abcdef"}, "", func(c serveConfig) bool {
			return c.opts.Control && c.opts.ControlToken == "tok-0123456789abcdef"
		}},
		{[]string{"--control-token", "tok-0123456789abcdef"}, "", func(c serveConfig) bool {
			return !c.opts.Control && c.opts.ControlToken == ""
		}},
		{[]string{"--control", "--control-token", "short"}, "control token", nil},
		{[]string{"--control", "--control-token", "has/a/slash/0123456789"}, "control token", nil},
		{[]string{"--scale", "0"}, "--scale", nil},
		{[]string{"--max-worlds", "3"}, "", func(c serveConfig) bool { return c.opts.MaxWorlds == 3 }},
		{[]string{"--max-worlds", "0"}, "--max-worlds", nil},
		{[]string{"--clock", "2024-03-01T09:00:00Z"}, "", func(c serveConfig) bool {
			return c.opts.Clock.Equal(time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC))
		}},
		{[]string{"--clock", "2024-03-01"}, "--clock", nil},
		{[]string{"--state", "s.json", "--state-every", "5s"}, "", func(c serveConfig) bool {
			return c.state == "s.json" && c.stateEvery == 5*time.Second
		}},
		{[]string{"--state-every", "-1s"}, "--state-every", nil},
		{nil, "", func(c serveConfig) bool { return c.stateMax == 256<<20 && len(c.opts.AllowedHosts) == 0 && !c.anyHost }},
		{[]string{"--state-max-mb", "1"}, "", func(c serveConfig) bool { return c.stateMax == 1<<20 }},
		{[]string{"--state-max-mb", "0"}, "--state-max-mb", nil},
		{[]string{"--allowed-hosts", "campus-api, .dev.example.edu,"}, "", func(c serveConfig) bool {
			return strings.Join(c.opts.AllowedHosts, " ") == "campus-api .dev.example.edu"
		}},
		{[]string{"--addr", "devbox.example.edu:8080", "--allowed-hosts", "campus-api"}, "", func(c serveConfig) bool {
			return strings.Join(c.opts.AllowedHosts, " ") == "campus-api devbox.example.edu"
		}},
		{[]string{"--addr", "localhost:8080"}, "", func(c serveConfig) bool { return len(c.opts.AllowedHosts) == 0 }},
		{[]string{"--addr", "0.0.0.0:8080"}, "", func(c serveConfig) bool { return len(c.opts.AllowedHosts) == 0 }},
		{[]string{"--allowed-hosts", "*"}, "", func(c serveConfig) bool { return c.anyHost }},
		{[]string{"--allowed-hosts", "api:8080"}, "--allowed-hosts", nil},
		{[]string{"--allowed-hosts", "http://api"}, "--allowed-hosts", nil},
		{[]string{"--clock", "9000-01-01T00:00:00Z"}, "", func(c serveConfig) bool { return c.opts.Clock.Year() == 9000 }},
		{[]string{"--clock", "9000-01-01T00:00:01Z"}, "--clock", nil},
		{[]string{"--clock", "1970-12-31T23:59:59Z"}, "--clock", nil},
		{[]string{"--latency", "soon"}, "latency", nil},
		{[]string{"--fault-op", "E10"}, "go together", nil},
		{[]string{"--fault-op", "E99", "--fault-rate", "1"}, "E99", nil},
		{[]string{"--fault-2fa-rate", "2"}, "0 to 1", nil},
		{[]string{"--log", "xml"}, "--log", nil},
		{[]string{"--cors-origins", "http://localhost:5173,https://app.example.edu"}, "", func(c serveConfig) bool {
			return strings.Join(c.opts.CORSOrigins, " ") == "http://localhost:5173 https://app.example.edu"
		}},
		{nil, "", func(c serveConfig) bool { return c.opts.RealTime }},
		{[]string{"--clock-mode", "step"}, "", func(c serveConfig) bool { return !c.opts.RealTime }},
		{[]string{"--clock-mode", "fast"}, "--clock-mode", nil},
		{[]string{"--cors-origins", "*"}, "", func(c serveConfig) bool { return c.opts.CORSOrigins == nil }},
		{[]string{"--cors-origins", "localhost:5173"}, "--cors-origins", nil},
		{[]string{"extra"}, "unexpected argument", nil},
		{[]string{"--nope"}, "flag provided but not defined", nil},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			c, err := parseServe(tt.args, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Errorf("config = %+v", c)
			}
		})
	}
}

// TestServePortTaken: every check comes before the port, so with the port
// taken a bad flag or state file still exits 2 naming it, and a port
// taken exits 2 saying how to choose another. The port is one this test
// holds, never a fixed one.
func TestServePortTaken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	taken := ln.Addr().String()
	corrupt := filepath.Join(t.TempDir(), "corrupt.json")
	if err := os.WriteFile(corrupt, []byte(`{"format":"campusconf-state"`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"a defect unknown", []string{"--defect", "no-such-defect"}, []string{"--defect", "no-such-defect"}},
		{"a defect misspelt", []string{"--defect", "list-not-paged-x"}, []string{"--defect"}},
		{"a variant unknown", []string{"--variant", "no-such-variant"}, []string{"--variant", "no-such-variant"}},
		{"a state file corrupt", []string{"--state", corrupt}, []string{"--state", "left as it is"}},
		{"the port alone", nil, []string{"--addr " + taken, "choose another with --addr", "--addr 127.0.0.1:0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			args := append([]string{"--addr", taken, "--log", "off"}, tt.args...)
			if got := serveCmd(args, io.Discard, &stderr); got != exitUsage {
				t.Errorf("serve %v with the port taken: exit %d, want %d (stderr %q)", args, got, exitUsage, stderr.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("serve %v: stderr %q, want it to say %q", args, stderr.String(), w)
				}
			}
			if tt.args != nil && strings.Contains(stderr.String(), "in use") {
				t.Errorf("serve %v: stderr %q, want the bad flag named before the port is tried", args, stderr.String())
			}
		})
	}
}

func TestServeUsageExitCodes(t *testing.T) {
	for _, args := range [][]string{{"--scale", "-1"}, {"--defect", "no-such-defect"}, {"--variant", "no-such-variant"}, {"--log", "xml"}} {
		args = append([]string{"--addr", "127.0.0.1:0"}, args...)
		var stderr bytes.Buffer
		if got := serveCmd(args, io.Discard, &stderr); got != exitUsage {
			t.Errorf("serve %v = %d, want %d (stderr %q)", args, got, exitUsage, stderr.String())
		}
		if stderr.Len() == 0 {
			t.Errorf("serve %v printed no message", args)
		}
	}
	if got := serveCmd([]string{"-h"}, io.Discard, io.Discard); got != exitOK {
		t.Errorf("serve -h = %d, want %d", got, exitOK)
	}
}

// TestServeAnswersAndStops serves on a free port, calls it, and stops it
// as SIGINT would.
func TestServeAnswersAndStops(t *testing.T) {
	var stdout bytes.Buffer
	base, sim, stop := serveForTest(t, parsedServe(t, []string{"--control", "--log", "off"}, nil), false, &stdout, io.Discard)
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz = %d, want 200", resp.StatusCode)
	}
	control := sim.ControlPath()
	if !strings.HasPrefix(control, "/_sim/") {
		t.Fatalf("control path %q, want /_sim/TOKEN", control)
	}
	resp, err = http.Get(base + control + "/fixtures")
	if err != nil {
		t.Fatal(err)
	}
	var fx map[string]any
	err = json.NewDecoder(resp.Body).Decode(&fx)
	resp.Body.Close()
	if err != nil || fx["control"] != control {
		t.Errorf("GET /_sim/TOKEN/fixtures: control = %v (%v), want the control path", fx["control"], err)
	}
	if code := stop(); code != exitOK {
		t.Errorf("serve returned %d after shutdown, want %d", code, exitOK)
	}
	if !strings.Contains(stdout.String(), "control API at "+control) {
		t.Errorf("stdout = %q, want the control path with its token printed at start-up", stdout.String())
	}
	if !strings.Contains(stdout.String(), "listening on http://") || !strings.Contains(stdout.String(), "stopped") {
		t.Errorf("stdout = %q, want the listening and stopped lines", stdout.String())
	}
}

// TestFaultOpTakesIDsAndOldNames: --fault-op names an unplaced operation by
// its id (QS) or by its old fixture key (updateQuizSection).
func TestFaultOpTakesIDsAndOldNames(t *testing.T) {
	for _, name := range []string{"QS", "updateQuizSection", "E10"} {
		if _, err := parseServe([]string{"--fault-op", name, "--fault-rate", "0.5"}, io.Discard); err != nil {
			t.Errorf("--fault-op %s: %v, want it accepted", name, err)
		}
	}
	if _, err := parseServe([]string{"--fault-op", "QX", "--fault-rate", "0.5"}, io.Discard); err == nil || !strings.Contains(err.Error(), "--fault-op") {
		t.Errorf("--fault-op QX: got %v, want an error naming --fault-op", err)
	}
}

// TestDocsOnlyOnLoopback: the docs page holds credentials, so serve turns
// it on only for a loopback listener.
func TestDocsOnlyOnLoopback(t *testing.T) {
	for _, c := range []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:8080", true},
		{"[::1]:8080", true},
		{"0.0.0.0:8080", false},
		{"[::]:8080", false},
		{"192.168.1.4:8080", false},
	} {
		a, err := net.ResolveTCPAddr("tcp", c.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := loopbackOnly(a); got != c.want {
			t.Errorf("loopbackOnly(%s) = %v, want %v", c.addr, got, c.want)
		}
	}
}

// TestServeStateFile serves with --state, writes through HTTP, stops (the
// file is written), then starts again from the file; a corrupt file stops
// serve before it listens and is left as it is.
func TestServeStateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	run := func(write bool) int {
		t.Helper()
		base, sim, stop := serveForTest(t, parsedServe(t, []string{"--log", "off", "--state", path, "--state-every", "0"}, nil), true, io.Discard, io.Discard)
		fx := sim.Fixtures()
		call := func(method, path, body string) *http.Response {
			req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
			req.Header.Set("Ocp-Apim-Subscription-Key", fx.SubscriptionKey)
			req.Header.Set("Authorization", fx.Users["owner"].Headers["Authorization"])
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp
		}
		n := fx.Records.Notification
		if write {
			if r := call("PUT", fx.Operations["NR"].Path, fmt.Sprintf(`{"id":%d,"read":11}`, n.ID)); r.StatusCode != 200 {
				t.Fatalf("mark read: status %d, want 200", r.StatusCode)
			}
		}
		req, _ := http.NewRequest("GET", base+strings.ReplaceAll(fx.Operations["NG"].Path, "{id}", n.GroupID), nil)
		req.Header.Set("Ocp-Apim-Subscription-Key", fx.SubscriptionKey)
		req.Header.Set("Authorization", fx.Users["owner"].Headers["Authorization"])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if code := stop(); code != exitOK {
			t.Fatalf("serve returned %d, want %d", code, exitOK)
		}
		st, _ := m["notifyStatus"].(float64)
		return int(st)
	}
	if got := run(true); got != 11 {
		t.Fatalf("first run: status %d after the write, want 11", got)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("state file not written on shutdown: %v", err)
	}
	if got := run(false); got != 11 {
		t.Errorf("second run from the state file: status %d, want 11 (the write survived the restart)", got)
	}

	corrupt := filepath.Join(t.TempDir(), "corrupt.json")
	if err := os.WriteFile(corrupt, []byte(`{"format":"campusconf-state","version":1,"default":`), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := serveCmd([]string{"--addr", "127.0.0.1:0", "--log", "off", "--state", corrupt}, io.Discard, &stderr); code != exitUsage {
		t.Errorf("serve --state corrupt = %d, want %d", code, exitUsage)
	}
	if !strings.Contains(stderr.String(), "left as it is") {
		t.Errorf("stderr = %q, want a message saying the file is left as it is", stderr.String())
	}
	if b, _ := os.ReadFile(corrupt); string(b) != `{"format":"campusconf-state","version":1,"default":` {
		t.Error("the corrupt state file was changed")
	}
}

// TestServeSavesWithRequestsInFlight reproduces issue 45's lost state: with
// a request still in flight past the grace period after Ctrl-C or SIGTERM
// (an operation under --latency, a client trickling its body), serve
// exited 1 ("shutdown: context deadline exceeded") and wrote neither the
// state file nor the traffic report, so with --state-every 0 everything
// since start was lost. Now the requests are cut after the grace period,
// then the worlds and the traffic report are written, and the exit code
// is 0: the write made before the stop survives a restart.
func TestServeSavesWithRequestsInFlight(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		hold  func(t *testing.T, base string, fx *fixtures.File) // starts a request that stays in flight
		write bool
	}{
		{"an operation under --latency", []string{"--latency", "1m"}, func(t *testing.T, base string, fx *fixtures.File) {
			go func() {
				req, _ := http.NewRequest("GET", base+"/poll/Response/"+fx.Records.PollResponse, nil)
				req.Header.Set("Ocp-Apim-Subscription-Key", fx.SubscriptionKey)
				req.Header.Set("Authorization", fx.Users["owner"].Headers["Authorization"])
				if resp, err := http.DefaultClient.Do(req); err == nil {
					resp.Body.Close()
				}
			}()
		}, false},
		{"a client trickling its body", nil, func(t *testing.T, base string, fx *fixtures.File) {
			c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = c.Close() })
			_, _ = fmt.Fprintf(c, "PUT %s HTTP/1.1\r\nHost: 127.0.0.1\r\nOcp-Apim-Subscription-Key: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":", fx.Operations["NR"].Path, fx.SubscriptionKey)
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			state, reportDir := filepath.Join(dir, "state.json"), filepath.Join(dir, "traffic")
			const grace = 300 * time.Millisecond
			var stderr bytes.Buffer
			base, sim, stop := serveForTest(t, parsedServe(t, append([]string{"--log", "off", "--state", state, "--state-every", "0", "--report-dir", reportDir}, tt.args...),
				func(c *serveConfig) { c.grace = grace }), false, io.Discard, &stderr)
			fx := sim.Fixtures()
			if tt.write {
				req, _ := http.NewRequest("PUT", base+fx.Operations["NR"].Path, strings.NewReader(fmt.Sprintf(`{"id":%d,"read":11}`, fx.Records.Notification.ID)))
				req.Header.Set("Ocp-Apim-Subscription-Key", fx.SubscriptionKey)
				req.Header.Set("Authorization", fx.Users["owner"].Headers["Authorization"])
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil || resp.StatusCode != 200 {
					t.Fatalf("mark read: %v %v, want 200", resp, err)
				}
				resp.Body.Close()
			}
			tt.hold(t, base, fx)
			time.Sleep(100 * time.Millisecond) // the request is in its handler
			start := time.Now()
			if code := stop(); code != exitOK {
				t.Fatalf("serve with a request in flight: exit %d, want %d:\n%s", code, exitOK, stderr.String())
			}
			if took := time.Since(start); took > grace+cutWait {
				t.Errorf("shutdown took %s, want at most the grace %s and the wait for cut handlers %s", took, grace, cutWait)
			}
			if !strings.Contains(stderr.String(), "1 request(s) still in flight after 300ms were cut") {
				t.Errorf("stderr: expected the cut request named, got %q", stderr.String())
			}
			if _, err := os.Stat(state); err != nil {
				t.Errorf("state file: expected it written on shutdown, got %v", err)
			}
			if _, err := os.Stat(filepath.Join(reportDir, "report.json")); err != nil {
				t.Errorf("traffic report: expected it written on shutdown, got %v", err)
			}
			if !tt.write {
				return
			}
			again := simulator.Options{}
			restarted, err := simulator.New(again)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := restarted.LoadState(state, 0); err != nil {
				t.Fatal(err)
			}
			n := fx.Records.Notification
			req := httptest.NewRequest("GET", "http://127.0.0.1"+strings.ReplaceAll(fx.Operations["NG"].Path, "{id}", n.GroupID), nil)
			req.Header.Set("Ocp-Apim-Subscription-Key", fx.SubscriptionKey)
			req.Header.Set("Authorization", fx.Users["owner"].Headers["Authorization"])
			rec := httptest.NewRecorder()
			restarted.ServeHTTP(rec, req)
			if !strings.Contains(rec.Body.String(), `"notifyStatus":11`) {
				t.Errorf("after a restart from the state file: expected the write (notifyStatus 11), got %s", rec.Body.String())
			}
		})
	}
}

// TestBannerCredentials: on a terminal the banner shows the subscription
// key, the owner's token and the console's address; into a file or pipe,
// or with a JSON log, it shows none of them.
func TestBannerCredentials(t *testing.T) {
	for _, tt := range []struct {
		name     string
		terminal bool
		log      string
		want     bool
	}{
		{"a terminal", true, "text", true},
		{"a terminal, JSON log", true, "json", false},
		{"a file or pipe", false, "text", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout lockedBuffer
			c := parsedServe(t, []string{"--control", "--log", tt.log}, func(c *serveConfig) { c.terminal = tt.terminal })
			base, sim, stop := serveForTest(t, c, false, &stdout, io.Discard)
			if code := stop(); code != exitOK {
				t.Fatalf("serve: exit %d", code)
			}
			fx := sim.Fixtures()
			out := stdout.String()
			owner := fx.Users["owner"].Headers["Authorization"]
			console := base + sim.ControlPath() + "/ui"
			for what, secret := range map[string]string{"subscription key": fx.SubscriptionKey, "owner's token": owner} {
				if got := strings.Contains(out, secret); got != tt.want {
					t.Errorf("banner shows the %s: %v, want %v; stdout:\n%s", what, got, tt.want, out)
				}
			}
			if tt.want && !strings.Contains(out, "console           "+console) {
				t.Errorf("banner: expected the console's address %s; stdout:\n%s", console, out)
			}
		})
	}
}
