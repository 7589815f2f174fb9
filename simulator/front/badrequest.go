package front

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/switches"
)

// Kinds of bad request that a defect answers with another status. The
// decoder classifies its errors with them; BadRequest is the one place
// that turns an error into a status.
var (
	errMalformedJSON = errors.New("malformed JSON")
	errMissingField  = errors.New("the field is required")
	errMalformedUUID = errors.New("malformed uuid")
)

// kindError is a message for the caller and its kind, which errors.Is
// finds (errors.Is(err, errMalformedJSON)).
type kindError struct {
	error
	kind error
}

func (e kindError) Unwrap() []error { return []error{e.error, e.kind} }

// classify returns an error of kind whose message is the formatted text.
func classify(kind error, format string, args ...any) error {
	return kindError{fmt.Errorf(format, args...), kind}
}

// BadRequest answers a request the simulator cannot accept: 400, or what
// a defect in force (d) answers for the kind of problem instead.
func BadRequest(w http.ResponseWriter, d *switches.Defects, err error) {
	status := http.StatusBadRequest
	switch {
	case errors.Is(err, errMalformedJSON) && d.Has(defects.MalformedJSON500):
		status = http.StatusInternalServerError
	case errors.Is(err, errMissingField) && d.Has(defects.MissingField422):
		status = http.StatusUnprocessableEntity
	case errors.Is(err, errMalformedUUID) && d.Has(defects.MalformedUUID404):
		status = http.StatusNotFound
	}
	Fail(w, d, status, err.Error())
}
