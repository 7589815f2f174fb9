package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/simulator"
)

// TestSwitchLists: defects and variants print one line per switch, in
// the simulator's order, each with its name first, its description, and
// what it breaks or exercises.
func TestSwitchLists(t *testing.T) {
	var defectLines, variantLines [][]string
	for _, d := range simulator.Defects() {
		defectLines = append(defectLines, []string{string(d.Name) + " ", d.Description, "[breaks " + strings.Join(d.Requirements, ", ")})
	}
	for _, v := range simulator.Variants() {
		variantLines = append(variantLines, []string{string(v.Name) + " ", v.Description, "[" + v.Exercises + "]"})
	}
	tests := []struct {
		name string
		run  func([]string, io.Writer, io.Writer) int
		want [][]string // per line: its prefix, then what it contains
	}{
		{"defects", defectsCmd, defectLines},
		{"variants", variantsCmd, variantLines},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if got := tt.run(nil, &out, io.Discard); got != exitOK {
			t.Fatalf("%s: expected exit %d, got %d", tt.name, exitOK, got)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != len(tt.want) {
			t.Fatalf("%s: expected one line per switch (%d), got %d", tt.name, len(tt.want), len(lines))
		}
		for i, w := range tt.want {
			if !strings.HasPrefix(lines[i], w[0]) || !strings.Contains(lines[i], w[1]) || !strings.Contains(lines[i], w[2]) {
				t.Errorf("%s line %d: expected %q first, then %q and %q, got %q", tt.name, i, w[0], w[1], w[2], lines[i])
			}
		}
	}
}

func TestServeAndFixturesTakeVariants(t *testing.T) {
	c, err := parseServe([]string{"--variant", "alt-paths", "--variant", "user-header"}, io.Discard)
	if err != nil || strings.Join(c.opts.Variants, ",") != "alt-paths,user-header" {
		t.Fatalf("serve --variant: variants %v, error %v", c.opts.Variants, err)
	}
	var out, errOut bytes.Buffer
	if got := fixturesCmd([]string{"--variant", "alt-paths"}, &out, &errOut); got != exitOK {
		t.Fatalf("fixtures --variant alt-paths = %d: %s", got, errOut.String())
	}
	var f fixtures.File
	if err := json.Unmarshal(out.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	if op := f.Operations["QS"]; op.Method != "PATCH" || op.Path != "/quiz/sections" {
		t.Errorf("fixtures --variant alt-paths: QS at %s %s, want PATCH /quiz/sections", op.Method, op.Path)
	}
	if got := fixturesCmd([]string{"--variant", "nope"}, io.Discard, &errOut); got != exitUsage || !strings.Contains(errOut.String(), "unknown variant") {
		t.Errorf("fixtures --variant nope = %d (%s), want %d naming the unknown variant", got, errOut.String(), exitUsage)
	}
}
