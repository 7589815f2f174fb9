package front

import "testing"

func TestHostPolicyAllows(t *testing.T) {
	p, err := NewHosts([]string{"campus-api", ".example.edu", "Dev.Box."})
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
			t.Errorf("allows(%q) = %v, want %v (allowed: campus-api, .example.edu, Dev.Box.)", tt.host, got, tt.want)
		}
	}
	off, _ := NewHosts([]string{AnyHost})
	if !off.Allows("evil.example") {
		t.Error(`with "*" allows("evil.example") = false, want true (the check is off)`)
	}
	none, _ := NewHosts(nil)
	if none.Allows("campus-api") || !none.Allows("localhost:8080") {
		t.Error("with no allowed hosts: want localhost only among names")
	}
}

// BenchmarkHostCheck is the check every request passes first: it must not
// allocate (a loopback address, a listed name, a refused name).
func BenchmarkHostCheck(b *testing.B) {
	p, err := NewHosts([]string{"campus-api", ".dev.example.edu"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if !p.Allows("127.0.0.1:8080") || !p.Allows("web.dev.example.edu:8080") || p.Allows("evil.example:8080") {
			b.Fatal("wrong answer")
		}
	}
}
