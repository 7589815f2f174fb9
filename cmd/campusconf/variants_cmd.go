package main

import (
	"fmt"
	"io"

	"github.com/campusconf/campusconf/simulator"
)

func variantsCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "--help" {
			fmt.Fprintln(stdout, "Usage: campusconf variants\n\nLists each simulator variant: a name for serve --variant (and fixtures --variant),\nwhat the simulator then does, and the open point of features/requirements.json or\nthe section of the specification whose permission it uses. The suite passes\nevery variant (docs/variants.md).")
			return exitOK
		}
		fmt.Fprintf(stderr, "campusconf variants: unexpected argument %q\n", args[0])
		return exitUsage
	}
	for _, v := range simulator.Variants() {
		fmt.Fprintf(stdout, "%-20s %s [%s]\n", v.Name, v.Description, v.Exercises)
	}
	return exitOK
}
