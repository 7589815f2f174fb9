package reports

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
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
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write report.json: %w", err)
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

// DecodeJSON reads a report written by WriteJSON. It refuses a report whose
// schema is not SchemaVersion with an error wrapping ErrVersion, and accepts
// unknown fields, which later versions of the same schema may add.
func DecodeJSON(rd io.Reader) (*Report, error) {
	var r Report
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("read report: %w", err)
	}
	if r.Schema != SchemaVersion {
		return nil, fmt.Errorf("read report: schema: expected %q, got %q: %w", SchemaVersion, r.Schema, ErrVersion)
	}
	return &r, nil
}
