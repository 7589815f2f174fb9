package simulator

import (
	"encoding/json"
	"net/http"

	"github.com/campusconf/campusconf/simulator/store"
)

// controlPrefix is the reserved path prefix of the control API.
const controlPrefix = "/_sim"

// controlRoutes adds the control API: reset to seed, decide a push,
// read the fixtures, read and set faults. It needs no credentials; it is
// served only with Options.Control.
func (s *Simulator) controlRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST "+controlPrefix+"/reset", func(w http.ResponseWriter, r *http.Request) {
		s.Reset()
		noContent(w)
	})
	mux.HandleFunc("POST "+controlPrefix+"/push/{transactionId}", s.controlPush)
	mux.HandleFunc("GET "+controlPrefix+"/fixtures", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.Fixtures())
	})
	mux.HandleFunc("GET "+controlPrefix+"/faults", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.Faults())
	})
	mux.HandleFunc("PUT "+controlPrefix+"/faults", s.controlFaults)
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
	return nil
}
