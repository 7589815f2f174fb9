package main

// The commands that list the simulator's switches: its deliberate
// mistakes (defects) and its other faithful choices (variants).

import (
	"fmt"
	"io"
	"strings"

	"github.com/campusconf/campusconf/simulator"
)

// defectsCmd lists the defects, each with the requirements it breaks.
func defectsCmd(args []string, stdout, stderr io.Writer) int {
	if code, goOn := noArgs("defects", "Usage: campusconf defects\n\nLists each simulator defect: a name for serve --defect, what it does wrong,\nand the requirement ids of features/requirements.json the suite then fails.", args, stdout, stderr); !goOn {
		return code
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

// variantsCmd lists the variants, each with the open point it uses.
func variantsCmd(args []string, stdout, stderr io.Writer) int {
	if code, goOn := noArgs("variants", "Usage: campusconf variants\n\nLists each simulator variant: a name for serve --variant (and fixtures --variant),\nwhat the simulator then does, and the open point of features/requirements.json or\nthe section of the specification whose permission it uses. The suite passes\nevery variant (docs/variants.md).", args, stdout, stderr); !goOn {
		return code
	}
	for _, v := range simulator.Variants() {
		fmt.Fprintf(stdout, "%-20s %s [%s]\n", v.Name, v.Description, v.Exercises)
	}
	return exitOK
}
