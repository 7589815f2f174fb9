package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/reports"
)

// TestServeRestart: with --state, a restarted server keeps its control
// token (kept beside the state file, owner-only), resumes the clock from
// the time saved and moves on, and its traffic report goes on from
// before the restart, its period from the first start; the control API
// starts it over.
func TestServeRestart(t *testing.T) {
	dir := t.TempDir()
	state, reportDir := filepath.Join(dir, "state.json"), filepath.Join(dir, "traffic")
	args := []string{"--control", "--state", state, "--state-every", "0", "--report-dir", reportDir, "--clock", "2030-03-01T09:00:00Z"}
	control := regexp.MustCompile(`control API at (/_sim/[^,\s]+)`)
	clock := regexp.MustCompile(`clock (\S+) moving with real time`)
	run := func(calls int) (path string, at time.Time, r reports.TrafficReport) {
		t.Helper()
		s, code := startServer(t, args...)
		if code >= 0 {
			t.Fatalf("serve %v: exit %d before listening: %s", args, code, s.stderr)
		}
		m := control.FindStringSubmatch(s.stdout.String())
		c := clock.FindStringSubmatch(s.stdout.String())
		if m == nil || c == nil {
			t.Fatalf("banner %q: expected the control path and the clock moving with real time", s.stdout)
		}
		at, _ = time.Parse(time.RFC3339, c[1])
		fx := fixtureOf(t, s.base+m[1])
		for range calls {
			req, _ := http.NewRequest("GET", s.base+strings.ReplaceAll(fx.Operations["NG"].Path, "{id}", fx.Records.Notification.GroupID), nil)
			req.Header.Set("Ocp-Apim-Subscription-Key", fx.SubscriptionKey)
			req.Header.Set("Authorization", fx.Users["owner"].Headers["Authorization"])
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
		time.Sleep(1100 * time.Millisecond) // more than a second of the world's time passes
		if code := s.stop(); code != exitOK {
			t.Fatalf("serve stopped with %d: %s", code, s.stderr)
		}
		b, err := os.ReadFile(filepath.Join(reportDir, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		return m[1], at, r
	}
	firstPath, firstClock, first := run(2)
	if !firstClock.Equal(time.Date(2030, 3, 1, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("first start: clock %s, want --clock's", firstClock)
	}
	name := state + ".token"
	if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("token file %s: expected it kept, mode 0600, got %v %v", name, fi, err)
	}
	secondPath, secondClock, second := run(3)
	if secondPath != firstPath {
		t.Errorf("restart: control path changed, expected it kept")
	}
	if !secondClock.After(firstClock) {
		t.Errorf("restart: clock %s, expected it resumed from the saved time (after %s) and moving on", secondClock, firstClock)
	}
	if second.Requests != first.Requests+3 || !second.Since.Equal(first.Since) || second.Restarts != 1 {
		t.Errorf("restart: traffic report of %d requests since %s, %d restarts; expected %d since %s, 1 restart",
			second.Requests, second.Since, second.Restarts, first.Requests+3, first.Since)
	}

	// the control API starts the report over
	s, code := startServer(t, args...)
	if code >= 0 {
		t.Fatalf("serve: exit %d", code)
	}
	req, _ := http.NewRequest(http.MethodDelete, s.base+firstPath+"/traffic", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("DELETE /_sim/TOKEN/traffic: %d, want 204", resp.StatusCode)
	}
	resp, err = http.Get(s.base + firstPath + "/traffic")
	if err != nil {
		t.Fatal(err)
	}
	var tr reports.TrafficReport
	_ = json.NewDecoder(resp.Body).Decode(&tr)
	resp.Body.Close()
	if tr.Requests != 0 || tr.Restarts != 0 || !tr.Since.After(first.Since) {
		t.Errorf("after DELETE: %d requests since %s, %d restarts; expected none, since now", tr.Requests, tr.Since, tr.Restarts)
	}
	s.stop()

	// a token file open to others is refused, not used
	if err := os.Chmod(name, 0o644); err != nil {
		t.Fatal(err)
	}
	s, code = startServer(t, args...)
	if code != exitUsage || !strings.Contains(s.stderr.String(), "chmod 600") {
		t.Errorf("serve with the token file open to others: exit %d, stderr %q; expected %d saying chmod 600", code, s.stderr, exitUsage)
	}
}

// fixtureOf reads the fixture of a served simulator from its control API.
func fixtureOf(t *testing.T, control string) *fixtures.File {
	t.Helper()
	resp, err := http.Get(control + "/fixtures")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var fx fixtures.File
	if err := json.NewDecoder(resp.Body).Decode(&fx); err != nil {
		t.Fatalf("GET %s/fixtures: %v", "/_sim/TOKEN", err)
	}
	return &fx
}
