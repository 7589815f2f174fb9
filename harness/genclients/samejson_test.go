package genclients

import "testing"

// TestSameJSON pins how an answer a client encoded back is compared with
// the recorded one (cheap, so it also runs under -short).
func TestSameJSON(t *testing.T) {
	for _, tc := range []struct {
		name, want, got string
		same            bool
	}{
		{"equal", `{"a":1,"b":[true,"x"]}`, `{"b":[true,"x"],"a":1.0}`, true},
		{"float32 at its own precision", `{"v":2147483520}`, `{"v":2.1474835e+09}`, true},
		{"float32 rounded past the value", `{"v":2147483647}`, `{"v":2.1474836e+09}`, false},
		{"double written in full", `{"v":12.3}`, `{"v":12.3}`, true},
		{"double held as float32", `{"v":12.3}`, `{"v":12.300000190734863}`, false},
		{"same instant without fraction", `{"d":"2026-11-23T09:00:00.5Z"}`, `{"d":"2026-11-23T09:00:00Z"}`, true},
		{"same instant, other offset", `{"d":"2026-11-23T09:00:00Z"}`, `{"d":"2026-11-23T17:00:00+08:00"}`, true},
		{"another instant", `{"d":"2026-11-23T09:00:00Z"}`, `{"d":"2026-11-23T09:00:01Z"}`, false},
		{"member lost", `{"a":1,"b":2}`, `{"a":1}`, false},
		{"member added", `{"a":1}`, `{"a":1,"b":null}`, false},
		{"array shorter", `[1,2]`, `[1]`, false},
		{"string for number", `{"a":1}`, `{"a":"1"}`, false},
		{"JSON string body", `"no such user"`, `"no such user"`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := sameJSON([]byte(tc.want), []byte(tc.got))
			if got := d == ""; got != tc.same {
				t.Errorf("sameJSON(%s, %s): got same %v (%q), want %v", tc.want, tc.got, got, d, tc.same)
			}
		})
	}
}
