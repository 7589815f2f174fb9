package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer a running server writes while the test
// reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// server is `campusconf serve` run by a test through runServe.
type server struct {
	base           string // http://127.0.0.1:PORT, once listening
	stdout, stderr *lockedBuffer
	stop           func() int // ends it as SIGINT would; its exit code
}

var listening = regexp.MustCompile(`listening on (http://\S+) `)

// startServer runs serve with args (on a free loopback port unless args
// give --addr) until it listens, or returns its exit code when it ends
// before.
func startServer(t *testing.T, args ...string) (*server, int) {
	t.Helper()
	args = append([]string{"--addr", "127.0.0.1:0", "--log", "off"}, args...)
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{stdout: &lockedBuffer{}, stderr: &lockedBuffer{}}
	done := make(chan int, 1)
	go func() { done <- runServe(ctx, args, s.stdout, s.stderr) }()
	s.stop = func() int { return stopServe(t, cancel, done, 10*time.Second) }
	deadline := time.After(10 * time.Second)
	for {
		if m := listening.FindStringSubmatch(s.stdout.String()); m != nil {
			s.base = m[1]
			t.Cleanup(func() { cancel() })
			return s, -1
		}
		select {
		case code := <-done:
			cancel()
			return s, code
		case <-deadline:
			cancel()
			t.Fatalf("serve %v: not listening after 10s; stdout %q, stderr %q", args, s.stdout, s.stderr)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// healthz sends GET /healthz to s with the Host header host ("" keeps the
// URL's).
func (s *server) healthz(t *testing.T, host string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", s.base+"/healthz", nil)
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeHostCheck: a served simulator answers its own names (loopback,
// IP addresses, --allowed-hosts, CAMPUSCONF_ALLOWED_HOSTS) and 421 with a
// JSON string for a foreign Host; --allowed-hosts * answers any, with a
// warning on the console.
func TestServeHostCheck(t *testing.T) {
	t.Setenv("CAMPUSCONF_ALLOWED_HOSTS", "")
	s, code := startServer(t, "--allowed-hosts", "campus-api, .dev.example.edu")
	if code >= 0 {
		t.Fatalf("serve exited %d: %s", code, s.stderr)
	}
	port := s.base[strings.LastIndexByte(s.base, ':'):]
	for _, host := range []string{"", "localhost" + port, "campus-api" + port, "web.dev.example.edu" + port, "10.0.0.7" + port} {
		if status, body := s.healthz(t, host); status != http.StatusOK {
			t.Errorf("GET /healthz with Host %q: expected 200, got %d: %s", host, status, body)
		}
	}
	status, body := s.healthz(t, "evil.example"+port)
	var msg string
	if status != http.StatusMisdirectedRequest || json.Unmarshal([]byte(body), &msg) != nil || !strings.Contains(msg, "--allowed-hosts evil.example") {
		t.Errorf("GET /healthz with Host evil.example: expected 421 with a JSON string naming --allowed-hosts, got %d: %s", status, body)
	}
	if !strings.Contains(s.stdout.String(), "hosts localhost, IP addresses, campus-api, .dev.example.edu") {
		t.Errorf("start-up line %q: expected the allowed hosts", s.stdout)
	}
	if code := s.stop(); code != exitOK {
		t.Errorf("serve ended with %d, want %d", code, exitOK)
	}

	t.Setenv("CAMPUSCONF_ALLOWED_HOSTS", "campus-api")
	s, _ = startServer(t)
	if status, body := s.healthz(t, "campus-api"); status != http.StatusOK {
		t.Errorf("CAMPUSCONF_ALLOWED_HOSTS=campus-api: GET with Host campus-api: expected 200, got %d: %s", status, body)
	}
	s.stop()

	s, _ = startServer(t, "--allowed-hosts", "*")
	if status, body := s.healthz(t, "evil.example"); status != http.StatusOK {
		t.Errorf("--allowed-hosts *: GET with Host evil.example: expected 200, got %d: %s", status, body)
	}
	if !strings.Contains(s.stderr.String(), "warning: --allowed-hosts * switches the host check off") {
		t.Errorf("--allowed-hosts *: stderr %q, expected a warning", s.stderr)
	}
	s.stop()
}

// TestServeStateLock: a second server on the same state file (or a link
// to it) is refused with exit 2 naming the first one's address; once the
// first stops, the next starts.
func TestServeStateLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	first, code := startServer(t, "--state", path)
	if code >= 0 {
		t.Fatalf("first serve exited %d: %s", code, first.stderr)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("state.json", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, link} {
		second, code := startServer(t, "--state", p)
		if code != exitUsage {
			second.stop()
			t.Fatalf("second serve on %s: exit %d, want %d (stdout %q)", p, code, exitUsage, second.stdout)
		}
		msg := second.stderr.String()
		addr := strings.TrimPrefix(first.base, "http://")
		if !strings.Contains(msg, "in use by campusconf serve (pid ") || !strings.Contains(msg, addr) || strings.Count(strings.TrimSpace(msg), "\n") != 0 {
			t.Errorf("second serve on %s: stderr %q, want one line naming the first server's address %s", p, msg, addr)
		}
	}
	if code := first.stop(); code != exitOK {
		t.Fatalf("first serve ended with %d: %s", code, first.stderr)
	}
	third, code := startServer(t, "--state", link)
	if code >= 0 {
		t.Fatalf("serve after the first stopped: exit %d: %s", code, third.stderr)
	}
	if !strings.Contains(third.stdout.String(), "worlds loaded from") {
		t.Errorf("third serve: stdout %q, want the worlds the first one wrote loaded", third.stdout)
	}
	if code := third.stop(); code != exitOK {
		t.Fatalf("third serve ended with %d: %s", code, third.stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("after a server wrote through %s it is no longer a symbolic link (%v)", link, err)
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Errorf("lock file after the last server stopped: %v, want it removed", err)
	}
}

// TestServeStateRefused: a state file that cannot be kept stops serve at
// start with exit 2 and one line saying why: a missing or unwritable
// directory, a file over the size limit; a clock out of range too.
func TestServeStateRefused(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 300<<20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, bytes.Repeat([]byte(" "), 2<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing directory", []string{"--state", filepath.Join(dir, "nope", "state.json")}, "does not exist"},
		{"a directory", []string{"--state", dir}, "is a directory"},
		{"over 256 MB", []string{"--state", big}, "holds 314572800 bytes (300.0 MB), over the limit of 268435456 bytes"},
		{"over --state-max-mb", []string{"--state", small, "--state-max-mb", "1"}, "holds 2097152 bytes"},
		{"clock past the range", []string{"--clock", "9999-01-01T00:00:00Z"}, "--clock: expected a date-time from 1971-01-01T00:00:00Z to 9000-01-01T00:00:00Z"},
		{"clock before it", []string{"--clock", "1970-01-01T00:00:00Z"}, "--clock"},
		{"port in an allowed host", []string{"--allowed-hosts", "api:8080"}, "--allowed-hosts"},
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o500); err != nil {
			t.Fatal(err)
		}
		tests = append(tests, struct {
			name string
			args []string
			want string
		}{"unwritable directory", []string{"--state", filepath.Join(ro, "state.json")}, "cannot write"})
	} else if fi, err := os.Stat("/sys"); err == nil && fi.IsDir() {
		tests = append(tests, struct {
			name string
			args []string
			want string
		}{"unwritable directory", []string{"--state", "/sys/state.json"}, "cannot write"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, code := startServer(t, tt.args...)
			if code != exitUsage {
				if code < 0 {
					s.stop()
				}
				t.Fatalf("serve %v: exit %d, want %d", tt.args, code, exitUsage)
			}
			msg := s.stderr.String()
			if !strings.Contains(msg, tt.want) || strings.Count(strings.TrimSpace(msg), "\n") != 0 {
				t.Errorf("serve %v: stderr %q, want one line containing %q", tt.args, msg, tt.want)
			}
			if s.stdout.String() != "" {
				t.Errorf("serve %v: stdout %q, want nothing (it never listened)", tt.args, s.stdout)
			}
		})
	}
	if fi, _ := os.Stat(small); fi.Size() != 2<<20 {
		t.Error("the refused state file was changed")
	}
}
