package simulator

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// Kinds of bad request that a defect answers with another status. The
// decoder classifies its errors with them; badRequest is the one place
// that turns an error into a status.
var (
	errMalformedJSON = errors.New("malformed JSON")
	errMissingField  = errors.New("the field is required")
	errMalformedUUID = errors.New("malformed uuid")
)

// classify returns an error of kind whose message is the formatted text:
// the store's error type (a kind, errors.Is finds, and a message for the
// caller), with the decoder's kinds.
func classify(kind error, format string, args ...any) error {
	return &store.Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// badRequest answers a request the simulator cannot accept: 400, or what a
// defect answers for the kind of problem instead.
func (s *Simulator) badRequest(w http.ResponseWriter, err error) {
	status := http.StatusBadRequest
	switch {
	case errors.Is(err, errMalformedJSON) && s.defects.Has(defects.MalformedJSON500):
		status = http.StatusInternalServerError
	case errors.Is(err, errMissingField) && s.defects.Has(defects.MissingField422):
		status = http.StatusUnprocessableEntity
	case errors.Is(err, errMalformedUUID) && s.defects.Has(defects.MalformedUUID404):
		status = http.StatusNotFound
	}
	s.fail(w, status, err.Error())
}

// populates are the populate entities an operation accepts: none with
// the named defect, which leaves populate unimplemented.
func (s *Simulator) populates(defect defects.Name, accepted ...string) []string {
	if s.defects.Has(defect) {
		return nil
	}
	return accepted
}
