package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/campusconf/campusconf/reports"
)

// baselineCmd writes the failed requirements of a report as a baseline
// file (version 2) for `campusconf run --baseline` and `campusconf proxy
// --baseline`.
func baselineCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("baseline", "Usage: campusconf baseline --from conformance-report/report.json [--out .conformance-baseline.json] [--reason TEXT] [--expires YYYY-MM-DD] [--owner NAME]\n\nWrites the requirements that failed in the report as a baseline (version 2), for `campusconf run --baseline FILE`\n(and proxy --baseline), which then exits 0 while every MUST failure has an entry that has not expired,\nand says which entries now pass and which have expired.\n\nFlags:", stderr)
	from := fs.String("from", "", "`FILE`, the report.json of an earlier run (required)")
	out := fs.String("out", ".conformance-baseline.json", "`FILE` to write")
	var o reports.BaselineOptions
	fs.StringVar(&o.Reason, "reason", "", "`TEXT` saying why the failures are accepted, for every entry (default: what failed and on which day, from the report)")
	fs.StringVar(&o.Expires, "expires", "", "last `DAY` (YYYY-MM-DD, UTC) the entries excuse their failures; from the next day on the gate fails on them (default: no expiry)")
	fs.StringVar(&o.Owner, "owner", "", "`NAME` of who answers for the entries")
	maxReport := maxReportFlag(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if *from == "" {
		fmt.Fprintln(stderr, "campusconf baseline: --from: expected the report.json of a run, got nothing")
		return exitUsage
	}
	if o.Expires != "" {
		day, err := reports.ParseDate(o.Expires)
		if err != nil {
			fmt.Fprintf(stderr, "campusconf baseline: --expires: %v\n", err)
			return exitUsage
		}
		if today := time.Now().UTC().Format(reports.DateLayout); day.Format(reports.DateLayout) < today {
			fmt.Fprintf(stderr, "campusconf baseline: --expires %s: expected today (%s) or later, got a day that has passed: its entries would excuse nothing\n", o.Expires, today)
			return exitUsage
		}
	}
	if strings.TrimSpace(o.Reason) == "" && o.Reason != "" {
		fmt.Fprintln(stderr, "campusconf baseline: --reason: expected why the failures are accepted, got only spaces")
		return exitUsage
	}
	r, err := reports.ReadJSONWithin(*from, int64(*maxReport), "--max-report")
	if err != nil {
		fmt.Fprintf(stderr, "campusconf baseline: %v\n", err)
		return exitUsage
	}
	b := reports.BaselineFrom(r, o)
	if err := reports.WriteBaseline(*out, b); err != nil {
		fmt.Fprintf(stderr, "campusconf baseline: %v\n", err)
		return exitUsage
	}
	where := *out
	if abs, err := filepath.Abs(where); err == nil {
		where = abs
	}
	expiry := "no expiry date"
	if o.Expires != "" {
		expiry = "expiring after " + o.Expires
	}
	fmt.Fprintf(stdout, "wrote %d known failing requirement(s) to %s (baseline version %d, %s)\n", len(b.Entries), where, reports.BaselineVersion, expiry)
	if o.Reason == "" && len(b.Entries) > 0 {
		fmt.Fprintln(stdout, "no --reason given: each entry's reason says what failed and when; replace it with why the failure is accepted")
	}
	return exitOK
}
