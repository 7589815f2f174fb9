//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeRefusesUnsafeStateFiles reproduces issue 45's state file
// findings through the command: a FIFO given as the state file hung serve
// in open(), holding the port and the lock, deaf to SIGTERM; a FILE.lock
// pointing at FILE left the state file at 55 bytes. Both are refused at
// once with exit 2, and the files are left as they were.
func TestServeRefusesUnsafeStateFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	state := filepath.Join(dir, "state.json")
	// a state file a server wrote: serve once, then stop
	_, _, stop := serveForTest(t, parsedServe(t, []string{"--log", "off", "--state", state, "--state-every", "0"}, nil), false, io.Discard, io.Discard)
	if code := stop(); code != exitOK {
		t.Fatalf("first serve: exit %d", code)
	}
	before, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("state.json", state+".lock"); err != nil {
		t.Skipf("symbolic links: %v", err)
	}
	for _, tt := range []struct{ name, file, want string }{
		{"a FIFO as the state file", fifo, "is a named pipe (FIFO)"},
		{"the lock a link to the state file", state, "is a symbolic link"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := make(chan int, 1)
			go func() {
				code <- serveCmd([]string{"--addr", "127.0.0.1:0", "--log", "off", "--state", tt.file}, io.Discard, &stderr)
			}()
			select {
			case got := <-code:
				if got != exitUsage || !strings.Contains(stderr.String(), tt.want) {
					t.Errorf("serve --state %s: expected exit %d saying %q, got %d: %q", tt.file, exitUsage, tt.want, got, stderr.String())
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("serve --state %s: still running after 5s, expected an exit 2 at once", tt.file)
			}
		})
	}
	if after, _ := os.ReadFile(state); !bytes.Equal(after, before) {
		t.Errorf("state file: expected it left as it was (%d bytes), got %d bytes", len(before), len(after))
	}
}
