package front

import (
	"net/http"
	"slices"
	"testing"
)

// TestParsePattern reads the pattern forms fastRoutes meets.
func TestParsePattern(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		fixed   bool
		segs    int
	}{
		{"GET /poll/Response/{id}", true, 3},
		{"DELETE /Attendance/{$}", true, 2},
		{"GET /healthz", true, 1},
		{"/", false, 0},
		{"GET /x/", false, 0},
		{"GET /files/{path...}", false, 0},
		{"GET /a/x{id}", false, 0},
		{"GET example.com/a", false, 0},
	} {
		pp := parsePattern(tt.pattern)
		if pp.fixed != tt.fixed || (tt.fixed && len(pp.segs) != tt.segs) {
			t.Errorf("parsePattern(%q): expected fixed %v with %d segments, got %v with %d", tt.pattern, tt.fixed, tt.segs, pp.fixed, len(pp.segs))
		}
	}
}

// TestFastRoutesLeaveOverlaps holds newFastRoutes to leaving to ServeMux
// the patterns that overlap another that is not a prefix pattern.
func TestFastRoutesLeaveOverlaps(t *testing.T) {
	h := http.NotFoundHandler()
	for _, tt := range []struct {
		patterns []string
		fast     []string
	}{
		{[]string{"GET /a/{id}", "GET /a/b", "/"}, nil},
		{[]string{"GET /a/{id}", "POST /a/b", "/"}, []string{"GET /a/{id}", "POST /a/b"}},
		{[]string{"GET /a/{id}", "/a/{x}"}, nil},
		{[]string{"GET /a/{id}", "HEAD /a/b"}, nil},
		{[]string{"GET /a/{id}", "/a/", "GET /b/{x...}"}, []string{"GET /a/{id}"}},
		{[]string{"GET /a/{id}", "example.com/"}, nil},
		{[]string{"GET /a/{id}/c", "GET /a/{id}/d", "DELETE /a/{$}"}, []string{"DELETE /a/{$}", "GET /a/{id}/c", "GET /a/{id}/d"}},
	} {
		candidates := map[string]http.Handler{}
		for _, p := range tt.patterns {
			candidates[p] = h
		}
		var got []string
		for _, routes := range newFastRoutes(tt.patterns, candidates).byMethod {
			for _, rt := range routes {
				got = append(got, rt.pattern)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.fast) {
			t.Errorf("newFastRoutes(%q): expected fast routes %q, got %q", tt.patterns, tt.fast, got)
		}
	}
}

// TestWildcardValue reads the values of wildcards as a fast route matched
// them.
func TestWildcardValue(t *testing.T) {
	for _, tt := range []struct{ pattern, path, name, want string }{
		{"GET /poll/Response/{id}", "/poll/Response/abc", "id", "abc"},
		{"GET /evaluation/{evaluationid}/Question/{id}", "/evaluation/e1/Question/q2", "evaluationid", "e1"},
		{"GET /evaluation/{evaluationid}/Question/{id}", "/evaluation/e1/Question/q2", "id", "q2"},
		{"GET /poll/Response/{id}", "/poll/Response/abc", "ID", ""},
		{"DELETE /Attendance/{$}", "/Attendance/", "id", ""},
		{"", "/a", "id", ""},
	} {
		if got := wildcardValue(tt.pattern, tt.path, tt.name); got != tt.want {
			t.Errorf("wildcardValue(%q, %q, %q): expected %q, got %q", tt.pattern, tt.path, tt.name, tt.want, got)
		}
	}
}
