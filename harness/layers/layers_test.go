package layers

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
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

// smallTable is the layer table of a test of the checks: rows under the
// header of CONTRIBUTING.md's table.
func smallTable(t *testing.T, rows string) Table {
	t.Helper()
	tb, err := Parse(`
| Layer | Packages | Also imports, within its layer | Never imports |
|---|---|---|---|` + rows)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestCheckNamesTheArrow holds the checker to what it must refuse, on a
// small table of its own.
func TestCheckNamesTheArrow(t *testing.T) {
	tb := smallTable(t, `
| 0 facts | `+"`reg`"+` | | |
| 1 model | `+"`model` `fmt`"+` | `+"`model` → `fmt`"+` | |
| 2 producers | `+"`prod` `sim/...`"+` | `+"`sim/...` → `sim/...`"+` | `+"`sim/...` → `model` `prod`"+` |
`)
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

// TestFoldersShowTheLayers: each top-level folder sits in one layer, so
// imports between top-level folders run one way only.
func TestFoldersShowTheLayers(t *testing.T) {
	imports, _ := graph(t)
	for _, p := range table(t).CheckFolders(imports) {
		t.Errorf("CONTRIBUTING.md, Layers: %s", p)
	}
}

// TestCheckFoldersNamesTheFolder holds the folder check to what it must
// refuse, on a small table of its own.
func TestCheckFoldersNamesTheFolder(t *testing.T) {
	tb := smallTable(t, `
| 0 facts | `+"`low/a` `low/b`"+` | | |
| 1 model | `+"`mid` `low/c`"+` | | |
| 2 top | `+"`top`"+` | | |
`)
	tests := []struct {
		name    string
		imports map[string][]string
		want    string
	}{
		{"one layer a folder, one way", map[string][]string{"low/a": nil, "low/b": {"low/a"}, "mid": {"low/a"}, "top": {"mid"}}, ""},
		{"a folder in two layers", map[string][]string{"low/a": nil, "low/c": nil},
			"low/: its packages sit in 2 layers (layer 0: low/a; layer 1: low/c); expected one layer per top-level folder"},
		{"two folders each way", map[string][]string{"low/a": nil, "low/c": {"mid"}, "mid": {"low/a"}},
			"low/: its packages sit in 2 layers (layer 0: low/a; layer 1: low/c); expected one layer per top-level folder\n" +
				"low/ and mid/ import each other (low/c → mid; mid → low/a); expected imports between top-level folders one way only"},
	}
	for _, tt := range tests {
		got := strings.Join(tb.CheckFolders(tt.imports), "\n")
		if got != tt.want {
			t.Errorf("%s: expected %q, got %q", tt.name, tt.want, got)
		}
	}
}

// TestPackageNamesAreUnique: no two packages of the module share a name
// (main packages aside), so a name in a message, an import or a profile
// means one package.
func TestPackageNamesAreUnique(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.Name}}\t{{.ImportPath}}", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	byName := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, path, _ := strings.Cut(line, "\t")
		if name != "main" {
			byName[name] = append(byName[name], rel(path))
		}
	}
	for _, name := range sortedKeys(byName) {
		if len(byName[name]) > 1 {
			t.Errorf("package name %q is used by %s: expected one package a name", name, strings.Join(byName[name], " and "))
		}
	}
}

// TestFileNamesAreUnique: within internal/ and simulator/, no two source
// files share a name (a plural and its singular count as one name; doc.go
// is every package's comment), so a file's name says which job it does.
// One pairing is the layout's own: a domain's operations
// (simulator/ops/<domain>.go) and its state (simulator/store/<domain>.go),
// one job split by layer, as CONTRIBUTING.md's "Where a rule lives" says.
func TestFileNamesAreUnique(t *testing.T) {
	byName := map[string][]string{}
	for _, root := range []string{"internal", "simulator"} {
		err := filepath.WalkDir("../../"+root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == "doc.go" {
				return nil
			}
			key := strings.TrimSuffix(strings.TrimSuffix(name, ".go"), "s")
			rel, _ := filepath.Rel("../..", p)
			byName[key] = append(byName[key], filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, key := range sortedKeys(byName) {
		if len(byName[key]) > 1 && !domainPair(byName[key]) {
			t.Errorf("%s share a name: expected one file a name within internal/ and simulator/, each saying its job", strings.Join(byName[key], " and "))
		}
	}
}

// domainPair reports whether files are exactly a domain's operations file
// and its store file of the same name.
func domainPair(files []string) bool {
	if len(files) != 2 {
		return false
	}
	slices.Sort(files)
	a, b := files[0], files[1]
	return strings.HasPrefix(a, "simulator/ops/") && strings.HasPrefix(b, "simulator/store/") &&
		strings.TrimPrefix(a, "simulator/ops/") == strings.TrimPrefix(b, "simulator/store/")
}
