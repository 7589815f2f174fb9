package reports

import (
	"bytes"
	"io"
	"testing"
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
