// Package doccheck holds the documents to the code that knows their facts:
// the figures a hand-written page states (Figures) and the pages generated
// from the code (Current). Each check is a test next to the code that knows
// the fact, so a stale page fails `go test ./...` naming its line.
package doccheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Figure is one number a document states.
type Figure struct {
	// What names the figure in a failure ("scenarios").
	What string
	// Pattern matches each place the document states it, across line
	// breaks if it is written with \s+ between words; every group is the
	// figure, in digits or as a word from zero to twenty.
	Pattern *regexp.Regexp
	// Want is the value the code knows.
	Want int
}

// Figures fails t for every place the document at path states a figure
// with another value, naming the line, and for every figure it does not
// state at all (its wording changed: the pattern must follow).
func Figures(t testing.TB, path string, figures ...Figure) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range stale(filepath.Base(path), string(data), figures) {
		t.Error(p)
	}
}

// stale lists what Figures reports for the document name holding text.
func stale(name, text string, figures []Figure) []string {
	var out []string
	for _, f := range figures {
		matches := f.Pattern.FindAllStringSubmatchIndex(text, -1)
		if len(matches) == 0 {
			out = append(out, fmt.Sprintf("%s: expected a place stating the %s (%d), got none matching %s", name, f.What, f.Want, f.Pattern))
			continue
		}
		for _, m := range matches {
			for g := 1; 2*g < len(m); g++ {
				if m[2*g] < 0 {
					continue
				}
				stated := text[m[2*g]:m[2*g+1]]
				if n, ok := number(stated); !ok || n != f.Want {
					line := 1 + strings.Count(text[:m[2*g]], "\n")
					out = append(out, fmt.Sprintf("%s:%d: stale: states %s %s, expected %d: %q", name, line, stated, f.What, f.Want, text[m[0]:m[1]]))
				}
			}
		}
	}
	return out
}

// words are the numbers a document may spell out.
var words = strings.Fields("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty")

// number reads a figure written in digits or as a word.
func number(s string) (int, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	for n, w := range words {
		if strings.EqualFold(s, w) {
			return n, true
		}
	}
	return 0, false
}

// Current compares the generated page at path with want, or writes want
// there when update is set (the calling test's -update flag). A difference
// fails t with the command that regenerates the page (how, e.g. "go test
// ./harness/faithful/ -run TestVariantsDoc -update").
func Current(t testing.TB, path, want, how string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is stale (%s): run %s", filepath.Base(path), firstDifference(string(got), want), how)
	}
}

// firstDifference says where two texts first differ, by line.
func firstDifference(got, want string) string {
	if d := Differences(got, want); len(d) > 0 {
		return fmt.Sprintf("line %d: expected %q, got %q", d[0].Line, d[0].Want, d[0].Got)
	}
	return "they differ"
}

// Difference is a line at which two texts differ: its number (from 1) and
// its text in each ("" past the end of one).
type Difference struct {
	Line      int
	Got, Want string
}

// Differences lists the lines at which got and want differ, in order: a
// test's message about generated text or a golden file.
func Differences(got, want string) []Difference {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var out []Difference
	for i := 0; i < len(g) || i < len(w); i++ {
		d := Difference{Line: i + 1}
		if i < len(g) {
			d.Got = g[i]
		}
		if i < len(w) {
			d.Want = w[i]
		}
		if d.Got != d.Want {
			out = append(out, d)
		}
	}
	return out
}
