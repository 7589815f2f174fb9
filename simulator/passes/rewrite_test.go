package passes

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
)

func TestRewriteBody(t *testing.T) {
	const rec = `{"id":"0b5f6ca3-1e5f-40d1-97fa-b5ed428713be","plays":12,"status":"0000","logDate":"2025-04-06T08:00:01Z","tags":[0,2],"notifyStatus":11}`
	tests := []struct {
		name string
		body string
		rw   defects.Rewrite
		want string
	}{
		{"rename keeps the member's place", rec,
			defects.Rewrite{Field: "plays", Edit: defects.Rename, Arg: "Plays"},
			`{"id":"0b5f6ca3-1e5f-40d1-97fa-b5ed428713be","Plays":12,"status":"0000","logDate":"2025-04-06T08:00:01Z","tags":[0,2],"notifyStatus":11}`},
		{"replace", `{"a":1,"mark":5}`,
			defects.Rewrite{Field: "mark", Edit: defects.Replace, Arg: "10001"}, `{"a":1,"mark":10001}`},
		{"map a listed value", `{"notifyStatus":11}`,
			defects.Rewrite{Field: "notifyStatus", Edit: defects.Map, Arg: `{"10": 0, "11": 1}`}, `{"notifyStatus":1}`},
		{"map leaves other values", `{"notifyStatus":12}`,
			defects.Rewrite{Field: "notifyStatus", Edit: defects.Map, Arg: `{"10": 0, "11": 1}`}, `{"notifyStatus":12}`},
		{"quote a number", `{"plays":12}`,
			defects.Rewrite{Field: "plays", Edit: defects.Quote}, `{"plays":"12"}`},
		{"quote an array", `{"tags":[0,2]}`,
			defects.Rewrite{Field: "tags", Edit: defects.Quote}, `{"tags":"[0,2]"}`},
		{"unquote digits", `{"status":"0000"}`,
			defects.Rewrite{Field: "status", Edit: defects.Unquote}, `{"status":0}`},
		{"date layout", `{"logDate":"2025-04-06T08:00:01Z"}`,
			defects.Rewrite{Field: "logDate", Edit: defects.DateLayout, Arg: "2006-01-02 15:04:05"}, `{"logDate":"2025-04-06 08:00:01"}`},
		{"format a string", `{"id":"0b5f6ca3-1e5f-40d1-97fa-b5ed428713be"}`,
			defects.Rewrite{Field: "id", Edit: defects.Format, Arg: "{%s}"}, `{"id":"{0b5f6ca3-1e5f-40d1-97fa-b5ed428713be}"}`},
		{"every record of a list", `[{"plays":1},{"plays":2}]`,
			defects.Rewrite{Field: "plays", Edit: defects.Quote}, `[{"plays":"1"},{"plays":"2"}]`},
		{"an empty list stays", `[]`,
			defects.Rewrite{Field: "plays", Edit: defects.Quote}, `[]`},
		{"an absent field changes nothing", `{"a":1}`,
			defects.Rewrite{Field: "plays", Edit: defects.Quote}, `{"a":1}`},
		{"nested records", `{"id":1,"ancestor":[{"typeID":1},{"typeID":2}],"typeID":9}`,
			defects.Rewrite{Nested: "ancestor", Field: "typeID", Edit: defects.Replace, Arg: "3"}, `{"id":1,"ancestor":[{"typeID":3},{"typeID":3}],"typeID":9}`},
		{"nested member absent", `{"id":1}`,
			defects.Rewrite{Nested: "ancestor", Field: "typeID", Edit: defects.Replace, Arg: "3"}, `{"id":1}`},
		{"envelope a list", `[{"a":1},{"a":2}]`,
			defects.Rewrite{Edit: defects.Envelope}, `{"items":[{"a":1},{"a":2}],"total":2}`},
		{"envelope leaves an object", `{"a":1}`,
			defects.Rewrite{Edit: defects.Envelope}, `{"a":1}`},
		{"array of one", `{"a":1}`,
			defects.Rewrite{Edit: defects.ArrayOfOne}, `[{"a":1}]`},
		{"array of one leaves a list", `[{"a":1}]`,
			defects.Rewrite{Edit: defects.ArrayOfOne}, `[{"a":1}]`},
		{"other bytes are kept", `{"s":"<&>","f":1.50,"b":false}`,
			defects.Rewrite{Field: "b", Edit: defects.Rename, Arg: "B"}, `{"s":"<&>","f":1.50,"B":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rewriteBody([]byte(tt.body+"\n"), []defects.Rewrite{tt.rw})
			if err != nil {
				t.Fatalf("rewriteBody: %v", err)
			}
			if want := tt.want + "\n"; string(got) != want {
				t.Errorf("rewriteBody(%s, %s):\n got %s\nwant %s", tt.body, tt.rw, got, want)
			}
		})
	}
}

func TestRewriteBodyRefusesWhatItCannotEdit(t *testing.T) {
	for _, tt := range []struct {
		body string
		rw   defects.Rewrite
	}{
		{`{"status":"ok"}`, defects.Rewrite{Field: "status", Edit: defects.Unquote}},
		{`{"logDate":"yesterday"}`, defects.Rewrite{Field: "logDate", Edit: defects.DateLayout, Arg: "2006"}},
		{`{"mark":1}`, defects.Rewrite{Field: "mark", Edit: defects.Replace, Arg: "not json"}},
		{`{"a":1`, defects.Rewrite{Field: "a", Edit: defects.Quote}},
	} {
		if got, err := rewriteBody([]byte(tt.body), []defects.Rewrite{tt.rw}); err == nil {
			t.Errorf("rewriteBody(%s, %s) = %s, want an error", tt.body, tt.rw, got)
		}
	}
}

// TestRewritingTouchesOnlySuccessBodies checks the wrapper: a 2xx JSON
// body is edited, an error body and a 204 are passed through as they were.
func TestRewritingTouchesOnlySuccessBodies(t *testing.T) {
	d, v := inForce(t, []string{"channel-user-types"})
	for _, tt := range []struct {
		status     int
		body, want string
	}{
		{200, `[{"plays":3}]`, `[{"plays":"3"}]` + "\n"},
		{400, `"plays: bad"`, `"plays: bad"`},
		{204, ``, ``},
	} {
		h := answering("E15", d, v, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(tt.status)
			_, _ = w.Write([]byte(tt.body))
		}))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		if rec.Code != tt.status || rec.Body.String() != tt.want || rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("status %d body %s: got %d %q (%s), want %d %q", tt.status, tt.body, rec.Code, rec.Body, rec.Header().Get("Content-Type"), tt.status, tt.want)
		}
	}
}

// TestNoRewritesWithoutDefects: a faithful simulator never wraps an
// operation in the rewriter.
func TestNoRewritesWithoutDefects(t *testing.T) {
	d, _ := inForce(t, nil)
	for _, id := range registry.IDs() {
		if rws := rewrites(id, d); len(rws) != 0 {
			t.Errorf("%s: %d rewrites without a defect", id, len(rws))
		}
	}
}

// TestRewritesAimAtAnsweredRecords keeps every rewrite defect aimed at a
// record some operation answers (the registry's records are checked against
// the OpenAPI document in internal/registry).
func TestRewritesAimAtAnsweredRecords(t *testing.T) {
	records := map[string]bool{}
	for _, op := range registry.All() {
		records[op.Record] = true
	}
	for _, d := range defects.All() {
		if d.Rewrite == nil {
			continue
		}
		if !records[d.Rewrite.Record] {
			t.Errorf("defect %s rewrites record %q, which no operation answers", d.Name, d.Rewrite.Record)
		}
		if op := d.Rewrite.Op; op != "" && registry.Must(op).Record != d.Rewrite.Record {
			t.Errorf("defect %s rewrites record %q of %s, which answers %q", d.Name, d.Rewrite.Record, op, registry.Must(op).Record)
		}
		if d.Rewrite.Edit != defects.Envelope && d.Rewrite.Edit != defects.ArrayOfOne && d.Rewrite.Field == "" {
			t.Errorf("defect %s: rewrite %s names no field", d.Name, d.Rewrite)
		}
	}
	if !slices.ContainsFunc(defects.All(), func(d defects.Defect) bool { return d.Rewrite != nil && strings.HasSuffix(string(d.Name), "-names") }) {
		t.Error("expected rewrite defects for record names")
	}
}
