// Package sharedref finds the reference files kept beside the project's
// checkout (../shared: the interface specification, the CTRF schema), for
// tests that hold a committed copy or digest to them. CI has that folder
// beside the checkout; a git worktree may have it further up, so every
// folder above the module root is looked at, nearest first.
package sharedref

import (
	"errors"
	"os"
	"path/filepath"
)

// Dir returns the folder shared/sub nearest above the module root that
// holds the current directory, and whether one was found.
func Dir(sub string) (string, bool) {
	root, err := moduleRoot()
	if err != nil {
		return "", false
	}
	for d := filepath.Dir(root); ; d = filepath.Dir(d) {
		p := filepath.Join(d, "shared", sub)
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// moduleRoot is the nearest folder at or above the current directory that
// holds a go.mod.
func moduleRoot() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("no go.mod above the current directory")
		}
		d = filepath.Dir(d)
	}
}
