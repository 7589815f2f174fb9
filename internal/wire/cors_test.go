package wire

import (
	"strings"
	"testing"
)

func TestParseCORSOrigins(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"", "*", ""},
		{"*", "*", ""},
		{"http://localhost:5173", "http://localhost:5173", ""},
		{" http://localhost:5173 , HTTPS://App.Example.edu", "http://localhost:5173,https://app.example.edu", ""},
		{"localhost:5173", "", "scheme://host"},
		{"http://localhost:5173/", "", "without path"},
		{"*,http://localhost:5173", "", "* alone"},
		{",", "", "expected *"},
	}
	for _, tt := range tests {
		p, err := ParseCORSOrigins(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseCORSOrigins(%q): expected an error saying %q, got %v", tt.in, tt.err, err)
			}
			continue
		}
		if err != nil || p.String() != tt.want {
			t.Errorf("ParseCORSOrigins(%q): expected %q, got %q (%v)", tt.in, tt.want, p.String(), err)
		}
	}
}

func TestCheckPreflight(t *testing.T) {
	p, _ := ParseCORSOrigins("http://localhost:5173")
	tests := []struct {
		p                       CORSPolicy
		origin, method, headers string
		want                    string
	}{
		{AnyCORS, "http://x.example", "GET", "x-request-id, traceparent", ""},
		{AnyCORS, "", "DELETE", "", ""},
		{p, "http://localhost:5173", "PATCH", "content-type", ""},
		{p, "http://x.example", "GET", "", "origin"},
		{p, "", "GET", "", "no Origin"},
		{AnyCORS, "http://x.example", "CONNECT", "", "method"},
		{AnyCORS, "http://x.example", "GET", "a b", "header names"},
	}
	for _, tt := range tests {
		got := tt.p.CheckPreflight(tt.origin, tt.method, tt.headers)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s CheckPreflight(%q, %q, %q): expected a refusal saying %q (or none for \"\"), got %q", tt.p, tt.origin, tt.method, tt.headers, tt.want, got)
		}
	}
	if got := CORSAllowHeaders("X-Request-Id"); got != "X-Request-Id" {
		t.Errorf("CORSAllowHeaders: expected the headers asked for, got %q", got)
	}
}
