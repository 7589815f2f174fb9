package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
)

func TestFixturesCmd(t *testing.T) {
	var out bytes.Buffer
	if got := fixturesCmd([]string{"--seed", "3", "--base-url", "http://localhost:8080/"}, &out, io.Discard); got != exitOK {
		t.Fatalf("fixtures = %d, want %d", got, exitOK)
	}
	f, err := fixtures.Parse(out.Bytes())
	if err != nil {
		t.Fatalf("output does not parse as a fixture file: %v\n%s", err, out.String())
	}
	if !strings.Contains(f.Description, "seed 3") || !strings.Contains(f.Description, "at http://localhost:8080") {
		t.Errorf("description = %q, want seed 3 and the base URL", f.Description)
	}
	if !strings.HasPrefix(out.String(), "{\n  \"version\": 1") {
		t.Errorf("output is not indented JSON: %.40q", out.String())
	}
	var again bytes.Buffer
	fixturesCmd([]string{"--seed", "3", "--base-url", "http://localhost:8080/"}, &again, io.Discard)
	if !bytes.Equal(out.Bytes(), again.Bytes()) {
		t.Error("two runs with the same seed print different fixture files")
	}
}

func TestFixturesCmdUsage(t *testing.T) {
	for _, args := range [][]string{{"--scale", "0"}, {"--base-url", "localhost"}, {"extra"}, {"--seed", "x"}} {
		var stderr bytes.Buffer
		if got := fixturesCmd(args, io.Discard, &stderr); got != exitUsage {
			t.Errorf("fixtures %v = %d, want %d", args, got, exitUsage)
		}
		if stderr.Len() == 0 {
			t.Errorf("fixtures %v printed no message", args)
		}
	}
}
