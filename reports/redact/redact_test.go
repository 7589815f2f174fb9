package redact

import (
	"testing"

	"github.com/campusconf/campusconf/fixtures"
)

func TestSecretsCoverTheControlToken(t *testing.T) {
	f := &fixtures.File{Control: "/_sim/0123456789abcdef0123456789abcdef"}
	got := Secrets(f)
	if got["0123456789abcdef0123456789abcdef"] != "<CONTROL_TOKEN>" {
		t.Errorf("secrets of control %q = %v, want its token as <CONTROL_TOKEN>", f.Control, got)
	}
	if _, ok := got["_sim"]; ok {
		t.Errorf("secrets of control %q = %v, want the short segment _sim left alone", f.Control, got)
	}
}
