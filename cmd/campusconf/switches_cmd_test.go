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

func TestDefectsCmd(t *testing.T) {
	var out bytes.Buffer
	if got := defectsCmd(nil, &out, io.Discard); got != exitOK {
		t.Fatalf("defects = %d, want %d", got, exitOK)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(simulator.Defects()) {
		t.Fatalf("defects printed %d lines, want one per defect (%d)", len(lines), len(simulator.Defects()))
	}
	for i, d := range simulator.Defects() {
		if !strings.HasPrefix(lines[i], string(d.Name)+" ") || !strings.Contains(lines[i], d.Description) ||
			!strings.Contains(lines[i], "[breaks "+strings.Join(d.Requirements, ", ")) {
			t.Errorf("line %d = %q, want %s, its description and its requirements", i, lines[i], d.Name)
		}
	}
}

func TestVariantsCmd(t *testing.T) {
	var out bytes.Buffer
	if got := variantsCmd(nil, &out, io.Discard); got != exitOK {
		t.Fatalf("variants = %d, want %d", got, exitOK)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(simulator.Variants()) {
		t.Fatalf("variants printed %d lines, want one per variant (%d)", len(lines), len(simulator.Variants()))
	}
	for i, v := range simulator.Variants() {
		if !strings.HasPrefix(lines[i], string(v.Name)+" ") || !strings.Contains(lines[i], v.Description) || !strings.Contains(lines[i], "["+v.Exercises+"]") {
			t.Errorf("line %d = %q, want %s, its description and what it exercises", i, lines[i], v.Name)
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
