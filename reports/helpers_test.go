package reports

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// written is what write writes of v (a report, a diff); an error fails
// the test.
func written[T any](t testing.TB, write func(io.Writer, T) error, v T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf, v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rendered is written as text.
func rendered[T any](t testing.TB, write func(io.Writer, T) error, v T) string {
	t.Helper()
	return string(written(t, write, v))
}

// schemaError is what sch says of data: nil when it matches. Data that is
// not JSON fails the test.
func schemaError(t testing.TB, sch *jsonschema.Schema, data []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return sch.Validate(inst)
}

// spoiled is the JSON object data with spoil applied to it, for the tests
// that a schema refuses what breaks it.
func spoiled(t testing.TB, data []byte, spoil func(map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	spoil(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
