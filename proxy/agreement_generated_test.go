package proxy

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/campusconf/campusconf/generate"
	"github.com/campusconf/campusconf/internal/inproc"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/simulator/defects"
)

// TestAgreementGenerated: generated requests (generate) sent through the
// proxy judge the form of error bodies by the same rule (rules.ErrorBody):
// for every operation on which both judge it, GEN.error-body's verdict is
// the proxy's ALL.error-body. Against the simulator and the two defects
// that break the rule, on a sample of 20 generated requests per
// operation (about a second, so the same under -short).
func TestAgreementGenerated(t *testing.T) {
	const n = 20
	pairs := 0
	for _, opts := range []simulator.Options{{}, {Defects: []string{string(defects.ErrorBodyObject)}}, {Defects: []string{string(defects.GenLongNameErrorObject)}}} {
		d := strings.Join(opts.Defects, ",")
		p, fx, err := inFront(opts)
		if err != nil {
			t.Fatalf("defect %q: %v", d, err)
		}
		var mu sync.Mutex
		proxySays := map[registry.OpID]verdict{}
		p.afterCheck = func(ex *Exchange, op registry.OpID, findings []Finding) {
			mu.Lock()
			defer mu.Unlock()
			if slices.Contains(ex.judged, rules.ReqErrorBody) {
				proxySays[op] = max(proxySays[op], kept)
			}
			if slices.ContainsFunc(findings, func(f Finding) bool { return f.Requirement == rules.ReqErrorBody }) {
				proxySays[op] = broken
			}
		}
		found, _, err := generate.Run(t.Context(), generate.Config{BaseURL: "http://proxy.test", Client: inproc.Client(p), Fixture: fx, N: n, Seed: 1})
		p.Wait()
		p.Close()
		if err != nil {
			t.Fatalf("defect %q: %v", d, err)
		}
		genSays := map[registry.OpID]verdict{}
		for op := range proxySays {
			genSays[op] = kept
		}
		for _, sc := range found {
			if sc.Outcome == reports.Failed && slices.Contains(sc.Requirements, string(generate.ErrorBody)) {
				genSays[registry.OpID(sc.Operation)] = broken
			}
		}
		brokenPairs := 0
		for op, theirs := range proxySays {
			pairs++
			if theirs == broken {
				brokenPairs++
			}
			if genSays[op] != theirs {
				t.Errorf("defect %q, %s: the generated requests say %s of %s, the proxy %s of %s (reproduce: go test ./proxy -run TestAgreementGenerated)", d, op, genSays[op], generate.ErrorBody, theirs, rules.ReqErrorBody)
			}
		}
		if d != "" && brokenPairs == 0 {
			t.Errorf("defect %s: expected the proxy and the generated requests to find the error body broken on some operation, got none: the comparison shows nothing", d)
		}
		for op, v := range genSays {
			if _, judged := proxySays[op]; !judged && v == broken {
				t.Errorf("defect %q, %s: the generated requests found %s broken where the proxy judged no error body", d, op, generate.ErrorBody)
			}
		}
	}
	t.Logf("%d (operation, error-body) pairs judged by both", pairs)
}
