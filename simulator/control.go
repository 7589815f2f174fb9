package simulator

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/campusconf/campusconf/simulator/store"
)

// controlPrefix is the reserved path prefix of the control API.
const controlPrefix = "/_sim"

// The control API answers only under controlPrefix/TOKEN/, where TOKEN is
// Options.ControlToken or, when that is empty, a random one drawn at New
// (`campusconf serve --control` prints it). The token is in the path, not
// in a header, because every client reaches the control API through the
// fixture file's "control" base path: `campusconf run` resets a target by
// POST <control>/reset and needs no other setting. A web page cannot
// guess the token, and the guard below refuses pages of other origins
// outright (docs/decisions.md, "The control API").

// newControlToken draws a token of 128 random bits.
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
	return controlPrefix + "/" + s.opts.ControlToken
}

// isControlPath reports whether p is under the control API's prefix.
func isControlPath(p string) bool {
	return p == controlPrefix || strings.HasPrefix(p, controlPrefix+"/")
}

// controlAllowed is the control API's guard: it answers 403 and returns
// false for a request a web page of another origin sent (crossOrigin) and
// for a path without the token. No answer under the prefix carries CORS
// headers.
func (s *Simulator) controlAllowed(w http.ResponseWriter, r *http.Request) bool {
	if msg := crossOrigin(r, false); msg != "" {
		s.fail(w, http.StatusForbidden, "control API: "+msg)
		return false
	}
	want := s.ControlPath() + "/"
	got := r.URL.Path
	if len(got) < len(want) || subtle.ConstantTimeCompare([]byte(got[:len(want)]), []byte(want)) != 1 {
		s.fail(w, http.StatusForbidden, "control API: expected the path "+controlPrefix+"/TOKEN/..., with the token `campusconf serve --control` printed (the fixture's \"control\")")
		return false
	}
	return true
}

// crossOrigin says why r is refused by a page or endpoint that holds or
// reveals credentials (the control API, the self-reset, /docs): it was
// sent by a web page of another origin (an Origin other than the one it
// was sent to, or Sec-Fetch-Site cross-site or same-site). "" when it was
// not. With navigation, a GET that opens a page in the window (a link
// followed from another site) is not refused: the page then runs in its
// own origin, which the other site cannot read, and its CSP keeps it out
// of frames. Clients that are not browsers send neither header.
func crossOrigin(r *http.Request, navigation bool) string {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		if navigation && r.Method == http.MethodGet && r.Header.Get("Sec-Fetch-Mode") == "navigate" && r.Header.Get("Sec-Fetch-Dest") == "document" {
			return ""
		}
		return "refused to a page of another site (Sec-Fetch-Site: " + clip(site) + ")"
	}
	if origin := r.Header.Get("Origin"); origin != "" && !strings.EqualFold(origin, ownOrigin(r)) {
		return fmt.Sprintf("refused to a page of another origin (Origin: %q); it serves its own origin only", clip(origin))
	}
	return ""
}

// ownOrigin is the origin the request was sent to.
func ownOrigin(r *http.Request) string {
	if r.TLS != nil {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}

// controlRoutes adds the control API: reset to seed, decide a push,
// read the fixtures, read and set faults. It needs no credentials beyond
// its token; it is served only with Options.Control.
func (s *Simulator) controlRoutes(mux *routeTable) {
	base := s.ControlPath()
	mux.HandleFunc("POST "+base+"/reset", func(w http.ResponseWriter, r *http.Request) {
		s.Reset()
		noContent(w)
	})
	mux.HandleFunc("POST "+base+"/push/{transactionId}", s.controlPush)
	mux.HandleFunc("GET "+base+"/fixtures", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		writeJSON(w, http.StatusOK, s.Fixtures())
	})
	mux.HandleFunc("GET "+base+"/faults", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.Faults())
	})
	mux.HandleFunc("PUT "+base+"/faults", s.controlFaults)
	mux.HandleFunc("GET "+base+"/clock", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.clockAnswer())
	})
	mux.HandleFunc("PUT "+base+"/clock", s.controlClock)
	mux.HandleFunc("GET "+base+"/settings", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.settingsAnswer())
	})
	mux.HandleFunc("PUT "+base+"/settings", s.controlSettings)
	mux.HandleFunc("GET "+base+"/events", s.controlEvents)
	mux.HandleFunc("GET "+base+"/traffic", func(w http.ResponseWriter, r *http.Request) {
		if s.traffic == nil {
			s.fail(w, http.StatusNotFound, noTrafficRecord)
			return
		}
		writeJSON(w, http.StatusOK, s.Traffic())
	})
	mux.HandleFunc("POST "+base+"/report", s.controlReport)
	mux.HandleFunc("GET "+base+"/ui", s.controlUI)
	mux.HandleFunc("GET "+base+"/snapshot", s.controlSnapshot)
	mux.HandleFunc("PUT "+base+"/snapshot", s.controlRestore)
	mux.HandleFunc("GET "+base+"/worlds", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"max": s.opts.MaxWorlds, "worlds": s.WorldNames()})
	})
	mux.HandleFunc("POST "+base+"/worlds/{name}/reset", func(w http.ResponseWriter, r *http.Request) {
		if _, err := s.ResetWorld(r.PathValue("name")); err != nil {
			s.fail(w, http.StatusBadRequest, err.Error())
			return
		}
		noContent(w)
	})
	mux.HandleFunc("POST "+base+"/worlds/{name}/push/{transactionId}", func(w http.ResponseWriter, r *http.Request) {
		sim, err := s.World(r.PathValue("name"))
		if err != nil {
			s.fail(w, http.StatusBadRequest, err.Error())
			return
		}
		sim.controlPush(w, r)
	})
}

func (s *Simulator) controlPush(w http.ResponseWriter, r *http.Request) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	d := b.str("decision", true)
	if b.err == nil {
		switch store.Decision(*d) {
		case store.Approve, store.Deny, store.Pending:
		default:
			b.check(true, "decision: expected \"approve\", \"deny\" or \"pending\", got %q", *d)
		}
	}
	if b.err != nil {
		s.fail(w, http.StatusBadRequest, b.err.Error())
		return
	}
	if err := s.store.DecidePush(r.PathValue("transactionId"), store.Decision(*d)); err != nil {
		s.failStore(w, err, http.StatusNotFound)
		return
	}
	noContent(w)
}

func (s *Simulator) controlFaults(w http.ResponseWriter, r *http.Request) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	raw, _ := json.Marshal(b.fields)
	var f Faults
	if err := json.Unmarshal(raw, &f); err != nil {
		s.fail(w, http.StatusBadRequest, "faults: expected {\"twoFactorRate\": 0..1, \"operation\": \"E10\", \"operationRate\": 0..1}, got "+err.Error())
		return
	}
	if err := s.SetFaults(f); err != nil {
		s.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, f)
}

// Faults returns the faults in force.
func (s *Simulator) Faults() Faults {
	s.faultMu.Lock()
	defer s.faultMu.Unlock()
	return s.faults
}

// SetFaults replaces the faults in force.
func (s *Simulator) SetFaults(f Faults) error {
	if err := f.Check(); err != nil {
		return err
	}
	s.faultMu.Lock()
	defer s.faultMu.Unlock()
	s.faults = f
	s.faultsOn.Store(f.any())
	return nil
}

// selfResetPath is where a simulator with Options.SelfReset restores its
// seeded world (the fixture's "reset").
const selfResetPath = "/_campusconf/reset"

// selfReset restores the seeded world for a caller holding the
// subscription key and a Super Admin token, sent by a client that is not a
// page of another origin. The interface's own calls need no more: anyone
// who may delete slots with these credentials may as well restore them.
func (s *Simulator) selfReset(w http.ResponseWriter, r *http.Request) {
	if msg := crossOrigin(r, false); msg != "" {
		s.fail(w, http.StatusForbidden, "reset: "+msg)
		return
	}
	if subtle.ConstantTimeCompare([]byte(r.Header.Get("Ocp-Apim-Subscription-Key")), []byte(s.store.SubscriptionKey())) != 1 {
		s.fail(w, s.keyRefusal(), "Ocp-Apim-Subscription-Key: expected the subscription key of this world")
		return
	}
	token, msg := s.userToken(r)
	if msg != "" {
		s.fail(w, http.StatusUnauthorized, msg)
		return
	}
	u, ok := s.store.UserByToken(token)
	if !ok {
		s.fail(w, http.StatusUnauthorized, s.unknownToken())
		return
	}
	if u.Role != store.RoleSuperAdmin {
		s.fail(w, http.StatusForbidden, "reset: the login user is not authorized: the Super Admin role is required")
		return
	}
	s.Reset()
	noContent(w)
}

// controlWorld is the world ?world=NAME names, the default without it.
func (s *Simulator) controlWorld(w http.ResponseWriter, r *http.Request) (*Simulator, bool) {
	name := r.URL.Query().Get("world")
	if name == "" {
		return s, true
	}
	sim, err := s.World(name)
	if err != nil {
		s.fail(w, http.StatusBadRequest, err.Error())
		return nil, false
	}
	return sim, true
}

// controlSnapshot is GET /_sim/TOKEN/snapshot[?world=NAME].
func (s *Simulator) controlSnapshot(w http.ResponseWriter, r *http.Request) {
	sim, ok := s.controlWorld(w, r)
	if !ok {
		return
	}
	data, err := sim.Snapshot()
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "snapshot: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}

// MaxSnapshotBytes bounds a snapshot sent to PUT /_sim/TOKEN/snapshot.
const MaxSnapshotBytes = 256 << 20

// controlRestore is PUT /_sim/TOKEN/snapshot[?world=NAME].
func (s *Simulator) controlRestore(w http.ResponseWriter, r *http.Request) {
	sim, ok := s.controlWorld(w, r)
	if !ok {
		return
	}
	data, ok := s.readRaw(w, r, MaxSnapshotBytes)
	if !ok {
		return
	}
	if err := sim.Restore(data); err != nil {
		s.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	noContent(w)
}
