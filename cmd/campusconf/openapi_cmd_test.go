package main

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/campusconf/campusconf/internal/openapi"
)

func TestOpenAPICmd(t *testing.T) {
	var out bytes.Buffer
	if got := openapiCmd(nil, &out, io.Discard); got != exitOK {
		t.Fatalf("openapi = %d, want %d", got, exitOK)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, out.Bytes()); err != nil || !bytes.Equal(compact.Bytes(), openapi.JSON()) {
		t.Errorf("openapi did not print the embedded document (compact error %v)", err)
	}
	if !bytes.HasPrefix(out.Bytes(), []byte("{\n  \"")) {
		t.Errorf("openapi output is not indented: %.40q", out.String())
	}
}
