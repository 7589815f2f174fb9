package main

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/internal/registry"
)

// TestProfilesCmd: --json is exactly [{"name", "operations",
// "requirements"}] with the registry's profiles, the counts add up with
// the cross-cutting line to the catalogue, and the table says the same.
func TestProfilesCmd(t *testing.T) {
	var js bytes.Buffer
	if code := profilesCmd([]string{"--json"}, &js, io.Discard); code != exitOK {
		t.Fatalf("profiles --json: expected exit %d, got %d", exitOK, code)
	}
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(js.Bytes(), &raw); err != nil {
		t.Fatalf("profiles --json: expected a JSON array, got %v:\n%s", err, js.String())
	}
	for i, p := range raw {
		var keys []string
		for k := range p {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, []string{"name", "operations", "requirements"}) {
			t.Errorf("profiles --json entry %d: expected the keys name, operations, requirements, got %v", i, keys)
		}
	}
	var list []profileListing
	if err := json.Unmarshal(js.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	cat, err := features.Load()
	if err != nil {
		t.Fatal(err)
	}
	want := registry.Profiles()
	if len(list) != len(want) {
		t.Fatalf("profiles --json: expected %d profiles, got %d", len(want), len(list))
	}
	total := 0
	for i, p := range list {
		if p.Name != string(want[i].Name) || !slices.Equal(p.Operations, registry.Strings(want[i].Operations)) {
			t.Errorf("profile %d: expected %s %v, got %s %v", i, want[i].Name, want[i].Operations, p.Name, p.Operations)
		}
		n := 0
		for _, q := range cat.Requirements {
			if slices.Contains(p.Operations, q.Operation) {
				n++
			}
		}
		if p.Requirements != n || n == 0 {
			t.Errorf("profile %s: expected the %d requirements of its operations, got %d", p.Name, n, p.Requirements)
		}
		total += p.Requirements
	}

	var text bytes.Buffer
	if code := profilesCmd(nil, &text, io.Discard); code != exitOK {
		t.Fatalf("profiles: expected exit %d, got %d", exitOK, code)
	}
	lines := strings.Split(strings.TrimSpace(text.String()), "\n")
	if len(lines) != len(list)+2 {
		t.Fatalf("profiles: expected a header, %d profiles and the cross-cutting line, got:\n%s", len(list), text.String())
	}
	for i, p := range list {
		if f := strings.Fields(lines[i+1]); f[0] != p.Name || f[len(f)-1] != strconv.Itoa(p.Requirements) {
			t.Errorf("profiles line %d: expected %s … %d, got %q", i+1, p.Name, p.Requirements, lines[i+1])
		}
	}
	m := regexp.MustCompile(`^cross-cutting: (\d+) requirements \(ALL\.\* \d+, GEN\.\* \d+, REC\.\* \d+\)`).FindStringSubmatch(lines[len(lines)-1])
	if m == nil {
		t.Fatalf("profiles: expected the cross-cutting line last, got %q", lines[len(lines)-1])
	}
	if cross, _ := strconv.Atoi(m[1]); total+cross != len(cat.Requirements) {
		t.Errorf("profiles: expected the profiles (%d) and the cross-cutting (%d) to count the catalogue's %d requirements once each", total, cross, len(cat.Requirements))
	}

	var help bytes.Buffer
	if code := profilesCmd([]string{"-h"}, io.Discard, &help); code != exitOK || !strings.Contains(help.String(), "cross-cutting") {
		t.Errorf("profiles -h: expected exit 0 and help saying how cross-cutting requirements count, got %d:\n%s", code, help.String())
	}
	var errOut bytes.Buffer
	if code := profilesCmd([]string{"extra"}, io.Discard, &errOut); code != exitUsage || strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("profiles extra: expected exit %d and one line, got %d: %q", exitUsage, code, errOut.String())
	}
}
