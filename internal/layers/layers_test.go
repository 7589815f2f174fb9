package layers

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/campusconf/campusconf"

// graph is the project's import graph as go list gives it: each package's
// project imports, and its tests' (both paths relative to the module).
func graph(t *testing.T) (imports, tests map[string][]string) {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{join .Imports \" \"}}\t{{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports, tests = map[string][]string{}, map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("go list line %q: expected 3 columns", line)
		}
		pkg := rel(cols[0])
		imports[pkg] = project(cols[1])
		tests[pkg] = project(cols[2])
	}
	return imports, tests
}

// project keeps the project's packages of a space-separated list, relative
// to the module.
func project(list string) []string {
	var out []string
	for _, p := range strings.Fields(list) {
		if strings.HasPrefix(p, module+"/") {
			out = append(out, rel(p))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func rel(p string) string { return strings.TrimPrefix(p, module+"/") }

func table(t *testing.T) Table {
	t.Helper()
	doc, err := os.ReadFile("../../CONTRIBUTING.md")
	if err != nil {
		t.Fatal(err)
	}
	tb, err := Parse(string(doc))
	if err != nil {
		t.Fatalf("CONTRIBUTING.md: %v", err)
	}
	return tb
}

// TestImportsFollowTheLayers: every package sits in a layer of
// CONTRIBUTING.md's table, and every import is an arrow it allows.
func TestImportsFollowTheLayers(t *testing.T) {
	tb := table(t)
	imports, tests := graph(t)
	for _, p := range tb.Check(imports) {
		t.Errorf("CONTRIBUTING.md, Layers: %s", p)
	}
	for _, p := range tb.CheckTests(tests) {
		t.Errorf("CONTRIBUTING.md, Layers: %s", p)
	}
	// every pattern of the table names a package, so a renamed package
	// cannot leave a stale row behind
	for _, l := range tb.Layers {
		for _, pat := range l.Packages {
			if !slices.ContainsFunc(sortedKeys(imports), func(p string) bool { return matches(pat, p) }) {
				t.Errorf("CONTRIBUTING.md, Layers: layer %d names %s, which is no package", l.N, pat)
			}
		}
	}
}

// TestConformanceLinksNoSimulator: a vendor's test binary importing
// conformance links neither the simulator, nor its fake data, nor the
// Swagger UI (conformance/embedded brings the simulator when asked).
func TestConformanceLinksNoSimulator(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./conformance")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./conformance: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{module + "/simulator", "github.com/brianvoe/gofakeit", "github.com/swaggest/swgui"} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("conformance links %s: expected no simulator, gofakeit or swgui among its dependencies (go list -deps ./conformance)", dep)
			}
		}
	}
}

// TestCheckNamesTheArrow holds the checker to what it must refuse, on a
// small table of its own.
func TestCheckNamesTheArrow(t *testing.T) {
	const doc = `
| Layer | Packages | Also imports, within its layer | Never imports |
|---|---|---|---|
| 0 facts | ` + "`reg`" + ` | | |
| 1 model | ` + "`model` `fmt`" + ` | ` + "`model` → `fmt`" + ` | |
| 2 producers | ` + "`prod` `sim/...`" + ` | ` + "`sim/...` → `sim/...`" + ` | ` + "`sim/...` → `model` `prod`" + ` |
`
	tb, err := Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		imports map[string][]string
		want    string // "" when allowed
	}{
		{"down a layer", map[string][]string{"model": {"reg"}}, ""},
		{"listed within a layer", map[string][]string{"model": {"fmt"}}, ""},
		{"within a pattern", map[string][]string{"sim/store": {"sim"}}, ""},
		{"up a layer", map[string][]string{"reg": {"model"}}, "reg (layer 0) → model (layer 1): a lower layer imports a higher one"},
		{"unlisted within a layer", map[string][]string{"fmt": {"model"}}, "fmt → model: both in layer 1, and the table lists no such arrow within it"},
		{"sideways between producers", map[string][]string{"sim": {"prod"}}, "sim → prod: an arrow the table refuses (never)"},
		{"never, though lower", map[string][]string{"sim/world": {"model"}}, "sim/world → model: an arrow the table refuses (never)"},
		{"unplaced package", map[string][]string{"extra": {"reg"}}, "extra: in no layer: add it to a row of the table"},
	}
	for _, tt := range tests {
		got := strings.Join(tb.Check(tt.imports), "\n")
		if got != tt.want {
			t.Errorf("%s: expected %q, got %q", tt.name, tt.want, got)
		}
	}
	if got := tb.CheckTests(map[string][]string{"sim": {"prod", "reg"}}); len(got) != 1 || !strings.Contains(got[0], "sim (its tests) → prod") {
		t.Errorf("test imports: expected the one arrow sim → prod refused, got %q", got)
	}
}
