// Package devserver is what the simulator adds to the interface for the
// people working on a front end against it: the control API under
// /_sim/TOKEN/ (reset, push decisions, fixtures, faults, clock, settings,
// snapshots, named worlds), the console page and its live request log,
// the traffic record of what the app did, the interactive docs at /docs,
// and the formats of a world's snapshot and of a state file. It drives the
// simulator through a small interface (Server); of a world's store it
// reads only the credentials the docs fill in.
package devserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/ops"
	"github.com/campusconf/campusconf/simulator/switches"
	"github.com/campusconf/campusconf/simulator/variants"
)

// The control API answers only under /_sim/TOKEN/, where TOKEN is the
// simulator's Options.ControlToken or, when that is empty, a random one
// drawn when it starts (`campusconf serve --control` prints it). The token
// is in the path, not in a header, because every client reaches the
// control API through the fixture file's "control" base path: `campusconf
// run` resets a target by POST <control>/reset and needs no other setting.
// A web page cannot guess the token, and the entry layer's guard
// (simulator/front) refuses pages of other origins outright
// (docs/decisions.md, "The control API").

// Server is the simulator as the control API drives it: its default world
// and the named worlds.
type Server interface {
	// World is the default world.
	World
	// Fixtures is the fixture file of the default world.
	Fixtures() *fixtures.File
	// Clock is the default world's time, Seeded the time a world seeded
	// now is seeded at; SetClock and ShiftClock move both, in every
	// world.
	Clock() time.Time
	Seeded() time.Time
	SetClock(t time.Time) error
	ShiftClock(d time.Duration) error
	// Settings are the switches in force; ApplySettings replaces those c
	// names, all or none.
	Settings() Settings
	ApplySettings(c SettingsChange) error
	// WorldNames are the named worlds, most recently used first;
	// ResetWorld puts one back in its seeded state.
	WorldNames() []string
	ResetWorld(name string) (bool, error)
	// WorldNamed returns the default world for "", else the named world,
	// made on first use.
	WorldNamed(name string) (World, error)
}

// World is one world as the control API drives it.
type World interface {
	// Reset puts the world back in its seeded state.
	Reset()
	// Snapshot returns the world as JSON; Restore replaces it with one.
	Snapshot() ([]byte, error)
	Restore(data []byte) error
	// DecidePush answers POST push/{transactionId} (ops.Env.DecidePush).
	DecidePush(w http.ResponseWriter, r *http.Request)
}

// Config is what the control API needs besides the Server.
type Config struct {
	// Path is the control API's base path, token included ("/_sim/TOKEN").
	Path string
	// Defects are the defects in force: the form of error answers.
	Defects *switches.Defects
	// Inject holds the faults in force.
	Inject *ops.Injector
	// Events feed the console's live request log.
	Events *Events
	// Traffic is the traffic record, nil when none is kept; Report writes
	// it (the simulator's Options.TrafficReport).
	Traffic *TrafficRecord
	Report  func(wire.Traffic) (string, error)
	// MaxWorlds bounds the named worlds kept at once.
	MaxWorlds int
}

// control is the control API of one server.
type control struct {
	s Server
	Config
}

// Mount adds the control API to t: reset to seed, decide a push, read the
// fixtures, read and set faults, the clock and the settings, the live
// request log, the traffic record, the console, snapshots and named
// worlds. It needs no credentials beyond its token.
func Mount(t *front.RouteTable, s Server, c Config) {
	ctl := &control{s: s, Config: c}
	base := c.Path
	t.HandleFunc("POST "+base+"/reset", func(w http.ResponseWriter, r *http.Request) {
		s.Reset()
		front.NoContent(w)
	})
	t.HandleFunc("POST "+base+"/push/{transactionId}", s.DecidePush)
	t.HandleFunc("GET "+base+"/fixtures", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		front.WriteJSON(w, http.StatusOK, s.Fixtures())
	})
	t.HandleFunc("GET "+base+"/faults", func(w http.ResponseWriter, r *http.Request) {
		front.WriteJSON(w, http.StatusOK, c.Inject.Faults())
	})
	t.HandleFunc("PUT "+base+"/faults", ctl.putFaults)
	t.HandleFunc("GET "+base+"/clock", func(w http.ResponseWriter, r *http.Request) {
		front.WriteJSON(w, http.StatusOK, ctl.clockAnswer())
	})
	t.HandleFunc("PUT "+base+"/clock", ctl.putClock)
	t.HandleFunc("GET "+base+"/settings", func(w http.ResponseWriter, r *http.Request) {
		front.WriteJSON(w, http.StatusOK, ctl.settingsAnswer())
	})
	t.HandleFunc("PUT "+base+"/settings", ctl.putSettings)
	t.HandleFunc("GET "+base+"/events", c.Events.serve)
	t.HandleFunc("GET "+base+"/traffic", func(w http.ResponseWriter, r *http.Request) {
		if c.Traffic == nil {
			ctl.fail(w, http.StatusNotFound, noTrafficRecord)
			return
		}
		front.WriteJSON(w, http.StatusOK, c.Traffic.Snapshot())
	})
	t.HandleFunc("DELETE "+base+"/traffic", func(w http.ResponseWriter, r *http.Request) {
		// the traffic report starts over: its period from now
		if c.Traffic == nil {
			ctl.fail(w, http.StatusNotFound, noTrafficRecord)
			return
		}
		c.Traffic.StartOver()
		front.NoContent(w)
	})
	t.HandleFunc("POST "+base+"/report", ctl.report)
	t.HandleFunc("GET "+base+"/ui", serveConsole)
	t.HandleFunc("GET "+base+"/snapshot", ctl.getSnapshot)
	t.HandleFunc("PUT "+base+"/snapshot", ctl.putSnapshot)
	t.HandleFunc("GET "+base+"/worlds", func(w http.ResponseWriter, r *http.Request) {
		front.WriteJSON(w, http.StatusOK, map[string]any{"max": c.MaxWorlds, "worlds": s.WorldNames()})
	})
	t.HandleFunc("POST "+base+"/worlds/{name}/reset", func(w http.ResponseWriter, r *http.Request) {
		if _, err := s.ResetWorld(r.PathValue("name")); err != nil {
			ctl.fail(w, http.StatusBadRequest, err.Error())
			return
		}
		front.NoContent(w)
	})
	t.HandleFunc("POST "+base+"/worlds/{name}/push/{transactionId}", func(w http.ResponseWriter, r *http.Request) {
		world, err := s.WorldNamed(r.PathValue("name"))
		if err != nil {
			ctl.fail(w, http.StatusBadRequest, err.Error())
			return
		}
		world.DecidePush(w, r)
	})
}

// fail answers an error in the interface's form (front.Fail).
func (ctl *control) fail(w http.ResponseWriter, status int, msg string) {
	front.Fail(w, ctl.Defects, status, msg)
}

// putFaults is PUT /_sim/TOKEN/faults.
func (ctl *control) putFaults(w http.ResponseWriter, r *http.Request) {
	b := front.ReadBody(w, r, ctl.Defects)
	if b == nil {
		return
	}
	var f ops.Faults
	if err := b.DecodeMembers(&f); err != nil {
		ctl.fail(w, http.StatusBadRequest, "faults: expected {\"twoFactorRate\": 0..1, \"operation\": \"E10\", \"operationRate\": 0..1}, got "+err.Error())
		return
	}
	if err := ctl.Inject.SetFaults(f); err != nil {
		ctl.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	front.WriteJSON(w, http.StatusOK, f)
}

// world is the world ?world=NAME names, the default without it.
func (ctl *control) world(w http.ResponseWriter, r *http.Request) (World, bool) {
	world, err := ctl.s.WorldNamed(r.URL.Query().Get("world"))
	if err != nil {
		ctl.fail(w, http.StatusBadRequest, err.Error())
		return nil, false
	}
	return world, true
}

// getSnapshot is GET /_sim/TOKEN/snapshot[?world=NAME].
func (ctl *control) getSnapshot(w http.ResponseWriter, r *http.Request) {
	world, ok := ctl.world(w, r)
	if !ok {
		return
	}
	data, err := world.Snapshot()
	if err != nil {
		ctl.fail(w, http.StatusInternalServerError, "snapshot: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}

// MaxSnapshotBytes bounds a snapshot sent to PUT /_sim/TOKEN/snapshot.
const MaxSnapshotBytes = 256 << 20

// putSnapshot is PUT /_sim/TOKEN/snapshot[?world=NAME].
func (ctl *control) putSnapshot(w http.ResponseWriter, r *http.Request) {
	world, ok := ctl.world(w, r)
	if !ok {
		return
	}
	data, ok := ctl.readRaw(w, r, MaxSnapshotBytes)
	if !ok {
		return
	}
	if err := world.Restore(data); err != nil {
		ctl.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	front.NoContent(w)
}

// clockAnswer is what GET and PUT /_sim/TOKEN/clock answer.
type clockAnswer struct {
	// Clock is the default world's current time.
	Clock time.Time `json:"clock"`
	// Seeded is the time a world seeded now is seeded at.
	Seeded time.Time `json:"seeded"`
}

func (ctl *control) clockAnswer() clockAnswer {
	return clockAnswer{Clock: ctl.s.Clock(), Seeded: ctl.s.Seeded()}
}

// putClock is PUT /_sim/TOKEN/clock: a JSON string date-time sets the
// clock, {"shift": "48h"} moves it by a Go duration (negative moves it
// back).
func (ctl *control) putClock(w http.ResponseWriter, r *http.Request) {
	const want = `expected a JSON string date-time such as "2024-03-01T09:00:00Z" or {"shift": "48h"}`
	raw, ok := ctl.readRaw(w, r, front.MaxBodyBytes)
	if !ok {
		return
	}
	var at string
	var shift struct {
		Shift *string `json:"shift"`
	}
	switch {
	case json.Unmarshal(raw, &at) == nil:
		t, err := time.Parse(time.RFC3339, at)
		if err != nil {
			ctl.fail(w, http.StatusBadRequest, fmt.Sprintf("clock: %s, got %q", want, front.Clip(at)))
			return
		}
		if err := ctl.s.SetClock(t); err != nil {
			ctl.fail(w, http.StatusBadRequest, err.Error())
			return
		}
	case json.Unmarshal(raw, &shift) == nil && shift.Shift != nil:
		d, err := time.ParseDuration(*shift.Shift)
		if err != nil {
			ctl.fail(w, http.StatusBadRequest, fmt.Sprintf("clock: shift: expected a duration such as 48h or -30m, got %q", front.Clip(*shift.Shift)))
			return
		}
		if err := ctl.s.ShiftClock(d); err != nil {
			ctl.fail(w, http.StatusBadRequest, err.Error())
			return
		}
	default:
		ctl.fail(w, http.StatusBadRequest, "clock: "+want)
		return
	}
	front.WriteJSON(w, http.StatusOK, ctl.clockAnswer())
}

// Settings are the switches of a running simulator: latency, faults,
// defects and variants. They are the server's: every world follows them.
// GET /_sim/TOKEN/settings reads them with the catalogues of what can be
// switched; PUT replaces the ones it names and takes effect from the next
// request, without a restart. The simulator's Options set them at start.
type Settings struct {
	Latency  string     `json:"latency"`
	Faults   ops.Faults `json:"faults"`
	Defects  []string   `json:"defects"`
	Variants []string   `json:"variants"`
}

// SettingsChange is a PUT body: absent fields are kept.
type SettingsChange struct {
	Latency  *string     `json:"latency"`
	Faults   *ops.Faults `json:"faults"`
	Defects  *[]string   `json:"defects"`
	Variants *[]string   `json:"variants"`
}

// settingsAnswer is GET /_sim/TOKEN/settings.
type settingsAnswer struct {
	Settings
	// The catalogues: what can be switched.
	Operations  []string         `json:"operations"`
	AllDefects  []catalogueEntry `json:"allDefects"`
	AllVariants []catalogueEntry `json:"allVariants"`
}

type catalogueEntry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

func (ctl *control) settingsAnswer() settingsAnswer {
	a := settingsAnswer{Settings: ctl.s.Settings(), Operations: registry.Strings(registry.IDs())}
	for _, d := range defects.All() {
		a.AllDefects = append(a.AllDefects, catalogueEntry{string(d.Name), d.Description})
	}
	for _, v := range variants.All() {
		a.AllVariants = append(a.AllVariants, catalogueEntry{string(v.Name), v.Description})
	}
	return a
}

// putSettings is PUT /_sim/TOKEN/settings.
func (ctl *control) putSettings(w http.ResponseWriter, r *http.Request) {
	raw, ok := ctl.readRaw(w, r, front.MaxBodyBytes)
	if !ok {
		return
	}
	var c SettingsChange
	if err := strictDecode(raw, &c); err != nil {
		ctl.fail(w, http.StatusBadRequest, fmt.Sprintf(`settings: expected {"latency": "50ms", "faults": {...}, "defects": [...], "variants": [...]} (each optional), got: %v`, err))
		return
	}
	if err := ctl.s.ApplySettings(c); err != nil {
		ctl.fail(w, http.StatusBadRequest, "settings: "+err.Error())
		return
	}
	front.WriteJSON(w, http.StatusOK, ctl.settingsAnswer())
}

// noTrafficRecord is the control API's answer when no traffic is recorded.
const noTrafficRecord = "no traffic record: start the simulator with --report-dir"

// report is POST /_sim/TOKEN/report: the traffic report written now, by
// Config.Report.
func (ctl *control) report(w http.ResponseWriter, r *http.Request) {
	if ctl.Report == nil {
		ctl.fail(w, http.StatusNotFound, noTrafficRecord)
		return
	}
	where, err := ctl.Report(ctl.Traffic.Snapshot())
	if err != nil {
		ctl.fail(w, http.StatusInternalServerError, "traffic report: "+err.Error())
		return
	}
	front.WriteJSON(w, http.StatusOK, map[string]string{"written": where})
}

// readRaw reads a control API body of at most limit bytes.
func (ctl *control) readRaw(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, bool) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			ctl.fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body: expected at most %d bytes", limit))
			return nil, false
		}
		ctl.fail(w, http.StatusBadRequest, "request body: "+err.Error())
		return nil, false
	}
	return data, true
}
