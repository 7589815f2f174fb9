// Package boundedfile reads a file whole when it is a regular file within
// a bound: a FIFO, a device or a directory is refused before it is read
// (and opened without blocking, so a FIFO put in its place meanwhile
// cannot hang the reader), a file past the bound before any of it is
// read. The readers of report files (reports) and of the simulator's state
// file (simulator/statefile) read through it, each saying in its own words
// what it expected.
package boundedfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError refuses a file that is not a regular file.
type NotRegularError struct {
	Path string
	// Kind names what it is: "directory", "named pipe (FIFO)", ...
	Kind string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is a %s: expected a regular file", e.Path, e.Kind)
}

// TooLargeError refuses a file past the bound: it holds at least Size
// bytes, more than Max.
type TooLargeError struct {
	Path      string
	Size, Max int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s holds %d bytes or more, over the limit of %d bytes", e.Path, e.Size, e.Max)
}

// Read returns the content of the regular file at path (links followed)
// when it has at most max bytes. A file that is not regular is refused
// with a *NotRegularError, one past max with a *TooLargeError (a file
// growing meanwhile is cut off at max+1 bytes and refused too), before
// any of it is read. An absent file gives an error matching
// fs.ErrNotExist.
func Read(path string, max int64) ([]byte, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Kind: Kind(fi.Mode())}
	}
	f, err := openNoBlock(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Kind: Kind(fi.Mode())}
	}
	if fi.Size() > max {
		return nil, &TooLargeError{Path: path, Size: fi.Size(), Max: max}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{Path: path, Size: int64(len(data)), Max: max}
	}
	return data, nil
}

// Kind names a file that is not a regular file, for a message.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "file of mode " + m.String()
}
