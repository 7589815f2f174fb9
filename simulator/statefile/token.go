package statefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// The control token kept beside the state file (FILE.token next to its
// target, as the lock), so that a server restarted with the same --state
// keeps its control API's address: the console a developer has open and
// the scripts that call it go on working. It is a credential: the file is
// readable and writable by its owner only, never read through a symbolic
// link nor when it is not a regular file, and one readable by others is
// refused rather than used.

// maxTokenBytes bounds the token file read.
const maxTokenBytes = 4 << 10

// TokenName is the token file of the state file path: next to its
// target, so every link to one file shares one token.
func TokenName(path string) (string, error) {
	target, err := Target(path)
	if err != nil {
		return "", err
	}
	return target + ".token", nil
}

// ReadToken returns the control token kept beside the state file path,
// "" and no error when there is none. A token file that is a symbolic
// link, not a regular file, readable or writable by others than its
// owner, or larger than a token is refused, unread.
func ReadToken(path string) (string, error) {
	name, err := TokenName(path)
	if err != nil {
		return "", err
	}
	f, err := openNoFollowRead(name)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		if fi, lerr := os.Lstat(name); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("%s is a symbolic link: expected the control token's own file; remove it, and the next start writes one", name)
		}
		return "", fmt.Errorf("control token %s: %w", name, unwrapPath(err))
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose on close
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	switch {
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file: expected the control token's file", name)
	case fi.Mode().Perm()&0o077 != 0:
		return "", fmt.Errorf("%s is open to others (mode %04o): it holds the control token; chmod 600 it, or remove it to get a new token", name, fi.Mode().Perm())
	case fi.Size() > maxTokenBytes:
		return "", fmt.Errorf("%s holds %d bytes: expected a control token", name, fi.Size())
	}
	b, err := io.ReadAll(io.LimitReader(f, maxTokenBytes+1))
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// WriteToken keeps token beside the state file path, readable by its
// owner only, atomically (a temporary file renamed over it). An existing
// token file that is a symbolic link or not a regular file is refused and
// left as it is.
func WriteToken(path, token string) error {
	name, err := TokenName(path)
	if err != nil {
		return err
	}
	if fi, err := os.Lstat(name); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (a symbolic link?): expected the control token's own file; it is left as it is", name)
	}
	if err := writeAtomic(name, []byte(token+"\n")); err != nil {
		return fmt.Errorf("control token: %w", unwrapPath(err))
	}
	return nil
}
