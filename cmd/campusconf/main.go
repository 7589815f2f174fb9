// Command campusconf is the conformance kit for the Campus Learning Platform
// interface. Its commands:
//
//   - run: the conformance suite against an implementation (or the
//     embedded simulator), writing report.json, junit.xml, report.html,
//     summary.md, ctrf.json, conformance-report.yaml and badge.svg;
//   - serve: the spec-driven simulator on a port;
//   - fixtures: the simulator's fixture file, or --check of yours;
//   - openapi: the OpenAPI document of the interface;
//   - profiles: the groups of operations an implementation may claim;
//   - defects and variants: the simulator's deliberate mistakes and its
//     other faithful choices;
//   - baseline: a file of known failures from a report, for CI gates;
//   - diff: what changed between two reports (regressions, fixes,
//     coverage), for pull requests;
//   - load: a bounded loopback load on the simulator or a target;
//   - proxy: a reverse proxy checking live traffic against the rules;
//   - report verify: checks a submitted conformance report;
//   - version: the build, suite and specification a report would record.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// Exit codes, documented in README.md.
const (
	exitOK          = 0 // conformant / success
	exitFailed      = 1 // not conformant
	exitUsage       = 2 // usage or configuration error
	exitUnreachable = 3 // target unreachable
)

// command is one subcommand; its run function lives in a file named after it.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands is the one list of subcommands, in the order the help prints
// them (alphabetical; TestCommandsTable keeps it so).
var commands = []command{
	{"baseline", "write a baseline of known failing requirements from a report.json", baselineCmd},
	{"defects", "list the deliberate mistakes the simulator can make (serve --defect NAME)", defectsCmd},
	{"diff", "compare two report.json files: regressions, fixes, coverage, scenarios that changed (Markdown or --json)", diffCmd},
	{"fixtures", "print the fixture file of the simulator's world for a seed", fixturesCmd},
	{"load", "measure throughput and latency of one operation (loopback, bounded)", loadCmd},
	{"openapi", "print the OpenAPI document of the interface", openapiCmd},
	{"profiles", "list the profiles an implementation may claim, with their operations and requirement counts (--json)", profilesCmd},
	{"proxy", "forward live traffic to a target and check each exchange against the rules", proxyCmd},
	{"report", "verify a conformance report (conformance-report.yaml) before accepting it: report verify FILE", reportCmd},
	{"run", "run the conformance suite (against the embedded simulator unless --target is given)", runCmd},
	{"serve", "serve the simulator of the interface on a port", serveCmd},
	{"variants", "list the faithful choices the simulator can make where the specification is open (serve --variant NAME)", variantsCmd},
	{"version", "print the build's version and commit, the suite version and the specification digest", versionCmd},
}

// lookup returns the command called name.
func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "--version" {
		args[0] = "version"
	}
	c, ok := lookup(args[0])
	if !ok {
		fmt.Fprintf(stderr, "campusconf: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "campusconf: conformance kit for the Campus Learning Platform interface")
	fmt.Fprintln(w, "\nUsage: campusconf <command> [flags]   (campusconf <command> -h for its flags)")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
}

// noArgs checks the arguments of a command that takes none. When the
// command must end there it returns false and the exit code: exitOK after
// -h or --help (help printed on stdout), exitUsage after anything else.
func noArgs(name, help string, args []string, stdout, stderr io.Writer) (int, bool) {
	switch {
	case len(args) == 0:
		return 0, true
	case args[0] == "-h" || args[0] == "--help":
		fmt.Fprintln(stdout, help)
		return exitOK, false
	}
	fmt.Fprintf(stderr, "campusconf %s: unexpected argument %q\n", name, args[0])
	return exitUsage, false
}

// newFlags returns the flag set of command name: it writes to stderr,
// and -h prints usage (which ends with "Flags:") and then the flags.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseInterleaved parses the arguments of a command that takes n files
// among its flags (before, between or after them) and returns the files.
// When the command must end there it returns false and the exit code, as
// parseFlags: another number of files is a usage error, said on stderr as
// expected, then the number given.
func parseInterleaved(fs *flag.FlagSet, args []string, n int, expected string, stderr io.Writer) ([]string, int, bool) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitOK, false
			}
			return nil, exitUsage, false
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != n {
		fmt.Fprintf(stderr, "campusconf %s: expected %s, got %d\n", fs.Name(), expected, len(files))
		return nil, exitUsage, false
	}
	return files, 0, true
}

// parseFlags parses the arguments of a command that takes flags only. When
// the command must end there it returns false and the exit code: exitOK
// after -h, exitUsage after a bad flag (fs has said which) or an argument
// left over (said here).
// printJSON prints v as indented JSON on a line of stdout for the
// subcommand cmd, and returns its exit code.
func printJSON(cmd string, v any, stdout, stderr io.Writer) int {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "campusconf %s: %v\n", cmd, err)
		return exitFailed
	}
	fmt.Fprintf(stdout, "%s\n", data)
	return exitOK
}

// parseFailed is the exit code of the command cmd whose options could not
// be read (err): 0 when its help was asked for, else a usage error, said
// on stderr.
func parseFailed(cmd string, err error, stderr io.Writer) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	fmt.Fprintln(stderr, "campusconf "+cmd+":", err)
	return exitUsage
}

func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "campusconf %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return exitUsage, false
	}
	return 0, true
}
