package simulator

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
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
	path := e.fileLog() + "?limit=1000&StartDate=" + url.QueryEscape(from.Format(time.RFC3339)) + "&EndDate=" + url.QueryEscape(to.Format(time.RFC3339))
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
	e.do("", "PUT", e.fx.Control+"/clock", `{"shift":"48h"}`).want(t, 200).object(t)
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

// newest returns the latest of field over the entries, and fails when one
// is after the clock (a seeded history lies before it).
func newest(t *testing.T, what string, entries []map[string]any, field string, clock time.Time) time.Time {
	t.Helper()
	if len(entries) == 0 {
		t.Fatalf("%s: no entries, want a seeded history", what)
	}
	var latest time.Time
	for _, m := range entries {
		at, err := time.Parse(time.RFC3339, fmt.Sprint(m[field]))
		if err != nil {
			t.Fatalf("%s: %s %v: %v", what, field, m[field], err)
		}
		if at.After(clock) {
			t.Errorf("%s: %s %s is after the clock %s, want history before it", what, field, at.Format(time.RFC3339), clock.Format(time.RFC3339))
		}
		if at.After(latest) {
			latest = at
		}
	}
	return latest
}

// TestHistoryFollowsClock starts worlds at three clocks far apart: at
// each, the E10 query for the week before the clock finds entries, every
// other seeded history (view logs, statistics, captures, responses,
// notifications, media downloads, faculty updates) has recent entries
// and none after the clock; and the same seed and clock give the same
// bytes.
func TestHistoryFollowsClock(t *testing.T) {
	day := 24 * time.Hour
	for _, clock := range []time.Time{
		time.Date(1971, time.June, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2030, time.June, 1, 0, 0, 0, 0, time.UTC), // the case: empty before the fix
		time.Date(8999, time.December, 31, 17, 30, 0, 0, time.UTC),
	} {
		t.Run(clock.Format("2006-01-02"), func(t *testing.T) {
			e := newEnv(t, Options{Clock: clock})
			rec := e.fx.Records
			if n := e.inRange(t, clock.Add(-7*day), clock); n == 0 {
				t.Errorf("E10 StartDate=%s EndDate=%s: no entries, want the week before the clock to hold some",
					clock.Add(-7*day).Format(time.RFC3339), clock.Format(time.RFC3339))
			}
			after := "/files/" + rec.Folder + "/downloaded?StartDate=" + url.QueryEscape(clock.Add(time.Second).Format(time.RFC3339))
			if got := e.do("owner", "GET", after, "").want(t, 200).list(t); len(got) != 0 {
				t.Errorf("E10 after the clock: %d entries, want none", len(got))
			}
			week := "/multimedia/statistics/channel/" + rec.Channel + "/users?startDate=" + url.QueryEscape(clock.Add(-7*day).Format(time.RFC3339)) + "&endDate=" + url.QueryEscape(clock.Format(time.RFC3339))
			if got := e.do("owner", "GET", week, "").want(t, 200).list(t); len(got) == 0 {
				t.Error("E15 over the week before the clock: no active users, want some")
			}
			_, group := e.opPath("NG", rec.Notification.GroupID)
			for _, c := range []struct {
				what, path, field string
				within            time.Duration
			}{
				{"E10 download log", "/files/" + rec.Folder + "/downloaded?limit=1000", "logDate", day},
				{"E12 weblink views", "/module/Weblink/" + rec.Weblink + "/Log", "logDate", day},
				{"E16 lecture captures", "/multimedia/capture/" + rec.Capture + "/medias", "startTime", 2 * day},
				{"E17 survey responses", "/survey/question/" + rec.SurveyQuestion + "/response?limit=1000", "createdDate", 2 * day},
				{"E18 poll responses", "/poll/Question/" + rec.PollQuestion + "/Response?limit=1000", "createdDate", 2 * day},
				{"NG notification", group, "recordDate", day},
				{"E13 media download", "/multimedia/" + rec.Media + "/downloadlog", "logDate", 60 * day},
				{"E9 question", "/evaluation/" + rec.Evaluation + "/Question/" + rec.EvaluationQuestion, "createdDate", 31 * day},
			} {
				r := e.do("owner", "GET", c.path, "").want(t, 200)
				var entries []map[string]any
				if r.body[0] == '[' {
					entries = r.list(t)
				} else {
					entries = []map[string]any{r.object(t)}
				}
				if got := newest(t, c.what, entries, c.field, clock); got.Before(clock.Add(-c.within)) {
					t.Errorf("%s: newest %s %s, want one within %s before the clock", c.what, c.field, got.Format(time.RFC3339), c.within)
				}
			}
			var faculties []map[string]any
			e.do("admin", "POST", "/campus/Faculty", "").want(t, 200).decode(t, &faculties)
			if got := newest(t, "E4 faculties", faculties, "deptUpdD", clock); got.Before(clock.Add(-90 * day)) {
				t.Errorf("E4: newest deptUpdD %s, want one within 90 days before the clock", got.Format(time.RFC3339))
			}
			again := newEnv(t, Options{Clock: clock})
			for _, p := range reads(e) {
				if a, b := e.do("owner", "GET", p, "").body, again.do("owner", "GET", p, "").body; string(a) != string(b) {
					t.Errorf("GET %s differs between two simulators of seed 1 at clock %s", p, clock.Format(time.RFC3339))
				}
			}
		})
	}
}

// TestClockRange: a clock outside MinClock..MaxClock is refused with a
// message, at New and through the control API (400, never a 500), and
// nothing moves.
func TestClockRange(t *testing.T) {
	for _, at := range []time.Time{time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), MaxClock.Add(time.Second)} {
		if _, err := New(Options{Clock: at}); err == nil || !strings.Contains(err.Error(), "expected a date-time from 1971-01-01T00:00:00Z to 9000-01-01T00:00:00Z") {
			t.Errorf("New(Clock %s) = %v, want the range named", at, err)
		}
	}
	if _, err := New(Options{Clock: MaxClock}); err != nil {
		t.Errorf("New(Clock MaxClock) = %v, want it accepted", err)
	}
	e := newEnv(t, Options{Control: true})
	e.inWorld("w", false, "GET", "/healthz", "").want(t, 200)
	before := e.do("", "GET", e.fx.Control+"/clock", "").want(t, 200).object(t)
	for _, body := range []string{
		`"9999-12-31T23:59:59Z"`,
		`"1969-12-31T23:59:59Z"`,
		`"0001-01-01T00:00:00Z"`,
		`{"shift":"-2562047h"}`,
		`{"shift":"-500000h"}`,
	} {
		msg := e.do("", "PUT", e.fx.Control+"/clock", body).want(t, http.StatusBadRequest).errorString(t)
		if !strings.Contains(msg, "1971-01-01T00:00:00Z to 9000-01-01T00:00:00Z") {
			t.Errorf("PUT clock %s: message %q, want the range named", body, msg)
		}
	}
	if after := e.do("", "GET", e.fx.Control+"/clock", "").want(t, 200).object(t); mustJSON(t, after) != mustJSON(t, before) {
		t.Errorf("refused clock changes moved the clock: %v -> %v", before, after)
	}
	e.do("", "PUT", e.fx.Control+"/clock", `"8999-12-31T00:00:00Z"`).want(t, 200)
	e.do("", "PUT", e.fx.Control+"/clock", `{"shift":"2562047h"}`).want(t, http.StatusBadRequest).errorString(t)
	e.do("", "PUT", e.fx.Control+"/clock", `{"shift":"48h"}`).want(t, http.StatusBadRequest).errorString(t)
	e.do("", "PUT", e.fx.Control+"/clock", `{"shift":"24h"}`).want(t, 200)
	// near the end of the range everything still answers and saves
	e.do("owner", "POST", "/bank/"+e.fx.Records.BankFolder+"/copy", "").want(t, http.StatusCreated)
	e.inWorld("w", false, "POST", "/bank/"+e.fx.Records.BankFolder+"/copy", "").want(t, http.StatusCreated)
	e.do("", "POST", e.fx.Control+"/reset", "").want(t, http.StatusNoContent)
	for _, p := range reads(e) {
		e.do("owner", "GET", p, "").want(t, 200)
	}
	if err := e.sim.SaveState(filepath.Join(t.TempDir(), "state.json")); err != nil {
		t.Errorf("SaveState at clock 9000-01-01: %v, want it written", err)
	}
}

// fakeWall is a wall clock a test moves by hand.
type fakeWall struct{ t time.Time }

func (f *fakeWall) now() time.Time          { return f.t }
func (f *fakeWall) advance(d time.Duration) { f.t = f.t.Add(d) }

// TestClockModes: stepping (the default) dates each write one second
// after the last, whatever the real time; with RealTime the world's time
// moves with the real time from the clock given, a write is dated then,
// and a world seeded later (a named world) is seeded at the time then.
func TestClockModes(t *testing.T) {
	at := time.Date(2030, time.March, 1, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name       string
		realTime   bool
		wantFirst  time.Time
		wantSecond time.Time
		wantClock  time.Time
	}{
		{"step", false, at.Add(time.Second), at.Add(2 * time.Second), at.Add(2 * time.Second)},
		{"real time", true, at.Add(10 * time.Minute), at.Add(70 * time.Minute), at.Add(70 * time.Minute)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wall := &fakeWall{t: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}
			e := newEnv(t, Options{Clock: at, RealTime: tt.realTime, WallClock: wall.now})
			wall.advance(10 * time.Minute)
			if got := e.createdDate(t); !got.Equal(tt.wantFirst) {
				t.Errorf("first write 10 minutes after start: dated %s, want %s", got, tt.wantFirst)
			}
			wall.advance(time.Hour)
			if got := e.createdDate(t); !got.Equal(tt.wantSecond) {
				t.Errorf("second write an hour later: dated %s, want %s", got, tt.wantSecond)
			}
			if got := e.sim.Clock(); !got.Equal(tt.wantClock) {
				t.Errorf("clock: %s, want %s", got, tt.wantClock)
			}
			named, err := e.sim.World("later")
			if err != nil {
				t.Fatal(err)
			}
			if got := named.Clock(); tt.realTime && !got.Equal(at.Add(70*time.Minute)) {
				t.Errorf("a world created 70 minutes in: clock %s, want %s", got, at.Add(70*time.Minute))
			}
		})
	}
}

// TestRealTimeClockResumes: with RealTime, a state file keeps the world's
// time; a server started from it resumes there and moves on with real
// time, however long it was stopped.
func TestRealTimeClockResumes(t *testing.T) {
	at := time.Date(2030, time.March, 1, 9, 0, 0, 0, time.UTC)
	wall := &fakeWall{t: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}
	first := newEnv(t, Options{Clock: at, RealTime: true, WallClock: wall.now})
	wall.advance(30 * time.Minute)
	path := filepath.Join(t.TempDir(), "state.json")
	if err := first.sim.SaveState(path); err != nil {
		t.Fatal(err)
	}
	wall.advance(5 * time.Hour) // stopped for five hours
	second := newEnv(t, Options{RealTime: true, WallClock: wall.now})
	if _, err := second.sim.LoadState(path, 0); err != nil {
		t.Fatal(err)
	}
	if got, want := second.sim.Clock(), at.Add(30*time.Minute); !got.Equal(want) {
		t.Errorf("restarted: clock %s, want the saved %s", got, want)
	}
	wall.advance(2 * time.Minute)
	if got, want := second.createdDate(t), at.Add(32*time.Minute); !got.Equal(want) {
		t.Errorf("a write 2 minutes after the restart: dated %s, want %s", got, want)
	}
}
