//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package statefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test when f takes longer than a few seconds: a FIFO
// opened for reading would block for ever.
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still blocked after 5s", what)
		return nil
	}
}

// TestLockRefusesWhatItDidNotCreate reproduces issue 45's lock that
// followed links: FILE.lock as a symbolic link to another file truncated
// and overwrote that file; pointing at FILE, it left the state file at
// 55 bytes. Now every lock path that is not a lock file of this user's is
// refused, and what is there is left byte for byte: a link (to another
// file, to the state file, dangling), a hard link, a FIFO, a directory, a
// file holding something else, another user's file. A lock file a server
// that is gone left behind is taken over.
func TestLockRefusesWhatItDidNotCreate(t *testing.T) {
	const precious = "precious content, not a lock\n"
	tests := []struct {
		name string
		make func(t *testing.T, dir, lock string) (keep string) // the file whose bytes must stay
		want string
	}{
		{"a symbolic link to another file", func(t *testing.T, dir, lock string) string {
			victim := filepath.Join(dir, "victim.txt")
			write(t, victim, precious)
			symlinks(t, [2]string{victim, lock})
			return victim
		}, "is a symbolic link"},
		{"a symbolic link to the state file", func(t *testing.T, dir, lock string) string {
			state := strings.TrimSuffix(lock, ".lock")
			write(t, state, `{"version":1,"worlds":{}}`+"\n")
			symlinks(t, [2]string{state, lock})
			return state
		}, "is a symbolic link"},
		{"a dangling symbolic link", func(t *testing.T, dir, lock string) string {
			symlinks(t, [2]string{filepath.Join(dir, "nowhere"), lock})
			return ""
		}, "is a symbolic link"},
		{"a hard link to another file", func(t *testing.T, dir, lock string) string {
			victim := filepath.Join(dir, "victim.txt")
			write(t, victim, "campusconf serve (pid 1) at http://127.0.0.1:1\n")
			if err := os.Link(victim, lock); err != nil {
				t.Skipf("hard links: %v", err)
			}
			return victim
		}, "has 2 links"},
		{"a FIFO", func(t *testing.T, dir, lock string) string {
			if err := syscall.Mkfifo(lock, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			return ""
		}, "is a named pipe (FIFO)"},
		{"a directory", func(t *testing.T, dir, lock string) string {
			if err := os.Mkdir(lock, 0o700); err != nil {
				t.Fatal(err)
			}
			return ""
		}, "is a directory"},
		{"a file holding something else", func(t *testing.T, dir, lock string) string {
			write(t, lock, precious)
			return lock
		}, "holds something other than a lock's holder line"},
		{"another user's file", func(t *testing.T, dir, lock string) string {
			if os.Geteuid() != 0 {
				t.Skip("only root can give a file to another user")
			}
			write(t, lock, "campusconf serve (pid 1) at http://127.0.0.1:1\n")
			if err := os.Chown(lock, 65534, 65534); err != nil {
				t.Skipf("chown: %v", err)
			}
			return lock
		}, "belongs to user 65534"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			state := filepath.Join(dir, "state.json")
			keep := tt.make(t, dir, state+".lock")
			var before []byte
			if keep != "" {
				before, _ = os.ReadFile(keep)
			}
			err := within(t, "Acquire", func() error {
				l, err := Acquire(state, "campusconf serve (pid 2) at http://127.0.0.1:2")
				if err == nil {
					_ = l.Release()
				}
				return err
			})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Acquire: expected a refusal saying %q, got %v", tt.want, err)
			}
			if keep != "" {
				if after, _ := os.ReadFile(keep); string(after) != string(before) {
					t.Errorf("%s: expected it left as it was (%q), got %q", keep, before, after)
				}
			}
		})
	}

	t.Run("left behind by a server that is gone", func(t *testing.T) {
		dir := t.TempDir()
		state := filepath.Join(dir, "state.json")
		write(t, state+".lock", "campusconf serve (pid 1) at http://127.0.0.1:1\n")
		takesLock(t, state, state+".lock", "campusconf serve (pid 2) at http://127.0.0.1:2")
	})
}

// TestStateFileMustBeRegular reproduces issue 45's FIFO given as the state
// file, which hung serve in open(), holding the port and the lock, deaf
// to SIGTERM: a FIFO, a device and a directory are refused at once, by
// CheckDir (before the port is taken) and by Read.
func TestStateFileMustBeRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	device := filepath.Join(dir, "device.json")
	symlinks(t, [2]string{os.DevNull, device})
	folder := filepath.Join(dir, "folder.json")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{fifo, "is a named pipe (FIFO)"},
		{device, "is a device"},
		{folder, "is a directory"},
	} {
		for _, f := range []struct {
			name string
			call func() error
		}{
			{"CheckDir", func() error { return CheckDir(c.path) }},
			{"Read", func() error { _, err := Read(c.path, DefaultMaxBytes); return err }},
		} {
			err := within(t, f.name+"("+c.path+")", f.call)
			if err == nil || !strings.Contains(err.Error(), c.want) || errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s(%s): expected a refusal saying %q, got %v", f.name, c.path, c.want, err)
			}
		}
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
