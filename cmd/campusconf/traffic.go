package main

import (
	"net"
	"strconv"

	"github.com/campusconf/campusconf/internal/redact"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// writeTrafficReport writes what the app did (t) as a traffic report into
// --report-dir, every secret of the simulator's world redacted, and
// returns the path of its report.html.
func writeTrafficReport(c serveConfig, sim *simulator.Simulator, addr net.Addr, t simulator.Traffic) (string, error) {
	r := trafficReport(t, reports.TrafficSimulator{URL: "http://" + addr.String(), Seed: c.opts.Seed, Scale: c.opts.Scale,
		Variants: c.opts.Variants, Defects: c.opts.Defects})
	r.Redact(redact.New(sim.Fixtures()))
	return reports.WriteTraffic(c.reportDir, r)
}

// trafficReport turns the simulator's record into the report model.
func trafficReport(t simulator.Traffic, s reports.TrafficSimulator) *reports.TrafficReport {
	r := &reports.TrafficReport{Schema: reports.TrafficSchemaVersion, Tool: reports.NewTool("campusconf serve"), Simulator: s,
		Since: t.Since, Until: t.Until, Requests: t.Requests,
		Operations: []reports.TrafficOperation{}, Unused: []string{}, Violations: []reports.TrafficViolation{}, Relies: []reports.TrafficReliance{}}
	used := map[string]bool{}
	for _, o := range t.Operations {
		used[o.Op] = true
		st := make(map[string]int, len(o.Statuses))
		for code, n := range o.Statuses {
			st[strconv.Itoa(code)] = n
		}
		r.Operations = append(r.Operations, reports.TrafficOperation{Op: o.Op, Method: o.Method, Path: o.Path, Count: o.Count, Statuses: st})
	}
	for _, id := range registry.IDs() {
		if !used[string(id)] {
			r.Unused = append(r.Unused, string(id))
		}
	}
	for _, v := range t.Violations {
		r.Violations = append(r.Violations, reports.TrafficViolation{Requirement: v.Requirement, Ops: v.Ops, Count: v.Count, What: v.What, Status: v.Status,
			Example: reports.TrafficExample{Method: v.Example.Method, Target: v.Example.Target, Body: v.Example.Body, BodyCut: v.Example.BodyCut}})
	}
	for _, d := range t.Relies {
		r.Relies = append(r.Relies, reports.TrafficReliance{ID: d.ID, Simulator: d.Simulator, Instead: d.Instead, Robust: d.Robust,
			Section: d.Section, Count: d.Count, Ops: d.Ops})
	}
	return r
}
