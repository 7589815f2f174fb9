package simulator

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/campusconf/campusconf/simulator/world"
)

// createdDate copies the fixture bank folder and returns the copy's date.
func (e *env) createdDate(t *testing.T) time.Time {
	t.Helper()
	m := e.do("owner", "POST", "/bank/"+e.fx.Records.BankFolder+"/copy", "").want(t, http.StatusCreated).object(t)
	at, err := time.Parse(time.RFC3339, m["createdDate"].(string))
	if err != nil {
		t.Fatalf("createdDate %v: %v", m["createdDate"], err)
	}
	return at
}

// inRange counts the fixture folder's download log entries from..to.
func (e *env) inRange(t *testing.T, from, to time.Time) int {
	t.Helper()
	path := "/files/" + e.fx.Records.Folder + "/downloaded?limit=1000&StartDate=" + url.QueryEscape(from.Format(time.RFC3339)) + "&EndDate=" + url.QueryEscape(to.Format(time.RFC3339))
	return len(e.do("owner", "GET", path, "").want(t, 200).list(t))
}

// TestClockOption starts a world on another date: created records are
// dated from it, and the seeded history moves with it, so a date filter
// relative to the clock finds what it finds at the default clock.
func TestClockOption(t *testing.T) {
	at := time.Date(2030, time.March, 1, 9, 0, 0, 0, time.UTC)
	def := newEnv(t, Options{})
	moved := newEnv(t, Options{Clock: at})
	for _, c := range []struct {
		name  string
		e     *env
		clock time.Time
	}{{"default clock", def, world.Now}, {"clock 2030-03-01", moved, at}} {
		t.Run(c.name, func(t *testing.T) {
			if got, want := c.e.createdDate(t), c.clock.Add(time.Second); !got.Equal(want) {
				t.Errorf("created record dated %s, want %s (clock + one second per write)", got, want)
			}
		})
	}
	window := 120 * 24 * time.Hour
	wantN := def.inRange(t, world.Now.Add(-window), world.Now)
	if wantN == 0 {
		t.Fatalf("default world: no download log entries in the %s before its clock", window)
	}
	if got := moved.inRange(t, at.Add(-window), at); got != wantN {
		t.Errorf("clock %s: %d entries in the %s before the clock, want %d as at the default clock", at, got, window, wantN)
	}
	if got := moved.inRange(t, world.Now.Add(-window), world.Now); got != 0 {
		t.Errorf("clock %s: %d entries in the default clock's window, want 0 (the history moved)", at, got)
	}
}

// TestClockControl sets and shifts the clock through the control API:
// records created afterwards carry the new time in every world, and a
// reset seeds the world relative to it.
func TestClockControl(t *testing.T) {
	e := newEnv(t, Options{Control: true})
	e.inWorld("w", false, "GET", "/healthz", "").want(t, 200) // a named world before the move
	at := time.Date(2024, time.March, 1, 9, 0, 0, 0, time.UTC)
	r := e.do("", "PUT", e.fx.Control+"/clock", `"2024-03-01T09:00:00Z"`).want(t, 200).object(t)
	if r["clock"] != "2024-03-01T09:00:00Z" || r["seeded"] != "2024-03-01T09:00:00Z" {
		t.Errorf("PUT clock answered %v, want clock and seeded 2024-03-01T09:00:00Z", r)
	}
	if got, want := e.createdDate(t), at.Add(time.Second); !got.Equal(want) {
		t.Errorf("after PUT clock: created record dated %s, want %s", got, want)
	}
	cr := e.inWorld("w", false, "POST", "/bank/"+e.fx.Records.BankFolder+"/copy", "").want(t, http.StatusCreated).object(t)
	if cr["createdDate"] != "2024-03-01T09:00:01Z" {
		t.Errorf("named world after PUT clock: createdDate %v, want 2024-03-01T09:00:01Z", cr["createdDate"])
	}
	e.do("", "PUT", e.fx.Control+"/clock", `{"shift":"48h"}`).want(t, 200)
	if got, want := e.createdDate(t), at.Add(48*time.Hour+2*time.Second); !got.Equal(want) {
		t.Errorf("after shift 48h: created record dated %s, want %s", got, want)
	}
	// seeded history: before the reset it is where it was; after, it is
	// relative to the new clock
	seeded := at.Add(48 * time.Hour)
	window := 120 * 24 * time.Hour
	if got := e.inRange(t, seeded.Add(-window), seeded); got != 0 {
		t.Errorf("before reset: %d entries near the new clock, want 0 (records keep their dates)", got)
	}
	e.do("", "POST", e.fx.Control+"/reset", "").want(t, http.StatusNoContent)
	if got := e.inRange(t, seeded.Add(-window), seeded); got == 0 {
		t.Error("after reset: no entries in the window before the new clock, want the seeded history there")
	}
	for _, body := range []string{`"yesterday"`, `{"shift":"2 days"}`, `{"at":"x"}`, `42`, ``} {
		msg := e.do("", "PUT", e.fx.Control+"/clock", body).want(t, http.StatusBadRequest).errorString(t)
		if msg == "" {
			t.Errorf("PUT clock %s: empty message", body)
		}
	}
}
