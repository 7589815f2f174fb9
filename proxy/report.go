package proxy

import (
	"fmt"
	"slices"
	"time"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
)

// Violations returns the number of (operation, requirement) pairs broken
// so far, and how many of them name a MUST requirement.
func (p *Proxy) Violations() (all, must int) {
	cat, _ := features.Load()
	p.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, r := range p.results {
		if r.violating == 0 || !p.opts.Fixture.Supports(string(k.op)) {
			continue
		}
		all++
		if q, ok := cat.Requirement(k.req); ok && q.Strictness == reports.Must {
			must++
		}
	}
	return all, must
}

// Findings returns the requirement ids broken so far, by operation.
func (p *Proxy) Findings() map[string][]string {
	p.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string][]string{}
	for _, k := range p.order {
		if p.results[k].violating > 0 {
			out[string(k.op)] = append(out[string(k.op)], k.req)
		}
	}
	return out
}

// Report returns the result model of the traffic seen so far: one scenario
// per (operation, requirement) pair an exchange was judged on, failed when
// at least one exchange broke it, with the breaking exchanges (the first
// reports.MaxExchanges, the last one kept always the latest) and a curl
// line of the first. stoppedBy says how the proxy stopped ("a signal
// (interrupt)", "--duration 10m", "--max-exchanges 500"; "" while it
// runs): a normal stop, never an interruption, as traffic has no end to
// reach. The exchanges not checked (queues full) are a note. It is
// finalized.
func (p *Proxy) Report(stoppedBy string) *reports.Report {
	cat, _ := features.Load()
	p.Wait()
	now := time.Now()
	r := &reports.Report{
		Schema:     reports.SchemaVersion,
		Tool:       reports.NewTool("campusconf proxy"),
		Target:     reports.Target{URL: p.red.String(p.opts.Target.String()), Fixtures: p.opts.Fixture.Description},
		Started:    p.started,
		Duration:   reports.Duration(now.Sub(p.started)),
		Options:    map[string]string{"mode": "proxy", "maxCapture": fmt.Sprint(p.opts.MaxCapture), "stateBytes": fmt.Sprint(p.opts.StateBytes), "maxHeader": fmt.Sprint(p.opts.MaxHeader)},
		Mode:       reports.Mode{Traffic: true},
		Implements: slices.Clone(p.opts.Fixture.Implements),
	}
	if i := p.opts.Fixture.Implementation; i != nil {
		ri := reports.Implementation(*i) // the same fields
		r.Implementation = &ri
	}
	p.mu.Lock()
	r.Notes = append(r.Notes, fmt.Sprintf("proxy: %d exchanges seen, %d of them matched an operation; a requirement passes when every exchange judged on it kept it", p.seen.Load(), p.matched))
	if stoppedBy != "" {
		r.Options["stoppedBy"] = stoppedBy
		r.Notes = append(r.Notes, "proxy: stopped by "+stoppedBy)
	}
	if n := p.limited.Load(); n > 0 {
		// the app, not the proxy, waits them out: no time waited here
		r.RateLimits = &reports.RateLimits{Answers: int(n)}
		r.Notes = append(r.Notes, fmt.Sprintf("proxy: %d rate-limited answer(s) (429, or 503 with Retry-After) forwarded and not judged: a rate limit is the target's pace, not a finding", n))
	}
	if n := p.unchecked.Load(); n > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("proxy: %d exchange(s) forwarded but unchecked: the checker queues were full, or the bytes held for the checks at their bound (%d)", n, p.opts.QueueBytes))
	}
	if n := p.tooLarge.Load(); n > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("proxy: %d exchange(s) with a body too large to check (over %d bytes): the rules needing the body were not judged on them", n, p.opts.MaxCapture))
	}
	if n := p.headersTooLarge.Load(); n > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("proxy: %d exchange(s) with a header block too large to check (over %d bytes, --max-header): forwarded unchanged, not judged", n, p.opts.MaxHeader))
	}
	if n := p.misdirected.Load(); n > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("proxy: %d request(s) refused with 421, sent to a host name the proxy does not answer (--allowed-hosts): not forwarded", n))
	}
	if _, max, evicted := p.check.mem.stats(); evicted > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("proxy: %d remembered fact(s) dropped to keep the stateful rules' memory within %d bytes (--state-bytes): rules needing them were not judged", evicted, max))
	}
	for _, k := range p.order {
		res := p.results[k]
		q, ok := cat.Requirement(k.req)
		if !ok {
			continue
		}
		sc := reports.Scenario{
			ID:           "proxy/" + string(k.op) + "/" + k.req,
			Feature:      "proxy",
			Name:         fmt.Sprintf("%s on live traffic: %d exchange(s) judged, %d broke it", k.req, max(res.exchanges, res.violating), res.violating),
			Operation:    string(k.op),
			Kind:         q.Kind,
			Requirements: []string{k.req},
			Strictness:   q.Strictness,
			Outcome:      reports.Passed,
		}
		switch {
		case !p.opts.Fixture.Supports(string(k.op)):
			// traffic to a profile the implementation does not claim is
			// not judged
			prof, _ := registry.ProfileOf(string(k.op))
			sc.Outcome = reports.Unsupported
			sc.SkipReason = fmt.Sprintf("%s is in profile %s, which the fixture does not claim: %d exchange(s) not judged", k.op, prof, max(res.exchanges, res.violating))
		case res.violating > 0:
			sc.Outcome = reports.Failed
			sc.Exchanges = append([]reports.Exchange(nil), res.kept...)
			sc.ExchangesDropped = res.dropped
			f := &reports.Failure{
				Requirements: []string{k.req},
				Step:         "proxy check",
				Message:      fmt.Sprintf("%d exchange(s) broke %s: %s", res.violating, k.req, q.Text),
				Expected:     res.first.Expected,
				Got:          p.red.String(res.first.Got),
				Exchange:     -1,
			}
			if len(sc.Exchanges) > 0 {
				f.Exchange = 0
				f.Curl = reports.Curl(sc.Exchanges[0])
			}
			sc.Failure = f
		}
		r.Scenarios = append(r.Scenarios, sc)
	}
	p.mu.Unlock()
	reports.AddCatalogue(r, cat, false)
	reports.Finalize(r)
	return r
}

// TargetString is the target URL, credentials redacted.
func (p *Proxy) TargetString() string { return p.red.String(p.opts.Target.String()) }
