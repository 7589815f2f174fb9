package main

import (
	"bytes"
	"io"
	"testing"

	"github.com/campusconf/campusconf/internal/openapi"
)

func TestOpenAPICmd(t *testing.T) {
	var out bytes.Buffer
	if got := openapiCmd(nil, &out, io.Discard); got != exitOK {
		t.Fatalf("openapi = %d, want %d", got, exitOK)
	}
	if !bytes.Equal(out.Bytes(), openapi.JSON()) {
		t.Error("openapi did not print the embedded document")
	}
	if got := openapiCmd([]string{"extra"}, io.Discard, io.Discard); got != exitUsage {
		t.Errorf("openapi extra = %d, want %d", got, exitUsage)
	}
}
