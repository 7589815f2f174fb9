package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/campusconf/campusconf/simulator"
)

func init() {
	register(command{name: "fixtures", summary: "print the fixture file of the simulator's world for a seed", run: fixturesCmd})
}

func fixturesCmd(args []string, stdout, stderr io.Writer) int {
	var opts simulator.Options
	var baseURL string
	var variants stringList
	fs := flag.NewFlagSet("fixtures", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Int64Var(&opts.Seed, "seed", 1, "seed of the world")
	fs.IntVar(&opts.Scale, "scale", 1, "scale of the world")
	fs.BoolVar(&opts.Control, "control", false, "the simulator serves the control API (sets \"control\")")
	fs.StringVar(&baseURL, "base-url", "", "base URL the simulator is served at, recorded in the description")
	fs.Var(&variants, "variant", "the simulator is served with this variant (repeatable; see `campusconf variants`)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: campusconf fixtures [flags]\n\nPrints the fixture file (fixtures/schema.json) of the simulator's world: the\ncredentials of each role, the record ids the suite uses, the paths of the\nunplaced operations. The file holds secrets.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "campusconf fixtures: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if opts.Scale < 1 {
		fmt.Fprintf(stderr, "campusconf fixtures: --scale: expected a positive integer, got %d\n", opts.Scale)
		return exitUsage
	}
	if baseURL != "" && !strings.HasPrefix(baseURL, "http://") && !strings.HasPrefix(baseURL, "https://") {
		fmt.Fprintf(stderr, "campusconf fixtures: --base-url: expected an http:// or https:// URL, got %q\n", baseURL)
		return exitUsage
	}
	opts.Variants = variants
	sim, err := simulator.New(opts)
	if err != nil {
		fmt.Fprintln(stderr, "campusconf fixtures:", err)
		return exitUsage
	}
	f := sim.Fixtures()
	if baseURL != "" {
		f.Description += " at " + strings.TrimRight(baseURL, "/")
	}
	out, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		fmt.Fprintln(stderr, "campusconf fixtures:", err)
		return exitFailed
	}
	fmt.Fprintf(stdout, "%s\n", out)
	return exitOK
}
