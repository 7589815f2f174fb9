package front

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/campusconf/campusconf/internal/uuid"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/switches"
)

// MaxBodyBytes is the largest request body accepted; larger bodies get 413.
const MaxBodyBytes = 1 << 20

// Body is a decoded JSON object request body. Fields are looked up by their
// exact (case-sensitive) names; unknown fields are ignored. The field
// readers record the first problem (Err) and return the zero value.
type Body struct {
	fields map[string]json.RawMessage
	err    error
	// prefix names the body inside an outer one, e.g. "iD_Weightage[2].".
	prefix string
	// anyCase matches member names ignoring case: the
	// body-members-any-case defect.
	anyCase bool
}

// ReadBody reads a JSON object body, answering 415, 413 or 400 itself
// when it cannot (then it returns nil), as the defects in force d bend
// the media types and member names a body may have.
func ReadBody(w http.ResponseWriter, r *http.Request, d *switches.Defects) *Body {
	ct := HeaderValue(r.Header, "Content-Type")
	if ct == "" && d.Has(defects.ContentTypeNeeded) {
		Fail(w, d, http.StatusUnsupportedMediaType, "Content-Type: expected application/json-patch+json or application/json, got none")
		return nil
	}
	if strings.Contains(ct, ";") && d.Has(defects.MediaParamRefused) {
		Fail(w, d, http.StatusUnsupportedMediaType, fmt.Sprintf("Content-Type: expected application/json-patch+json or application/json without parameters, got %q", ct))
		return nil
	}
	// the common case, plain application/json, needs no parsing
	if ct != "" && ct != "application/json" {
		mt, _, err := mime.ParseMediaType(ct)
		refused := mt == "application/json-patch+json" && d.Has(defects.JSONPatchRefused)
		if err != nil || (mt != "application/json" && mt != "application/json-patch+json") || refused {
			Fail(w, d, http.StatusUnsupportedMediaType, fmt.Sprintf("Content-Type: expected application/json-patch+json or application/json, got %q", ct))
			return nil
		}
	}
	data, err := readAll(w, r)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			Fail(w, d, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body: expected at most %d bytes", MaxBodyBytes))
			return nil
		}
		Fail(w, d, http.StatusBadRequest, "request body: "+err.Error())
		return nil
	}
	if d.Has(defects.UUIDUpperRefused) && UpperUUID(data) {
		Fail(w, d, http.StatusBadRequest, "request body: expected uuids in lower case")
		return nil
	}
	b, err := parseBody(data)
	if err != nil {
		BadRequest(w, d, err)
		return nil
	}
	b.anyCase = d.Has(defects.BodyMembersAnyCase)
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

func parseBody(data []byte) (*Body, error) {
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
				return nil, fmt.Errorf("request body: expected each member name once per object, got %q twice in %s", Clip(name), at)
			}
			return &Body{fields: fields}, nil
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
		return nil, fmt.Errorf("request body: expected each member name once per object, got %q twice in %s", Clip(name), at)
	}
	return &Body{fields: fields}, nil
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
		return "a string " + Clip(string(t))
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "the number " + Clip(string(t))
}

// Clip shortens s to 60 bytes at most, for a message that quotes what a
// client sent.
func Clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// Err is the first problem the field readers met, nil when none.
func (b *Body) Err() error { return b.err }

// Sent reports whether the body holds a member of exactly this name, null
// included.
func (b *Body) Sent(name string) bool {
	_, ok := b.fields[name]
	return ok
}

// DecodeMembers decodes the body's members into v, as encoding/json
// decodes the object they make.
func (b *Body) DecodeMembers(v any) error {
	raw, _ := json.Marshal(b.fields)
	return json.Unmarshal(raw, v)
}

// Get returns the raw value of a field, or nil when it is absent or null.
// A required field that is missing is recorded as an error.
func (b *Body) Get(name string, required bool) json.RawMessage {
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
func (b *Body) decode(name string, raw json.RawMessage, dst any, want string) bool {
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
func field[T any](b *Body, name string, required bool, want string) *T {
	raw := b.Get(name, required)
	var v T
	if raw == nil || !b.decode(name, raw, &v, want) {
		return nil
	}
	return &v
}

// Str reads the string field name: nil when it is absent or not a
// string, Err then saying why if it was required or malformed.
func (b *Body) Str(name string, required bool) *string {
	return field[string](b, name, required, "a string")
}

// Bool reads the boolean field name, as Str reads a string.
func (b *Body) Bool(name string, required bool) *bool {
	return field[bool](b, name, required, "a boolean")
}

// Int32 reads the int32 field name, as Str reads a string.
func (b *Body) Int32(name string, required bool) *int32 {
	return field[int32](b, name, required, "an int32 integer")
}

// Int64 reads the int64 field name, as Str reads a string.
func (b *Body) Int64(name string, required bool) *int64 {
	return field[int64](b, name, required, "an int64 integer")
}

// Number reads the number field name, as Str reads a string.
func (b *Body) Number(name string, required bool) *float64 {
	return field[float64](b, name, required, "a number")
}

// UUID reads the uuid string field name, in lower case; a malformed one
// is a problem of its own kind (the malformed-uuid-404 defect answers it
// 404).
func (b *Body) UUID(name string, required bool) *string {
	return parsed(b, name, required, parseUUID)
}

// parsed reads the string field name of b and parses it with parse, which
// names the field in its error: nil when it is absent, not a string or
// refused by parse.
func parsed[T any](b *Body, name string, required bool, parse func(field, s string) (T, error)) *T {
	p := b.Str(name, required)
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

// UUIDs reads the field name, an array of uuid strings, each in lower
// case.
func (b *Body) UUIDs(name string, required bool) []string {
	raw := b.Get(name, required)
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

// DateTime reads the RFC 3339 date-time field name, in UTC.
func (b *Body) DateTime(name string, required bool) *time.Time {
	return parsed(b, name, required, ParseDateTime)
}

// Objects reads an array of JSON objects, each as a body of its own whose
// messages name its place. Problems of the elements are the caller's to
// collect with b.Take.
func (b *Body) Objects(name string, required bool) []*Body {
	raw := b.Get(name, required)
	var elems []json.RawMessage
	if raw == nil || !b.decode(name, raw, &elems, "an array of objects") {
		return nil
	}
	out := make([]*Body, len(elems))
	for i, e := range elems {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(e, &fields); err != nil || fields == nil {
			b.err = fmt.Errorf("%s%s[%d]: expected an object, got %s", b.prefix, name, i, kind(e))
			return nil
		}
		out[i] = &Body{fields: fields, prefix: fmt.Sprintf("%s%s[%d].", b.prefix, name, i), anyCase: b.anyCase}
	}
	return out
}

// Take records the first problem of an element body.
func (b *Body) Take(elem *Body) {
	if b.err == nil && elem.err != nil {
		b.err = elem.err
	}
}

// Check records a rule violation when bad.
func (b *Body) Check(bad bool, format string, args ...any) {
	if b.err == nil && bad {
		b.err = fmt.Errorf(b.prefix+format, args...)
	}
}

// parseUUID checks the canonical 8-4-4-4-12 hex form and returns it in
// lower case; the error names the parameter or member.
func parseUUID(name, s string) (string, error) {
	id, err := uuid.Parse(s)
	if err != nil {
		return "", classify(errMalformedUUID, "%s: expected a uuid (8-4-4-4-12 hexadecimal digits), got %q", name, Clip(s))
	}
	return id, nil
}

// upperUUID matches a uuid with an upper-case hexadecimal digit.
var upperUUID = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

// UpperUUID reports whether text holds a uuid written with an upper-case
// hexadecimal digit (the uuid-upper-refused defect refuses it).
func UpperUUID(text []byte) bool {
	for _, m := range upperUUID.FindAll(text, -1) {
		if bytes.ContainsAny(m, "ABCDEF") {
			return true
		}
	}
	return false
}

// ParseDateTime reads an RFC 3339 date-time, in UTC; the error names the
// parameter or member. Its T and Z may be written in lower case, as RFC
// 3339 allows (section 5.6, note), which time.Parse does not read.
func ParseDateTime(name, s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s))
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: expected an RFC 3339 date-time such as 2025-01-06T08:00:00Z, got %q", name, Clip(s))
	}
	return t.UTC(), nil
}

// PathUUID reads the uuid path parameter name (PathValue), in lower
// case.
func PathUUID(r *http.Request, name string) (string, error) {
	return parseUUID(name, r.PathValue(name))
}

// HeaderValue is h.Get(key) for a key written in canonical form: the map
// is read directly, without canonicalising the key again on every request
// (net/http stores a request's headers under canonical keys).
func HeaderValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
