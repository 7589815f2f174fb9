package wire

import (
	"strings"
	"testing"
)

func TestHostPolicyAllows(t *testing.T) {
	p, err := NewHostPolicy([]string{"campus-api", ".example.edu", "Dev.Box."})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		host string
		want bool
	}{
		{"localhost", true},
		{"LOCALHOST:8080", true},
		{"localhost.:8080", true},
		{"app.localhost:5173", true},
		{"127.0.0.1:8080", true},
		{"127.0.0.2", true},
		{"[::1]:8080", true},
		{"::1", true},
		{"10.1.2.3:8080", true},
		{"[fe80::1%25eth0]:8080", true},
		{"", true}, // HTTP/1.0 without Host: not a browser
		{"campus-api:8080", true},
		{"CAMPUS-API", true},
		{"dev.box:8080", true},
		{"example.edu", true},
		{"a.b.example.edu:443", true},
		{"evil.example", false},
		{"evil.example:8080", false},
		{"localhost.evil.example", false},
		{"evillocalhost", false},
		{"badexample.edu", false},
		{"campus-api.evil.example", false},
		{"1.2.3.4.evil.example", false},
		{"[evil.example]:80", false},
	}
	for _, tt := range tests {
		if got := p.Allows(tt.host); got != tt.want {
			t.Errorf("Allows(%q) = %v, want %v (allowed: campus-api, .example.edu, Dev.Box.)", tt.host, got, tt.want)
		}
	}
	off, _ := NewHostPolicy([]string{AnyHost})
	if !off.Allows("evil.example") {
		t.Error(`with "*" Allows("evil.example") = false, want true (the check is off)`)
	}
	none, _ := NewHostPolicy(nil)
	if none.Allows("campus-api") || !none.Allows("localhost:8080") {
		t.Error("with no allowed hosts: want localhost only among names")
	}
}

func TestCheckAllowedHosts(t *testing.T) {
	for _, c := range []struct {
		hosts []string
		ok    bool
	}{
		{[]string{"campus-api", "dev.example.edu", "campus_api", "*", ".example.edu", "*.example.edu", "::1", "[::1]", "10.0.0.5"}, true},
		{[]string{"api:8080"}, false},
		{[]string{"http://api"}, false},
		{[]string{""}, false},
		{[]string{"a..b"}, false},
		{[]string{"."}, false},
		{[]string{"*.*"}, false},
		{[]string{"two words"}, false},
	} {
		err := CheckAllowedHosts(c.hosts)
		if (err == nil) != c.ok {
			t.Errorf("CheckAllowedHosts(%q) = %v, want ok %v", c.hosts, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "expected a host name") {
			t.Errorf("CheckAllowedHosts(%q): message %q does not say what is expected", c.hosts, err)
		}
	}
}
