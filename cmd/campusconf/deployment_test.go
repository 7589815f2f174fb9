package main

import (
	"bytes"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// TestRunWaitsForALateTarget: with --wait, a target that starts listening
// a moment after the run is waited for, and the run passes; the flags of
// real deployments refuse a bad value with exit 2.
func TestRunWaitsForALateTarget(t *testing.T) {
	sim, fx := newSim(t, simulator.Options{Seed: 7})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens until the server comes up
	fixture := writeFixture(t, fx)
	srv := &http.Server{Handler: sim, ReadHeaderTimeout: 5 * time.Second}
	t.Cleanup(func() { _ = srv.Close() })
	go func() {
		time.Sleep(700 * time.Millisecond)
		late, err := net.Listen("tcp", addr)
		if err != nil {
			return // the port was taken meanwhile: the run below says so
		}
		_ = srv.Serve(late)
	}()
	var out, errOut bytes.Buffer
	code := dispatch([]string{"run", "--target", "http://" + addr, "--fixtures", fixture, "--tags", "@E7", "--wait", "20s", "--report-dir", t.TempDir()}, &out, &errOut)
	if code != exitOK {
		t.Fatalf("run --wait 20s against a target up after 0.7s: exit %d, want %d\n%s%s", code, exitOK, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "waiting up to 20s (--wait)") {
		t.Errorf("expected the console to say it waits, got:\n%s", out.String())
	}
	for _, args := range [][]string{{"--rate", "20"}, {"--rate", "-1/s"}, {"--wait", "-1s"}, {"--poll-window", "0s"}} {
		var out, errOut bytes.Buffer
		if code := dispatch(append([]string{"run", "--report-dir", t.TempDir()}, args...), &out, &errOut); code != exitUsage || errOut.Len() == 0 {
			t.Errorf("campusconf run %s: expected exit %d and a message, got %d: %s", strings.Join(args, " "), exitUsage, code, errOut.String())
		}
	}
}

// TestRunUnderARateLimit: against the rate-limit variant with --rate, the
// run passes and the console and report.json give the figures.
func TestRunUnderARateLimit(t *testing.T) {
	sim, srv := serveSim(t, simulator.Options{Seed: 8, Variants: []string{"rate-limit"}})
	fixture := writeFixture(t, sim.Fixtures())
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	code := dispatch([]string{"run", "--target", srv.URL, "--fixtures", fixture, "--tags", "@E10", "--rate", "400/s", "--report-dir", dir}, &out, &errOut)
	if code != exitOK {
		t.Fatalf("run against rate-limit: exit %d, want %d\n%s%s", code, exitOK, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "rate limits: ") || !strings.Contains(out.String(), "capped at 400/s") {
		t.Errorf("expected the console's rate-limit line naming the cap, got:\n%s", out.String())
	}
	r, err := reports.ReadJSON(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.RateLimits == nil || r.RateLimits.Rate != "400/s" || r.RateLimits.Requests == 0 {
		t.Errorf("report.json: expected rateLimits with rate 400/s and the requests sent, got %+v", r.RateLimits)
	}
}
