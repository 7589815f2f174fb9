package simulator

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestDuplicateKeysRefused: a body naming a member twice in one object, at
// any depth and however the name is escaped, is 400 with a JSON string
// naming it; the same names in different objects are fine.
func TestDuplicateKeysRefused(t *testing.T) {
	e := newEnv(t, Options{})
	res := e.fx.Records.AttendanceResource
	gb := e.fx.Records.GradebookModule
	tests := []struct {
		name, method, path, body string
		want                     int
		wantMsg                  string
	}{
		{"top level", "POST", "/Attendance/Default", `{"resourceID":"` + res + `","publish":false,"publish":true}`, http.StatusBadRequest, `"publish" twice in the body`},
		{"required field twice", "POST", "/Attendance/Default", `{"resourceID":"` + res + `","resourceID":"` + res + `"}`, http.StatusBadRequest, `"resourceID" twice`},
		{"escaped spelling", "POST", "/Attendance/Default", `{"resourceID":"` + res + `","publish":true,"\u0070ublish":false}`, http.StatusBadRequest, `"publish" twice`},
		{"unknown field twice", "POST", "/Attendance/Default", `{"resourceID":"` + res + `","x":1,"x":2}`, http.StatusBadRequest, `"x" twice`},
		{"nested object", "PATCH", "/gradebook/" + gb.ID + "/settings", `{"iD_Weightage":{"` + gb.GradeItems[0] + `":10,"` + gb.GradeItems[0] + `":20}}`, http.StatusBadRequest, "twice in iD_Weightage"},
		{"in an array element", "PUT", "/weblecture/session/publish", `{"publish":true,"iDs":[],"extra":[{"a":1},{"b":2,"b":3}]}`, http.StatusBadRequest, `"b" twice in extra[]`},
		{"deep", "POST", "/Attendance/Default", `{"resourceID":"` + res + `","x":{"y":[[{"z":{"k":1,"k":1}}]]}}`, http.StatusBadRequest, `"k" twice in x.y[][].z`},
		{"same name in sibling objects", "POST", "/Attendance/Default", `{"resourceID":"` + res + `","a":{"k":1},"b":{"k":1},"c":[{"k":1},{"k":2}]}`, http.StatusCreated, ""},
		{"name equal to a value", "POST", "/Attendance/Default", `{"resourceID":"` + res + `","publish":true,"note":"publish"}`, http.StatusCreated, ""},
		{"name with an escaped quote", "POST", "/Attendance/Default", `{"resourceID":"` + res + `","a\"b":1,"a\"c":2}`, http.StatusCreated, ""},
		{"update body", "PUT", "/notification/read", `{"id":1,"read":11,"id":2}`, http.StatusBadRequest, `"id" twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do("owner", tt.method, tt.path, tt.body)
			if r.status != tt.want {
				t.Fatalf("%s %s %s: expected status %d, got %d: %s", tt.method, tt.path, tt.body, tt.want, r.status, r.body)
			}
			if tt.wantMsg != "" {
				if msg := r.errorString(t); !strings.Contains(msg, tt.wantMsg) {
					t.Errorf("expected a message mentioning %q, got %q", tt.wantMsg, msg)
				}
			}
		})
	}
}

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
