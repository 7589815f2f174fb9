//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package statefile

import (
	"errors"
	"io/fs"
	"os"
)

// lockFile creates name, failing when it exists: the portable fallback
// where flock is not at hand. It never opens a file it did not create. A
// server that dies without Release leaves the file behind; the refusal
// names its holder, and removing the file lets the next server start.
func lockFile(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil, errHeld
	}
	return f, err
}

// unlockFile closes and removes the lock file.
func unlockFile(f *os.File, name string) error {
	err := f.Close()
	if rmErr := os.Remove(name); err == nil {
		err = rmErr
	}
	return err
}

// openNoFollowRead opens a lock file to read a holder's line.
func openNoFollowRead(name string) (*os.File, error) { return os.Open(name) }
