//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package statefile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// lockFile opens name and takes an exclusive flock on it without waiting.
// The lock goes with the process: a server that dies, even by kill -9,
// frees it, and the next one takes it over. A file removed by its last
// holder between our open and our flock is opened again, so two servers
// never both hold a lock, one of them on a file no longer at name.
func lockFile(name string) (*os.File, error) {
	for {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			_ = f.Close() // not ours
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, errHeld
			}
			return nil, err
		}
		held, err1 := f.Stat()
		atName, err2 := os.Stat(name)
		if err1 == nil && err2 == nil && os.SameFile(held, atName) {
			return f, nil
		}
		_ = f.Close() // a file no longer at name: try again
		if err1 != nil {
			return nil, err1
		}
		if err2 != nil && !errors.Is(err2, fs.ErrNotExist) {
			return nil, err2
		}
	}
}

// unlockFile removes the lock file while it still holds the lock, then
// closes it, which frees the lock.
func unlockFile(f *os.File, name string) error {
	_ = os.Remove(name) // a lock file left behind is taken over by the next server
	return f.Close()
}
