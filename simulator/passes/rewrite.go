package passes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/switches"
)

// statusChanges returns the status changes of the enabled defects that
// apply to op.
func statusChanges(op registry.OpID, in *switches.Defects) []defects.StatusChange {
	var out []defects.StatusChange
	for _, d := range defects.All() {
		if d.Status != nil && d.Status.Op == op && in.Has(d.Name) {
			out = append(out, *d.Status)
		}
	}
	return out
}

// rewrites returns the response rewrites of the enabled defects that apply
// to op.
func rewrites(op registry.OpID, in *switches.Defects) []defects.Rewrite {
	var out []defects.Rewrite
	for _, d := range defects.All() {
		if d.Rewrite == nil || !in.Has(d.Name) {
			continue
		}
		if rw := *d.Rewrite; (rw.Record == "" || rw.Record == registry.Must(op).Record) && (rw.Op == "" || rw.Op == op) {
			out = append(out, rw)
		}
	}
	return out
}

// rewriteBody applies rws to a JSON body: a record, or a list of records.
// Members keep their order; values not edited keep their bytes.
func rewriteBody(body []byte, rws []defects.Rewrite) ([]byte, error) {
	body = bytes.TrimSpace(body)
	for _, rw := range rws {
		var err error
		switch rw.Edit {
		case defects.Envelope:
			body, err = envelope(body)
		case defects.ArrayOfOne:
			body = arrayOfOne(body)
		default:
			body, err = eachRecord(body, func(rec []byte) ([]byte, error) { return rewriteRecord(rec, rw) })
		}
		if err != nil {
			return nil, err
		}
	}
	return append(body, '\n'), nil
}

// envelope wraps a list in {"items": [...], "total": n}; other bodies stay.
func envelope(body []byte) ([]byte, error) {
	if len(body) == 0 || body[0] != '[' {
		return body, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(body, &items); err != nil {
		return nil, err
	}
	return []byte(fmt.Sprintf(`{"items":%s,"total":%d}`, body, len(items))), nil
}

// arrayOfOne sends a record as an array of that one record; other bodies
// stay.
func arrayOfOne(body []byte) []byte {
	if len(body) == 0 || body[0] != '{' {
		return body
	}
	return append(append([]byte{'['}, body...), ']')
}

// eachRecord applies edit to an object, or to each object of an array.
func eachRecord(body []byte, edit func([]byte) ([]byte, error)) ([]byte, error) {
	switch {
	case len(body) > 0 && body[0] == '{':
		return edit(body)
	case len(body) > 0 && body[0] == '[':
		var items []json.RawMessage
		if err := json.Unmarshal(body, &items); err != nil {
			return nil, err
		}
		parts := make([][]byte, len(items))
		for i, it := range items {
			out, err := eachRecord(bytes.TrimSpace(it), edit)
			if err != nil {
				return nil, err
			}
			parts[i] = out
		}
		return append(append([]byte{'['}, bytes.Join(parts, []byte{','})...), ']'), nil
	}
	return body, nil
}

// rewriteRecord applies rw to one record object.
func rewriteRecord(rec []byte, rw defects.Rewrite) ([]byte, error) {
	obj, err := decodeObject(rec)
	if err != nil {
		return nil, err
	}
	if rw.Nested != "" {
		i := obj.index(rw.Nested)
		if i < 0 {
			return rec, nil
		}
		flat := rw
		flat.Nested = ""
		v, err := eachRecord(bytes.TrimSpace(obj[i].value), func(inner []byte) ([]byte, error) { return rewriteRecord(inner, flat) })
		if err != nil {
			return nil, err
		}
		obj[i].value = v
		return obj.encode(), nil
	}
	i := obj.index(rw.Field)
	if i < 0 {
		return rec, nil
	}
	if rw.Edit == defects.Rename {
		obj[i].key = rw.Arg
		return obj.encode(), nil
	}
	v, err := editValue(obj[i].value, rw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rw, err)
	}
	obj[i].value = v
	return obj.encode(), nil
}

// editValue returns the value rw makes of v.
func editValue(v json.RawMessage, rw defects.Rewrite) (json.RawMessage, error) {
	switch rw.Edit {
	case defects.Replace:
		if !json.Valid([]byte(rw.Arg)) {
			return nil, fmt.Errorf("replacement %q is not JSON", rw.Arg)
		}
		return json.RawMessage(rw.Arg), nil
	case defects.Map:
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(rw.Arg), &m); err != nil {
			return nil, err
		}
		if to, ok := m[string(bytes.TrimSpace(v))]; ok {
			return to, nil
		}
		return v, nil
	case defects.Quote:
		return json.Marshal(string(bytes.TrimSpace(v)))
	case defects.Unquote:
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, err
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, err
		}
		return json.RawMessage(strconv.FormatInt(n, 10)), nil
	case defects.DateLayout:
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, err
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return nil, err
		}
		return json.Marshal(t.Format(rw.Arg))
	case defects.Format:
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, err
		}
		return json.Marshal(fmt.Sprintf(rw.Arg, s))
	}
	return nil, fmt.Errorf("edit %d is not a value edit", rw.Edit)
}

// object is a JSON object as its members in order.
type object []member

type member struct {
	key   string
	value json.RawMessage
}

var errNotObject = errors.New("expected a JSON object")

// decodeObject reads a JSON object, keeping the order of its members.
func decodeObject(data []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errNotObject
	}
	var obj object
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := t.(string)
		if !ok {
			return nil, errNotObject
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		obj = append(obj, member{key, v})
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, errNotObject
	}
	return obj, nil
}

func (o object) index(key string) int {
	for i, m := range o {
		if m.key == key {
			return i
		}
	}
	return -1
}

func (o object) encode() []byte {
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(bytes.TrimSpace(m.value))
	}
	b.WriteByte('}')
	return []byte(b.String())
}
