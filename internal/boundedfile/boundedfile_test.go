//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package boundedfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("file", link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	tests := []struct {
		name, path string
		max        int64
		kind       string // of a NotRegularError
		tooLarge   bool
		absent     bool
	}{
		{"within the bound", file, 5, "", false, false},
		{"through a link", link, 5, "", false, false},
		{"past the bound", file, 4, "", true, false},
		{"a FIFO", fifo, 5, "named pipe (FIFO)", false, false},
		{"a directory", dir, 5, "directory", false, false},
		{"a device", os.DevNull, 5, "device", false, false},
		{"absent", filepath.Join(dir, "absent"), 5, "", false, true},
	}
	for _, tt := range tests {
		done := make(chan struct{})
		var data []byte
		var err error
		go func() { data, err = Read(tt.path, tt.max); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Read still blocked after 5s", tt.name)
		}
		var nr *NotRegularError
		var tl *TooLargeError
		switch {
		case tt.kind != "":
			if !errors.As(err, &nr) || nr.Kind != tt.kind {
				t.Errorf("%s: expected a NotRegularError of kind %q, got %v", tt.name, tt.kind, err)
			}
		case tt.tooLarge:
			if !errors.As(err, &tl) || tl.Size != 5 || tl.Max != tt.max {
				t.Errorf("%s: expected a TooLargeError of 5 bytes over %d, got %v", tt.name, tt.max, err)
			}
		case tt.absent:
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: expected fs.ErrNotExist, got %v", tt.name, err)
			}
		default:
			if err != nil || string(data) != "12345" {
				t.Errorf("%s: expected the content, got %q, %v", tt.name, data, err)
			}
		}
	}
}
