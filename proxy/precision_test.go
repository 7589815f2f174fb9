package proxy

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/generate"
	"github.com/campusconf/campusconf/internal/inproc"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/simulator/variants"
)

// TestPrecisionGenerated: generated traffic of every operation (each
// operation's edge requests, then valid and invalid drawn requests)
// through the proxy in front of the faithful simulator and each faithful
// variant gives no violation: what a faithful implementation may answer,
// the proxy accepts. Under -short one drawn request per operation.
func TestPrecisionGenerated(t *testing.T) {
	names := append([]string{""}, variants.Names()...)
	n := 25
	if testing.Short() {
		// every variant still, with the edge requests and one drawn
		// request per operation (about 0.2 s a variant)
		n = 1
	}
	for _, v := range names {
		label := v
		if label == "" {
			label = "none"
		}
		t.Run(label, func(t *testing.T) {
			t.Parallel()
			var opts simulator.Options
			if v != "" {
				opts.Variants = []string{v}
			}
			p, fx, err := inFront(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			if _, _, err := generate.Run(ctx, generate.Config{BaseURL: "http://proxy.test", Client: inproc.Client(p),
				Fixture: fx, N: n, Seed: generate.DefaultSeed}); err != nil {
				t.Fatal(err)
			}
			// every operation's traffic went through and was judged
			ops := map[string]bool{}
			for _, sc := range p.Report("").Scenarios {
				ops[sc.Operation] = true
			}
			for _, op := range registry.IDs() {
				if !ops[string(op)] && fx.Supports(string(op)) {
					t.Errorf("operation %s: expected generated exchanges judged on it, got none", op)
				}
			}
			t.Logf("%d exchanges", p.Seen())
			if got := flat(p.Findings()); len(got) > 0 {
				t.Errorf("variant %s, generated traffic (go test ./proxy -run 'TestPrecisionGenerated/%s'): expected no violation, got %d:\n%s", label, label, len(got), strings.Join(got, "\n"))
				for _, sc := range p.Report("").Scenarios {
					if sc.Failure != nil && len(sc.Exchanges) > 0 {
						t.Logf("%s: expected %s, got %s\n  %s -> %d %s", sc.ID, sc.Failure.Expected, sc.Failure.Got, sc.Failure.Curl, sc.Exchanges[0].Status, sc.Exchanges[0].ResponseBody)
					}
				}
			}
		})
	}
}
