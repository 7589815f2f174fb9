package openapi

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

func mustValidator(t testing.TB) *Validator {
	t.Helper()
	v, err := NewValidator()
	if err != nil {
		t.Fatalf("NewValidator: %v", err)
	}
	return v
}

func mustLoad(t testing.TB) *openapi3.T {
	t.Helper()
	doc, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return doc
}
