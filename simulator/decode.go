package simulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/campusconf/campusconf/internal/uuid"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/listing"
)

// MaxBodyBytes is the largest request body accepted; larger bodies get 413.
const MaxBodyBytes = 1 << 20

// body is a decoded JSON object request body. Fields are looked up by their
// exact (case-sensitive) names; unknown fields are ignored. The field
// readers record the first problem in err and return the zero value.
type body struct {
	fields map[string]json.RawMessage
	err    error
	// prefix names the body inside an outer one, e.g. "iD_Weightage[2].".
	prefix string
	// anyCase matches member names ignoring case: the
	// body-members-any-case defect.
	anyCase bool
}

// readBody reads a JSON object body, answering 415, 413 or 400 itself when
// it cannot (then it returns nil).
func (s *Simulator) readBody(w http.ResponseWriter, r *http.Request) *body {
	ct := headerValue(r.Header, "Content-Type")
	if ct == "" && s.defects.Has(defects.ContentTypeNeeded) {
		s.fail(w, http.StatusUnsupportedMediaType, "Content-Type: expected application/json-patch+json or application/json, got none")
		return nil
	}
	// the common case, plain application/json, needs no parsing
	if ct != "" && ct != "application/json" {
		mt, _, err := mime.ParseMediaType(ct)
		refused := mt == "application/json-patch+json" && s.defects.Has(defects.JSONPatchRefused)
		if err != nil || (mt != "application/json" && mt != "application/json-patch+json") || refused {
			s.fail(w, http.StatusUnsupportedMediaType, fmt.Sprintf("Content-Type: expected application/json-patch+json or application/json, got %q", ct))
			return nil
		}
	}
	data, err := readAll(w, r)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			s.fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body: expected at most %d bytes", MaxBodyBytes))
			return nil
		}
		s.fail(w, http.StatusBadRequest, "request body: "+err.Error())
		return nil
	}
	b, err := parseBody(data)
	if err != nil {
		s.badRequest(w, err)
		return nil
	}
	b.anyCase = s.defects.Has(defects.BodyMembersAnyCase)
	return b
}

// readAll reads the body, at most MaxBodyBytes, as io.ReadAll does, but
// into a buffer of the body's declared length (and one byte for the read
// that meets its end) rather than growing one from 512 bytes.
func readAll(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	size := 512
	if n := r.ContentLength; n > 0 && n < MaxBodyBytes {
		size = int(n) + 1
	}
	b := make([]byte, 0, size)
	for {
		m, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

func parseBody(data []byte) (*body, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("request body: expected a JSON object, got an empty body")
	}
	// encoding/json would read invalid UTF-8 as U+FFFD, so a mangled
	// field name would be ignored and the rest of the body applied.
	if !utf8.Valid(data) {
		return nil, errors.New("request body: expected UTF-8 text (RFC 8259), got invalid UTF-8")
	}
	if json.Valid(data) {
		if fields, ok := splitObject(data); ok {
			if at, name, dup := duplicateKey(data); dup {
				return nil, fmt.Errorf("request body: expected each member name once per object, got %q twice in %s", clip(name), at)
			}
			return &body{fields: fields}, nil
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, classify(errMalformedJSON, "request body: expected JSON, got malformed JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, classify(errMalformedJSON, "request body: expected one JSON value, got data after it")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("request body: expected a JSON object, got %s", kind(raw))
	}
	// encoding/json keeps the last of repeated names, so {"publish":
	// false, "publish": true} would be read one way here and perhaps the
	// other way by a proxy or a log reader: refuse the ambiguity.
	if at, name, ok := duplicateKey(raw); ok {
		return nil, fmt.Errorf("request body: expected each member name once per object, got %q twice in %s", clip(name), at)
	}
	return &body{fields: fields}, nil
}

// kind names the JSON type of a value, for messages.
func kind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string " + clip(string(t))
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "the number " + clip(string(t))
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// get returns the raw value of a field, or nil when it is absent or null.
// A required field that is missing is recorded as an error.
func (b *body) get(name string, required bool) json.RawMessage {
	if b.err != nil {
		return nil
	}
	raw, ok := b.fields[name]
	if !ok && b.anyCase {
		for k, v := range b.fields {
			if strings.EqualFold(k, name) {
				raw, ok = v, true
				break
			}
		}
	}
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		if required {
			b.err = fmt.Errorf("%s%s: expected a value, %w", b.prefix, name, errMissingField)
		}
		return nil
	}
	return raw
}

// decode decodes a field into dst, recording a typed message on failure.
// Plain strings (no escape) and booleans, most of what bodies hold, are
// read without reflection; everything else goes through encoding/json.
func (b *body) decode(name string, raw json.RawMessage, dst any, want string) bool {
	switch d := dst.(type) {
	case *string:
		if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' && bytes.IndexByte(raw[1:n-1], '\\') < 0 && bytes.IndexByte(raw[1:n-1], '"') < 0 {
			*d = string(raw[1 : n-1])
			return true
		}
	case *bool:
		switch string(raw) {
		case "true":
			*d = true
			return true
		case "false":
			*d = false
			return true
		}
	case *int64:
		if n, ok := plainInt(raw, 64); ok {
			*d = n
			return true
		}
	case *int32:
		if n, ok := plainInt(raw, 32); ok {
			*d = int32(n)
			return true
		}
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		b.err = fmt.Errorf("%s%s: expected %s, got %s", b.prefix, name, want, kind(raw))
		return false
	}
	return true
}

// plainInt reads raw when it is a plain JSON integer ("-"? digits) that
// fits in a signed integer of bits bits, as json.Unmarshal would; false
// for anything else (an exponent, a fraction, an overflow), which is left
// to json.Unmarshal and its error.
func plainInt(raw []byte, bits uint) (int64, bool) {
	neg := len(raw) > 0 && raw[0] == '-'
	digits := raw
	if neg {
		digits = raw[1:]
	}
	if len(digits) == 0 || len(digits) > 19 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	var n uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0') // 19 digits cannot overflow a uint64
	}
	limit := uint64(1) << (bits - 1) // the magnitude of the smallest value
	if neg {
		if n > limit {
			return 0, false
		}
		return -int64(n-1) - 1, true
	}
	if n >= limit {
		return 0, false
	}
	return int64(n), true
}

// field reads the field name of b as a T (want names the type in the
// error): nil when it is absent or not a T, b.err then saying why if it
// was required or malformed.
func field[T any](b *body, name string, required bool, want string) *T {
	raw := b.get(name, required)
	var v T
	if raw == nil || !b.decode(name, raw, &v, want) {
		return nil
	}
	return &v
}

func (b *body) str(name string, required bool) *string {
	return field[string](b, name, required, "a string")
}

func (b *body) boolean(name string, required bool) *bool {
	return field[bool](b, name, required, "a boolean")
}

func (b *body) int32(name string, required bool) *int32 {
	return field[int32](b, name, required, "an int32 integer")
}

func (b *body) int64(name string, required bool) *int64 {
	return field[int64](b, name, required, "an int64 integer")
}

func (b *body) number(name string, required bool) *float64 {
	return field[float64](b, name, required, "a number")
}

//nolint:unparam // a field's name and whether it is required are the operation's facts, stated by the handler like those of the other fields
func (b *body) uuid(name string, required bool) *string {
	return parsed(b, name, required, parseUUID)
}

// parsed reads the string field name of b and parses it with parse, which
// names the field in its error: nil when it is absent, not a string or
// refused by parse.
func parsed[T any](b *body, name string, required bool, parse func(field, s string) (T, error)) *T {
	p := b.str(name, required)
	if p == nil {
		return nil
	}
	v, err := parse(b.prefix+name, *p)
	if err != nil {
		b.err = err
		return nil
	}
	return &v
}

//nolint:unparam // as for uuid
func (b *body) uuids(name string, required bool) []string {
	raw := b.get(name, required)
	var v []string
	if raw == nil || !b.decode(name, raw, &v, "an array of uuid strings") {
		return nil
	}
	for i, s := range v {
		id, err := parseUUID(fmt.Sprintf("%s%s[%d]", b.prefix, name, i), s)
		if err != nil {
			b.err = err
			return nil
		}
		v[i] = id
	}
	return v
}

func (b *body) dateTime(name string, required bool) *time.Time {
	return parsed(b, name, required, parseDateTime)
}

// objects reads an array of JSON objects, each as a body of its own whose
// messages name its place. Problems of the elements are the caller's to
// collect with b.take.
func (b *body) objects(name string, required bool) []*body {
	raw := b.get(name, required)
	var elems []json.RawMessage
	if raw == nil || !b.decode(name, raw, &elems, "an array of objects") {
		return nil
	}
	out := make([]*body, len(elems))
	for i, e := range elems {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(e, &fields); err != nil || fields == nil {
			b.err = fmt.Errorf("%s%s[%d]: expected an object, got %s", b.prefix, name, i, kind(e))
			return nil
		}
		out[i] = &body{fields: fields, prefix: fmt.Sprintf("%s%s[%d].", b.prefix, name, i), anyCase: b.anyCase}
	}
	return out
}

// take records the first problem of an element body.
func (b *body) take(elem *body) {
	if b.err == nil && elem.err != nil {
		b.err = elem.err
	}
}

// check records a rule violation when bad.
func (b *body) check(bad bool, format string, args ...any) {
	if b.err == nil && bad {
		b.err = fmt.Errorf(b.prefix+format, args...)
	}
}

// parseUUID checks the canonical 8-4-4-4-12 hex form and returns it in
// lower case; the error names the parameter or member.
func parseUUID(name, s string) (string, error) {
	id, err := uuid.Parse(s)
	if err != nil {
		return "", classify(errMalformedUUID, "%s: expected a uuid (8-4-4-4-12 hexadecimal digits), got %q", name, clip(s))
	}
	return id, nil
}

// parseDateTime reads an RFC 3339 date-time.
func parseDateTime(name, s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: expected an RFC 3339 date-time such as 2025-01-06T08:00:00Z, got %q", name, clip(s))
	}
	return t.UTC(), nil
}

// pathID reads a uuid path parameter.
func pathID(r *http.Request, name string) (string, error) {
	return parseUUID(name, pathValue(r, name))
}

// pathAndBody reads a path id and a JSON object body; b is nil once the
// request was answered (a malformed id, or what readBody refuses).
func (s *Simulator) pathAndBody(w http.ResponseWriter, r *http.Request, name string) (id string, b *body) {
	id, ok := s.pathParam(w, r, name)
	if !ok {
		return "", nil
	}
	return id, s.readBody(w, r)
}

// idsBody reads a body that names records by a list of uuids, iDs (E5,
// E14); ok is false once the request was answered 400.
func (s *Simulator) idsBody(w http.ResponseWriter, r *http.Request) (ids []string, ok bool) {
	b := s.readBody(w, r)
	if b == nil {
		return nil, false
	}
	ids = b.uuids("iDs", false)
	if b.err != nil {
		s.badRequest(w, b.err)
		return nil, false
	}
	return ids, true
}

// pathParam is pathID for a handler: a malformed id is answered 400 here,
// and ok is false.
func (s *Simulator) pathParam(w http.ResponseWriter, r *http.Request, name string) (id string, ok bool) {
	id, err := pathID(r, name)
	if err != nil {
		s.badRequest(w, err)
		return "", false
	}
	return id, true
}

// populateIn reads the populate query parameter: comma-separated entities,
// each one of accepted (case-insensitive unless exact). It returns the set
// named. The checkers read the accepted entities from the OpenAPI document
// (internal/rules.AcceptedValues); the simulator lists them in its handlers
// on purpose, as the reference implementation they are tested against.
//
// Without populate the set is nil, read as empty: most requests name no
// entity, and an empty map was an allocation each.
func populateIn(q listing.RawQuery, exact bool, accepted ...string) (map[string]bool, error) {
	v := q.Get("populate")
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	out := map[string]bool{}
	for _, e := range strings.Split(v, ",") {
		e = strings.TrimSpace(e)
		found := false
		for _, a := range accepted {
			if e == a || !exact && strings.EqualFold(e, a) {
				out[a] = true
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("populate: expected one or more of %s, got %q", strings.Join(accepted, ", "), e)
		}
	}
	return out, nil
}

// queryDateTime reads an optional RFC 3339 query parameter.
func queryDateTime(q listing.RawQuery, name string) (time.Time, error) {
	v := q.Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	return parseDateTime(name, v)
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
