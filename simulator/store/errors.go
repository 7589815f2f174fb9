package store

import "errors"

// The kinds of store errors; test with errors.Is.
var (
	ErrNotFound  = errors.New("not found")
	ErrInvalid   = errors.New("invalid")
	ErrForbidden = errors.New("forbidden")
	// ErrUnknownID marks an ErrInvalid error whose cause is an id naming
	// no record: the simulator's choice of 400 where the specification
	// lists no 404 (docs/decisions.md, D-unknown-id).
	ErrUnknownID = errors.New("unknown id")
)

// Error is a store error: a kind and a message for the caller.
type Error struct {
	Kind error
	Msg  string
	// unknownID: see ErrUnknownID.
	unknownID bool
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the kind, so errors.Is(err, ErrNotFound) works.
func (e *Error) Unwrap() error { return e.Kind }

// Is reports an unknown id as ErrUnknownID too.
func (e *Error) Is(target error) bool { return e.unknownID && target == ErrUnknownID }

func notFound(msg string) error  { return &Error{ErrNotFound, msg, false} }
func invalid(msg string) error   { return &Error{ErrInvalid, msg, false} }
func forbidden(msg string) error { return &Error{ErrForbidden, msg, false} }

// unknownID is an invalid request naming a record that does not exist.
func unknownID(msg string) error { return &Error{ErrInvalid, msg, true} }
