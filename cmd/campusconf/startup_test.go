package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/nettest"
	"github.com/campusconf/campusconf/simulator"
)

// TestServeDefaultsLoopbackWithoutControl: with no flags, serve listens on
// a loopback address only and the control API (which needs no
// credentials) is not served.
func TestServeDefaultsLoopbackWithoutControl(t *testing.T) {
	c, err := parseServe(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	host, _, err := net.SplitHostPort(c.addr)
	if err != nil {
		t.Fatal(err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		t.Errorf("default --addr %q, want a loopback address", c.addr)
	}
	if c.opts.Control {
		t.Error("the control API is on by default, want it off")
	}
	base, stop := startServe(t, c)
	defer stop()
	for _, r := range []struct{ method, path string }{
		{"POST", "/_sim/reset"}, {"GET", "/_sim/fixtures"}, {"GET", "/_sim/faults"}, {"PUT", "/_sim/faults"},
	} {
		req, _ := http.NewRequest(r.method, base+r.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s %s without --control: status %d, want 404", r.method, r.path, resp.StatusCode)
		}
	}
}

// startServe runs serve with c on a free loopback port; stop shuts it
// down and waits for it.
func startServe(tb testing.TB, c serveConfig) (base string, stop func()) {
	base, _, stop = startServeWith(tb, c)
	return base, stop
}

// startServeWith is startServe, which also returns the fixture of the
// world served.
func startServeWith(tb testing.TB, c serveConfig) (base string, fx *fixtures.File, stop func()) {
	tb.Helper()
	c.log = "off"
	base, sim, stopped := serveForTest(tb, c, false, io.Discard, io.Discard)
	return base, sim.Fixtures(), func() { stopped() }
}

// serveForTest runs serve with c on a free loopback port (load: the
// --state file loaded first, as runServe does), and returns its base URL,
// its simulator and stop, which ends it as SIGINT would and returns its
// exit code.
func serveForTest(tb testing.TB, c serveConfig, load bool, stdout, stderr io.Writer) (string, *simulator.Simulator, func() int) {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	sim, err := simulator.New(c.opts)
	if err != nil {
		tb.Fatal(err)
	}
	if load {
		if _, err := sim.LoadState(c.state, 0); err != nil {
			tb.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- serve(ctx, ln, sim, c, stdout, stderr) }()
	return "http://" + ln.Addr().String(), sim, func() int { return stopServe(tb, cancel, done, 15*time.Second) }
}

// parsedServe is the serve configuration of args, adjusted by adjust when
// given.
func parsedServe(t *testing.T, args []string, adjust func(*serveConfig)) serveConfig {
	t.Helper()
	c, err := parseServe(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if adjust != nil {
		adjust(&c)
	}
	return c
}

// BenchmarkServeStartToFirstAnswer is the start-up budget in process: build
// the default world, listen on loopback, and answer the first operation
// (an E10 page) over HTTP. The binary's own start is measured as
// BENCHMARKS.md describes.
func BenchmarkServeStartToFirstAnswer(b *testing.B) {
	c, err := parseServe(nil, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		base, fx, stop := startServeWith(b, c)
		if status := asOwner(b, fx, "GET", base+"/files/"+fx.Records.Folder+"/downloaded?limit=20", ""); status != http.StatusOK {
			b.Fatalf("first answer: status %d", status)
		}
		b.StopTimer()
		stop()
		http.DefaultClient.CloseIdleConnections()
		b.StartTimer()
	}
}

// BenchmarkServeBinaryStartToFirstAnswer is the start-up budget of the
// built binary: from starting `campusconf serve --addr 127.0.0.1:0` to the
// first answered operation (an E10 page), as a container's wait strategy
// sees it. The binary is built once, before timing.
func BenchmarkServeBinaryStartToFirstAnswer(b *testing.B) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("no go tool to build the binary")
	}
	bin := filepath.Join(b.TempDir(), "campusconf")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	_, fx := newSim(b, simulator.Options{}) // the binary's default world is the same
	for b.Loop() {
		cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--log", "off")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		line, err := bufio.NewReader(stdout).ReadString('\n')
		_, rest, found := strings.Cut(line, "listening on ")
		addr, _, _ := strings.Cut(rest, " ")
		if err != nil || !found {
			_ = cmd.Process.Kill() // failing anyway
			b.Fatalf("serve printed %q (%v), want its address", line, err)
		}
		b.Cleanup(func() { _ = cmd.Process.Kill() }) // after a failure; a no-op once it has ended
		if status := asOwner(b, fx, "GET", addr+"/files/"+fx.Records.Folder+"/downloaded?limit=20", ""); status != http.StatusOK {
			b.Fatalf("first answer: status %d", status)
		}
		b.StopTimer()
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			b.Fatal(err)
		}
		_ = cmd.Wait() // exits with the interrupt's status
		http.DefaultClient.CloseIdleConnections()
		b.StartTimer()
	}
}

// TestServeAnswersBadRequestsAsJSON: serve's own server (not only the
// handler) answers what net/http refuses before any handler, and headers
// over simulator.MaxHeaderBytes, with a JSON string body.
func TestServeAnswersBadRequestsAsJSON(t *testing.T) {
	c, err := parseServe([]string{"--log", "off"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	base, stop := startServe(t, c)
	defer stop()
	addr := strings.TrimPrefix(base, "http://")
	tests := []struct {
		name, request string
		want          int
	}{
		{"bad escape in the path", "GET /files/%zz/downloaded HTTP/1.1\r\nHost: " + addr + "\r\n\r\n", http.StatusBadRequest},
		{"headers over the limit", "GET /healthz HTTP/1.1\r\nHost: " + addr + "\r\nX-Big: " + strings.Repeat("a", simulator.MaxHeaderBytes+8<<10) + "\r\n\r\n", http.StatusRequestHeaderFieldsTooLarge},
		{"OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: " + addr + "\r\n\r\n", http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := nettest.Exchange(t, addr, tt.request)
			var msg string
			if resp.StatusCode != tt.want || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(body, &msg) != nil {
				t.Errorf("expected %d with a JSON string body, got %d %q: %q", tt.want, resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
		})
	}
}
