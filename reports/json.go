package reports

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
)

// ErrVersion is returned (wrapped) when a report or baseline file has a
// schema version this program does not read.
var ErrVersion = errors.New("unsupported version")

//go:embed report.schema.json
var jsonSchema []byte

// JSONSchema returns the JSON Schema (draft 2020-12) of report.json. The
// schema leaves objects open, so a reader on SchemaVersion accepts reports
// with fields added later.
func JSONSchema() []byte { return bytes.Clone(jsonSchema) }

// WriteJSON writes r as indented JSON (report.json). r should be finalized;
// WriteJSON does not change it. HTML-special characters are written as they
// are, not as \u003c escapes, so the file reads like the exchange.
func WriteJSON(w io.Writer, r *Report) error {
	return writeIndentedJSON(w, r, JSONFile)
}

// writeIndentedJSON writes v as indented JSON with HTML-special characters
// as they are; errors name what was written.
func writeIndentedJSON(w io.Writer, v any, what string) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write %s: %w", what, err)
	}
	return nil
}

// ReadJSON reads the report.json at path; see DecodeJSON.
func ReadJSON(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r, err := DecodeJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// schemaReaders are the report schema versions this program reads: every
// version the project has written, each with what brings a report of that
// version to the current model (Schema keeps the version read). A new
// schema version adds its line here (and the older lines learn what
// changed), so that `campusconf diff` and `campusconf baseline` keep
// reading the reports of every earlier release; testdata/schemas holds a
// report of each version, which TestDecodeReadsEveryWrittenSchema reads.
var schemaReaders = map[string]func(*Report) error{
	// the current model: nothing to bring forward
	"campusconf.report/v1": func(*Report) error { return nil },
}

// ReadableSchemas returns the report schema versions DecodeJSON reads,
// sorted.
func ReadableSchemas() []string {
	return slices.Sorted(maps.Keys(schemaReaders))
}

// DecodeJSON reads a report written by WriteJSON of this or an earlier
// release. It refuses a report whose schema is none of ReadableSchemas with
// an error wrapping ErrVersion, and accepts unknown fields, which later
// versions of the same schema may add.
func DecodeJSON(rd io.Reader) (*Report, error) {
	var r Report
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("read report: %w", err)
	}
	upgrade, ok := schemaReaders[r.Schema]
	if !ok {
		return nil, fmt.Errorf("read report: schema: expected one of %s, got %q: %w", strings.Join(ReadableSchemas(), ", "), r.Schema, ErrVersion)
	}
	if err := upgrade(&r); err != nil {
		return nil, fmt.Errorf("read report: schema %s: %w", r.Schema, err)
	}
	return &r, nil
}
