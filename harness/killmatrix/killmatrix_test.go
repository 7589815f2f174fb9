package killmatrix

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/harness/simrun"
	"github.com/campusconf/campusconf/internal/registry"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/simulator/defects"
)

var update = flag.Bool("update", false, "rewrite docs/kill-matrix.md from the matrix")

// docPath is the generated table, relative to this package.
const docPath = "../../docs/kill-matrix.md"

// run is one run of the suite against a simulator with some defects.
type run struct {
	defect defects.Defect
	report *reports.Report
	err    error
	took   time.Duration
}

// failed maps each requirement id that failed to the scenarios failing it.
func (r run) failed() map[string][]string {
	out := map[string][]string{}
	for _, sc := range r.report.Scenarios {
		for _, id := range reports.FailedRequirements(sc) {
			out[id] = append(out[id], sc.ID)
		}
	}
	return out
}

// generated is the number of generated requests per operation of the
// runs against the generator defects: the N.
const generated = 100

// runAll runs the suite once per defect, alone, and returns the runs in
// the order of ds. The generator defects' runs send generated requests
// after the scenarios.
func runAll(ctx context.Context, ds []defects.Defect) []run {
	opts := make([]simulator.Options, len(ds))
	n := 0
	for i, d := range ds {
		opts[i] = simulator.Options{Defects: []string{string(d.Name)}}
		if d.Generated {
			n = generated
		}
	}
	out := make([]run, len(ds))
	for i, res := range simrun.AllGenerating(ctx, opts, n) {
		out[i] = run{defect: ds[i], report: res.Report, err: res.Err, took: res.Took}
	}
	return out
}

// sample is the defects the race run covers: about ten, spread evenly over
// the names, the same every time.
func sample(ds []defects.Defect) []defects.Defect {
	const want = 5
	step := max(1, (len(ds)+want-1)/want)
	var out []defects.Defect
	for i := 0; i < len(ds); i += step {
		out = append(out, ds[i])
	}
	return out
}

func catalogue(t *testing.T) *features.Catalogue {
	t.Helper()
	cat, err := features.Load()
	if err != nil {
		t.Fatalf("loading the requirement catalogue: %v", err)
	}
	return cat
}

// TestDefaultSimulatorPasses is the matrix's baseline: without a defect
// every scenario passes, so every failure below is the defect's doing.
func TestDefaultSimulatorPasses(t *testing.T) {
	rep, err := simrun.Run(t.Context(), simulator.Options{})
	if err != nil {
		t.Fatalf("running the suite: %v", err)
	}
	c := rep.Counts
	if c.Passed != c.Scenarios || c.Scenarios == 0 {
		var bad []string
		for _, sc := range rep.Scenarios {
			if sc.Outcome != reports.Passed {
				bad = append(bad, fmt.Sprintf("  %s: %s %v", sc.ID, sc.Outcome, reports.FailedRequirements(sc)))
			}
		}
		t.Fatalf("default simulator: expected every scenario to pass, got %d of %d passed:\n%s", c.Passed, c.Scenarios, strings.Join(bad, "\n"))
	}
}

// TestDeclarations checks the defect catalogue against the requirement
// catalogue: every id a defect names exists, a defect declares at least
// one requirement and never the same id as both declared and collateral,
// and every MUST requirement is declared by some defect.
func TestDeclarations(t *testing.T) {
	cat := catalogue(t)
	declared := map[string][]string{}
	for _, d := range defects.All() {
		if d.Description == "" {
			t.Errorf("defect %s: expected a description", d.Name)
		}
		if len(d.Requirements) == 0 {
			t.Errorf("defect %s: expected at least one declared requirement", d.Name)
		}
		for _, id := range append(slices.Clone(d.Requirements), d.Collateral...) {
			if _, ok := cat.Requirement(id); !ok {
				t.Errorf("defect %s: requirement %q is not in features/requirements.json", d.Name, id)
			}
		}
		for _, id := range d.Collateral {
			if slices.Contains(d.Requirements, id) {
				t.Errorf("defect %s: %s is declared both as broken and as collateral", d.Name, id)
			}
		}
		for _, id := range d.Requirements {
			declared[id] = append(declared[id], string(d.Name))
		}
	}
	var uncovered []string
	for _, id := range cat.MustIDs() {
		if len(declared[id]) == 0 {
			uncovered = append(uncovered, id)
		}
	}
	if len(uncovered) > 0 {
		t.Errorf("expected every MUST requirement to be declared by a defect, got %d without one: %s", len(uncovered), strings.Join(uncovered, ", "))
	}
}

// TestKillMatrix runs the suite once per defect and checks that it fails
// exactly the declared requirements, give or take the declared collateral.
// The race run checks a sample; the plain run checks every defect and the
// generated docs/kill-matrix.md.
func TestKillMatrix(t *testing.T) {
	var all, gen []defects.Defect
	for _, d := range defects.All() {
		if d.Generated {
			gen = append(gen, d)
		} else {
			all = append(all, d)
		}
	}
	ds := all
	if raceEnabled {
		ds = sample(all)
		gen = gen[:min(1, len(gen))]
		names := make([]string, len(ds))
		for i, d := range ds {
			names[i] = string(d.Name)
		}
		t.Logf("race detector on: running a sample of %d of %d defects (%s); the plain go test run covers them all",
			len(ds), len(all), strings.Join(names, ", "))
	}
	start := time.Now()
	runs := runAll(t.Context(), ds)
	took := time.Since(start)
	slowest := slices.MaxFunc(runs, func(a, b run) int { return int(a.took - b.took) })
	t.Logf("kill matrix: %d suite runs on %d workers in %s (slowest %s: %s)",
		len(runs), runtime.GOMAXPROCS(0), took.Round(time.Millisecond), slowest.defect.Name, slowest.took.Round(time.Millisecond))
	start = time.Now()
	genRuns := runAll(t.Context(), gen)
	t.Logf("generator defects: %d suite runs with --generate %d on %d workers in %s",
		len(genRuns), generated, runtime.GOMAXPROCS(0), time.Since(start).Round(time.Millisecond))

	caught := 0
	cat := catalogue(t)
	for _, r := range append(slices.Clone(runs), genRuns...) {
		t.Run(string(r.defect.Name), func(t *testing.T) {
			if r.err != nil {
				t.Fatalf("running the suite with %s: %v", r.defect.Name, r.err)
			}
			if msg := judge(r); msg != "" {
				t.Error(msg)
				return
			}
			if msg := judgeProfiles(r, cat); msg != "" {
				t.Error(msg)
				return
			}
			caught++
		})
	}
	if raceEnabled {
		return
	}
	doc := render(catalogue(t), runs, genRuns, caught)
	if *update {
		if err := os.WriteFile(docPath, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(docPath)
	if err != nil || string(got) != doc {
		t.Errorf("%s is stale: run go test ./harness/killmatrix/ -run TestKillMatrix -update", strings.TrimPrefix(docPath, "../../"))
	}
}

// judge returns what is wrong with a run of the suite against one defect:
// "" when exactly the declared requirements failed, with or without the
// declared collateral.
func judge(r run) string {
	failed := r.failed()
	d := r.defect
	var missing, unexpected []string
	for _, id := range d.Requirements {
		if _, ok := failed[id]; !ok {
			missing = append(missing, id)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(failed)) {
		if !slices.Contains(d.Requirements, id) && !slices.Contains(d.Collateral, id) {
			unexpected = append(unexpected, id)
		}
	}
	if len(missing) == 0 && len(unexpected) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "defect %s (%s): expected the suite to fail %s", d.Name, d.Description, strings.Join(d.Requirements, ", "))
	if len(d.Collateral) > 0 {
		fmt.Fprintf(&b, " (collateral allowed: %s)", strings.Join(d.Collateral, ", "))
	}
	fmt.Fprintf(&b, ", got %s", orNone(slices.Sorted(maps.Keys(failed))))
	for _, id := range missing {
		fmt.Fprintf(&b, "\n  missing %s; its scenarios:", id)
		for _, sc := range r.report.Scenarios {
			if slices.Contains(sc.Requirements, id) {
				fmt.Fprintf(&b, "\n    %s: %s %s", sc.ID, sc.Outcome, orNone(reports.FailedRequirements(sc)))
			}
		}
	}
	for _, id := range unexpected {
		fmt.Fprintf(&b, "\n  unexpected %s, failed by:", id)
		for _, name := range failed[id] {
			fmt.Fprintf(&b, "\n    %s", name)
			if sc := scenario(r.report, name); sc != nil && sc.Failure != nil {
				fmt.Fprintf(&b, " (step %q: %s)", sc.Failure.Step, firstLine(sc.Failure.Message))
			}
		}
	}
	return b.String()
}

// judgeProfiles returns what is wrong with the profile results of a run
// against one defect: a defect in an operation fails exactly the profile
// that holds it. Every profile of an operation of a declared MUST
// requirement must fail, and no other profile may, unless the defect
// declares a cross-cutting requirement (ALL, REC, GEN: of no operation),
// which fails the profiles of whichever operations broke it.
func judgeProfiles(r run, cat *features.Catalogue) string {
	must, allowed := map[string]bool{}, map[string]bool{}
	anywhere := false
	for i, id := range append(slices.Clone(r.defect.Requirements), r.defect.Collateral...) {
		q, known := cat.Requirement(id)
		if !known {
			// TestDeclarations names it too; here it would be a nil
			return fmt.Sprintf("defect %s: declares requirement %s, which features/requirements.json does not have", r.defect.Name, id)
		}
		p, ok := registry.ProfileOf(q.Operation)
		if !ok {
			anywhere = true
			continue
		}
		allowed[string(p)] = true
		if i < len(r.defect.Requirements) && q.Strictness == reports.Must {
			must[string(p)] = true
		}
	}
	var failed []string
	for _, p := range r.report.Profiles {
		if p.Result == reports.ProfileFailure {
			failed = append(failed, p.Name)
		}
	}
	var wrong []string
	for p := range must {
		if !slices.Contains(failed, p) {
			wrong = append(wrong, "profile "+p+" not failed")
		}
	}
	for _, p := range failed {
		if !allowed[p] && !anywhere {
			wrong = append(wrong, "profile "+p+" failed")
		}
	}
	if len(wrong) == 0 {
		return ""
	}
	slices.Sort(wrong)
	return fmt.Sprintf("defect %s: expected the profiles of its operations (%s) to fail and no other, got failed %s: %s",
		r.defect.Name, orNone(slices.Sorted(maps.Keys(allowed))), orNone(failed), strings.Join(wrong, "; "))
}

func scenario(rep *reports.Report, id string) *reports.Scenario {
	for i := range rep.Scenarios {
		if rep.Scenarios[i].ID == id {
			return &rep.Scenarios[i]
		}
	}
	return nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func orNone(ids []string) string {
	if len(ids) == 0 {
		return "nothing"
	}
	return strings.Join(ids, ", ")
}

// render writes docs/kill-matrix.md: the summary figure, one row per
// defect, and which defects cover each MUST requirement. It holds no
// timings, so it changes only when the defects or the suite do.
func render(cat *features.Catalogue, runs, genRuns []run, caught int) string {
	byReq := map[string][]string{}
	for _, r := range append(slices.Clone(runs), genRuns...) {
		for _, id := range r.defect.Requirements {
			byReq[id] = append(byReq[id], string(r.defect.Name))
		}
	}
	must := cat.MustIDs()
	covered := 0
	for _, id := range must {
		if len(byReq[id]) > 0 {
			covered++
		}
	}
	var b strings.Builder
	b.WriteString("# Kill matrix\n\n")
	b.WriteString("<!-- Generated by go test ./harness/killmatrix/ -run TestKillMatrix -update; do not edit. -->\n\n")
	b.WriteString("Each defect below is a switch of the simulator (`campusconf serve --defect NAME`,\n")
	b.WriteString("`campusconf run --defect NAME`) that turns one rule of the specification into a\n")
	b.WriteString("plausible vendor mistake. The kill matrix (`harness/killmatrix`, part of\n")
	b.WriteString("`go test ./...`) runs the whole suite against the simulator with each defect\n")
	b.WriteString("alone and requires the failed requirements to be exactly the ones the defect\n")
	b.WriteString("declares, plus at most its declared collateral (a second rule the mistake\n")
	b.WriteString("really touches, justified in `simulator/defects`).\n\n")
	fmt.Fprintf(&b, "**%d of %d defects caught; %d of %d MUST requirements covered by a defect.**\n\n", caught, len(runs)+len(genRuns), covered, len(must))
	if len(runs) > 0 {
		fmt.Fprintf(&b, "The suite: %d scenarios checking %d requirements (%d MUST) of %d operations, each run against the simulator with each defect.\n\n",
			runs[0].report.Counts.Scenarios, len(runs[0].report.Requirements), len(must), len(cat.OperationIDs()))
	}
	should, shouldCovered := 0, 0
	for _, q := range cat.Requirements {
		if q.Strictness == reports.Should {
			should++
			if len(byReq[q.ID]) > 0 {
				shouldCovered++
			}
		}
	}
	fmt.Fprintf(&b, "SHOULD requirements (reported, not part of the verdict) covered by a defect: %d of %d.\n\n", shouldCovered, should)
	table(&b, runs)
	b.WriteString("\n## Generator defects\n\n")
	fmt.Fprintf(&b, "Each defect below is a crash or a wrong answer on one odd input that no scenario\n")
	fmt.Fprintf(&b, "sends (`simulator/defects/generated.go`). Its run adds `--generate %d` with the\n", generated)
	fmt.Fprintf(&b, "default seed to the scenarios, and must fail exactly the declared GEN requirement:\n")
	fmt.Fprintf(&b, "the scenarios pass, the generated requests find it (docs/generated.md).\n\n")
	table(&b, genRuns)
	b.WriteString("\n## MUST requirements and the defects that break them\n\n")
	b.WriteString("| Requirement | Defects |\n|---|---|\n")
	for _, id := range must {
		names := byReq[id]
		for i, n := range names {
			names[i] = "`" + n + "`"
		}
		fmt.Fprintf(&b, "| %s | %s |\n", id, orNone(names))
	}
	return b.String()
}

// table writes one row per run: the defect, what it does wrong, the
// requirements caught and the collateral that failed.
func table(b *strings.Builder, runs []run) {
	b.WriteString("| Defect | What the simulator does wrong | Requirements caught | Collateral |\n")
	b.WriteString("|---|---|---|---|\n")
	for _, r := range runs {
		failed := r.failed()
		var coll []string
		for _, id := range r.defect.Collateral {
			if _, ok := failed[id]; ok {
				coll = append(coll, id)
			}
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", r.defect.Name, cell(r.defect.Description),
			strings.Join(r.defect.Requirements, ", "), strings.Join(coll, ", "))
	}
}

// cell escapes a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}
