package reports

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
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

// ReadJSON reads the report.json at path, of at most DefaultMaxReport
// bytes; see ReadJSONWithin and DecodeJSON.
func ReadJSON(path string) (*Report, error) { return ReadJSONWithin(path, DefaultMaxReport, "") }

// ReadJSONWithin reads the report.json at path when it has at most max
// bytes, and refuses a larger one unread (an error wrapping ErrTooLarge
// that names raise, the flag raising the bound, when it is not ""); see
// DecodeJSON.
func ReadJSONWithin(path string, max int64, raise string) (*Report, error) {
	data, err := readBounded(path, max, raise)
	if err != nil {
		return nil, err
	}
	r, err := DecodeJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// ErrIncomplete is wrapped by DecodeJSON's error for a report that lacks
// what every report this project writes holds (its scenarios, counts or
// requirements), or whose counts are not those of its scenarios: the diff
// and the baseline would read nothing there as "nothing failed".
var ErrIncomplete = errors.New("incomplete report")

// complete checks that r holds its scenarios, requirements and counts
// (counts, present, tells an absent counts object apart from one of
// zeros), and that the counts are those of its scenarios.
func complete(r *Report, counts *Counts) error {
	var missing []string
	if r.Scenarios == nil {
		missing = append(missing, "scenarios")
	}
	if r.Requirements == nil {
		missing = append(missing, "requirements")
	}
	if counts == nil {
		missing = append(missing, "counts")
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: expected %s, as every report holds, got none (a report.json written by campusconf run or proxy)", ErrIncomplete, strings.Join(missing, ", "))
	}
	var got Counts
	for _, s := range r.Scenarios {
		switch s.Outcome {
		case Passed:
			got.Passed++
		case Failed:
			got.Failed++
		case Skipped:
			got.Skipped++
		case NotConfigured:
			got.NotConfigured++
		case Unsupported:
			got.Unsupported++
		case Error:
			got.Errored++
		default:
			return fmt.Errorf("%w: scenario %q: outcome %q is not one of %v", ErrIncomplete, clipString(s.ID), clipString(string(s.Outcome)), Outcomes)
		}
	}
	c := *counts
	if c.Scenarios != len(r.Scenarios) || c.Requirements != len(r.Requirements) || c.Passed != got.Passed || c.Failed != got.Failed ||
		c.Skipped != got.Skipped || c.NotConfigured != got.NotConfigured || c.Unsupported != got.Unsupported || c.Errored != got.Errored {
		return fmt.Errorf("%w: counts (%d scenarios: %d passed, %d failed, %d skipped, %d not configured, %d unsupported, %d errored; %d requirements) are not those of its %d scenarios (%d passed, %d failed, %d skipped, %d not configured, %d unsupported, %d errored) and %d requirements",
			ErrIncomplete, c.Scenarios, c.Passed, c.Failed, c.Skipped, c.NotConfigured, c.Unsupported, c.Errored, c.Requirements,
			len(r.Scenarios), got.Passed, got.Failed, got.Skipped, got.NotConfigured, got.Unsupported, got.Errored, len(r.Requirements))
	}
	return nil
}

// clipString cuts s for a message, on one line.
func clipString(s string) string {
	s = LineText(s)
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// schemaReaders are the report schema versions this program reads: every
// version the project has written, each with what brings a report of that
// version to the current model (Schema keeps the version read). A new
// schema version adds its line here (and the older lines learn what
// changed), so that `campusconf diff` and `campusconf baseline` keep
// reading the reports of every earlier release; testdata/schemas holds a
// report of each version, which TestDecodeReadsEveryWrittenSchema reads.
var schemaReaders = map[string]func(*Report) error{
	// v1 had no error outcome, no error verdict, no verdict reason and no
	// skip counts by cause: a v1 report is a v2 report that never used
	// them
	SchemaV1: upgradeVerdict,
	// v2's verdicts "no scenarios", "target unreachable" and "error" are
	// v3's inconclusive runs (nothing judged, unreachable, stopped)
	SchemaV2: upgradeVerdict,
	// the current model: nothing to bring forward
	SchemaVersion: func(*Report) error { return nil },
}

// ReadableSchemas returns the report schema versions DecodeJSON reads,
// sorted.
func ReadableSchemas() []string {
	return slices.Sorted(maps.Keys(schemaReaders))
}

// DecodeJSON reads a report written by WriteJSON of this or an earlier
// release. It refuses a report whose schema is none of ReadableSchemas with
// an error wrapping ErrVersion, and one without its scenarios,
// requirements or counts, or whose counts are not its scenarios', with an
// error wrapping ErrIncomplete; it accepts unknown fields, which later
// versions of the same schema may add.
func DecodeJSON(rd io.Reader) (*Report, error) {
	var r Report
	// the outer Counts, shallower, takes "counts": nil when it is absent
	in := struct {
		*Report
		Counts *Counts `json:"counts"`
	}{Report: &r}
	if err := json.NewDecoder(rd).Decode(&in); err != nil {
		return nil, fmt.Errorf("read report: %w", err)
	}
	upgrade, ok := schemaReaders[r.Schema]
	if !ok {
		return nil, fmt.Errorf("read report: schema: expected one of %s, got %q: %w", strings.Join(ReadableSchemas(), ", "), clipString(r.Schema), ErrVersion)
	}
	if err := complete(&r, in.Counts); err != nil {
		return nil, fmt.Errorf("read report: %w", err)
	}
	r.Counts = *in.Counts
	if err := upgrade(&r); err != nil {
		return nil, fmt.Errorf("read report: schema %s: %w", r.Schema, err)
	}
	return &r, nil
}
