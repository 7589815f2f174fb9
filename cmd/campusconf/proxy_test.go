package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// proxyFixture starts a simulator with defects on loopback and writes its
// fixture file; it returns the simulator's URL and the file.
func proxyFixture(t *testing.T, defects ...string) (string, string) {
	t.Helper()
	sim, srv := serveSim(t, simulator.Options{Defects: defects})
	return srv.URL, writeFixture(t, sim.Fixtures())
}

func TestProxyUsage(t *testing.T) {
	_, file := proxyFixture(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no target", []string{"--fixtures", file}, "--target"},
		{"bad target", []string{"--target", "ftp://x", "--fixtures", file}, "--target"},
		{"no fixtures", []string{"--target", "http://127.0.0.1:1"}, "--fixtures"},
		{"negative max", []string{"--target", "http://127.0.0.1:1", "--fixtures", file, "--max-exchanges", "-1"}, "--max-exchanges"},
		{"no such baseline", []string{"--target", "http://127.0.0.1:1", "--fixtures", file, "--baseline", filepath.Join(t.TempDir(), "absent.json")}, "--baseline"},
		{"a baseline without reasons", []string{"--target", "http://127.0.0.1:1", "--fixtures", file, "--baseline", writeFile(t, t.TempDir(), "b.json", `{"version": 2, "entries": [{"id": "E1.200"}]}`)}, "reason"},
		{"an allowed host with a port", []string{"--target", "http://127.0.0.1:1", "--fixtures", file, "--allowed-hosts", "campus-api:8080"}, "--allowed-hosts: allowed host \"campus-api:8080\": expected a host name"},
		{"no header bound", []string{"--target", "http://127.0.0.1:1", "--fixtures", file, "--max-header", "0"}, "flag -max-header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if got := dispatch(append([]string{"proxy"}, tt.args...), &out, &errb); got != exitUsage {
				t.Errorf("exit: expected %d, got %d (%s)", exitUsage, got, errb.String())
			}
			if !strings.Contains(errb.String(), tt.want) {
				t.Errorf("stderr: expected it to name %s, got %q", tt.want, errb.String())
			}
		})
	}
}

func TestProxyUnreachable(t *testing.T) {
	_, file := proxyFixture(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if got := dispatch([]string{"proxy", "--target", dead, "--fixtures", file, "--addr", "127.0.0.1:0"}, &out, &errb); got != exitUnreachable {
		t.Errorf("exit: expected %d, got %d (%s)", exitUnreachable, got, errb.String())
	}
}

// TestProxyReportsOnStop: traffic through the proxy in front of a defective
// simulator, then the stop a SIGTERM makes (the context ends): the four
// report files are written, the violation is on the console and in
// report.json, and the exit code is 1. A second run stops by
// --max-exchanges.
func TestProxyReportsOnStop(t *testing.T) {
	tests := []struct {
		name string
		max  int
		// baseline, when set, is the baseline file's content; want the exit
		// code and say what the console must then add
		baseline string
		want     int
		say      string
		// duration, when set, is --duration
		duration time.Duration
	}{
		{"cancel", 0, "", exitFailed, "", 0},
		{"duration", 0, "", exitFailed, "", 300 * time.Millisecond},
		{"max-exchanges", 2, "", exitFailed, "", 0},
		{"the violation in the baseline", 2, `{"version": 2, "entries": [{"id": "ALL.error-body", "reason": "known"}]}`, exitOK,
			"Baseline gate passed", 0},
		{"the violation's entry expired", 2, `{"version": 2, "entries": [{"id": "ALL.error-body", "reason": "known", "expires": "2020-01-31"}]}`, exitFailed,
			"ALL.error-body (expired 2020-01-31, still fails)", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target, file := proxyFixture(t, "error-body-object")
			dir := filepath.Join(t.TempDir(), "out")
			args := []string{"--target", target, "--fixtures", file, "--report-dir", dir}
			if tt.max > 0 {
				args = append(args, "--max-exchanges", "2")
			}
			if tt.duration > 0 {
				args = append(args, "--duration", tt.duration.String())
			}
			if tt.baseline != "" {
				args = append(args, "--baseline", writeFile(t, t.TempDir(), "baseline.json", tt.baseline))
			}
			c, err := parseProxy(args, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancelTimeout := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancelTimeout()
			// as proxyCmd ends it on SIGTERM
			ctx, cancelCause := context.WithCancelCause(ctx)
			cancel := func() { cancelCause(signalStop{syscall.SIGTERM}) }
			defer cancel()
			var out bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- runProxy(ctx, c, ln, &out, io.Discard) }()
			base := "http://" + ln.Addr().String()
			// a malformed uuid with the key: 400, its body an object
			for range 2 {
				asOwner(t, c.fixture, http.MethodGet, base+"/poll/Response/not-a-uuid", "")
			}
			if tt.max == 0 && tt.duration == 0 {
				cancel()
			}
			var code int
			select {
			case code = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("expected the proxy to stop, it did not within 20s")
			}
			if code != tt.want {
				t.Errorf("exit: expected %d, got %d; console:\n%s", tt.want, code, out.String())
			}
			if !strings.Contains(out.String(), tt.say) {
				t.Errorf("console: expected %q, got:\n%s", tt.say, out.String())
			}
			if !strings.Contains(out.String(), "VIOLATION E19 ALL.error-body") {
				t.Errorf("console: expected a line for E19 ALL.error-body, got:\n%s", out.String())
			}
			for _, f := range reports.ReportFiles {
				if _, err := os.Stat(filepath.Join(dir, f.Name)); err != nil {
					t.Errorf("report file %s: expected it written, got %v", f.Name, err)
				}
			}
			data, _ := os.ReadFile(filepath.Join(dir, reports.JSONFile))
			var r reports.Report
			if err := json.Unmarshal(data, &r); err != nil {
				t.Fatal(err)
			}
			// one verdict: the report's is the exit code's, the gate's
			// when there is a baseline
			wantVerdict := reports.VerdictNotConformant
			if tt.want == exitOK {
				wantVerdict = reports.VerdictPartial // live traffic is not the whole suite
			}
			if r.Verdict != wantVerdict {
				t.Errorf("verdict: expected %q, got %q", wantVerdict, r.Verdict)
			}
			// a stop is normal: never "interrupted", and the console and
			// the report say how it came
			if r.Interrupted {
				t.Errorf("interrupted: expected false for a normal stop, got true")
			}
			wantStop := "a signal (terminated)"
			switch {
			case tt.max > 0:
				wantStop = "--max-exchanges 2"
			case tt.duration > 0:
				wantStop = "--duration " + tt.duration.String()
			}
			if !strings.Contains(out.String(), "campusconf proxy stopped by "+wantStop+" after ") {
				t.Errorf("console: expected %q, got:\n%s", "campusconf proxy stopped by "+wantStop, out.String())
			}
			if r.Options["stoppedBy"] != wantStop {
				t.Errorf("report.json options.stoppedBy: expected %q, got %q", wantStop, r.Options["stoppedBy"])
			}
			if strings.Contains(out.String(), "interrupted") {
				t.Errorf("console: expected no word of an interruption, got:\n%s", out.String())
			}
			if strings.Contains(string(data), c.fixture.SubscriptionKey) {
				t.Error("report.json: expected the subscription key redacted, found it")
			}
		})
	}
}
