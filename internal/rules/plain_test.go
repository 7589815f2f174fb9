package rules

import (
	"net/url"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
)

func TestOpenIn(t *testing.T) {
	const known = "11111111-1111-4111-8111-111111111111"
	knows := func(id string) bool { return id == known }
	tests := []struct {
		name  string
		op    registry.OpID
		path  map[string]string
		query string
		body  string
		want  *Open
	}{
		{"plain", registry.E10, map[string]string{"id": known}, "limit=2&offset=0", "", nil},
		{"negative offset", registry.E10, nil, "offset=-1", "", &OpenPaging},
		{"limit past the plain page", registry.E10, nil, "limit=2000", "", &OpenPaging},
		{"limit 0", registry.E10, nil, "limit=0", "", &OpenPaging},
		{"limit past a cap of 10 an implementation may keep", registry.E10, nil, "limit=15", "", &OpenPaging},
		{"offset the suite walks to", registry.E10, nil, "offset=1&limit=2", "", nil},
		{"offset past a cap an implementation may keep", registry.E10, nil, "offset=500", "", &OpenPaging},
		{"limit twice", registry.E10, nil, "limit=2&limit=3", "", &OpenPaging},
		{"sortby", registry.E10, nil, "sortby=name", "", &OpenQuerySyntax},
		{"start after end", registry.E10, nil, "StartDate=2024-02-01T00:00:00Z&EndDate=2024-01-01T00:00:00Z", "", &OpenDateRange},
		{"one end", registry.E10, nil, "StartDate=2024-02-01T00:00:00Z", "", &OpenDateRange},
		{"a range in order", registry.E10, nil, "StartDate=2024-01-01T00:00:00Z&EndDate=2024-02-01T00:00:00Z", "", nil},
		{"E15's dates", registry.E15, nil, "endDate=2024-01-01T00:00:00Z", "", &OpenDateRange},
		{"unknown path id", registry.E10, map[string]string{"id": "22222222-2222-4222-8222-222222222222"}, "", "", &OpenUnknownID},
		{"unknown body id", registry.E8, nil, "", `{"resourceID":"` + known + `","iDs":["33333333-3333-4333-8333-333333333333"]}`, &OpenUnknownID},
		{"null among body ids", registry.E8, nil, "", `{"iDs":[null]}`, &OpenUnknownID},
		{"known body ids", registry.E8, nil, "", `{"resourceID":"` + known + `","iDs":["` + known + `"],"name":"x"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, _ := url.ParseQuery(tt.query)
			got := OpenIn(tt.op, tt.path, q, []byte(tt.body), knows)
			if (got == nil) != (tt.want == nil) || got != nil && got.Topic != tt.want.Topic {
				t.Errorf("OpenIn(%s, %v, %q, %s): expected %v, got %v", tt.op, tt.path, tt.query, tt.body, tt.want, got)
			}
		})
	}
}

func TestMediaTypeRequirement(t *testing.T) {
	tests := []struct{ ct, want string }{
		{"", "ALL.no-content-type"},
		{"application/json-patch+json", "ALL.media-type"},
		{"application/json; charset=utf-8", "ALL.media-json"},
		{"application/x-www-form-urlencoded", ""},
		{"text/plain", ""},
		{"not a media type;;", ""},
	}
	for _, tt := range tests {
		if got := MediaTypeRequirement(tt.ct); got != tt.want {
			t.Errorf("MediaTypeRequirement(%q): expected %q, got %q", tt.ct, tt.want, got)
		}
	}
}
