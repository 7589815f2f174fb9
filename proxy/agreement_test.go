package proxy

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/campusconf/campusconf/internal/inproc"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/simulator/variants"
	"github.com/campusconf/campusconf/steps"
)

// One rule, one verdict: the scenarios and the proxy read the same rules
// (internal/rules), so where both judge a requirement on the same traffic
// they must give the same verdict. The agreement test runs the suite
// through the proxy in front of the simulator, each faithful variant and
// each defect, attributes every exchange to the scenario that sent it,
// and compares, per (scenario, requirement) both judge, the scenario's
// verdict with the proxy's on that scenario's exchanges. Where the proxy
// sees too little it must say nothing (unjudged), never the opposite.

// scenarioHeader carries, from the suite to the proxy's checks, the
// scenario a request was sent for (steps.ScenarioOf).
const scenarioHeader = "X-Agreement-Scenario"

// verdict is a producer's word on one requirement of one scenario.
type verdict int

const (
	unjudged verdict = iota
	kept
	broken
)

func (v verdict) String() string { return [...]string{"unjudged", "kept", "broken"}[v] }

// tagScenario marks each request with the scenario it was sent for.
type tagScenario struct{ next http.RoundTripper }

func (t tagScenario) RoundTrip(r *http.Request) (*http.Response, error) {
	if id := steps.ScenarioOf(r.Context()); id != "" {
		r = r.Clone(r.Context())
		r.Header.Set(scenarioHeader, url.QueryEscape(id))
	}
	return t.next.RoundTrip(r)
}

// proxyVerdicts collects the proxy's verdicts per scenario and
// requirement: broken once any exchange of the scenario breaks it, kept
// when judged and never broken.
type proxyVerdicts struct {
	mu sync.Mutex
	by map[string]map[string]verdict
}

func (pv *proxyVerdicts) afterCheck(ex *Exchange, _ registry.OpID, findings []Finding) {
	sc, _ := url.QueryUnescape(ex.RequestHeader.Get(scenarioHeader))
	if sc == "" {
		return
	}
	pv.mu.Lock()
	defer pv.mu.Unlock()
	m := pv.by[sc]
	if m == nil {
		m = map[string]verdict{}
		pv.by[sc] = m
	}
	for _, req := range ex.judged {
		m[req] = max(m[req], kept)
	}
	for _, f := range findings {
		m[f.Requirement] = broken
	}
}

// scenarioVerdicts are a scenario's own: every requirement of a passed
// scenario kept; the failure's requirements of a failed one broken (its
// own, when the failure names none), the others unjudged (the scenario
// stopped there). Skipped and erring scenarios judge nothing.
func scenarioVerdicts(sc reports.Scenario) map[string]verdict {
	out := map[string]verdict{}
	switch sc.Outcome {
	case reports.Passed:
		for _, r := range sc.Requirements {
			out[r] = kept
		}
	case reports.Failed:
		reqs := sc.Failure.Requirements
		if len(reqs) == 0 {
			reqs = sc.Requirements
		}
		for _, r := range reqs {
			out[r] = broken
		}
	}
	return out
}

// agreement is what one target's run compared.
type agreement struct {
	pairs     int      // (scenario, requirement) pairs both judged
	disagreed []string // those judged differently, described
	// found are the requirements the proxy found broken anywhere
	// (TestProxyMatrix's measure)
	found map[string]bool
}

// suiteRun is one run of the suite through the proxy, made once per
// simulator and test binary: TestAgreement and TestProxyMatrix share the
// runs (each is a whole suite run).
type suiteRun struct {
	once sync.Once
	a    agreement
	err  error
}

var suiteRuns sync.Map // simulator options, printed -> *suiteRun

// runOnce returns the agreement of the suite run through the proxy in
// front of a simulator built with opts, running it on first use.
func runOnce(ctx context.Context, opts simulator.Options) (agreement, error) {
	v, _ := suiteRuns.LoadOrStore(fmt.Sprintf("%v %v", opts.Defects, opts.Variants), &suiteRun{})
	r := v.(*suiteRun)
	r.once.Do(func() { r.a, r.err = agree(ctx, opts) })
	return r.a, r.err
}

// agree runs the suite through the proxy in front of a simulator built
// with opts and compares the two producers' verdicts.
func agree(ctx context.Context, opts simulator.Options) (agreement, error) {
	p, fx, err := inFront(opts)
	if err != nil {
		return agreement{}, err
	}
	pv := &proxyVerdicts{by: map[string]map[string]verdict{}}
	p.afterCheck = pv.afterCheck
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	rep, err := steps.Run(ctx, steps.Config{
		BaseURL:      "http://proxy.test",
		Client:       &http.Client{Transport: tagScenario{inproc.Transport{Handler: p}}},
		Fixture:      fx,
		PollInterval: time.Millisecond,
	})
	p.Wait()
	p.Close()
	if err != nil {
		return agreement{}, err
	}
	a := agreement{found: map[string]bool{}}
	for _, ids := range p.Findings() {
		for _, id := range ids {
			a.found[id] = true
		}
	}
	for _, sc := range rep.Scenarios {
		theirs := pv.by[sc.ID]
		for req, ours := range scenarioVerdicts(sc) {
			got := theirs[req]
			if got == unjudged {
				continue
			}
			a.pairs++
			if got != ours {
				a.disagreed = append(a.disagreed, fmt.Sprintf("%s, %s: the scenario says %s, the proxy %s", sc.ID, req, ours, got))
			}
		}
	}
	sort.Strings(a.disagreed)
	return a, nil
}

// agreementTarget is one simulator the agreement is measured on.
type agreementTarget struct {
	name string
	opts simulator.Options
}

// agreementTargets are the faithful simulator, each variant and each
// defect a scenario can trip (the generator-only ones send nothing the
// suite sends); under -short, the simulator and an even sample of each.
func agreementTargets(short bool) []agreementTarget {
	out := []agreementTarget{{name: "simulator"}}
	vs := variants.Names()
	ds := judged()
	if short {
		vs = everyNth(vs, max(1, len(vs)/2))
		ds = sampled(ds) // those TestProxyMatrix measures: the runs are shared
	}
	if raceEnabled {
		// the race detector looks at the proxy's concurrency, which a few
		// runs exercise as well as many: one variant, three defects
		vs = vs[:min(1, len(vs))]
		ds = ds[:min(3, len(ds))]
	}
	for _, v := range vs {
		out = append(out, agreementTarget{"variant " + v, simulator.Options{Variants: []string{v}}})
	}
	for _, d := range ds {
		out = append(out, agreementTarget{"defect " + string(d.Name), simulator.Options{Defects: []string{string(d.Name)}}})
	}
	return out
}

func everyNth[T any](xs []T, n int) []T {
	var out []T
	for i := 0; i < len(xs); i += n {
		out = append(out, xs[i])
	}
	return out
}

// TestAgreement: for every (scenario, requirement) that both the scenario
// and the proxy judge, on the simulator, each faithful variant and each
// defect, the proxy's verdict is the scenario's. In full under go test
// ./proxy; under -short the simulator, two variants and the defects
// TestProxyMatrix samples; under the race detector one variant and three
// of those defects.
func TestAgreement(t *testing.T) {
	targets := agreementTargets(testing.Short())
	start := time.Now()
	var mu sync.Mutex
	pairs := 0
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, tg := range targets {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			a, err := runOnce(t.Context(), tg.opts)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Errorf("%s: %v", tg.name, err)
				return
			}
			pairs += a.pairs
			if len(a.disagreed) > 0 {
				t.Errorf("%s: the proxy and the scenarios disagree on %d of %d (scenario, requirement) pairs:\n  %s\n(reproduce: go test ./proxy -run TestAgreement)", tg.name, len(a.disagreed), a.pairs, strings.Join(slices.Compact(a.disagreed), "\n  "))
			}
		})
	}
	wg.Wait()
	t.Logf("%d targets, %d (scenario, requirement) pairs judged by both, in %s", len(targets), pairs, time.Since(start).Round(time.Millisecond))
}
