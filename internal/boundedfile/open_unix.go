//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package boundedfile

import (
	"os"
	"syscall"
)

// openNoBlock opens name to read without blocking: a FIFO gives an empty
// read, not a hang.
func openNoBlock(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
