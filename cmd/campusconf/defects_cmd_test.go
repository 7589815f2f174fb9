package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

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
	if got := defectsCmd([]string{"extra"}, io.Discard, io.Discard); got != exitUsage {
		t.Errorf("defects extra = %d, want %d", got, exitUsage)
	}
}
