package main

import (
	"fmt"
	"io"

	"github.com/campusconf/campusconf/simulator"
)

func init() {
	register(command{name: "defects", summary: "list the deliberate mistakes the simulator can make (serve --defect NAME)", run: defectsCmd})
}

func defectsCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "--help" {
			fmt.Fprintln(stdout, "Usage: campusconf defects\n\nLists each simulator defect: a name for serve --defect and what it breaks.")
			return exitOK
		}
		fmt.Fprintf(stderr, "campusconf defects: unexpected argument %q\n", args[0])
		return exitUsage
	}
	for _, d := range simulator.Defects() {
		fmt.Fprintf(stdout, "%-28s %s\n", d.Name, d.Description)
	}
	return exitOK
}
