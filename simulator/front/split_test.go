package front

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// TestSplitObjectAgreesWithEncodingJSON: on every valid object it handles,
// splitObject gives the members encoding/json gives; what it leaves to
// encoding/json it says so.
func TestSplitObjectAgreesWithEncodingJSON(t *testing.T) {
	tests := []struct {
		body   string
		handle bool
	}{
		{`{}`, true},
		{` { } `, true},
		{`{"resourceID":"0b8f5c1e-8d1a-4c57-9a0e-0a8d8b5a8f11","publish":false}`, true},
		{"{\n  \"a\" : [1, {\"b\": \"}]\\\"\"}, null],\n  \"c\": -1.5e3, \"d\": true }", true},
		{`{"iDs":[],"x":{"y":{"z":[[]]}},"s":"a,b}c"}`, true},
		{`{"a\u0062":1}`, false},
		{`[1,2]`, false},
		{`"text"`, false},
		{`12`, false},
	}
	for _, tt := range tests {
		got, ok := splitObject([]byte(tt.body))
		if ok != tt.handle {
			t.Errorf("splitObject(%s): handled %v, want %v", tt.body, ok, tt.handle)
			continue
		}
		if !ok {
			continue
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tt.body), &want); err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		if diff := cmp.Diff(asStrings(want), asStrings(got)); diff != "" {
			t.Errorf("splitObject(%s) (-encoding/json +got):\n%s", tt.body, diff)
		}
	}
}

// FuzzSplitObject holds splitObject to encoding/json on any valid object.
func FuzzSplitObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a":"x\"y","b":[{"c":null}]}`, `{"iD_Weightage":[{"key":"k","value":10}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) || !utf8.Valid(data) {
			return // parseBody refuses both before splitting
		}
		got, ok := splitObject(data)
		if !ok {
			return
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("splitObject handled %q, which encoding/json refuses: %v", data, err)
		}
		if diff := cmp.Diff(asStrings(want), asStrings(got)); diff != "" {
			t.Errorf("splitObject(%q) (-encoding/json +got):\n%s", data, diff)
		}
	})
}

func asStrings(m map[string]json.RawMessage) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

// TestDecodeFastPathsAgree: the plain-string and boolean fast paths of
// body.decode read what encoding/json reads, and refuse what it refuses.
func TestDecodeFastPathsAgree(t *testing.T) {
	for _, raw := range []string{`"plain"`, `""`, `"é ✓"`, `"esc\"aped"`, `"\u00e9"`, `true`, `false`, `1`, `null`, `"true"`, `[]`} {
		var s1, s2 string
		var b1, b2 bool
		okS := (&Body{}).decode("f", json.RawMessage(raw), &s1, "a string")
		errS := json.Unmarshal([]byte(raw), &s2)
		if okS != (errS == nil) || s1 != s2 {
			t.Errorf("string %s: decode gave %q (ok %v), encoding/json %q (err %v)", raw, s1, okS, s2, errS)
		}
		okB := (&Body{}).decode("f", json.RawMessage(raw), &b1, "a boolean")
		errB := json.Unmarshal([]byte(raw), &b2)
		if okB != (errB == nil) || b1 != b2 {
			t.Errorf("bool %s: decode gave %v (ok %v), encoding/json %v (err %v)", raw, b1, okB, b2, errB)
		}
	}
}
