package generate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/reports"
)

// Feature is the feature name of generated findings in reports.
const Feature = "generated"

// scenarios turns the run into report scenarios: one failed scenario per
// operation and property that failed (however many requests failed it),
// then one passed scenario per property that held on every request it
// applied to.
func (ru *runner) scenarios() []reports.Scenario {
	var out []reports.Scenario
	failedProps := map[Property]bool{}
	groups := slices.Clone(ru.groups)
	slices.SortStableFunc(groups, func(a, b *group) int {
		return slices.Index(Properties, a.prop) - slices.Index(Properties, b.prop)
	})
	for _, g := range groups {
		failedProps[g.prop] = true
		out = append(out, ru.finding(g))
	}
	for _, id := range slices.Sorted(maps.Keys(ru.unjudged)) {
		out = append(out, ru.unjudgedScenarios(ru.unjudged[id])...)
	}
	for _, p := range Properties {
		n := ru.checked[p]
		if n == 0 || failedProps[p] {
			continue
		}
		name := fmt.Sprintf("%s holds on %d generated requests (seed %d)", p, n, ru.cfg.Seed)
		out = append(out, reports.Scenario{
			ID: Feature + ": " + string(p), Feature: Feature, Name: name, Operation: features.AllOperations,
			Kind: reports.KindGenerated, Requirements: []string{string(p)}, Strictness: ru.strictness(p), Outcome: reports.Passed,
		})
	}
	return out
}

// unjudgedScenarios are the scenarios of an operation's requests no
// property judged: an error for those that got no HTTP answer (never a
// finding of a property), a skip (cause runner-limit) for those whose
// answer was longer than the runner reads.
func (ru *runner) unjudgedScenarios(u *unjudged) []reports.Scenario {
	var out []reports.Scenario
	if u.noAnswer > 0 {
		ex := *u.firstErr
		out = append(out, reports.Scenario{
			ID: Feature + ": " + string(u.op) + " no answer", Feature: Feature, Operation: string(u.op), Kind: reports.KindGenerated,
			Name:         fmt.Sprintf("%s: %s got no HTTP answer (seed %d)", u.op, countRequests(u.noAnswer), ru.cfg.Seed),
			Requirements: []string{}, Strictness: reports.Should, Outcome: reports.Error,
			Exchanges: []reports.Exchange{ex},
			Failure: &reports.Failure{Requirements: []string{}, Step: "generated requests",
				Message:  fmt.Sprintf("%d generated requests of %s got no HTTP answer, so no property judged them; the first: %s", u.noAnswer, u.op, ex.Error),
				Exchange: 0, Curl: reports.Curl(ex)},
		})
	}
	if u.tooLong > 0 {
		out = append(out, reports.Scenario{
			ID: Feature + ": " + string(u.op) + " too long", Feature: Feature, Operation: string(u.op), Kind: reports.KindGenerated,
			Name:         fmt.Sprintf("%s: %s not judged (seed %d)", u.op, countRequests(u.tooLong), ru.cfg.Seed),
			Requirements: []string{}, Strictness: reports.Should, Outcome: reports.Skipped, SkipCause: reports.CauseRunnerLimit,
			SkipReason: fmt.Sprintf("%d answers of %s were longer than the runner reads (%d bytes): --max-body raises the bound", u.tooLong, u.op, ru.cfg.MaxBody),
			Exchanges:  []reports.Exchange{*u.firstLong},
		})
	}
	return out
}

// countRequests counts generated requests in words.
func countRequests(n int) string {
	if n == 1 {
		return "1 generated request"
	}
	return fmt.Sprintf("%d generated requests", n)
}

func (ru *runner) strictness(p Property) reports.Strictness {
	if q, ok := ru.cat.Requirement(string(p)); ok && q.Strictness == reports.Must {
		return reports.Must
	}
	return reports.Should
}

// finding is the report scenario of one group of failures.
func (ru *runner) finding(g *group) reports.Scenario {
	of := g.of
	if of < g.count {
		of = g.count
	}
	name := fmt.Sprintf("%s %s: %d of %d generated requests fail (seed %d)", g.op, g.prop, g.count, of, ru.cfg.Seed)
	exchanges := []reports.Exchange{g.min.ex}
	if g.min.second != nil {
		exchanges = append(exchanges, *g.min.second)
	}
	exchanges = append(exchanges, g.min.extra...)
	shrunk := g.min.req.key(g.spec) != g.first.req.key(g.spec)
	if shrunk {
		exchanges = append(exchanges, g.first.ex)
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "%d of the %d generated requests of %s checked for %s fail it.", g.count, of, g.op, g.prop)
	if b := g.min.req.Bad; b != nil {
		fmt.Fprintf(&msg, " The request breaks one rule: %s (%s).", b.What, b.Where)
	}
	switch {
	case g.min.second != nil:
		msg.WriteString(" The first two exchanges are the same GET, sent twice.")
	case len(g.min.extra) == 2:
		msg.WriteString(" The exchanges after the first are the read before the request and the same read after it.")
	}
	if g.shrinkSent > 0 {
		fmt.Fprintf(&msg, " The first failing request was shrunk with %d more requests to the first exchange shown", g.shrinkSent)
		if shrunk {
			msg.WriteString("; the last exchange is the request as generated")
		}
		msg.WriteString(".")
	}
	fmt.Fprintf(&msg, " Replay: campusconf run --generate %d --generate-seed %d (same fixture).", ru.cfg.N, ru.cfg.Seed)
	return reports.Scenario{
		ID: Feature + ": " + string(g.op) + " " + string(g.prop), Feature: Feature, Name: name, Operation: string(g.op),
		Kind: reports.KindGenerated, Requirements: []string{string(g.prop)}, Strictness: ru.strictness(g.prop), Outcome: reports.Failed,
		Failure: &reports.Failure{
			Requirements: []string{string(g.prop)},
			Step:         "generated request",
			Message:      msg.String(),
			Expected:     g.fail.expected,
			// the seed goes with the answer, so that every report format,
			// the one-line summaries included, says how to replay it
			Got:      fmt.Sprintf("%s (generated request, replay with --generate %d --generate-seed %d)", g.fail.got, ru.cfg.N, ru.cfg.Seed),
			Exchange: 0,
			Curl:     reports.Curl(g.min.ex),
		},
		Exchanges: exchanges,
	}
}
