package proxy

import (
	"context"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/inproc"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/simulator/variants"
	"github.com/campusconf/campusconf/steps"
)

// throughProxy runs the whole suite through a proxy in front of a fresh
// simulator with the given defects, all in-process, and returns the proxy
// and the suite's own report.
func throughProxy(t *testing.T, defects ...string) (*Proxy, *reports.Report) {
	t.Helper()
	return throughProxyWith(t, simulator.Options{Defects: defects})
}

// throughProxyWith is throughProxy with any simulator options.
func throughProxyWith(t *testing.T, opts simulator.Options) (*Proxy, *reports.Report) {
	t.Helper()
	p, rep, err := runThrough(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return p, rep
}

// runThrough runs the whole suite through a proxy in front of a fresh
// simulator built with opts; it may run on any goroutine.
func runThrough(ctx context.Context, opts simulator.Options) (*Proxy, *reports.Report, error) {
	return runThroughTags(ctx, opts, "")
}

// inFront returns a proxy at http://proxy.test in front of a fresh
// in-process simulator built with opts, at http://target.test, and the
// simulator's fixture.
func inFront(opts simulator.Options) (*Proxy, *fixtures.File, error) {
	opts.AllowedHosts = append(opts.AllowedHosts, "target.test") // the in-process target's made-up host
	sim, err := simulator.New(opts)
	if err != nil {
		return nil, nil, err
	}
	target, _ := url.Parse("http://target.test")
	p, err := New(Options{Target: target, Fixture: sim.Fixtures(), Transport: inproc.Transport{Handler: sim}, AllowedHosts: []string{"proxy.test"}})
	return p, sim.Fixtures(), err
}

// runThroughTags is runThrough with the scenarios of a tag expression only
// ("": all).
func runThroughTags(ctx context.Context, opts simulator.Options, tags string) (*Proxy, *reports.Report, error) {
	p, fx, err := inFront(opts)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	rep, err := steps.Run(ctx, steps.Config{
		BaseURL:      "http://proxy.test",
		Client:       inproc.Client(p),
		Fixture:      fx,
		PollInterval: time.Millisecond,
		Tags:         tags,
	})
	p.Close() // the checks finish; the checkers stop, so the proxy can be collected
	return p, rep, err
}

func flat(m map[string][]string) []string {
	var out []string
	for op, ids := range m {
		for _, id := range ids {
			out = append(out, op+" "+id)
		}
	}
	sort.Strings(out)
	return out
}

// TestFaithfulNoViolations: the suite's whole traffic, every operation,
// through the proxy in front of the faithful simulator: no violation, and
// every operation seen.
func TestFaithfulNoViolations(t *testing.T) {
	p, _ := throughProxy(t)
	if got := flat(p.Findings()); len(got) > 0 {
		t.Errorf("faithful simulator: expected no violation, got %d:\n%s", len(got), strings.Join(got, "\n"))
		for _, sc := range p.Report("").Scenarios {
			if sc.Failure != nil && len(sc.Exchanges) > 0 {
				t.Logf("%s: expected %s, got %s\n  %s -> %d %s", sc.ID, sc.Failure.Expected, sc.Failure.Got, sc.Failure.Curl, sc.Exchanges[0].Status, sc.Exchanges[0].ResponseBody)
			}
		}
	}
	r := p.Report("")
	ops := map[string]bool{}
	for _, sc := range r.Scenarios {
		ops[sc.Operation] = true
	}
	for _, op := range registry.IDs() {
		if !ops[string(op)] {
			t.Errorf("operation %s: expected exchanges judged on it, got none", op)
		}
	}
	// live traffic is not the whole suite: partial at best
	if r.Verdict != reports.VerdictPartial {
		t.Errorf("verdict: expected %q, got %q (%s)", reports.VerdictPartial, r.Verdict, r.VerdictReason)
	}
}

// TestDefectsNamed: with one defect of each rule kind switched on, the
// requirements it breaks are among the proxy's violations.
func TestDefectsNamed(t *testing.T) {
	tests := []struct {
		defect string
		want   []string // "OP REQ"
		// short is the tag expression of the scenarios run under -short;
		// "": those of the operations in want
		short string
	}{
		{"error-body-object", []string{"E9 ALL.error-body"}, ""},                        // error-form
		{"e7-status-200", []string{"E7 E7.201"}, ""},                                    // status
		{"e1-result-names", []string{"E1 REC.SecondFactorResult.names"}, ""},            // shape
		{"notification-status-range", []string{"NG REC.Notification.notifyStatus"}, ""}, // enum-range (response)
		{"question-limits-unchecked", []string{"ES ES.question-outside"}, ""},           // enum-range (request)
		{"notify-read-ignored", []string{"NR NR.read"}, ""},                             // transition
		{"e14-deleted-still-readable", []string{"E13 E14.gone"}, "@E14"},                // transition, memory
		{"malformed-uuid-404", []string{"E9 E9.400.uuid"}, ""},                          // invalid request
		{"e4-any-staff", []string{"E4 E4.403"}, ""},                                     // permission
		{"students-allowed", []string{"E10 ALL.forbidden"}, "@ALL.forbidden"},           // permission, fixture
		{"missing-key-accepted", []string{"E10 ALL.key"}, ""},                           // auth
		{"limit-ignored", []string{"E10 E10.limit"}, ""},                                // query
		{"e7-publish-default-false", []string{"E7 E7.default-publish"}, ""},             // default
		{"content-type-required", []string{"E7 ALL.no-content-type"}, ""},               // media type
	}
	for _, tt := range tests {
		t.Run(tt.defect, func(t *testing.T) {
			t.Parallel()
			tags := ""
			if testing.Short() && tt.short != "" {
				tags = tt.short
			} else if testing.Short() {
				// under -short, the scenarios of the operations judged only
				var ops []string
				for _, w := range tt.want {
					op, _, _ := strings.Cut(w, " ")
					ops = append(ops, "@"+op)
				}
				tags = strings.Join(ops, " or ")
			}
			p, _, err := runThroughTags(t.Context(), simulator.Options{Defects: []string{tt.defect}}, tags)
			if err != nil {
				t.Fatal(err)
			}
			got := flat(p.Findings())
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("expected %q among the violations, got:\n%s", w, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// TestFaithfulVariants: every faithful variant (the simulator's other
// choices where the specification is open) gives no violation either: the
// proxy does not hold an implementation to one reading of an open point.
// It runs every variant; under -short the ones nearest the proxy's own
// judgements.
func TestFaithfulVariants(t *testing.T) {
	names := []string{"gradebook-replace", "paging-capped", "populate-exact", "otp-wrong-400", "user-header", "alt-paths", "nulls", "quiz-patch"}
	if !testing.Short() {
		names = variants.Names()
	}
	for _, v := range names {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			p, _ := throughProxyWith(t, simulator.Options{Variants: []string{v}})
			if got := flat(p.Findings()); len(got) > 0 {
				t.Errorf("expected no violation, got:\n%s", strings.Join(got, "\n"))
				for _, sc := range p.Report("").Scenarios {
					if sc.Failure != nil {
						t.Logf("%s: expected %s, got %s; %s", sc.ID, sc.Failure.Expected, sc.Failure.Got, sc.Failure.Curl)
					}
				}
			}
		})
	}
}

// TestUnclaimedProfilesNotJudged: traffic to an operation of a profile the
// proxy's fixture does not claim is reported unsupported, never a
// violation; the claimed profile is judged as before.
func TestUnclaimedProfilesNotJudged(t *testing.T) {
	sim, err := simulator.New(simulator.Options{AllowedHosts: []string{"target.test"},
		Defects: []string{"notify-read-ignored", "e7-publish-default-false"}})
	if err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse("http://target.test")
	claims := *sim.Fixtures()
	claims.Implements = []string{"attendance"}
	p, err := New(Options{Target: target, Fixture: &claims, Transport: inproc.Transport{Handler: sim}, AllowedHosts: []string{"proxy.test"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := steps.Run(t.Context(), steps.Config{BaseURL: "http://proxy.test", Client: inproc.Client(p),
		Fixture: sim.Fixtures(), PollInterval: time.Millisecond, Tags: "@NR or @E7"}); err != nil {
		t.Fatal(err)
	}
	if all, must := p.Violations(); all != 1 || must != 1 {
		t.Errorf("Violations: expected 1 (E7.default-publish; NR.read is of notifications, not claimed), got %d (%d MUST): %v", all, must, p.Findings())
	}
	r := p.Report("")
	for _, sc := range r.Scenarios {
		if sc.Operation == "NR" && sc.Outcome != reports.Unsupported {
			t.Errorf("%s: expected unsupported, got %s", sc.ID, sc.Outcome)
		}
	}
	for _, pr := range r.Profiles {
		want := reports.ProfileUnsupported
		if pr.Name == "attendance" {
			want = reports.ProfileFailure
		}
		if pr.Result != want {
			t.Errorf("profile %s: expected %s, got %s", pr.Name, want, pr.Result)
		}
	}
	if !r.Mode.Traffic || reports.ConformanceOf(r).Mode != reports.ModeTraffic {
		t.Errorf("mode: expected traffic, got %+v", r.Mode)
	}
}
