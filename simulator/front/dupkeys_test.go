package front

import (
	"fmt"
	"strings"
	"testing"
)

// TestDuplicateKeyScanner holds duplicateKey to its contract on bodies
// that are valid JSON, including objects large enough for the map.
func TestDuplicateKeyScanner(t *testing.T) {
	var many strings.Builder
	many.WriteString("{")
	for i := range 100 {
		fmt.Fprintf(&many, `"k%d":%d,`, i, i)
	}
	manyDistinct := many.String() + `"end":0}`
	manyDup := many.String() + `"k3":0}`
	tests := []struct {
		body     string
		wantDup  bool
		wantAt   string
		wantName string
	}{
		{`{}`, false, "", ""},
		{`{"a":1,"b":{"a":1},"c":["a","a"]}`, false, "", ""},
		{`{"a":1,"a":1}`, true, "the body", "a"},
		{`{"a":{"b":[{"c":1},{"c":1,"d":{"e":1,"e":2}}]}}`, true, "a.b[].d", "e"},
		{`{"a\\b":1,"a\u005cb":1}`, true, "the body", `a\b`},
		{`{"":1,"":2}`, true, "the body", ""},
		{`{"s":"{\"x\":1,\"x\":2}"}`, false, "", ""},
		{manyDistinct, false, "", ""},
		{manyDup, true, "the body", "k3"},
	}
	for _, tt := range tests {
		at, name, dup := duplicateKey([]byte(tt.body))
		if dup != tt.wantDup || at != tt.wantAt || name != tt.wantName {
			t.Errorf("duplicateKey(%.60s): expected (%q, %q, %v), got (%q, %q, %v)", tt.body, tt.wantAt, tt.wantName, tt.wantDup, at, name, dup)
		}
	}
}
