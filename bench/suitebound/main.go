// Command suitebound prints the bound the suite's schedule gives a run:
// the requests the checks before the suite make one after another, and
// the longest chain of requests its scenarios make one after another
// (steps.Bound). bench/suite-latency.sh multiplies them by the latency
// it serves, beside the run's wall time.
//
//	suitebound -fixtures fx.json [-report conformance-report/report.json] [-tags EXPR] [-path]
//
// With -report, each scenario counts the requests that report shows it
// made; without, the requests its steps declare. It prints one line,
// "preflight N chain M requests K", and with -path the scenarios of the
// longest chain, one a line.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/steps"
)

func main() {
	fx := flag.String("fixtures", "", "fixture `FILE` of the run")
	report := flag.String("report", "", "report.json of the run (default: the requests the steps declare)")
	tags := flag.String("tags", "", "tag `EXPR`ession of the run")
	path := flag.Bool("path", false, "also print the scenarios of the longest chain")
	flag.Parse()
	if err := run(*fx, *report, *tags, *path); err != nil {
		fmt.Fprintln(os.Stderr, "suitebound:", err)
		os.Exit(1)
	}
}

func run(fx, report, tags string, path bool) error {
	if fx == "" {
		return fmt.Errorf("-fixtures is required")
	}
	f, err := fixtures.Load(fx)
	if err != nil {
		return err
	}
	var r *reports.Report
	if report != "" {
		if r, err = reports.ReadJSON(report); err != nil {
			return err
		}
	}
	b, err := steps.BoundOf(steps.Config{Fixture: f, Tags: tags}, r)
	if err != nil {
		return err
	}
	fmt.Printf("preflight %d chain %d requests %d\n", b.Preflight, b.Chain, b.Requests)
	if path {
		for _, name := range b.Path {
			fmt.Println("  " + name)
		}
	}
	return nil
}
