// Package appcheck checks an app's recorded reliances against a real
// target: given the traffic report `campusconf serve --report-dir` wrote
// while a front end ran against the simulator, it probes the target on
// each documented choice of the simulator the app relied on (the decision
// ids of docs/decisions.md, read as strings from the report: this package
// links no simulator) and on each operation the app used, and concludes
// per app: compatible, at risk or unknown (reports.App). `campusconf run
// --app-traffic FILE` runs it after the suite; it never changes the
// conformance verdict.
package appcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/campusconf/campusconf/internal/boundedfile"
	"github.com/campusconf/campusconf/internal/wire"
)

// MaxTrafficFile bounds a traffic report read (Read): a report holds one
// row per operation and per decision, and one example request each, so a
// few megabytes is far beyond any real one.
const MaxTrafficFile = 8 << 20

// Traffic is a traffic report as the app check reads it: the simulator's
// record of an app's traffic (wire.Traffic's members), each operation and
// reliance with the app's own example request when the report has one.
type Traffic struct {
	Schema   string `json:"schema"`
	Since    string `json:"since"`
	Until    string `json:"until"`
	Requests int    `json:"requests"`
	// Operations are the operations the app called.
	Operations []Operation `json:"operations"`
	// Relies are the simulator's choices the app relied on.
	Relies []Reliance `json:"relies"`
}

// Operation is one operation the app called, with an example request of
// the app's when the report gives one.
type Operation struct {
	wire.OperationUse
	// Example is one of the app's requests of the operation, its record
	// ids written as fixture placeholders ({records.folder}); absent in
	// reports written before examples were recorded.
	Example *wire.Example `json:"example,omitempty"`
}

// Reliance is one documented choice the app relied on, with an example
// request of the app's that relied on it when the report gives one.
type Reliance struct {
	wire.Reliance
	// Example is one of the app's requests whose answer relied on it, as
	// Operation.Example.
	Example *wire.Example `json:"example,omitempty"`
}

// trafficSchemaPrefix is the start of every traffic report's schema id
// (reports.TrafficSchemaVersion and its later versions).
const trafficSchemaPrefix = "campusconf.traffic/"

// Read reads a traffic report's report.json, a regular file of at most
// MaxTrafficFile bytes.
func Read(path string) (*Traffic, error) {
	data, err := boundedfile.Read(path, MaxTrafficFile)
	if err != nil {
		var tl *boundedfile.TooLargeError
		if errors.As(err, &tl) {
			return nil, fmt.Errorf("traffic report %s: larger than %d bytes: is it a traffic report's report.json?", path, MaxTrafficFile)
		}
		return nil, fmt.Errorf("traffic report: %w", err)
	}
	return Parse(data, path)
}

// Parse reads a traffic report from data; name names it in errors.
func Parse(data []byte, name string) (*Traffic, error) {
	var t Traffic
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("traffic report %s: %v", name, err)
	}
	if !strings.HasPrefix(t.Schema, trafficSchemaPrefix) {
		return nil, fmt.Errorf("traffic report %s: schema %q, want %s... (the report.json that campusconf serve --report-dir writes)", name, t.Schema, trafficSchemaPrefix)
	}
	return &t, nil
}

// FromWire is the traffic of a simulator's record as it stands (no
// example requests), for a caller that holds the record itself.
func FromWire(w wire.Traffic) *Traffic {
	t := &Traffic{Schema: trafficSchemaPrefix + "v1", Requests: w.Requests}
	if !w.Since.IsZero() {
		t.Since, t.Until = w.Since.UTC().Format("2006-01-02T15:04:05Z"), w.Until.UTC().Format("2006-01-02T15:04:05Z")
	}
	for _, o := range w.Operations {
		t.Operations = append(t.Operations, Operation{OperationUse: o})
	}
	for _, r := range w.Relies {
		t.Relies = append(t.Relies, Reliance{Reliance: r})
	}
	return t
}
