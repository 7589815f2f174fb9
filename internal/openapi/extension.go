package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// Extension is the one extension the document uses. It carries what the
// campusconf simulator chose where the specification is silent: the places
// of the unplaced operations, its paging bounds and defaults, the syntax of
// sortby and where, the evaluation session body, the bearer token and the
// 401 it answers. The document's standard keywords state only what the
// specification states; no checker reads this extension.
const Extension = "x-campusconf-simulator"

// IDExtension carries, on each operation of the document, its id in the
// registry and the requirements catalogue (E10, NG), by which every
// checker finds it; the operationId says what the operation does
// (registry.Operation.OperationID), for the methods of generated clients.
const IDExtension = "x-campusconf-id"

// IDOf is the registry id of an operation of the document: its
// IDExtension ("" when it has none, or not a string).
func IDOf(op *openapi3.Operation) string {
	if op == nil {
		return ""
	}
	switch v := op.Extensions[IDExtension].(type) {
	case string:
		return v
	case json.RawMessage:
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
	}
	return ""
}

// Choice is the value of Extension at one place of the document.
type Choice struct {
	// Choice says in a sentence what the simulator does.
	Choice string `json:"choice"`
	// Decision is the section of docs/decisions.md that records it, as
	// docs/decisions.md#anchor.
	Decision string `json:"decision"`
	// Minimum, Maximum and Default are the simulator's own bounds and
	// default of a value, in the sense of the JSON Schema keywords of the
	// same names, which the document leaves out because the specification
	// does not state them.
	Minimum *float64 `json:"minimum,omitempty"`
	Maximum *float64 `json:"maximum,omitempty"`
	Default any      `json:"default,omitempty"`
}

// ChoiceOf reads Extension from the extensions of a document node; ok is
// false when the node does not carry it. A value that is not a Choice (an
// unknown member, a missing choice or decision) is an error.
func ChoiceOf(extensions map[string]any) (c Choice, ok bool, err error) {
	raw, ok := extensions[Extension]
	if !ok {
		return Choice{}, false, nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return Choice{}, true, fmt.Errorf("%s: %w", Extension, err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&c); err != nil {
		return Choice{}, true, fmt.Errorf("%s: expected choice, decision and optionally minimum, maximum, default: %w", Extension, err)
	}
	if c.Choice == "" || c.Decision == "" {
		return Choice{}, true, fmt.Errorf("%s: expected a choice and a decision, got %s", Extension, b)
	}
	return c, true, nil
}

// Unlisted reports whether the document carries response r only because
// the simulator answers it (the 401): the specification does not list it,
// so checkers treat the status as undocumented.
func Unlisted(r *openapi3.ResponseRef) bool {
	if r == nil || r.Value == nil {
		return false
	}
	_, ok := r.Value.Extensions[Extension]
	return ok
}
