package main

import (
	"net"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/reports/redact"
	"github.com/campusconf/campusconf/simulator"
)

// writeTrafficReport writes what the app did (t) as a traffic report into
// --report-dir, every secret of the simulator's world redacted, and
// returns the path of its report.html.
func writeTrafficReport(c serveConfig, sim *simulator.Simulator, addr net.Addr, t wire.Traffic) (string, error) {
	r := trafficReport(t, reports.TrafficSimulator{URL: "http://" + addr.String(), Seed: c.opts.Seed, Scale: c.opts.Scale,
		Variants: c.opts.Variants, Defects: c.opts.Defects})
	fx := sim.Fixtures()
	r.MapFixtureIDs(fx) // before the redaction, which may hide an id too
	r.Redact(redact.New(fx))
	return reports.WriteTraffic(c.reportDir, r)
}

// trafficReport puts the simulator's record into the report model (the
// same element types) and lists the operations not called.
func trafficReport(t wire.Traffic, s reports.TrafficSimulator) *reports.TrafficReport {
	r := &reports.TrafficReport{Schema: reports.TrafficSchemaVersion, Tool: reports.NewTool("campusconf serve"), Simulator: s,
		Traffic: t, Unused: []string{}}
	used := map[string]bool{}
	for _, o := range t.Operations {
		used[o.Op] = true
	}
	for _, id := range registry.IDs() {
		if !used[string(id)] {
			r.Unused = append(r.Unused, string(id))
		}
	}
	return r
}
