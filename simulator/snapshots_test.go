package simulator

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// change makes three kinds of change in a world: a notification marked
// read, a bank folder copied, an attendance added.
func (e *env) change(t *testing.T, name string) (folderID string) {
	t.Helper()
	n := e.fx.Records.Notification
	method, path := e.opPath("updateNotificationRead", "")
	e.inWorld(name, false, method, path, fmt.Sprintf(`{"id":%d,"read":11}`, n.ID)).want(t, 200)
	m := e.inWorld(name, false, "POST", "/bank/"+e.fx.Records.BankFolder+"/copy", "").want(t, http.StatusCreated).object(t)
	e.inWorld(name, false, "POST", "/Attendance/Default", `{"resourceID":"`+e.fx.Records.AttendanceResource+`"}`).want(t, http.StatusCreated)
	return m["id"].(string)
}

// TestSnapshotRoundTrip exports a changed world and imports it into a
// fresh simulator: the changes are there, and the next created id is the
// one the first simulator draws next.
func TestSnapshotRoundTrip(t *testing.T) {
	a := newEnv(t, Options{Control: true})
	a.change(t, "")
	snap := a.do("", "GET", a.fx.Control+"/snapshot", "").want(t, 200).body
	t.Logf("snapshot of the default world after three writes: %d bytes", len(snap))

	b := newEnv(t, Options{Control: true})
	b.do("", "PUT", b.fx.Control+"/snapshot", string(snap)).want(t, http.StatusNoContent)
	if got, err := b.notifyStatus("", false); err != nil || got != 11 {
		t.Errorf("after import: notification status %v (%v), want 11", got, err)
	}
	if again := b.do("", "GET", b.fx.Control+"/snapshot", "").want(t, 200).body; !bytes.Equal(again, snap) {
		t.Errorf("export after import differs from the imported snapshot (%d vs %d bytes)", len(again), len(snap))
	}
	idA := a.change(t, "")
	idB := b.change(t, "")
	if idA != idB {
		t.Errorf("next copy after import has id %s, the original simulator's next is %s (run-time ids not resumed)", idB, idA)
	}
	// into a named world
	b.do("", "PUT", b.fx.Control+"/snapshot?world=shared", string(snap)).want(t, http.StatusNoContent)
	if got, err := b.notifyStatus("shared", false); err != nil || got != 11 {
		t.Errorf("named world after import: status %v (%v), want 11", got, err)
	}
}

func TestSnapshotRefused(t *testing.T) {
	e := newEnv(t, Options{Control: true})
	good := string(e.do("", "GET", e.fx.Control+"/snapshot", "").want(t, 200).body)
	other := newEnv(t, Options{Control: true, Seed: 7})
	foreign := string(other.do("", "GET", other.fx.Control+"/snapshot", "").want(t, 200).body)
	e.change(t, "")
	for _, c := range []struct{ name, body, want string }{
		{"not JSON", "{", "expected a campusconf world snapshot"},
		{"other format", `{"format":"har","version":1,"seed":1,"scale":1,"world":{}}`, "expected format"},
		{"other version", strings.Replace(good, `"version":1`, `"version":9`, 1), "expected version 1"},
		{"other seed", foreign, "seed 7"},
		{"unknown field", strings.Replace(good, `"world":{`, `"world":{"Extra":1,`, 1), "unknown field"},
		{"no users", strings.Replace(good, `"Users":[`, `"Users":null,"X":[`, 1), "world"},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := e.do("", "PUT", e.fx.Control+"/snapshot", c.body).want(t, http.StatusBadRequest).errorString(t)
			if !strings.Contains(msg, c.want) {
				t.Errorf("message %q, want it to contain %q", msg, c.want)
			}
			if got, err := e.notifyStatus("", false); err != nil || got != 11 {
				t.Errorf("after a refused import the world changed: status %v (%v), want 11", got, err)
			}
		})
	}
}

// TestStateFileRestart writes the state of two worlds to a file as a
// shutdown would, starts a new simulator from it, and finds both.
func TestStateFileRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	a := newEnv(t, Options{})
	if loaded, err := a.sim.LoadState(path, 0); err != nil || loaded {
		t.Fatalf("LoadState(missing file) = %v, %v; want false, nil", loaded, err)
	}
	a.change(t, "")
	a.change(t, "alice")
	if err := a.sim.SaveState(path); err != nil {
		t.Fatal(err)
	}
	if err := a.sim.SaveState(path); err != nil { // over an existing file
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries after two saves, want the state file only (no temporary left)", len(entries))
	}

	b := newEnv(t, Options{})
	if loaded, err := b.sim.LoadState(path, 0); err != nil || !loaded {
		t.Fatalf("LoadState = %v, %v; want true, nil", loaded, err)
	}
	for _, w := range []string{"", "alice"} {
		if got, err := b.notifyStatus(w, false); err != nil || got != 11 {
			t.Errorf("world %q after restart: status %v (%v), want 11", w, got, err)
		}
	}
	if got, err := b.notifyStatus("bob", false); err != nil || got != 10 {
		t.Errorf("a world not in the file: status %v (%v), want 10 (seeded)", got, err)
	}
}

// TestStateFileKeepsClock: a clock moved before the save is where worlds
// seeded after a restart without --clock are seeded; --clock overrides it.
func TestStateFileKeepsClock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	a := newEnv(t, Options{})
	moved := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := a.sim.SetClock(moved); err != nil {
		t.Fatal(err)
	}
	if err := a.sim.SaveState(path); err != nil {
		t.Fatal(err)
	}
	given := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		clock time.Time
		want  time.Time
	}{{"no --clock", time.Time{}, moved}, {"--clock given", given, given}} {
		t.Run(c.name, func(t *testing.T) {
			b := newEnv(t, Options{Clock: c.clock})
			if _, err := b.sim.LoadState(path, 0); err != nil {
				t.Fatal(err)
			}
			if got := b.sim.clockStart(); !got.Equal(c.want) {
				t.Errorf("seeding time after load = %s, want %s", got, c.want)
			}
			if got := b.sim.Clock(); !got.Equal(moved) {
				t.Errorf("default world's clock after load = %s, want the saved %s", got, moved)
			}
		})
	}
}

// TestStateFileRefused: a corrupt or foreign file stops the load with a
// clear message; the worlds and the file are untouched.
func TestStateFileRefused(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	src := newEnv(t, Options{})
	src.change(t, "")
	if err := src.sim.SaveState(good); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	seed7 := newEnv(t, Options{Seed: 7})
	foreignPath := filepath.Join(dir, "seed7.json")
	if err := seed7.sim.SaveState(foreignPath); err != nil {
		t.Fatal(err)
	}
	foreign, _ := os.ReadFile(foreignPath)
	for _, c := range []struct{ name, content, want string }{
		{"truncated", string(data[:len(data)/2]), "expected a campusconf state file"},
		{"empty", "", "expected a campusconf state file"},
		{"another program's file", `{"format":"localstack","version":1,"default":{}}`, "not a campusconf state file"},
		{"other seed", string(foreign), "seed 7"},
		{"bad world name", strings.Replace(string(data), `"worlds":{}`, `"worlds":{"a.b":{}}`, 1), "world name"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			e := newEnv(t, Options{})
			e.change(t, "")
			loaded, err := e.sim.LoadState(path, 0)
			if err == nil || loaded || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "left as it is") {
				t.Errorf("LoadState = %v, %v; want a refusal containing %q and saying the file is left as it is", loaded, err, c.want)
			}
			if after, _ := os.ReadFile(path); string(after) != c.content {
				t.Error("the refused file was changed")
			}
			if got, err := e.notifyStatus("", false); err != nil || got != 11 {
				t.Errorf("the world changed after a refused load: status %v (%v), want 11", got, err)
			}
		})
	}
}

// TestStateFileWithMoreWorldsThanKept reproduces issue 45's state file cut
// at start: 100 named worlds with the default --max-worlds 64 lost 36,
// chosen by map order, and the file was rewritten. Now a file holding more
// named worlds than the server keeps is refused naming both numbers,
// nothing is loaded and the file is left as it is; a server keeping as
// many loads them all.
func TestStateFileWithMoreWorldsThanKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	src := newEnv(t, Options{MaxWorlds: 6})
	names := []string{"w0", "w1", "w2", "w3", "w4", "w5"}
	for _, w := range names {
		src.change(t, w)
	}
	if err := src.sim.SaveState(path); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	small := newEnv(t, Options{MaxWorlds: 4})
	loaded, err := small.sim.LoadState(path, 0)
	if err == nil || loaded || !strings.Contains(err.Error(), "holds 6 named worlds, more than the 4 this server keeps") ||
		!strings.Contains(err.Error(), "--max-worlds 6 or more") || !strings.Contains(err.Error(), "left as it is") {
		t.Fatalf("LoadState(6 worlds, MaxWorlds 4) = %v, %v; want a refusal naming both numbers", loaded, err)
	}
	if got := small.sim.WorldNames(); len(got) != 0 {
		t.Errorf("after the refusal: worlds %v, want none loaded", got)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the refused file was changed")
	}
	enough := newEnv(t, Options{MaxWorlds: 6})
	if loaded, err := enough.sim.LoadState(path, 0); err != nil || !loaded {
		t.Fatalf("LoadState(6 worlds, MaxWorlds 6) = %v, %v; want them loaded", loaded, err)
	}
	for _, w := range names {
		if got, err := enough.notifyStatus(w, false); err != nil || got != 11 {
			t.Errorf("world %s after the load: status %v (%v), want 11 (its write kept)", w, got, err)
		}
	}
}

// TestStateFileOfEarlierServerLoads loads testdata/state-v1.json, written
// by the server of commit 47eebaf (before the state's field list was
// derived from the World's and before the history moved with the clock):
// a team's existing --state file still loads, with its changes.
func TestStateFileOfEarlierServerLoads(t *testing.T) {
	e := newEnv(t, Options{})
	loaded, err := e.sim.LoadState(filepath.Join("testdata", "state-v1.json"), 0)
	if err != nil || !loaded {
		t.Fatalf("LoadState(testdata/state-v1.json) = %v, %v; want true, nil", loaded, err)
	}
	if got, err := e.notifyStatus("", false); err != nil || got != 11 {
		t.Errorf("default world: notification status %v (%v), want 11 (marked read before the save)", got, err)
	}
	if got := e.sim.WorldNames(); len(got) != 1 || got[0] != "team-a" {
		t.Errorf("named worlds after load = %v, want [team-a]", got)
	}
	media := "/multimedia/" + e.fx.Records.DeletableMedia[0] + "/downloadlog"
	e.inWorld("team-a", false, "GET", media, "").want(t, http.StatusNotFound)
	e.do("owner", "GET", media, "").want(t, http.StatusOK)
	if got, want := e.sim.Clock(), time.Date(2025, 4, 6, 8, 0, 2, 0, time.UTC); !got.Equal(want) {
		t.Errorf("default world's clock = %s, want the saved %s", got, want)
	}
}

// TestStateFileTooBig: a state file over the limit is refused with its
// size and the limit, before it is read; the world is untouched.
func TestStateFileTooBig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	a := newEnv(t, Options{})
	a.change(t, "")
	if err := a.sim.SaveState(path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	b := newEnv(t, Options{})
	loaded, err := b.sim.LoadState(path, fi.Size()-1)
	if err == nil || loaded || !strings.Contains(err.Error(), fmt.Sprintf("holds %d bytes", fi.Size())) || !strings.Contains(err.Error(), "left as it is") {
		t.Fatalf("LoadState(limit one byte short) = %v, %v; want a refusal with the file's size", loaded, err)
	}
	if got, err := b.notifyStatus("", false); err != nil || got != 10 {
		t.Errorf("after the refusal: status %v (%v), want 10 (seeded)", got, err)
	}
	if loaded, err := b.sim.LoadState(path, fi.Size()); err != nil || !loaded {
		t.Errorf("LoadState(limit the file's size) = %v, %v; want it loaded", loaded, err)
	}
}
