package simulator

import (
	"net/http"
	"strings"
	"testing"
)

func TestRequestBodies(t *testing.T) {
	e := newEnv(t, Options{})
	res := e.fx.Records.AttendanceResource
	tests := []struct {
		name        string
		body        string
		contentType string
		want        int
		wantMsg     string
	}{
		{"valid", `{"resourceID":"` + res + `"}`, "application/json-patch+json", http.StatusCreated, ""},
		{"application/json", `{"resourceID":"` + res + `"}`, "application/json", http.StatusCreated, ""},
		{"charset parameter", `{"resourceID":"` + res + `"}`, "application/json; charset=utf-8", http.StatusCreated, ""},
		{"no content type", `{"resourceID":"` + res + `"}`, "", http.StatusCreated, ""},
		{"upper-case uuid", `{"resourceID":"` + strings.ToUpper(res) + `"}`, "", http.StatusCreated, ""},
		{"unknown field tolerated", `{"resourceID":"` + res + `","colour":"red"}`, "", http.StatusCreated, ""},
		{"text/plain", `{"resourceID":"` + res + `"}`, "text/plain", http.StatusUnsupportedMediaType, "Content-Type"},
		{"empty body", ``, "", http.StatusBadRequest, "empty body"},
		{"malformed JSON", `{"resourceID":`, "", http.StatusBadRequest, "malformed"},
		{"trailing garbage", `{"resourceID":"` + res + `"} x`, "", http.StatusBadRequest, "after"},
		{"two objects", `{"resourceID":"` + res + `"}{}`, "", http.StatusBadRequest, "after"},
		{"array body", `[]`, "", http.StatusBadRequest, "expected a JSON object"},
		{"missing required", `{"publish":true}`, "", http.StatusBadRequest, "resourceID"},
		{"null required", `{"resourceID":null}`, "", http.StatusBadRequest, "resourceID"},
		{"wrong case field name", `{"resourceid":"` + res + `"}`, "", http.StatusBadRequest, "resourceID"},
		{"malformed uuid", `{"resourceID":"not-a-uuid"}`, "", http.StatusBadRequest, "uuid"},
		{"uuid without dashes", `{"resourceID":"` + strings.ReplaceAll(res, "-", "") + `"}`, "", http.StatusBadRequest, "uuid"},
		{"number for uuid", `{"resourceID":12}`, "", http.StatusBadRequest, "string"},
		{"string for boolean", `{"resourceID":"` + res + `","publish":"true"}`, "", http.StatusBadRequest, "publish"},
		{"unknown resource", `{"resourceID":"00000000-0000-4000-8000-000000000000"}`, "", http.StatusBadRequest, "resource"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.doWith("owner", "POST", "/Attendance/Default", tt.body, map[string]string{"Content-Type": tt.contentType})
			r.want(t, tt.want)
			if tt.wantMsg != "" {
				if msg := r.errorString(t); !strings.Contains(msg, tt.wantMsg) {
					t.Errorf("message = %q, want it to mention %q", msg, tt.wantMsg)
				}
			}
		})
	}
}

func TestBodyTooLarge(t *testing.T) {
	e := newEnv(t, Options{})
	big := `{"resourceID":"` + e.fx.Records.AttendanceResource + `","description":"` + strings.Repeat("x", MaxBodyBytes) + `"}`
	e.do("owner", "POST", "/Attendance/Default", big).want(t, http.StatusRequestEntityTooLarge).errorString(t)
}

func TestIntegerRanges(t *testing.T) {
	e := newEnv(t, Options{})
	tests := []struct {
		body string
		want int
	}{
		{`{"id":1000001,"read":11}`, http.StatusOK},
		{`{"id":1000001,"read":2147483648}`, http.StatusBadRequest},
		{`{"id":1000001,"read":11.5}`, http.StatusBadRequest},
		{`{"id":1000001,"read":"11"}`, http.StatusBadRequest},
		{`{"id":9223372036854775808,"read":11}`, http.StatusBadRequest},
		{`{"id":"1000001","read":11}`, http.StatusBadRequest},
		{`{"id":9223372036854775807,"read":11}`, http.StatusBadRequest}, // valid int64, no such notification
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			e.do("owner", "PUT", "/notification/read", tt.body).want(t, tt.want)
		})
	}
}

func TestPathUUIDs(t *testing.T) {
	e := newEnv(t, Options{})
	for _, path := range []string{
		"/files/nope/downloaded", "/bank/123/copy", "/evaluation/x/Question/" + e.fx.Records.EvaluationQuestion,
		"/evaluation/" + e.fx.Records.Evaluation + "/Question/x", "/module/Weblink/zz/Log", "/poll/Response/1",
		"/multimedia/" + strings.Repeat("g", 36) + "/downloadlog",
	} {
		method := "GET"
		if strings.HasPrefix(path, "/bank") {
			method = "POST"
		}
		t.Run(path, func(t *testing.T) {
			if msg := e.do("owner", method, path, "").want(t, http.StatusBadRequest).errorString(t); !strings.Contains(msg, "uuid") {
				t.Errorf("message = %q, want it to mention a uuid", msg)
			}
		})
	}
}

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
