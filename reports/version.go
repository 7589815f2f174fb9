package reports

import "github.com/campusconf/campusconf/internal/version"

// NewTool returns the Tool of a report written by this build: name, the
// build's version and commit, the suite version and the specification
// digest (see `campusconf version`).
func NewTool(name string) Tool {
	v := version.Get()
	return Tool{Name: name, Version: v.Version, Commit: v.Commit, Modified: v.Modified, SuiteVersion: v.Suite, SpecDigest: v.SpecDigest}
}
