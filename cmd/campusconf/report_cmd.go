package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/campusconf/campusconf/reports"
)

// reportUsage lists the subcommands of `campusconf report`.
const reportUsage = `Usage: campusconf report verify FILE

verify checks a conformance report (conformance-report.yaml, or the
report directory holding it) before it is accepted: that it is internally
consistent (each profile's result follows from its counts and failed
requirements, implements lists the profiles not unsupported, the overall
status follows from the profiles and the mode, the failed requirements are
the suite's) and that its suite version and specification digest are this
build's or an earlier release's it lists.
Exit codes: 0 it verifies, 1 it does not (each problem is printed),
2 usage error, or a file that is no conformance report.`

// reportCmd dispatches `campusconf report SUBCOMMAND`.
func reportCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "campusconf report: expected a subcommand: verify FILE")
		return exitUsage
	}
	switch args[0] {
	case "verify":
		return verifyCmd(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, reportUsage)
		return exitOK
	}
	fmt.Fprintf(stderr, "campusconf report: unknown subcommand %q (known: verify)\n", args[0])
	return exitUsage
}

// verifyCmd verifies one conformance report.
func verifyCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, reportUsage) }
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "campusconf report verify: expected one conformance report, got %d arguments\n", fs.NArg())
		return exitUsage
	}
	path := fs.Arg(0)
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, reports.ConformanceFile)
	}
	c, err := reports.ReadConformance(path)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf report verify: %s\n", consoleText(oneLineOf(err.Error())))
		return exitUsage
	}
	if probs := c.Verify(); len(probs) > 0 {
		fmt.Fprintf(stdout, "%s: does not verify, %d problem(s):\n", path, len(probs))
		for _, p := range probs {
			fmt.Fprintf(stdout, "  %s\n", consoleText(p))
		}
		return exitFailed
	}
	i := c.Implementation
	who := strings.TrimSpace(i.Project+" "+i.Version) + " of " + i.Organization
	fmt.Fprintf(stdout, "%s: verified: %s for %s: %s, %s; suite %s, specification %s\n", path, c.Status,
		consoleText(who), strings.Join(c.Implements, ", "), c.Date, c.SuiteVersion, c.SpecDigest)
	return exitOK
}

// oneLineOf joins the lines of s with spaces.
func oneLineOf(s string) string { return strings.Join(strings.Fields(s), " ") }
