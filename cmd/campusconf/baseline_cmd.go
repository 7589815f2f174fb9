package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/campusconf/campusconf/reports"
)

// baselineCmd writes the failed requirement ids of a report as a baseline
// file for `campusconf run --baseline`.
func baselineCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("baseline", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "`FILE`, the report.json of an earlier run (required)")
	out := fs.String("out", ".conformance-baseline.json", "`FILE` to write")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: campusconf baseline --from conformance-report/report.json [--out .conformance-baseline.json]\n\nWrites the requirement ids that failed in the report, for `campusconf run --baseline FILE`,\nwhich then exits 0 while every failure is a known one and says which known ones now pass.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *from == "" || fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	r, err := reports.ReadJSON(*from)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf baseline: %v\n", err)
		return exitUsage
	}
	b := reports.BaselineFrom(r)
	if err := reports.WriteBaseline(*out, b); err != nil {
		fmt.Fprintf(stderr, "campusconf baseline: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "wrote %d known failing requirement(s) to %s\n", len(b.Requirements), *out)
	return exitOK
}
