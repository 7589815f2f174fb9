//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package boundedfile

import "os"

// openNoBlock opens name to read.
func openNoBlock(name string) (*os.File, error) { return os.Open(name) }
