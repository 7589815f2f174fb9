package faithful

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/harness/simrun"

	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/simulator/variants"
)

// run is one run of the suite against a simulator with some variants.
type run struct {
	name     string
	variants []variants.Variant
	report   *reports.Report
	err      error
	took     time.Duration
}

// combinations are the runs: each variant alone, then the variants
// together in as few runs as their choices allow (a variant of a choice
// another one already made in the run waits for the next run).
func combinations(all []variants.Variant) []run {
	var out []run
	for _, v := range all {
		out = append(out, run{name: string(v.Name), variants: []variants.Variant{v}})
	}
	left := slices.Clone(all)
	for n := 1; len(left) > 0; n++ {
		var together, rest []variants.Variant
		for _, v := range left {
			if slices.ContainsFunc(together, func(t variants.Variant) bool { return !variants.Compatible(t, v) }) {
				rest = append(rest, v)
				continue
			}
			together = append(together, v)
		}
		out = append(out, run{name: fmt.Sprintf("together-%d", n), variants: together})
		left = rest
	}
	return out
}

// runAll runs the suite once per entry of rs.
func runAll(ctx context.Context, rs []run) {
	opts := make([]simulator.Options, len(rs))
	for i, r := range rs {
		for _, v := range r.variants {
			opts[i].Variants = append(opts[i].Variants, string(v.Name))
		}
	}
	for i, res := range simrun.All(ctx, opts) {
		rs[i].report, rs[i].err, rs[i].took = res.Report, res.Err, res.Took
	}
}

// sample is the runs the race run covers: a few variants alone, spread
// over the names, and the first run of all of them together.
func sample(rs []run) []run {
	var out []run
	for i, r := range rs {
		if strings.HasPrefix(r.name, "together-") {
			out = append(out, r)
			break
		}
		if i%7 == 0 {
			out = append(out, r)
		}
	}
	return out
}

// TestVariantsPass runs the suite against every variant alone and all of
// them together: every run must be conformant with no failed scenario, and
// skip exactly the scenarios its variants' fixture leaves out, for that
// reason.
func TestVariantsPass(t *testing.T) {
	rs := combinations(variants.All())
	if raceEnabled {
		rs = sample(rs)
		t.Logf("race detector on: running a sample of %d runs; the plain go test run covers every variant", len(rs))
	}
	start := time.Now()
	runAll(t.Context(), rs)
	slowest := slices.MaxFunc(rs, func(a, b run) int { return int(a.took - b.took) })
	t.Logf("%d suite runs on %d workers in %s (slowest %s: %s)", len(rs), runtime.GOMAXPROCS(0),
		time.Since(start).Round(time.Millisecond), slowest.name, slowest.took.Round(time.Millisecond))
	alone := map[variants.Name]map[string]bool{} // variant -> scenarios it skips alone
	for _, r := range rs {
		if len(r.variants) == 1 && r.err == nil {
			alone[r.variants[0].Name] = skippedIDs(r.report)
		}
	}
	for _, r := range rs {
		t.Run(r.name, func(t *testing.T) {
			if r.err != nil {
				t.Fatalf("running the suite: %v", r.err)
			}
			if msg := judge(r, alone); msg != "" {
				t.Error(msg)
			}
		})
	}
}

// skippedIDs are the scenarios a report skips or leaves not configured.
func skippedIDs(rep *reports.Report) map[string]bool {
	out := map[string]bool{}
	for _, sc := range rep.Scenarios {
		if sc.Outcome == reports.Skipped || sc.Outcome == reports.NotConfigured {
			out[sc.ID] = true
		}
	}
	return out
}

// judge returns what is wrong with a run: "" when the verdict is
// conformant (partial for variants declaring skips), no scenario failed, none is not configured, and the skipped
// ones are exactly those the variants declare, skipped for their reason. A
// run of several variants skips what its variants skip alone (within the
// union: two variants may skip the same scenario, and one may make
// observable what another alone leaves unobservable, as otp-wrong-400
// answers a wrong code with a refusal that optional-absent alone answers
// with a 200 saying nothing), where alone knows each of them; beyond the
// union only as unobservable (gradebook-replace accepts an update that
// the simulator refuses, and optional-absent leaves out the weightages
// that would show it right).
func judge(r run, alone map[variants.Name]map[string]bool) string {
	var b strings.Builder
	c := r.report.Counts
	// a variant declaring skips may make the run partial (a skip is a gap
	// of the run, not a failure; one for want of an optional field is
	// none); every other run is conformant
	ok := []reports.Verdict{reports.VerdictConformant}
	for _, v := range r.variants {
		if v.Skips > 0 {
			ok = []reports.Verdict{reports.VerdictConformant, reports.VerdictPartial}
		}
	}
	if !slices.Contains(ok, r.report.Verdict) {
		fmt.Fprintf(&b, "expected verdict %v, got %q (%s)\n", ok, r.report.Verdict, r.report.VerdictReason)
	}
	if c.Failed > 0 {
		fmt.Fprintf(&b, "expected no failed scenario, got %d (%d MUST, %d SHOULD):\n", c.Failed, c.FailedMust, c.FailedShould)
		for _, sc := range r.report.Scenarios {
			if sc.Outcome == reports.Failed {
				fmt.Fprintf(&b, "  %s [%s]: %s\n", sc.ID, strings.Join(reports.FailedRequirements(sc), ", "), firstLine(sc.Failure.Message))
			}
		}
	}
	wantSkips := 0
	var reasons []string
	union, known := map[string]bool{}, len(r.variants) > 1
	for _, v := range r.variants {
		wantSkips += v.Skips
		if v.SkipReason != "" {
			reasons = append(reasons, v.SkipReason)
		}
		ids, ok := alone[v.Name]
		known = known && ok
		for id := range ids {
			union[id] = true
		}
	}
	switch {
	case known:
		for _, sc := range r.report.Scenarios {
			if (sc.Outcome == reports.Skipped || sc.Outcome == reports.NotConfigured) && !union[sc.ID] && sc.SkipCause != reports.CauseUnobservable {
				fmt.Fprintf(&b, "  %s: %s, where none of its variants alone skips it\n", sc.ID, sc.Outcome)
			}
		}
		if c.NotConfigured != 0 {
			fmt.Fprintf(&b, "expected 0 not configured, got %d\n", c.NotConfigured)
		}
	case len(r.variants) == 1:
		if c.Skipped != wantSkips || c.NotConfigured != 0 {
			fmt.Fprintf(&b, "expected %d skipped and 0 not configured, got %d skipped and %d not configured\n", wantSkips, c.Skipped, c.NotConfigured)
		}
	default:
		// Without every variant's run alone (the race sample), the union
		// is known only to lie between the largest count and the sum.
		most := 0
		for _, v := range r.variants {
			most = max(most, v.Skips)
		}
		if c.Skipped < most || c.Skipped > wantSkips || c.NotConfigured != 0 {
			fmt.Fprintf(&b, "expected %d to %d skipped and 0 not configured, got %d skipped and %d not configured\n", most, wantSkips, c.Skipped, c.NotConfigured)
		}
	}
	for _, sc := range r.report.Scenarios {
		if sc.Outcome != reports.Skipped && sc.Outcome != reports.NotConfigured {
			continue
		}
		if !slices.ContainsFunc(reasons, func(want string) bool { return strings.Contains(sc.SkipReason, want) }) {
			fmt.Fprintf(&b, "  %s: %s for a reason no variant declares: %s\n", sc.ID, sc.Outcome, sc.SkipReason)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	names := make([]string, len(r.variants))
	for i, v := range r.variants {
		names[i] = string(v.Name)
	}
	return fmt.Sprintf("variants %s:\n%s", strings.Join(names, ", "), b.String())
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestCatalogue checks each variant's declaration: a description, the open
// point or section it exercises (an openPoints id must exist), and a skip
// reason exactly when it skips scenarios.
func TestCatalogue(t *testing.T) {
	for _, v := range variants.All() {
		if v.Description == "" || v.Exercises == "" {
			t.Errorf("variant %s: expected a description and what it exercises", v.Name)
		}
		if (v.Skips > 0) != (v.SkipReason != "") {
			t.Errorf("variant %s: expected a skip reason exactly when it skips scenarios, got %d skips and reason %q", v.Name, v.Skips, v.SkipReason)
		}
	}
}
