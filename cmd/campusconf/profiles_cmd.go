package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/internal/registry"
)

// profileListing is one profile as `campusconf profiles --json` prints it.
type profileListing struct {
	Name       string   `json:"name"`
	Operations []string `json:"operations"`
	// Requirements counts the catalogue's requirements of the profile's
	// own operations; the cross-cutting ones are counted apart.
	Requirements int `json:"requirements"`
}

// profilesUsage says what the listing counts.
const profilesUsage = `Usage: campusconf profiles [--json]

Lists the profiles: groups of operations an implementation may claim
together (the fixture's "implements"; run --implements). Scenarios of the
operations of a profile not claimed are unsupported: not run, never failed,
not counted by --strict.

REQUIREMENTS counts the requirements of the profile's own operations in
features/requirements.json. The cross-cutting requirements (ALL.*: the key,
the error body, the media types; REC.*: the record rules; GEN.*: the
properties of generated requests) are in no profile's count: they are
checked on the operations of every claimed profile, and the last line
counts them.

Flags:`

func profilesCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("profiles", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, `print [{"name": ..., "operations": [...], "requirements": N}] instead`)
	fs.Usage = func() {
		fmt.Fprintln(stderr, profilesUsage)
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	cat, err := features.Load()
	if err != nil {
		fmt.Fprintf(stderr, "campusconf profiles: %v\n", err)
		return exitFailed
	}
	list, cross := profileListings(cat)
	if *asJSON {
		return printJSON("profiles", list, stdout, stderr)
	}
	fmt.Fprintf(stdout, "%-15s %-18s %s\n", "PROFILE", "OPERATIONS", "REQUIREMENTS")
	for _, p := range list {
		fmt.Fprintf(stdout, "%-15s %-18s %d\n", p.Name, strings.Join(p.Operations, " "), p.Requirements)
	}
	var parts []string
	for _, c := range cross {
		parts = append(parts, fmt.Sprintf("%s.* %d", c.prefix, c.n))
	}
	total := 0
	for _, c := range cross {
		total += c.n
	}
	fmt.Fprintf(stdout, "cross-cutting: %d requirements (%s), checked on the operations of every claimed profile\n", total, strings.Join(parts, ", "))
	return exitOK
}

// crossCount counts the cross-cutting requirements of one id prefix.
type crossCount struct {
	prefix string
	n      int
}

// profileListings lists the profiles of the registry with the number of
// catalogue requirements of their operations, and counts the others (of no
// operation) by id prefix, in catalogue order.
func profileListings(cat *features.Catalogue) ([]profileListing, []crossCount) {
	var list []profileListing
	at := map[registry.Profile]int{}
	for _, p := range registry.Profiles() {
		at[p.Name] = len(list)
		list = append(list, profileListing{Name: string(p.Name), Operations: registry.Strings(p.Operations)})
	}
	var cross []crossCount
	for _, q := range cat.Requirements {
		if p, ok := registry.ProfileOf(q.Operation); ok {
			list[at[p]].Requirements++
			continue
		}
		prefix, _, _ := strings.Cut(q.ID, ".")
		i := len(cross)
		for j, c := range cross {
			if c.prefix == prefix {
				i = j
			}
		}
		if i == len(cross) {
			cross = append(cross, crossCount{prefix: prefix})
		}
		cross[i].n++
	}
	return list, cross
}
