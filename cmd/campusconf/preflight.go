package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/steps"
)

// preflight checks what `campusconf run` was given before anything is
// started or sent: the tag expression, the defects of the embedded
// simulator, the fixture file, the baseline and the report directory. A
// run refused here never costs the user a run of the suite, a container
// start or a request to the target, and its message names the flag or the
// file at fault.
func (o runOptions) preflight(withImage bool) error {
	if err := steps.CheckTags(o.tags); err != nil {
		return fmt.Errorf("--tags: %w", err)
	}
	if err := o.checkClaims(); err != nil {
		return err
	}
	if len(o.defects) > 0 && o.target == "" && !withImage {
		if _, err := defects.New(o.defects); err != nil {
			return fmt.Errorf("--defect: %w", err)
		}
	}
	if o.fixtureFile != "" {
		// the one validation, as `campusconf fixtures --check` runs it;
		// its message names the file, the line and the JSON path
		if _, err := fixtures.Load(o.fixtureFile); err != nil {
			return err
		}
	}
	if o.baseline != "" {
		if _, err := reports.ReadBaseline(o.baseline); err != nil {
			return fmt.Errorf("--baseline: %w", err)
		}
	}
	if err := writableDir(o.reportDir); err != nil {
		return fmt.Errorf("--report-dir %s: the reports could not be written there: %w", o.reportDir, err)
	}
	return nil
}

// writableDir proves dir writable by creating and removing a file in it.
// A dir that does not exist yet is made for the probe and removed again
// (with the parents made for it), so a run refused later leaves nothing.
func writableDir(dir string) error {
	var made []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || !errors.Is(err, fs.ErrNotExist) {
			break
		}
		made = append(made, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	defer func() {
		for _, d := range made {
			_ = os.Remove(d) // empty, unless someone else wrote there meanwhile
		}
	}()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".campusconf-probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	if err := f.Close(); err != nil {
		_ = os.Remove(name)
		return err
	}
	return os.Remove(name)
}
