package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/campusconf/campusconf/simulator"
)

func TestLoadInProcess(t *testing.T) {
	for _, op := range []string{"E10", "NR", "NG"} {
		t.Run(op, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := dispatch([]string{"load", "--duration", "200ms", "--concurrency", "2", "--op", op}, &out, &errOut)
			if code != exitOK {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, exitOK, out.String(), errOut.String())
			}
			for _, re := range []string{`requests: [1-9]\d* in .*, \d+ requests/s`, `latency: p50 \S+, p90 \S+, p99 \S+, max \S+`, `errors: 0 \((200|204): \d+\)`} {
				if !regexp.MustCompile(re).MatchString(out.String()) {
					t.Errorf("stdout does not match %s:\n%s", re, out.String())
				}
			}
		})
	}
}

// TestLoadTarget loads a loopback server through a fixture file, and
// counts answers that are not 2xx as errors (exit 1).
func TestLoadTarget(t *testing.T) {
	sim, srv := serveSim(t, simulator.Options{Faults: simulator.Faults{Operation: "E13", OperationRate: 0.5}})
	fixture := writeFixture(t, sim.Fixtures())
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"load", "--target", srv.URL, "--fixtures", fixture, "--duration", "200ms", "--op", "E20"}, &out, &errOut); code != exitOK {
		t.Fatalf("E20: exit %d, want %d\n%s%s", code, exitOK, out.String(), errOut.String())
	}
	out.Reset()
	code := dispatch([]string{"load", "--target", srv.URL + "/", "--fixtures", fixture, "--duration", "200ms", "--op", "E13"}, &out, &errOut)
	if code != exitFailed || !regexp.MustCompile(`errors: [1-9]\d* \(200: \d+, 500: \d+\)`).MatchString(out.String()) {
		t.Errorf("E13 with injected 500s: exit %d, want %d, and the 500s counted as errors:\n%s%s", code, exitFailed, out.String(), errOut.String())
	}
}

func TestLoadRefuses(t *testing.T) {
	fixture := writeFile(t, t.TempDir(), "f.json", `{"version": 1}`)
	tests := []struct {
		name string
		args []string
		want int
		msg  string
	}{
		{"remote target", []string{"--target", "http://example.com", "--fixtures", fixture}, exitUsage, "not a loopback"},
		{"remote IP", []string{"--target", "http://10.0.0.1:8080", "--fixtures", fixture}, exitUsage, "--allow-remote"},
		{"name resolving to loopback is still a name", []string{"--target", "http://localhost.example.com", "--fixtures", fixture}, exitUsage, "loopback"},
		{"not a URL", []string{"--target", "127.0.0.1:8080", "--fixtures", fixture}, exitUsage, "http://"},
		{"target without fixtures", []string{"--target", "http://127.0.0.1:1"}, exitUsage, "--fixtures"},
		{"fixtures without target", []string{"--fixtures", fixture}, exitUsage, "--target"},
		{"unbounded", []string{"--duration", "0s"}, exitUsage, "--duration"},
		{"too long", []string{"--duration", "11m"}, exitUsage, "--duration"},
		{"too many", []string{"--concurrency", "1000"}, exitUsage, "--concurrency"},
		{"unknown op", []string{"--op", "E99"}, exitUsage, "--op"},
		{"write op", []string{"--op", "E6"}, exitUsage, "--op"},
		{"rate without a unit", []string{"--rate", "20"}, exitUsage, "--rate"},
		{"fixture without the record", []string{"--target", "http://127.0.0.1:1", "--fixtures", fixture, "--op", "E13"}, exitUsage, "fixture"},
		{"a rate of nothing", []string{"--rate", "0/s"}, exitUsage, "--rate"},
		{"a rate in words", []string{"--rate", "fast"}, exitUsage, "--rate"},
		{"targets of the in-process simulator", []string{"--targets", "t.json"}, exitUsage, "--targets needs --target"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if got := dispatch(append([]string{"load"}, tt.args...), &out, &errOut); got != tt.want {
				t.Errorf("exit %d, want %d\nstderr: %s", got, tt.want, errOut.String())
			}
			if !strings.Contains(errOut.String(), tt.msg) {
				t.Errorf("stderr = %q, want it to mention %q", errOut.String(), tt.msg)
			}
		})
	}
}

func TestLoadUnreachable(t *testing.T) {
	fixture := writeFile(t, t.TempDir(), "f.json", `{"version": 1, "records": {"media": "ffea3238-5b08-4cca-9a9e-88c115e907cb"}}`)
	var out, errOut bytes.Buffer
	if got := dispatch([]string{"load", "--target", "http://127.0.0.1:1", "--fixtures", fixture, "--op", "E13", "--duration", "100ms"}, &out, &errOut); got != exitUnreachable {
		t.Errorf("exit %d, want %d\nstderr: %s", got, exitUnreachable, errOut.String())
	}
}

// TestLoadOpenModel: --rate sends at the rate (open model); --report-dir
// keeps vegeta's results, which its decoder reads, its metrics and an
// HTML latency plot.
func TestLoadOpenModel(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	code := dispatch([]string{"load", "--rate", "100/s", "--duration", "500ms", "--concurrency", "8", "--report-dir", dir}, &out, &errOut)
	if code != exitOK {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitOK, out.String(), errOut.String())
	}
	m := regexp.MustCompile(`requests: (\d+) in `).FindStringSubmatch(out.String())
	if m == nil || !strings.Contains(out.String(), "open model at 100/s, at most 8 in flight") {
		t.Fatalf("stdout: expected the open model and a request count, got:\n%s", out.String())
	}
	if n, _ := strconv.Atoi(m[1]); n < 40 || n > 60 {
		t.Errorf("requests: expected about 50 at 100/s for 500ms, got %d", n)
	}
	f, err := os.Open(filepath.Join(dir, "results.bin"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var met vegeta.Metrics
	dec := vegeta.NewDecoder(f)
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("results.bin: vegeta's decoder: %v", err)
		}
		met.Add(&r)
	}
	met.Close()
	if strconv.Itoa(int(met.Requests)) != m[1] || met.Success != 1 {
		t.Errorf("results.bin: expected the %s requests printed, all successful, got %d, success %v", m[1], met.Requests, met.Success)
	}
	for name, want := range map[string]string{"plot.html": "<html", "metrics.json": `"latencies"`} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !strings.Contains(string(data), want) {
			t.Errorf("%s: expected %q in it, got %.100q (%v)", name, want, data, err)
		}
	}
}

// TestLoadTargets: --targets writes the request as vegeta's JSON targets,
// private to its owner, and sends nothing.
func TestLoadTargets(t *testing.T) {
	_, fx := newSim(t, simulator.Options{})
	fixture := writeFixture(t, fx)
	file := filepath.Join(t.TempDir(), "targets.json")
	var out, errOut bytes.Buffer
	// a target nobody listens on: nothing is sent
	if code := dispatch([]string{"load", "--target", "http://campus.example.edu", "--fixtures", fixture, "--op", "E20", "--targets", file}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitOK, out.String(), errOut.String())
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("targets file: expected mode 0600, got %v (%v)", st, err)
	}
	data, _ := os.ReadFile(file)
	var tgt vegeta.Target
	if err := vegeta.NewJSONTargeter(bytes.NewReader(data), nil, nil)(&tgt); err != nil {
		t.Fatalf("targets file: vegeta's JSON targeter: %v (%s)", err, data)
	}
	if !strings.HasPrefix(tgt.URL, "http://campus.example.edu/") || tgt.Method != "GET" || tgt.Header.Get("Ocp-Apim-Subscription-Key") != fx.SubscriptionKey {
		t.Errorf("targets file: expected GET http://campus.example.edu/... with the fixture's key, got %+v", tgt)
	}
	if !strings.Contains(out.String(), "vegeta attack -format=json -targets="+file) {
		t.Errorf("stdout: expected how to run the targets with vegeta, got:\n%s", out.String())
	}
}

// TestLoadRate: --rate caps the requests per second, with run's syntax.
func TestLoadRate(t *testing.T) {
	var out, errOut bytes.Buffer
	code := dispatch([]string{"load", "--duration", "500ms", "--concurrency", "4", "--op", "E10", "--rate", "40/s"}, &out, &errOut)
	if code != exitOK {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitOK, out.String(), errOut.String())
	}
	m := regexp.MustCompile(`requests: (\d+) in`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no request count in:\n%s", out.String())
	}
	if n, _ := strconv.Atoi(m[1]); n < 5 || n > 30 {
		t.Errorf("--rate 40/s for 500ms: expected about 20 requests, got %d", n)
	}
}
