package steps

import (
	"fmt"
	"maps"
	"slices"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/reports"
)

// Bound is the least time a run can take, in round trips, whatever the
// concurrency: the requests the checks before the suite make one after
// another, then the longest chain of requests the schedule makes one
// after another (along a path of scenarios each waiting for the one
// before it, the requests of each summed). Times the target's round-trip
// time, it is what the run would take if every scenario started the
// moment the schedule let it and the target answered at once but for the
// latency.
type Bound struct {
	// Preflight is the number of round trips the checks before the suite
	// take (their requests, several at once); PreflightRequests the number
	// of their requests.
	Preflight, PreflightRequests int
	// Chain is the number of requests along the longest chain of the
	// schedule.
	Chain int
	// Requests is the number of requests of all the scenarios.
	Requests int
	// Path names the scenarios of the longest chain ("feature: name"),
	// first to last.
	Path []string
}

// Rounds is the bound in round trips: Preflight and Chain.
func (b Bound) Rounds() int { return b.Preflight + b.Chain }

// BoundOf returns the bound of the schedule of a run with cfg (its
// fixture, tags and the checks before the suite it makes). The requests
// of each scenario are those r, the report of such a run, shows it made;
// with r nil, the schedule's own estimate (what its steps declare).
func BoundOf(cfg Config, r *reports.Report) (Bound, error) {
	cfg.defaults()
	f, err := normalized(cfg.Fixture)
	if err != nil {
		return Bound{}, err
	}
	cfg.Fixture = f
	tags, err := godogTags(cfg.Tags)
	if err != nil {
		return Bound{}, err
	}
	e := &env{cfg: cfg, fixture: gjson.ParseBytes(f.JSON())}
	if err := e.planSuite(suiteOf(tags)); err != nil {
		return Bound{}, err
	}
	var made map[string]int
	if r != nil {
		made = map[string]int{}
		for _, sc := range r.Scenarios {
			made[sc.ID] = len(sc.Exchanges) + sc.ExchangesDropped
		}
	}
	b := e.schedule.bound(made)
	b.Preflight, b.PreflightRequests = e.preflightChain(), e.preflightRequests()
	return b, nil
}

// normalized returns a copy of f with the unplaced operations' old names
// read as their ids.
func normalized(f *fixtures.File) (*fixtures.File, error) {
	if err := f.Check(); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	c := *f
	c.Operations = maps.Clone(f.Operations)
	c.Forbidden = slices.Clone(f.Forbidden)
	if err := c.Normalize(); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	return &c, nil
}

// suiteOf is the suite of the scenarios a run with the tag expression
// tags (godog's form) runs, as the schedule plans it.
func suiteOf(tags string) godog.TestSuite {
	return godog.TestSuite{Name: "campusconf", Options: &godog.Options{FS: features.FS, Paths: []string{"."}, Tags: tags, Strict: true}}
}
