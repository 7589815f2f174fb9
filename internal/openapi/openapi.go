// Package openapi holds the project's OpenAPI document of the interface,
// written from the specification, and validates response bodies against it.
//
// The document is openapi.yaml (OpenAPI 3.0.3, embedded). JSON serves the
// same document as JSON, converted from the YAML on first use, so the two can
// never drift apart; a test compares them with an independent YAML parser.
package openapi

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

//go:embed openapi.yaml
var yamlDoc []byte

// YAML returns the OpenAPI document as written, in YAML. The caller must not
// modify the returned slice.
func YAML() []byte { return yamlDoc }

var (
	loadOnce sync.Once
	loaded   *openapi3.T
	loadErr  error

	jsonOnce sync.Once
	jsonDoc  []byte
)

// Load parses and validates the document once and returns the same
// *openapi3.T on every call; it is safe for concurrent use. The document is
// shared: callers must treat it as read-only.
func Load() (*openapi3.T, error) {
	loadOnce.Do(func() { loaded, loadErr = load() })
	return loaded, loadErr
}

func load() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(yamlDoc)
	if err != nil {
		return nil, fmt.Errorf("openapi: parse openapi.yaml: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapi: openapi.yaml is not a valid OpenAPI document: %w", err)
	}
	return doc, nil
}

// JSON returns the OpenAPI document as JSON (what the simulator serves at
// /openapi.json). The caller must not modify the returned slice.
//
// It panics if the embedded YAML does not load, which the package's tests
// rule out.
func JSON() []byte {
	jsonOnce.Do(func() {
		doc, err := Load()
		if err != nil {
			panic(err)
		}
		b, err := json.Marshal(doc)
		if err != nil {
			panic(fmt.Errorf("openapi: encode document as JSON: %w", err))
		}
		jsonDoc = b
	})
	return jsonDoc
}

// Declares reports whether the record component declares field: a member
// the specification lists, which a check may judge (an implementation may
// add others).
func Declares(record, field string) bool {
	doc, err := Load()
	if err != nil || record == "" {
		return false
	}
	ref := doc.Components.Schemas[record]
	return ref != nil && ref.Value != nil && ref.Value.Properties[field] != nil
}

// Optional reports whether the record component declares field and does
// not mark it required: a field an answer may leave out, so a check that
// needs it can only be skipped when it is absent (docs/decisions.md, "MUST
// or SHOULD"). A field of no record, or a required one, is not optional.
func Optional(record, field string) bool {
	doc, err := Load()
	if err != nil || record == "" {
		return false
	}
	ref := doc.Components.Schemas[record]
	if ref == nil || ref.Value == nil || ref.Value.Properties[field] == nil {
		return false
	}
	for _, f := range ref.Value.Required {
		if f == field {
			return false
		}
	}
	return true
}
