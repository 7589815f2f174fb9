// Package layers holds the imports of the project to the layer table of
// CONTRIBUTING.md ("Layers"): its test reads the table and `go list`, and
// fails naming each arrow the table does not allow. The table is the one
// statement of the architecture; this package only reads it.
package layers

import (
	"bufio"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Table is the layer table: which layer each package is in, and the
// arrows within a layer it allows and the arrows it refuses.
type Table struct {
	Layers []Layer
}

// Layer is one row of the table.
type Layer struct {
	N int
	// Packages are patterns: a path, or path/... for it and every package
	// below it.
	Packages []string
	// Also are the arrows allowed within the layer; Never the arrows
	// refused whatever the layers.
	Also, Never []Arrow
}

// Arrow is an import from a package matching From of one matching any of
// To.
type Arrow struct {
	From string
	To   []string
}

// header is the table's header row.
const header = "| Layer | Packages | Also imports, within its layer | Never imports |"

var code = regexp.MustCompile("`([^`]+)`")

// Parse reads the layer table from a document: the rows under header,
// up to the first line that is not a row.
func Parse(doc string) (Table, error) {
	var t Table
	sc := bufio.NewScanner(strings.NewReader(doc))
	in := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == header:
			in = true
			continue
		case !in:
			continue
		case strings.HasPrefix(line, "|---"):
			continue
		case !strings.HasPrefix(line, "|"):
			in = false
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 4 {
			return t, fmt.Errorf("layer row %q: expected 4 cells, got %d", line, len(cells))
		}
		num, _, _ := strings.Cut(strings.TrimSpace(cells[0]), " ")
		n, err := strconv.Atoi(num)
		if err != nil {
			return t, fmt.Errorf("layer row %q: expected a layer number first, got %q", line, num)
		}
		l := Layer{N: n, Packages: codes(cells[1])}
		if l.Also, err = arrows(cells[2]); err == nil {
			l.Never, err = arrows(cells[3])
		}
		if err != nil {
			return t, fmt.Errorf("layer %d: %w", n, err)
		}
		t.Layers = append(t.Layers, l)
	}
	if len(t.Layers) == 0 {
		return t, fmt.Errorf("no layer table (a table under %q)", header)
	}
	return t, nil
}

func codes(cell string) []string {
	var out []string
	for _, m := range code.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// arrows reads "`a` → `b` `c`; `d` → `e`".
func arrows(cell string) ([]Arrow, error) {
	var out []Arrow
	for _, part := range strings.Split(cell, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		from, to, ok := strings.Cut(part, "→")
		f, t := codes(from), codes(to)
		if !ok || len(f) != 1 || len(t) == 0 {
			return nil, fmt.Errorf("arrow %q: expected one `from`, an arrow, then one or more `to`", strings.TrimSpace(part))
		}
		out = append(out, Arrow{From: f[0], To: t})
	}
	return out, nil
}

// matches reports whether pattern names pkg.
func matches(pattern, pkg string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pattern == pkg
}

// Layer returns the layer of pkg, and false when no row names it.
func (t Table) Layer(pkg string) (int, bool) {
	for _, l := range t.Layers {
		for _, p := range l.Packages {
			if matches(p, pkg) {
				return l.N, true
			}
		}
	}
	return 0, false
}

func has(arrows []Arrow, from, to string) bool {
	for _, a := range arrows {
		if !matches(a.From, from) {
			continue
		}
		for _, t := range a.To {
			if matches(t, to) {
				return true
			}
		}
	}
	return false
}

func (t Table) never(from, to string) bool {
	for _, l := range t.Layers {
		if has(l.Never, from, to) {
			return true
		}
	}
	return false
}

func (t Table) also(from, to string) bool {
	for _, l := range t.Layers {
		if has(l.Also, from, to) {
			return true
		}
	}
	return false
}

// Check returns a line for every package of imports (each package's
// project imports, paths relative to the module) the table does not place
// and for every arrow it does not allow.
func (t Table) Check(imports map[string][]string) []string {
	var out []string
	for _, from := range sortedKeys(imports) {
		lf, ok := t.Layer(from)
		if !ok {
			out = append(out, fmt.Sprintf("%s: in no layer: add it to a row of the table", from))
			continue
		}
		for _, to := range imports[from] {
			lt, ok := t.Layer(to)
			switch {
			case !ok:
				continue // reported as a package of its own
			case t.never(from, to):
				out = append(out, fmt.Sprintf("%s → %s: an arrow the table refuses (never)", from, to))
			case lt < lf || lt == lf && t.also(from, to):
			case lt == lf:
				out = append(out, fmt.Sprintf("%s → %s: both in layer %d, and the table lists no such arrow within it", from, to, lf))
			default:
				out = append(out, fmt.Sprintf("%s (layer %d) → %s (layer %d): a lower layer imports a higher one", from, lf, to, lt))
			}
		}
	}
	return out
}

// CheckTests returns a line for every test import the table refuses: a
// test may reach further than its package, but never against a "never"
// arrow (the simulator's tests import no producer).
func (t Table) CheckTests(imports map[string][]string) []string {
	var out []string
	for _, from := range sortedKeys(imports) {
		for _, to := range imports[from] {
			if to != from && t.never(from, to) {
				out = append(out, fmt.Sprintf("%s (its tests) → %s: an arrow the table refuses (never)", from, to))
			}
		}
	}
	return out
}

func sortedKeys(m map[string][]string) []string { return slices.Sorted(maps.Keys(m)) }

// Folder returns the top-level folder of a package path relative to the
// module ("simulator" for "simulator/store", "cmd" for "cmd/campusconf").
func Folder(pkg string) string {
	f, _, _ := strings.Cut(pkg, "/")
	return f
}

// CheckFolders returns a line for every top-level folder whose packages
// sit in more than one layer of the table, and for every pair of folders
// that import each other (an arrow each way, through any of their
// packages): the folders are to show the layers, so that imports between
// them run one way only.
func (t Table) CheckFolders(imports map[string][]string) []string {
	var out []string
	layers := map[string]map[int][]string{}
	for _, pkg := range sortedKeys(imports) {
		n, ok := t.Layer(pkg)
		if !ok {
			continue // reported by Check
		}
		f := Folder(pkg)
		if layers[f] == nil {
			layers[f] = map[int][]string{}
		}
		layers[f][n] = append(layers[f][n], pkg)
	}
	for _, f := range slices.Sorted(maps.Keys(layers)) {
		if len(layers[f]) > 1 {
			var parts []string
			for _, n := range slices.Sorted(maps.Keys(layers[f])) {
				parts = append(parts, fmt.Sprintf("layer %d: %s", n, strings.Join(layers[f][n], " ")))
			}
			out = append(out, fmt.Sprintf("%s/: its packages sit in %d layers (%s); expected one layer per top-level folder", f, len(layers[f]), strings.Join(parts, "; ")))
		}
	}
	arrows := map[[2]string]string{} // folder pair → the first package arrow seen
	for _, from := range sortedKeys(imports) {
		for _, to := range imports[from] {
			ff, ft := Folder(from), Folder(to)
			if ff != ft {
				if _, seen := arrows[[2]string{ff, ft}]; !seen {
					arrows[[2]string{ff, ft}] = from + " → " + to
				}
			}
		}
	}
	for _, pair := range slices.SortedFunc(maps.Keys(arrows), func(a, b [2]string) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) }) {
		back, ok := arrows[[2]string{pair[1], pair[0]}]
		if ok && pair[0] < pair[1] {
			out = append(out, fmt.Sprintf("%s/ and %s/ import each other (%s; %s); expected imports between top-level folders one way only", pair[0], pair[1], arrows[pair], back))
		}
	}
	return out
}
