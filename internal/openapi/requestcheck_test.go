package openapi

import (
	"net/url"
	"strings"
	"testing"
)

func TestCheckRequest(t *testing.T) {
	v := mustValidator(t)
	const id = "0f8fad5b-d9cb-469f-a165-70867728950e"
	tests := []struct {
		name  string
		op    string
		path  map[string]string
		query string
		body  string
		want  []string // "in rule", in order; nil: valid
	}{
		{"valid read", "E10", map[string]string{"id": id}, "limit=2&offset=0&StartDate=2025-01-01T00:00:00Z", "", nil},
		{"malformed path uuid", "E10", map[string]string{"id": "x"}, "", "", []string{"path format"}},
		{"fractional limit", "E10", map[string]string{"id": id}, "limit=1.5", "", []string{"query type"}},
		{"bad date", "E15", map[string]string{"id": id}, "startDate=yesterday", "", []string{"query format"}},
		{"empty query value ignored", "E10", map[string]string{"id": id}, "limit=", "", nil},
		{"accepted populate, any case", "E6", map[string]string{"id": id}, "populate=creator,ContentCount", "", nil},
		{"unknown populate", "E18", map[string]string{"id": id}, "populate=everything", "", []string{"query populate"}},
		{"single accepted populate", "NG", map[string]string{"id": id}, "populate=ancestor", "", nil},
		{"body not JSON", "NR", nil, "", `{"id":1,`, []string{"body json"}},
		{"body missing", "NR", nil, "", "", []string{"body required"}},
		{"member missing", "NR", nil, "", `{"id":1}`, []string{"body required"}},
		{"read out of range", "NR", nil, "", `{"id":1,"read":12}`, []string{"body maximum"}},
		{"read in range", "NR", nil, "", `{"id":1,"read":10}`, nil},
		{"member of the wrong type", "E21", nil, "", `{"iDs":[],"publish":"yes"}`, []string{"body type"}},
		{"malformed body uuid", "E8", nil, "", `{"resourceID":"x"}`, []string{"body format"}},
		{"optional body absent", "E14", nil, "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, _ := url.ParseQuery(tt.query)
			var got []string
			for _, p := range v.CheckRequest(tt.op, tt.path, q, []byte(tt.body)) {
				got = append(got, p.In+" "+p.Rule)
			}
			if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
				t.Errorf("expected [%s], got [%s]", strings.Join(tt.want, "; "), strings.Join(got, "; "))
			}
		})
	}
	if got := v.Populate("E9"); strings.Join(got, ",") != "lastUpdatedUser,Response,ResponseWithCreator" {
		t.Errorf("E9 populate: expected lastUpdatedUser,Response,ResponseWithCreator, got %v", got)
	}
}
