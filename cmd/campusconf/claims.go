package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/didyoumean"
	"github.com/campusconf/campusconf/internal/registry"
)

// implementationKeys are the keys of --implementation: those of the
// fixture's implementation section.
var implementationKeys = []string{"organization", "project", "version", "url", "contact"}

// parseImplements reads --implements: profile names, comma-separated,
// each known and given once. "" gives nil (the flag was not given).
func parseImplements(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var names []string
	for _, p := range registry.ProfileNames() {
		names = append(names, string(p))
	}
	var out []string
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		switch {
		case name == "":
			return nil, fmt.Errorf("expected profile names separated by commas, got %q", s)
		case slices.Contains(out, name):
			return nil, fmt.Errorf("profile %q given twice", name)
		}
		if _, ok := registry.LookupProfile(name); !ok {
			return nil, fmt.Errorf("unknown profile %q%s (campusconf profiles lists them: %s)", name, didyoumean.Hint(name, names), strings.Join(names, ", "))
		}
		out = append(out, name)
	}
	return out, nil
}

// parseImplementation reads the --implementation values into the
// implementation section they override: each KEY=VALUE sets KEY, contact
// adds an entry.
func parseImplementation(kvs []string) (fixtures.Implementation, error) {
	var i fixtures.Implementation
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return i, fmt.Errorf("expected KEY=VALUE with KEY one of %s, got %q", strings.Join(implementationKeys, ", "), kv)
		}
		switch k {
		case "organization":
			i.Organization = v
		case "project":
			i.Project = v
		case "version":
			i.Version = v
		case "url":
			i.URL = v
		case "contact":
			i.Contact = append(i.Contact, v)
		default:
			return i, fmt.Errorf("unknown key %q%s (keys: %s)", k, didyoumean.Hint(k, implementationKeys), strings.Join(implementationKeys, ", "))
		}
	}
	return i, nil
}

// checkClaims refuses --implements and --implementation values that do
// not parse; the preflight calls it, so claims never meets one.
func (o runOptions) checkClaims() error {
	if _, err := parseImplements(o.implements); err != nil {
		return fmt.Errorf("--implements: %w", err)
	}
	if _, err := parseImplementation(o.implementation); err != nil {
		return fmt.Errorf("--implementation: %w", err)
	}
	return nil
}

// claims returns a copy of the target's fixture f (an empty one when it
// was not read) with --implements and --implementation applied: a flag
// wins over the file, key by key.
func (o runOptions) claims(f *fixtures.File) *fixtures.File {
	out := fixtures.File{Version: fixtures.Version}
	if f != nil {
		out = *f
	}
	if p, _ := parseImplements(o.implements); p != nil {
		out.Implements = p
	}
	flag, _ := parseImplementation(o.implementation)
	if len(o.implementation) == 0 {
		return &out
	}
	var i fixtures.Implementation
	if out.Implementation != nil {
		i = *out.Implementation
		i.Contact = slices.Clone(i.Contact)
	}
	for _, kv := range o.implementation {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "organization":
			i.Organization = flag.Organization
		case "project":
			i.Project = flag.Project
		case "version":
			i.Version = flag.Version
		case "url":
			i.URL = flag.URL
		case "contact":
			i.Contact = flag.Contact // the flags' list replaces the file's
		}
	}
	out.Implementation = &i
	return &out
}
