package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/campusconf/campusconf/reports"
)

// reportUsage lists the subcommands of `campusconf report`.
const reportUsage = `Usage: campusconf report verify [--report report.json] [--max-report SIZE] FILE
       campusconf report github [--report-dir DIR] [--diff FILE] [--comment FILE] (see report github --help)

verify checks a conformance report (conformance-report.yaml, or the
report directory holding it) before it is accepted:
  - that it is internally consistent: each profile's result follows from
    its counts and failed requirements, implements lists the profiles not
    unsupported, the status and its reason follow from the profiles and
    the mode, the failed requirements are the suite's;
  - that its suite version and specification digest are this build's or
    an earlier release's it lists, and, for a run of the whole suite, that
    each profile counts the scenarios that release has in it;
  - with the report.json written with it (beside it, or --report), that
    report.json's digest is the one it carries and that the two agree key
    for key.
What it cannot prove is that the run took place against that
implementation: two files edited to agree pass. An attestation of the file
by the CI that ran it (docs/reports.md, "Provenance") shows where it came
from.
Exit codes: 0 it verifies, 1 it does not (each problem is printed),
2 usage error, or a file that is no conformance report.

Flags:`

// reportCmd dispatches `campusconf report SUBCOMMAND`.
func reportCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "campusconf report: expected a subcommand: verify FILE, or github")
		return exitUsage
	}
	switch args[0] {
	case "verify":
		return verifyCmd(args[1:], stdout, stderr)
	case "github":
		return githubCmd(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, reportUsage)
		return exitOK
	}
	fmt.Fprintf(stderr, "campusconf report: unknown subcommand %q (known: verify, github)\n", args[0])
	return exitUsage
}

// verifyCmd verifies one conformance report, and the report.json beside
// it or given.
func verifyCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("report verify", reportUsage, stderr)
	jsonFile := fs.String("report", "", "`FILE`, the report.json written with the conformance report (default: the report.json beside it, when there is one)")
	maxReport := maxReportFlag(fs)
	// flags may come before or after the file
	files, code, ok := parseInterleaved(fs, args, 1, "one conformance report", stderr)
	if !ok {
		return code
	}
	path := files[0]
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, reports.ConformanceFile)
	}
	c, err := reports.ReadConformance(path)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf report verify: %s\n", reports.LineText(oneLineOf(err.Error())))
		return exitUsage
	}
	probs := c.Verify()
	// the report.json to hold it to: the one given, else the one beside it
	against, given := *jsonFile, *jsonFile != ""
	if !given {
		against = filepath.Join(filepath.Dir(path), reports.JSONFile)
	}
	checked := false
	data, err := readReportJSON(against, int64(*maxReport))
	switch {
	case err == nil:
		probs = append(probs, c.VerifyReportJSON(data)...)
		checked = true
	case given || !errors.Is(err, os.ErrNotExist):
		fmt.Fprintf(stderr, "campusconf report verify: --report: %s\n", reports.LineText(oneLineOf(err.Error())))
		return exitUsage
	}
	line := func(key, value string) { fmt.Fprintf(stdout, "  %s: %s\n", key, reports.LineText(value)) }
	if len(probs) > 0 {
		fmt.Fprintf(stdout, "%s: does not verify, %d problem(s):\n", reports.LineText(path), len(probs))
		for _, p := range probs {
			fmt.Fprintf(stdout, "  %s\n", reports.LineText(p))
		}
		return exitFailed
	}
	fmt.Fprintf(stdout, "%s: verified\n", reports.LineText(path))
	i := c.Implementation
	line("status", string(c.Status))
	line("reason", c.Reason)
	line("organization", i.Organization)
	line("project", i.Project)
	if i.Version != "" {
		line("version", i.Version)
	}
	line("implements", strings.Join(c.Implements, ", "))
	line("date", c.Date)
	line("suite", c.SuiteVersion+", specification "+c.SpecDigest)
	line("mode", c.Mode)
	if c.Reproduce != "" {
		line("reproduce", c.Reproduce)
	}
	if checked {
		line("report.json", against+": agrees, digest "+c.ReportDigest)
	} else {
		line("report.json", "none beside it: the file was checked on its own (--report names one)")
	}
	fmt.Fprintln(stdout, "  proves: the file is consistent, from a known suite, and agrees with its report.json; not that the run took place against that implementation (ask for its attestation)")
	return exitOK
}

// readReportJSON reads a report.json whole, at most max bytes.
func readReportJSON(path string, max int64) ([]byte, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, reports.JSONFile)
	}
	return reports.ReadFileWithin(path, max, "--max-report")
}

// oneLineOf joins the lines of s with spaces.
func oneLineOf(s string) string { return strings.Join(strings.Fields(s), " ") }
