package store

import "errors"

// The kinds of store errors; test with errors.Is.
var (
	ErrNotFound  = errors.New("not found")
	ErrInvalid   = errors.New("invalid")
	ErrForbidden = errors.New("forbidden")
)

// Error is a store error: a kind and a message for the caller.
type Error struct {
	Kind error
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the kind, so errors.Is(err, ErrNotFound) works.
func (e *Error) Unwrap() error { return e.Kind }

func notFound(msg string) error  { return &Error{ErrNotFound, msg} }
func invalid(msg string) error   { return &Error{ErrInvalid, msg} }
func forbidden(msg string) error { return &Error{ErrForbidden, msg} }
