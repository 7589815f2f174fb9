package genclients

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
)

// toolsDir is the module that pins the generators as Go tool dependencies.
const toolsDir = "../../tools"

// TestGeneratedClients generates a client from `campusconf openapi`'s
// document with ogen and with oapi-codegen, and decodes with each one
// recorded simulator answer of every operation for every status the
// document lists, success and error, and for 401, which the simulator
// answers every operation. Each client must decode every answer without
// error into the type its generator wrote for that status, and what it
// decoded must encode back to the same JSON (numbers of equal value,
// date-times the same instant to the second, as ogen writes them without
// fractions): a value the declared format cannot hold (a float32 rounding
// past its maximum) fails here.
//
// It compiles two generated clients, so it runs in full only without
// -short. Reproduce: go test ./harness/genclients/ -run TestGeneratedClients -v
func TestGeneratedClients(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: generating and compiling two clients takes a minute or more on a cold cache; run without -short")
	}
	goTool := lookGo(t)
	tools, err := filepath.Abs(toolsDir)
	if err != nil {
		t.Fatal(err)
	}
	download(t, goTool, tools)

	want := documented(t)
	answers := record(t, want)

	dir := t.TempDir()
	writeModule(t, dir, tools)
	doc := filepath.Join(dir, "openapi.json")
	writeFile(t, doc, indentedDocument(t))
	writeFile(t, filepath.Join(dir, "answers.json"), mustJSON(t, answers))

	start := time.Now()
	run(t, goTool, tools, "tool", "ogen", "-config", harnessFile(t, "ogen.yml", dir),
		"-target", filepath.Join(dir, "ogenapi"), "-package", "ogenapi", "-clean", doc)
	run(t, goTool, tools, "tool", "oapi-codegen", "-config", harnessFile(t, "oapi-codegen.yaml", dir),
		"-o", filepath.Join(dir, "oapiapi", "client.gen.go"), doc)
	t.Logf("generated both clients in %v", time.Since(start).Round(time.Millisecond))
	writeDecoder(t, filepath.Join(dir, "ogenapi", "decode_gen.go"), "ogenapi", "decode%sResponse")
	writeDecoder(t, filepath.Join(dir, "oapiapi", "decode_gen.go"), "oapiapi", "Parse%sResponse")
	harnessFile(t, "main.go", dir)

	start = time.Now()
	out := run(t, goTool, dir, "run", ".", filepath.Join(dir, "answers.json"))
	t.Logf("built the harness and decoded %d answers twice in %v", len(answers), time.Since(start).Round(time.Millisecond))
	var results []result
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("harness output is not its JSON: %v\n%.2000s", err, out)
	}
	if got, want := len(results), 2*len(answers); got != want {
		t.Fatalf("harness gave %d results, want %d (two generators × %d answers)", got, want, len(answers))
	}

	byKey := map[string]answer{}
	for _, a := range answers {
		byKey[a.Op+" "+strconv.Itoa(a.Status)] = a
	}
	failed := map[string]map[string]bool{} // generator -> operations with a failure
	for _, r := range results {
		a := byKey[r.Op+" "+strconv.Itoa(r.Status)]
		problem := r.Error
		if problem == "" && a.Body != "" {
			problem = sameJSON([]byte(a.Body), r.Value)
		}
		if problem == "" {
			continue
		}
		if failed[r.Generator] == nil {
			failed[r.Generator] = map[string]bool{}
		}
		failed[r.Generator][r.Op] = true
		t.Errorf("%s, %s %d (%s): expected the answer decoded and encoded back unchanged, got: %s\n  answer: %.300s",
			r.Generator, r.Op, r.Status, a.How, problem, a.Body)
	}
	ops := len(registry.IDs())
	for _, g := range []string{"ogen", "oapi-codegen"} {
		t.Logf("%s: %d/%d operations decoded, every documented status", g, ops-len(failed[g]), ops)
	}
}

// result is what the harness made of one answer with one generator.
type result struct {
	Generator string          `json:"generator"`
	Op        string          `json:"op"`
	Status    int             `json:"status"`
	Type      string          `json:"type"`
	Error     string          `json:"error"`
	Value     json.RawMessage `json:"value"`
}

// documented returns, per operation, every status the document lists and
// 401, which the simulator answers every operation a request without a
// subscription key (so the document must list it for a client to decode
// it); it checks every registry operation has responses.
func documented(t *testing.T) map[string][]int {
	t.Helper()
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]int{}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for code := range op.Responses.Map() {
				n, err := strconv.Atoi(code)
				if err != nil {
					t.Fatalf("%s: response %q is not a status; record cannot answer a range or default", openapi.IDOf(op), code)
				}
				out[openapi.IDOf(op)] = append(out[openapi.IDOf(op)], n)
			}
			if !slices.Contains(out[openapi.IDOf(op)], 401) {
				out[openapi.IDOf(op)] = append(out[openapi.IDOf(op)], 401)
			}
			slices.Sort(out[openapi.IDOf(op)])
		}
	}
	for _, id := range registry.IDs() {
		if len(out[string(id)]) == 0 {
			t.Fatalf("%s: no response in the document", id)
		}
	}
	return out
}

// lookGo finds the go command (go test puts its own first on PATH).
func lookGo(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command on PATH: %v", err)
	}
	return p
}

// download makes sure the tools module's dependencies are in the module
// cache. Without them (no network, nothing cached) the test cannot run:
// it skips, except on CI (CI=true), where it must run.
func download(t *testing.T, goTool, tools string) {
	t.Helper()
	cmd := command(goTool, tools, "mod", "download")
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := fmt.Sprintf("the generators' module cannot be downloaded (%v): run `go -C tools mod download` where the Go module proxy is reachable\n%s", err, out)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + " (CI=true: this test must run on CI)")
		}
		t.Skip(msg)
	}
}

// command is the go command with args, run in dir, outside any workspace.
func command(goTool, dir string, args ...string) *exec.Cmd {
	cmd := exec.Command(goTool, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	return cmd
}

// run runs the go command and returns its standard output; it fails t
// with the command's error output otherwise.
func run(t *testing.T, goTool, dir string, args ...string) []byte {
	t.Helper()
	cmd := command(goTool, dir, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s (in %s): %v\n%s", strings.Join(args, " "), dir, err, stderr.Bytes())
	}
	return out
}

// writeModule makes dir a module that resolves the generated code's
// imports exactly as the tools module does: its go.mod and go.sum, under
// another module path.
func writeModule(t *testing.T, dir, tools string) {
	t.Helper()
	mod, err := os.ReadFile(filepath.Join(tools, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := bytes.Cut(mod, []byte("\n"))
	if !bytes.HasPrefix(first, []byte("module ")) {
		t.Fatalf("tools/go.mod: expected a module line first, got %q", first)
	}
	writeFile(t, filepath.Join(dir, "go.mod"), append([]byte("module campusconf.test/harness\n"), rest...))
	sum, err := os.ReadFile(filepath.Join(tools, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "go.sum"), sum)
}

// indentedDocument is the document as `campusconf openapi` prints it.
func indentedDocument(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Indent(&b, openapi.JSON(), "", "  "); err != nil {
		t.Fatal(err)
	}
	return append(b.Bytes(), '\n')
}

// harnessFile copies testdata/harness/name into dir and returns its path.
func harnessFile(t *testing.T, name, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "harness", name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	writeFile(t, p, data)
	return p
}

// writeDecoder writes the generated package's Decode, which calls the
// decoder the generator wrote for each operation (fn: its name, %s the
// operationId with its first letter upper case), by registry id.
func writeDecoder(t *testing.T, path, pkg, fn string) {
	t.Helper()
	tmpl, err := template.ParseFiles(filepath.Join("testdata", "harness", "decode.go.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	type op struct{ ID, Name string }
	var ops []op
	for _, o := range registry.All() {
		// the generators name an operation's functions after its
		// operationId, its first letter upper case
		id := o.OperationID()
		ops = append(ops, op{string(o.ID), strings.ToUpper(id[:1]) + id[1:]})
	}
	if err := tmpl.Execute(&b, map[string]any{"Package": pkg, "Func": fn, "Ops": ops}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, b.Bytes())
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameJSON describes how got differs from want ("" when it does not):
// the same members and items, numbers of equal value, and strings equal or
// both RFC 3339 date-times of the same instant to the second.
func sameJSON(want, got []byte) string {
	var w, g any
	for _, x := range []struct {
		b []byte
		v *any
	}{{want, &w}, {got, &g}} {
		d := json.NewDecoder(bytes.NewReader(x.b))
		d.UseNumber()
		if err := d.Decode(x.v); err != nil {
			return fmt.Sprintf("not JSON (%v): %.200s", err, x.b)
		}
	}
	return diff("", w, g)
}

func diff(at string, want, got any) string {
	if at == "" {
		at = "/"
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: expected an object, got %T", at, got)
		}
		for _, k := range slices.Sorted(maps.Keys(w)) {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s: member %q lost", at, k)
			}
			if d := diff(strings.TrimSuffix(at, "/")+"/"+k, w[k], gv); d != "" {
				return d
			}
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				return fmt.Sprintf("%s: member %q added", at, k)
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: expected an array of %d, got %v", at, len(w), got)
		}
		for i := range w {
			if d := diff(fmt.Sprintf("%s/%d", strings.TrimSuffix(at, "/"), i), w[i], g[i]); d != "" {
				return d
			}
		}
	case json.Number:
		g, ok := got.(json.Number)
		if !ok || !sameNumber(string(w), string(g)) {
			return fmt.Sprintf("%s: expected %s, got %v", at, w, got)
		}
	case string:
		g, ok := got.(string)
		if ok && (g == w || sameInstant(w, g)) {
			return ""
		}
		return fmt.Sprintf("%s: expected %q, got %v", at, w, got)
	default:
		if !reflect.DeepEqual(want, got) {
			return fmt.Sprintf("%s: expected %v, got %v", at, want, got)
		}
	}
	return ""
}

// sameNumber reports whether got, a number a client encoded back, has the
// value of want: read as a float64, or, when the client held a float32 and
// wrote it at float32's own shortest precision, read as that float32.
func sameNumber(want, got string) bool {
	w, err := strconv.ParseFloat(want, 64)
	if err != nil {
		return false
	}
	if g, err := strconv.ParseFloat(got, 64); err == nil && g == w {
		return true
	}
	g32, err := strconv.ParseFloat(got, 32)
	return err == nil && g32 == w
}

func sameInstant(a, b string) bool {
	ta, err := time.Parse(time.RFC3339Nano, a)
	if err != nil {
		return false
	}
	tb, err := time.Parse(time.RFC3339Nano, b)
	return err == nil && ta.Truncate(time.Second).Equal(tb.Truncate(time.Second))
}
