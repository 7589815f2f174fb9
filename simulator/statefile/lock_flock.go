//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package statefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/campusconf/campusconf/internal/boundedfile"
)

// lockFile takes the lock file name: it creates it (never through a
// symbolic link: O_NOFOLLOW) and takes an exclusive flock on it without
// waiting. The lock goes with the process: a server that dies, even by
// kill -9, frees it, and the next one takes it over. A lock file a server
// left behind is replaced only when it is what this package writes: a
// regular file of this user, with no other link, holding a holder's line
// or nothing; anything else (a symbolic link, a FIFO, a device, another
// user's file, a hard link to another file, other content) is refused and
// left as it is, never truncated or written. A file removed by its last
// holder between our open and our flock is opened again, so two servers
// never both hold a lock, one of them on a file no longer at name.
func lockFile(name string) (*os.File, error) {
	for range maxLinks {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
		created := err == nil
		if errors.Is(err, fs.ErrExist) {
			// a lock file of another server, or one left behind: opened
			// to read, without following a link or blocking on a FIFO
			f, err = os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
			if errors.Is(err, fs.ErrNotExist) {
				continue // removed meanwhile: create it
			}
		}
		if err != nil {
			if errors.Is(err, syscall.ELOOP) {
				return nil, fmt.Errorf("%s is a symbolic link: expected a lock file of this user's, or none", name)
			}
			return nil, err
		}
		if err := ownLockFile(f, name); err != nil {
			_ = f.Close() // not ours: left as it is
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
		atName, err2 := os.Lstat(name)
		if err1 == nil && err2 == nil && os.SameFile(held, atName) {
			if created {
				return f, nil
			}
			// left behind by a server that is gone: ours to replace, by
			// a file of our own, not by writing into this one
			line, err := readLine(f)
			if err == nil && !isHolderLine(line) {
				err = fmt.Errorf("%s holds something other than a lock's holder line (%q): not a lock file of campusconf's; remove it, or give the state file another name", name, clip(line))
			}
			if err == nil {
				err = os.Remove(name)
			}
			_ = f.Close() // frees the lock of the file removed
			if err != nil {
				return nil, err
			}
			continue
		}
		_ = f.Close() // a file no longer at name: try again
		if err1 != nil {
			return nil, err1
		}
		if err2 != nil && !errors.Is(err2, fs.ErrNotExist) {
			return nil, err2
		}
	}
	return nil, fmt.Errorf("%s: replaced by another process at every try", name)
}

// ownLockFile refuses a lock file this package would not have written: not
// a regular file, not this user's, or linked elsewhere too.
func ownLockFile(f *os.File, name string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is a %s: expected a lock file (a regular file) of this user's, or none", name, boundedfile.Kind(fi.Mode()))
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		if int(st.Uid) != os.Geteuid() {
			return fmt.Errorf("%s belongs to user %d, not to this user (%d): expected a lock file of this user's, or none", name, st.Uid, os.Geteuid())
		}
		if st.Nlink != 1 {
			return fmt.Errorf("%s has %d links: it is another file's too; expected a lock file of its own, or none", name, st.Nlink)
		}
	}
	return nil
}

// unlockFile removes the lock file, while it still holds the lock and
// only when the file at name is still the one it holds, then closes it,
// which frees the lock.
func unlockFile(f *os.File, name string) error {
	held, err1 := f.Stat()
	atName, err2 := os.Lstat(name)
	if err1 == nil && err2 == nil && os.SameFile(held, atName) {
		_ = os.Remove(name) // a lock file left behind is taken over by the next server
	}
	return f.Close()
}

// openNoFollowRead opens a lock file to read a holder's line: never
// through a symbolic link, never blocking on a FIFO.
func openNoFollowRead(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
