package redact

import (
	"strings"
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

// TestEnvValuesAreSecrets: a value a fixture took from the environment
// into a credential is hidden, also where it is only part of the
// credential; one taken into a record id is not a secret.
func TestEnvValuesAreSecrets(t *testing.T) {
	t.Setenv("CAMPUSCONF_TEST_B64", "dXNlcjpwYXNzd29yZA")
	t.Setenv("CAMPUSCONF_TEST_FOLDER", "e4f66500-027f-4e2e-a998-ab6291775134")
	f, err := fixtures.Parse([]byte(`{"version": 1, "users": {"owner": {"headers": {"Authorization": "Basic ${CAMPUSCONF_TEST_B64}"}}},
		"records": {"bankFolder": "${CAMPUSCONF_TEST_FOLDER}"}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := New(f).String("sent dXNlcjpwYXNzd29yZA alone, folder e4f66500-027f-4e2e-a998-ab6291775134")
	if strings.Contains(got, "dXNlcjpwYXNzd29yZA") || !strings.Contains(got, "<CAMPUSCONF_TEST_B64>") {
		t.Errorf("redacted: expected <CAMPUSCONF_TEST_B64> in place of the environment's value, got %q", got)
	}
	if !strings.Contains(got, "e4f66500-027f-4e2e-a998-ab6291775134") {
		t.Errorf("redacted: expected the record id kept (not a credential), got %q", got)
	}
}
