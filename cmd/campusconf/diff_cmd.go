package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/campusconf/campusconf/reports"
)

// diffCmd compares two report.json files: what a change broke, what it
// fixed, what it covers anew, which scenarios changed outcome.
func diffCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff", "Usage: campusconf diff [--json] BASE HEAD\n\nCompares two reports (report.json files, or the report directories holding them): BASE before a\nchange, HEAD after it. Writes Markdown for a pull-request comment or $GITHUB_STEP_SUMMARY: the\nregressions (passed in BASE, failed in HEAD), the fixes, requirements newly covered and uncovered,\nscenarios whose outcome changed, and HEAD's expired baseline entries. Reports of another suite\nversion or specification are compared with a warning; a report without its scenarios, requirements\nor counts is refused.\nExit codes: 0 no MUST regression, 1 a MUST requirement regressed, 2 usage error or an unreadable report.\n\nFlags:", stderr)
	asJSON := fs.Bool("json", false, "write the diff as JSON (every change, for programs) instead of Markdown")
	maxReport := maxReportFlag(fs)
	// flags may come before, between or after the two reports
	files, code, ok := parseInterleaved(fs, args, 2, "two reports, BASE and HEAD", stderr)
	if !ok {
		return code
	}
	var side [2]*reports.Report
	for i, name := range []string{"BASE", "HEAD"} {
		path := reportFile(files[i])
		r, err := reports.ReadJSONWithin(path, int64(*maxReport), "--max-report")
		if err != nil {
			fmt.Fprintf(stderr, "campusconf diff: %s: %v\n", name, err) // err names the file
			return exitUsage
		}
		side[i] = r
		files[i] = path
	}
	d := reports.CompareReports(side[0], side[1])
	d.Base.File, d.Head.File = files[0], files[1]
	write := reports.WriteDiffMarkdown
	if *asJSON {
		write = reports.WriteDiffJSON
	}
	if err := write(stdout, d); err != nil {
		fmt.Fprintf(stderr, "campusconf diff: %v\n", err)
		return exitUsage
	}
	if len(d.MustRegressions()) > 0 {
		return exitFailed
	}
	return exitOK
}

// reportFile is path, or the report.json in it when path is a directory.
func reportFile(path string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return filepath.Join(path, reports.JSONFile)
	}
	return path
}
