package main

import (
	"fmt"
	"io"

	"github.com/campusconf/campusconf/internal/version"
)

// versionCmd prints which build this is, the suite it carries and the
// digest of the specification that suite was written from: the three a
// report records, so a report can be matched to the binary that wrote it.
func versionCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "Usage: campusconf version [--json]\n\nPrints the module version and commit of this build (from the build information, else from\n-ldflags; \"devel\" when neither recorded one, \"devel, built by go run\" for go run), the suite version and the SHA-256 digest of the specification text\nthe requirements were written from. report.json, ctrf.json and report.html record the same.\n\nFlags:", stderr)
	asJSON := fs.Bool("json", false, "print the version as JSON")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	v := version.Get()
	if *asJSON {
		return printJSON("version", struct {
			Version    string `json:"version"`
			Commit     string `json:"commit"`
			Modified   bool   `json:"modified"`
			Suite      string `json:"suiteVersion"`
			SpecDigest string `json:"specDigest"`
		}{v.Version, v.Commit, v.Modified, v.Suite, v.SpecDigest}, stdout, stderr)
	}
	fmt.Fprintf(stdout, "campusconf %s\nsuite %s\nspecification %s\n", v, v.Suite, v.SpecDigest)
	return exitOK
}
