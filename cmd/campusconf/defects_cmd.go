package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/campusconf/campusconf/simulator"
)

func defectsCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "--help" {
			fmt.Fprintln(stdout, "Usage: campusconf defects\n\nLists each simulator defect: a name for serve --defect, what it does wrong,\nand the requirement ids of features/requirements.json the suite then fails.")
			return exitOK
		}
		fmt.Fprintf(stderr, "campusconf defects: unexpected argument %q\n", args[0])
		return exitUsage
	}
	for _, d := range simulator.Defects() {
		reqs := strings.Join(d.Requirements, ", ")
		if len(d.Collateral) > 0 {
			reqs += "; may also fail " + strings.Join(d.Collateral, ", ")
		}
		fmt.Fprintf(stdout, "%-30s %s [breaks %s]\n", d.Name, d.Description, reqs)
	}
	return exitOK
}
