// Package statefile keeps the state file of `campusconf serve --state`
// safe: its directory is checked before the server starts, a lock keeps a
// second server off it, writes are atomic and go to the target of a
// symbolic link (the link stays a link), and a file over a size limit, or
// one that is not a regular file (a FIFO, a device, a directory), is
// refused without being read. The lock file is never followed through a
// link nor written unless this package created it. It knows nothing of
// what the state file holds.
package statefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/campusconf/campusconf/internal/boundedfile"
)

// DefaultMaxBytes is the size over which Read refuses a state file.
const DefaultMaxBytes = 256 << 20

// maxLinks bounds the symbolic links Target follows (as Linux does).
const maxLinks = 40

// Target returns the file path names once its symbolic links are
// followed: the file a write must replace. The final target need not exist
// yet (a link to a file not written so far).
func Target(path string) (string, error) {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			// not a link, or nothing there yet (or nothing that can be
			// there: the caller's own open or stat says why)
			return p, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return "", fmt.Errorf("%s: more than %d symbolic links", path, maxLinks)
}

// CheckDir reports why the state file path cannot be kept: its directory
// (the directory of its link's target) does not exist, is not a
// directory, or refuses a new file; or the path is a directory. It creates
// and removes one empty temporary file.
func CheckDir(path string) error {
	target, err := Target(path)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(target); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is a %s: expected a state file (a regular file), or a name for one", target, boundedfile.Kind(fi.Mode()))
	}
	dir := filepath.Dir(target)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("the directory %s does not exist: create it, or name a file in one that does", dir)
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	probe, err := os.CreateTemp(dir, ".campusconf-probe-*")
	if err != nil {
		return fmt.Errorf("cannot write in the directory %s: %w", dir, unwrapPath(err))
	}
	name := probe.Name()
	_ = probe.Close()   // empty: nothing to lose
	_ = os.Remove(name) // a leftover probe is harmless
	return nil
}

// TooBigError is Read's refusal of a file over the limit.
type TooBigError struct {
	Path      string
	Size, Max int64
}

func (e *TooBigError) Error() string {
	return fmt.Sprintf("%s holds %d bytes (%s), over the limit of %d bytes (%s); it was not read",
		e.Path, e.Size, human(e.Size), e.Max, human(e.Max))
}

// human writes n bytes in MB (of 2^20 bytes), or in bytes below one.
func human(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

// Read returns the content of path's target. A file that is not a
// regular file (a FIFO, a device, a directory) is refused at once, and
// one over max bytes with a *TooBigError, both before any of it is read
// (internal/boundedfile; a file growing meanwhile is cut off at max+1
// bytes and refused too). An absent file gives an error matching
// fs.ErrNotExist.
func Read(path string, max int64) ([]byte, error) {
	target, err := Target(path)
	if err != nil {
		return nil, err
	}
	data, err := boundedfile.Read(target, max)
	var nr *boundedfile.NotRegularError
	var tl *boundedfile.TooLargeError
	switch {
	case errors.As(err, &nr):
		return nil, fmt.Errorf("%s is a %s: expected a state file (a regular file)", target, nr.Kind)
	case errors.As(err, &tl):
		return nil, &TooBigError{Path: path, Size: tl.Size, Max: max}
	}
	return data, err
}

// Write replaces path's target with data atomically: a temporary file in
// the target's directory, synced, then renamed over it, so a crash leaves
// the previous content and a symbolic link stays a link. The file is
// readable by its owner only (it holds credentials).
func Write(path string, data []byte) error {
	target, err := Target(path)
	if err != nil {
		return err
	}
	return writeAtomic(target, data)
}

// writeAtomic writes data to name through a temporary file beside it
// (mode 0600), synced and renamed over name, so that a reader sees the
// old content or the new, never a part.
func writeAtomic(name string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // after a successful rename there is nothing to remove
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close() // the error to report is the one before
		return err
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close() // the error to report is the one before
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// HeldError is Acquire's refusal: another server holds the state file.
type HeldError struct {
	// Path is the state file; Holder what its holder wrote in the lock
	// file (the command, its process id and address).
	Path, Holder string
}

func (e *HeldError) Error() string {
	holder := e.Holder
	if holder == "" {
		holder = "another server (it has not said which)"
	}
	return fmt.Sprintf("%s is in use by %s: stop that server, or give this one another state file", e.Path, holder)
}

// Lock is a state file's lock, held until Release.
type Lock struct {
	file *os.File
	name string
}

// LockName is the lock file of the state file path: next to its target,
// so every link to one file shares one lock.
func LockName(path string) (string, error) {
	target, err := Target(path)
	if err != nil {
		return "", err
	}
	return target + ".lock", nil
}

// Acquire takes the lock of the state file path for holder (a line such as
// "campusconf serve (pid 42) at http://127.0.0.1:8080", which a refused
// server shows). It returns a *HeldError when another process, or another
// Acquire of this one, holds it.
func Acquire(path, holder string) (*Lock, error) {
	name, err := LockName(path)
	if err != nil {
		return nil, err
	}
	f, err := lockFile(name)
	if errors.Is(err, errHeld) {
		return nil, &HeldError{Path: path, Holder: holderOf(name)}
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", name, unwrapPath(err))
	}
	// the file is one lockFile created: empty
	if _, err := f.WriteAt([]byte(holder+"\n"), 0); err != nil {
		_ = unlockFile(f, name) // the error to report is the one before
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	return &Lock{file: f, name: name}, nil
}

// holderOf reads the holder's line of a held lock file ("" when it is not
// written yet, or cannot be read without following a link).
func holderOf(name string) string {
	f, err := openNoFollowRead(name)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }() // read only
	line, _ := readLine(f)
	return clip(strings.TrimSpace(line))
}

// readLine reads the start of a lock file: a holder's line is short.
func readLine(f *os.File) (string, error) {
	b := make([]byte, maxHolder+1)
	n, err := f.ReadAt(b, 0)
	if err != nil && err != io.EOF {
		return "", err
	}
	return string(b[:n]), nil
}

// maxHolder bounds the holder's line read from a lock file.
const maxHolder = 200

// isHolderLine reports whether a lock file holds what Acquire writes: a
// line a campusconf server wrote of itself, or nothing yet.
func isHolderLine(s string) bool {
	s = strings.TrimSpace(s)
	return s == "" || strings.HasPrefix(s, "campusconf ") && !strings.Contains(s, "\n") && len(s) <= maxHolder
}

// SetHolder replaces the holder's line of a lock held (the address, once
// the server listens: the lock is taken before the port is opened).
func (l *Lock) SetHolder(holder string) error {
	if err := l.file.Truncate(0); err != nil {
		return fmt.Errorf("lock %s: %w", l.name, err)
	}
	if _, err := l.file.WriteAt([]byte(holder+"\n"), 0); err != nil {
		return fmt.Errorf("lock %s: %w", l.name, err)
	}
	return nil
}

// Release gives the lock up and removes the lock file.
func (l *Lock) Release() error { return unlockFile(l.file, l.name) }

// errHeld is lockFile's answer when another holds the lock.
var errHeld = errors.New("held")

// clip bounds a holder line read from a file.
func clip(s string) string {
	if len(s) > maxHolder {
		return s[:maxHolder-3] + "..."
	}
	return s
}

// unwrapPath drops the *fs.PathError around err: the messages here name
// the path already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
