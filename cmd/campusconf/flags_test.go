package main

import (
	"bytes"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestStringList(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{nil, nil},
		{[]string{"--x", "a"}, []string{"a"}},
		{[]string{"--x", "a", "--x=b", "-x", "a"}, []string{"a", "b", "a"}},
		{[]string{"--x", "a,b"}, []string{"a,b"}},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var got stringList
		fs.Var(&got, "x", "")
		if err := fs.Parse(tt.args); err != nil {
			t.Fatalf("Parse(%q): %v", tt.args, err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Parse(%q) = %q, want %q", tt.args, got, tt.want)
		}
		if got, want := got.String(), strings.Join(tt.want, ","); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}

// TestNoArgCommands: the commands that take no argument print their help
// on -h and refuse anything else, naming it.
func TestNoArgCommands(t *testing.T) {
	cmds := map[string]func([]string, io.Writer, io.Writer) int{"defects": defectsCmd, "variants": variantsCmd, "openapi": openapiCmd}
	for name, run := range cmds {
		var out, errs bytes.Buffer
		if got := run([]string{"-h"}, &out, &errs); got != exitOK || !strings.HasPrefix(out.String(), "Usage: campusconf "+name) {
			t.Errorf("%s -h: expected exit %d and its usage on stdout, got %d and %q", name, exitOK, got, out.String())
		}
		out.Reset()
		if got := run([]string{"extra"}, &out, &errs); got != exitUsage || !strings.Contains(errs.String(), `campusconf `+name+`: unexpected argument "extra"`) || out.Len() > 0 {
			t.Errorf("%s extra: expected exit %d and one line naming the argument, got %d, stdout %q, stderr %q", name, exitUsage, got, out.String(), errs.String())
		}
	}
}
