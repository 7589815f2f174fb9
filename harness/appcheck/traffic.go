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
	"net/url"
	"strconv"
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
	Schema string `json:"schema"`
	wire.Recorded
	// Operations are the operations the app called.
	Operations []Operation `json:"operations"`
	// Relies are the simulator's choices the app relied on.
	Relies []Reliance `json:"relies"`
}

// Operation is one operation the app called, with an example request of
// the app's when the report gives one (wire.OperationUse.Example; absent
// in reports written before examples were recorded), its record ids
// written as fixture placeholders ({records.folder}) once read
// (placeholders).
type Operation struct {
	wire.OperationUse
}

// Reliance is one documented choice the app relied on, with an example
// request of the app's that relied on it when the report gives one
// (wire.Reliance.Example), as Operation's.
type Reliance struct {
	wire.Reliance
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
	for i := range t.Operations {
		t.Operations[i].Example = placeholders(t.Operations[i].Example)
	}
	for i := range t.Relies {
		t.Relies[i].Example = placeholders(t.Relies[i].Example)
	}
	return &t, nil
}

// placeholders is e with each record id its FixtureIDs maps written as
// the fixture placeholder of its key ({records.folder}), so the probes
// fill in the ids of the target's fixture: a path segment, a query value
// or a body member equal to the id (a string member quoted, a number
// bare). An example without FixtureIDs is returned as it is (its ids
// may already be placeholders).
func placeholders(e *wire.Example) *wire.Example {
	if e == nil || len(e.FixtureIDs) == 0 {
		return e
	}
	c := *e
	ph := func(v string) (string, bool) {
		key, ok := e.FixtureIDs[v]
		return "{" + key + "}", ok
	}
	path, query, hasQuery := strings.Cut(c.Target, "?")
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		if v, err := url.PathUnescape(seg); err == nil {
			if p, ok := ph(v); ok {
				segs[i] = p
			}
		}
	}
	c.Target = strings.Join(segs, "/")
	if hasQuery {
		pairs := strings.Split(query, "&")
		for i, pair := range pairs {
			k, v, _ := strings.Cut(pair, "=")
			if uv, err := url.QueryUnescape(v); err == nil {
				if p, ok := ph(uv); ok {
					pairs[i] = k + "=" + p
				}
			}
		}
		c.Target += "?" + strings.Join(pairs, "&")
	}
	if c.Body != "" && !c.BodyCut {
		c.Body = bodyPlaceholders(c.Body, ph)
	}
	return &c
}

// bodyPlaceholders writes the members of a JSON body that ph maps as
// placeholders: "{key}" for a string, {key} for a number.
func bodyPlaceholders(body string, ph func(string) (string, bool)) string {
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return body
	}
	var marks []string // the placeholders of numbers, written bare below
	var walk func(any) any
	walk = func(x any) any {
		switch y := x.(type) {
		case map[string]any:
			for k, c := range y {
				y[k] = walk(c)
			}
		case []any:
			for i, c := range y {
				y[i] = walk(c)
			}
		case string:
			if p, ok := ph(y); ok {
				return p
			}
		case json.Number:
			if p, ok := ph(y.String()); ok {
				marks = append(marks, p)
				return "\x00" + strconv.Itoa(len(marks)-1)
			}
		}
		return x
	}
	out, err := json.Marshal(walk(v))
	if err != nil {
		return body
	}
	s := string(out)
	for i, p := range marks {
		s = strings.Replace(s, `"\u0000`+strconv.Itoa(i)+`"`, p, 1)
	}
	return s
}

// FromWire is the traffic of a simulator's record as it stands, for a
// caller that holds the record itself (its examples' ids are the
// simulator's own: the record maps none to fixture keys).
func FromWire(w wire.Traffic) *Traffic {
	t := &Traffic{Schema: trafficSchemaPrefix + "v1", Recorded: wire.Recorded{Requests: w.Requests}}
	if !w.Since.IsZero() {
		t.Since, t.Until = w.Since.UTC().Format("2006-01-02T15:04:05Z"), w.Until.UTC().Format("2006-01-02T15:04:05Z")
	}
	for _, o := range w.Operations {
		o.Example = placeholders(o.Example)
		t.Operations = append(t.Operations, Operation{OperationUse: o})
	}
	for _, r := range w.Relies {
		r.Example = placeholders(r.Example)
		t.Relies = append(t.Relies, Reliance{Reliance: r})
	}
	return t
}
