package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// TestServeTrafficReport: serve --report-dir --log json, driven like an
// app (a valid list read relying on the default limit, a request breaking
// a date rule with the key also put in its query, a write to an unplaced
// operation): the JSON log names the violations and reliances, POST
// /_sim/TOKEN/report writes the report on demand, and the exit writes it
// again; no file holds a secret.
func TestServeTrafficReport(t *testing.T) {
	dir := t.TempDir()
	s, code := startServer(t, "--log", "json", "--control", "--control-token", "tok-0123456789abcdef", "--report-dir", dir)
	if code >= 0 {
		t.Fatalf("serve exited %d: %s", code, s.stderr)
	}
	_, fx := newSim(t, simulator.Options{})
	send := func(method, path, body string, want int) {
		t.Helper()
		if got := asOwner(t, fx, method, s.base+path, body); got != want {
			t.Errorf("%s %s: status %d, want %d", method, path, got, want)
		}
	}
	folder := "/files/" + fx.Records.Folder + "/downloaded"
	send("GET", folder, "", http.StatusOK)
	send("GET", folder+"?StartDate=yesterday&subscription-key="+fx.SubscriptionKey, "", http.StatusBadRequest)
	nr := fx.Operations["NR"]
	send(nr.Method, nr.Path, `{"id":1000001,"read":11}`, http.StatusOK)

	var sawViolation, sawRelies bool
	for line := range strings.SplitSeq(strings.TrimSpace(s.stdout.String()), "\n") {
		var l struct {
			Op         string   `json:"op"`
			Violations []string `json:"violations"`
			Relies     []string `json:"relies"`
		}
		if json.Unmarshal([]byte(line), &l) != nil || l.Op == "" {
			continue
		}
		sawViolation = sawViolation || strings.Join(l.Violations, ",") == "E10.400.date"
		sawRelies = sawRelies || strings.Contains(strings.Join(l.Relies, ","), "D-unplaced-paths")
	}
	if !sawViolation || !sawRelies {
		t.Errorf("JSON log: want a line with violations [E10.400.date] and one relying on D-unplaced-paths; got\n%s", s.stdout)
	}

	resp, err := http.Post(s.base+"/_sim/tok-0123456789abcdef/report", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /_sim/TOKEN/report = %d, want 200", resp.StatusCode)
	}
	check := func(when string, requests int) {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, reports.JSONFile))
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		var r reports.TrafficReport
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		// two operations used, every other one of the registry unused
		unused := len(registry.All()) - 2
		if r.Schema != reports.TrafficSchemaVersion || r.Requests != requests || len(r.Operations) != 2 || len(r.Unused) != unused {
			t.Errorf("%s: report.json: schema %q, %d requests, %d operations used, %d unused; want %s, %d, 2, %d",
				when, r.Schema, r.Requests, len(r.Operations), len(r.Unused), reports.TrafficSchemaVersion, requests, unused)
		}
		if len(r.Violations) != 1 || r.Violations[0].Requirement != "E10.400.date" || !strings.Contains(r.Violations[0].Example.Target, "StartDate=yesterday") {
			t.Errorf("%s: violations %+v, want E10.400.date with its request", when, r.Violations)
		}
		for _, o := range r.Operations {
			e := o.Example
			if e == nil || e.Op != o.Op || e.User != "owner" {
				t.Errorf("%s: operation %s: expected an example request of the owner, got %+v", when, o.Op, e)
				continue
			}
			if o.Op == "E10" && (e.Status != 200 || e.FixtureIDs[fx.Records.Folder] != "records.folder" || strings.Contains(e.Target, "StartDate")) {
				t.Errorf("%s: E10's example %+v: expected the request answered 200, its folder id mapped to records.folder", when, e)
			}
		}
		ids := map[string]bool{}
		for _, d := range r.Relies {
			if d.Example == nil || d.Example.Method == "" {
				t.Errorf("%s: reliance %s: expected an example request", when, d.ID)
			}
			ids[d.ID] = d.Instead != "" && d.Robust != ""
		}
		for _, id := range []string{"D-limit-default", "D-sort-default", "D-unplaced-paths", "D-date-bounds"} {
			if !ids[id] {
				t.Errorf("%s: relies %v: want %s with its advice", when, ids, id)
			}
		}
		for _, f := range []string{reports.JSONFile, reports.MarkdownFile, reports.HTMLFile} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Errorf("%s: %v", when, err)
				continue
			}
			for _, secret := range fx.Secrets() {
				if strings.Contains(string(b), secret) {
					t.Errorf("%s: %s holds a secret", when, f)
				}
			}
		}
	}
	check("on demand", 3)
	send("GET", folder+"?limit=2", "", http.StatusOK)
	if code := s.stop(); code != exitOK {
		t.Fatalf("serve stopped with %d: %s", code, s.stderr)
	}
	check("on exit", 4)
	if !strings.Contains(s.stdout.String(), "traffic report written to") {
		t.Errorf("stdout: want the line naming the traffic report, got %q", s.stdout)
	}
}
