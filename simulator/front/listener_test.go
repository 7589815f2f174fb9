package front

import (
	"strings"
	"testing"
)

// TestJSONServerAnswer holds the rewrite to the two forms and nothing
// else: the simulator's own answers pass as they are.
func TestJSONServerAnswer(t *testing.T) {
	tests := []struct {
		in      string
		rewrite bool
	}{
		{"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request", true},
		{"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large", true},
		{"HTTP/1.1 417 Expectation Failed\r\nConnection: close\r\nDate: Mon, 23 Nov 2026 10:00:00 GMT\r\nContent-Length: 0\r\n\r\n", true},
		{"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nDate: Mon, 23 Nov 2026 10:00:00 GMT\r\nContent-Length: 9\r\n\r\n\"a\\r\\nb\"\n", false},
		{"HTTP/1.1 204 No Content\r\nAccess-Control-Allow-Origin: *\r\nDate: Mon, 23 Nov 2026 10:00:00 GMT\r\n\r\n", false},
		{"HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nok", false},
		{`{"name":"HTTP/1.1 400 Bad Request"}`, false},
	}
	for _, tt := range tests {
		out, ok := jsonServerAnswer([]byte(tt.in))
		if ok != tt.rewrite {
			t.Errorf("jsonServerAnswer(%.50q): expected rewrite %v, got %v", tt.in, tt.rewrite, ok)
			continue
		}
		if ok && !strings.Contains(string(out), "\r\nContent-Type: application/json\r\n") {
			t.Errorf("jsonServerAnswer(%.50q): expected a JSON answer, got %q", tt.in, out)
		}
	}
}
