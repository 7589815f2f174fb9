package appcheck

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports"
)

// Target is what the app check probes: the suite's target (its base URL,
// client and fixture), as `campusconf run` points the suite at it.
type Target struct {
	BaseURL string
	Client  *http.Client
	Fixture *fixtures.File
	// ReadOnly sends nothing to an operation that changes state: what only
	// such a call shows is unobservable.
	ReadOnly bool
	// Timeout bounds each exchange, MaxBody each answer read.
	Timeout time.Duration
	MaxBody int64
}

// Check probes t on each choice the app of tr relied on and on each
// operation it used, and concludes: name names the app (its traffic
// report's file). It sends one or a few requests per reliance and one per
// operation, one after another.
func Check(ctx context.Context, t Target, name string, tr *Traffic) reports.App {
	app := reports.App{Name: name, Recorded: tr.Recorded,
		Relies: []reports.AppReliance{}, Operations: []reports.AppOperation{}}
	doc, err := json.Marshal(t.Fixture)
	if err != nil || t.Fixture == nil || t.Client == nil {
		app.Verdict, app.VerdictReason = reports.AppUnknown, "no target to probe"
		return app
	}
	p := &prober{t: t, doc: doc}
	for _, r := range tr.Relies {
		res := reports.AppReliance{ID: r.ID, Ops: r.Ops, Simulator: r.Simulator, Robust: r.Robust}
		probe, known := probes[r.ID]
		if !known {
			res.Result, res.Why = reports.Unobservable, "a decision this version of campusconf does not know: update campusconf"
		} else {
			probe(ctx, p, tr, r, &res)
		}
		app.Relies = append(app.Relies, res)
	}
	for _, o := range tr.Operations {
		app.Operations = append(app.Operations, p.operation(ctx, o))
	}
	app.Conclude()
	return app
}

// operation calls the operation o the app used once, as the app did when
// its traffic report gives the app's example, and compares the status
// class with the simulator's answers to the app.
func (p *prober) operation(ctx context.Context, o Operation) reports.AppOperation {
	res := reports.AppOperation{Op: o.Op, Simulator: "answered " + cmp.Or(wire.StatusList(o.Statuses), "nothing recorded")}
	op, known := registry.Lookup(o.Op)
	switch {
	case !known:
		res.Result, res.Why = reports.Unobservable, "an operation this version of campusconf does not know"
		return res
	case !p.t.Fixture.Supports(string(op.ID)):
		res.Result, res.Why = reports.Unobservable, "the implementation does not claim its profile (the fixture's implements)"
		return res
	case op.ChangesState && p.t.ReadOnly:
		res.Result, res.Why = reports.Unobservable, "it changes state, and the run is read-only"
		return res
	case o.Example == nil && strings.Contains(op.Typical.Body+fmt.Sprint(op.Typical.Params), "{absent}"):
		res.Result, res.Why = reports.Unobservable, "its typical call names no record, and the traffic report has no example of the app's request"
		return res
	}
	c, err := p.typical(op, nil, o.Example)
	if err != nil {
		res.Result, res.Why = reports.Unobservable, err.Error()
		return res
	}
	res.Request = c.String()
	a := p.send(ctx, c)
	if a.err != nil {
		res.Result, res.Why = reports.Unobservable, a.String()
		return res
	}
	res.Target = fmt.Sprintf("answered %d", a.status)
	classes := classesOf(o.Statuses)
	class := a.status / 100
	switch {
	case classes[class]:
		res.Result = reports.Holds
	case class == 2:
		// the simulator never answered the app with success: the probe's
		// success says nothing of the app's requests
		res.Result, res.Why = reports.Unobservable, "the simulator never answered the app's calls with success; the probe's "+res.Target+" says nothing of them"
		res.Target = ""
	default:
		res.Result = reports.Differs
	}
	return res
}

// classesOf is the set of status classes (2 for 2xx) of m's codes.
func classesOf(m map[string]int) map[int]bool {
	out := map[int]bool{}
	for k := range m {
		if n, err := strconv.Atoi(k); err == nil {
			out[n/100] = true
		}
	}
	return out
}
