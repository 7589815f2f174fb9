package main

import (
	"encoding/json"
	"encoding/xml"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/simulator/variants"
)

// TestSetupMistakesAreInconclusive runs the suite against the simulator
// switched to answer 403 for an unknown token (variant token-403, as many
// gateways do), with one mistake of the fixture each, as issue 39 found
// them: every run exits 2 and every output gives the verdict inconclusive
// (setup), with a line naming what to fix: the console, summary.md,
// report.html, report.json, junit.xml (an error), ctrf.json (a failed
// test), conformance-report.yaml, the badge. Under -short, a sample.
func TestSetupMistakesAreInconclusive(t *testing.T) {
	mistakes := []struct {
		name  string
		short bool
		edit  func(f *fixtures.File)
		want  string // in the reason
	}{
		{"a staff token refused with 403", true, func(f *fixtures.File) {
			u := f.Users["staff"]
			u.Headers = map[string]string{"Authorization": "Bearer staff-not-a-token-of-this-world"}
			f.Users["staff"] = u
		}, `credentials check: the target refused the credentials of fixture user "staff" with 403`},
		{"a wrong header name for every user", false, func(f *fixtures.File) {
			for name, u := range f.Users {
				u.Headers = map[string]string{"X-Authorization": u.Headers["Authorization"]}
				f.Users[name] = u
			}
		}, `fixture user "owner" with 403`},
		{"a wrong subscription key", false, func(f *fixtures.File) { f.SubscriptionKey = "0123456789abcdef0123456789abcdef" },
			`fixture user "owner" with 401`},
		{"a wrong path of an unplaced operation", true, func(f *fixtures.File) {
			op := f.Operations["GB"]
			op.Path = "/gradebooks/{id}/settings"
			f.Operations["GB"] = op
		}, "placement check: operations.GB (PATCH /gradebooks/{id}/settings) answered 404"},
		{"a wrong method of an unplaced operation", false, func(f *fixtures.File) {
			op := f.Operations["NR"]
			op.Method = "POST"
			f.Operations["NR"] = op
		}, "placement check: operations.NR (POST /notification/read) answered 405"},
		{"a wrong record id", false, func(f *fixtures.File) { f.Records.Weblink = "3b1f5c2e-0000-4000-8000-000000000000" },
			"record check: fixture record records.weblink is gone"},
		{"a wrong one-time password secret", false, func(f *fixtures.File) { f.SecondFactor.TOTPSecret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP" },
			"second factor: E1 refused the fixture's one-time password"},
		{"approving and denying users swapped", true, func(f *fixtures.File) {
			sf := &f.SecondFactor
			sf.ApprovingUser, sf.DenyingUser = sf.DenyingUser, sf.ApprovingUser
		}, "second factor: E2's approve and deny outcomes are exactly swapped"},
	}
	for _, m := range mistakes {
		t.Run(m.name, func(t *testing.T) {
			if testing.Short() && !m.short {
				t.Skip("a sample under -short")
			}
			sim, f := newSim(t, simulator.Options{Seed: 1, Variants: []string{string(variants.Token403)}})
			m.edit(f)
			srv := httptest.NewServer(sim)
			defer srv.Close()
			dir := t.TempDir()
			code, outputs := runAt(t, srv.URL, f, dir)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d\n%s", code, exitUsage, tail(outputs["stderr"], 12))
			}
			r, err := reports.ReadJSON(filepath.Join(dir, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != reports.VerdictInconclusive || r.VerdictCause != reports.InconclusiveSetup || !strings.Contains(r.VerdictReason, m.want) {
				t.Fatalf("report.json: expected inconclusive (setup) with %q, got %q: %s", m.want, reports.Word(r.Verdict, r.VerdictCause), r.VerdictReason)
			}
			checkOneVerdict(t, r, outputs)
			word := reports.Word(r.Verdict, r.VerdictCause)
			if !strings.Contains(outputs["stdout"], "Inconclusive (setup): ") || !strings.Contains(outputs["summary.md"], "Inconclusive (setup)") {
				t.Errorf("console and summary.md: expected %q", "Inconclusive (setup)")
			}
			var ju struct {
				Errors int `xml:"errors,attr"`
				Suites []struct {
					Properties []struct {
						Name  string `xml:"name,attr"`
						Value string `xml:"value,attr"`
					} `xml:"properties>property"`
				} `xml:"testsuite"`
			}
			if err := xml.Unmarshal([]byte(outputs["junit.xml"]), &ju); err != nil || ju.Errors == 0 {
				t.Errorf("junit.xml: expected an error where the gate fails, got %d (%v)", ju.Errors, err)
			}
			props := map[string]string{}
			if len(ju.Suites) > 0 {
				for _, p := range ju.Suites[0].Properties {
					props[p.Name] = p.Value
				}
			}
			if props["verdict"] != string(reports.VerdictInconclusive) || props["verdictCause"] != string(reports.InconclusiveSetup) {
				t.Errorf("junit.xml: expected verdict %q, got %q %q", word, props["verdict"], props["verdictCause"])
			}
			var ct struct {
				Results struct {
					Summary struct {
						Failed int `json:"failed"`
					} `json:"summary"`
				} `json:"results"`
				Extra map[string]any `json:"extra"`
			}
			if err := json.Unmarshal([]byte(outputs["ctrf.json"]), &ct); err != nil || ct.Extra["verdict"] != string(reports.VerdictInconclusive) || ct.Extra["verdictCause"] != string(reports.InconclusiveSetup) || ct.Results.Summary.Failed == 0 {
				t.Errorf("ctrf.json: expected verdict %q and a failed test, got %v %v, %d failed (%v)", word, ct.Extra["verdict"], ct.Extra["verdictCause"], ct.Results.Summary.Failed, err)
			}
			var c reports.ConformanceReport
			if err := yaml.Unmarshal([]byte(outputs["conformance-report.yaml"]), &c); err != nil || c.Status != reports.VerdictInconclusive || c.Cause != reports.InconclusiveSetup {
				t.Errorf("conformance-report.yaml: expected status %q, got %q %q (%v)", word, c.Status, c.Cause, err)
			}
			if !strings.Contains(outputs["badge.svg"], word) {
				t.Errorf("badge.svg: expected %q", word)
			}
			if !strings.Contains(outputs["stderr"]+outputs["stdout"], m.want) {
				t.Errorf("console: expected the line saying what to fix, %q", m.want)
			}
		})
	}
}
