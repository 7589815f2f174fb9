package simulator

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator/devserver"
	"github.com/campusconf/campusconf/simulator/front"
)

// What the simulator hands the dev-server extras (simulator/devserver),
// and how they reach it. The control API answers only under
// /_sim/TOKEN/, where TOKEN is Options.ControlToken or, when that is
// empty, a random one drawn at New (`campusconf serve --control` prints
// it).

// newControlToken draws a token of 128 random bits.
// NewControlToken draws a random control token, as New does when
// Options.Control is set without Options.ControlToken.
func NewControlToken() string { return newControlToken() }

func newControlToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// CheckControlToken refuses a control token that would not be a safe path
// segment or is too short to resist guessing.
func CheckControlToken(t string) error {
	const allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
	switch {
	case len(t) < 16:
		return fmt.Errorf("control token: expected at least 16 characters, got %d", len(t))
	case strings.Trim(t, allowed) != "":
		return fmt.Errorf("control token: expected only letters, digits, - and _, got other characters")
	}
	return nil
}

// ControlPath returns the base path of the control API, token included
// ("/_sim/TOKEN"), or "" when Options.Control is off. It is the fixture
// file's "control"; treat it as a secret.
func (s *Simulator) ControlPath() string {
	if !s.opts.Control {
		return ""
	}
	return front.ControlPrefix + "/" + s.opts.ControlToken
}

// MaxSnapshotBytes bounds a snapshot sent to PUT /_sim/TOKEN/snapshot.
const MaxSnapshotBytes = devserver.MaxSnapshotBytes

// StopStreams ends the console's open event streams, so a graceful
// shutdown does not wait for them; `campusconf serve` registers it with
// http.Server.RegisterOnShutdown.
func (s *Simulator) StopStreams() { s.events.Close() }

// Traffic returns what the app did since the simulator started (or since
// the record was last cleared): empty unless Options.TrafficReport is set.
func (s *Simulator) Traffic() wire.Traffic { return s.traffic.Snapshot() }

// controlled is a world as the control API drives it
// (devserver.Server): the simulator's own methods, and the three the
// interface names otherwise.
type controlled struct{ *Simulator }

// Seeded is the time a world seeded now is seeded at.
func (c controlled) Seeded() time.Time { return c.clockStart() }

// DecidePush answers the control API's push decision (ops.Env.DecidePush).
func (c controlled) DecidePush(w http.ResponseWriter, r *http.Request) { c.env.DecidePush(w, r) }

// WorldNamed returns this world for "", else the named world (World).
func (c controlled) WorldNamed(name string) (devserver.World, error) {
	if name == "" {
		return c, nil
	}
	sim, err := c.World(name)
	if err != nil {
		return nil, err
	}
	return controlled{sim}, nil
}

// control is the control API's configuration (devserver.Mount).
func (s *Simulator) control() devserver.Config {
	return devserver.Config{Path: s.ControlPath(), Defects: s.defects, Inject: s.inject, Events: s.events,
		Traffic: s.traffic, Report: s.opts.TrafficReport, MaxWorlds: s.opts.MaxWorlds}
}
