package main

import (
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
