package listing

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

type rec struct {
	Name  string    `json:"name"`
	N     int32     `json:"n"`
	On    bool      `json:"on"`
	At    time.Time `json:"at"`
	Tags  []string  `json:"tags"`
	Plain string
}

func TestParse(t *testing.T) {
	tests := []struct {
		query   string
		want    Query
		wantErr string
	}{
		{"", Query{Limit: 100}, ""},
		{"offset=5&limit=0", Query{Offset: 5, Limit: 0}, ""},
		{"limit=1000", Query{Limit: 1000}, ""},
		{"offset=2147483647", Query{Offset: 2147483647, Limit: 100}, ""},
		{"sortby=name", Query{Limit: 100, Sort: "name"}, ""},
		{"sortby=name+DESC", Query{Limit: 100, Sort: "name", Desc: true}, ""},
		{"sortby=name+asc", Query{Limit: 100, Sort: "name"}, ""},
		{"where=name:a:b", Query{Limit: 100, WhereField: "name", WhereValue: "a:b"}, ""},
		{"limit=1001", Query{}, "at most 1000"},
		{"limit=-1", Query{}, "non-negative"},
		{"offset=2147483648", Query{}, "int32"},
		{"offset=1.5", Query{}, "int32"},
		{"sortby=name+up", Query{}, "sortby"},
		{"sortby=a+b+c", Query{}, "sortby"},
		{"where=name", Query{}, "field:value"},
		{"where=:x", Query{}, "field:value"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			v, _ := url.ParseQuery(tt.query)
			got, err := Parse(v, DefaultLimit)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse(%q) error = %v, want one containing %q", tt.query, err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%q) = %+v, %v; want %+v", tt.query, got, err, tt.want)
			}
		})
	}
}

// TestParseSeveralKeys reads sortby keys joined by a separator, in either
// syntax.
func TestParseSeveralKeys(t *testing.T) {
	tests := []struct {
		query   string
		dash    bool
		want    Query
		wantErr bool
	}{
		{"sortby=name+desc,n", false, Query{Sort: "name", Desc: true, Then: []SortKey{{"n", false}}}, false},
		{"sortby=-name,n", true, Query{Sort: "name", Desc: true, Then: []SortKey{{"n", false}}}, false},
		{"sortby=n,-name", true, Query{Sort: "n", Then: []SortKey{{"name", true}}}, false},
		{"sortby=name,", true, Query{}, true},
		{"sortby=name+up,n", false, Query{}, true},
	}
	for _, tt := range tests {
		v, _ := url.ParseQuery(tt.query)
		got, err := ParseWith(v, Conventions{DefaultLimit: -1, MaxLimit: MaxLimit, DashSort: tt.dash, Separator: ","})
		tt.want.Limit = -1
		if tt.wantErr {
			if err == nil {
				t.Errorf("ParseWith(%q): expected an error, got %+v", tt.query, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseWith(%q) = %+v, %v; want %+v", tt.query, got, err, tt.want)
		}
	}
}

func names(rs []rec) string {
	var s []string
	for _, r := range rs {
		s = append(s, r.Name)
	}
	return strings.Join(s, ",")
}

func TestPage(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	l := New([]rec{
		{Name: "b", N: 2, On: true, At: t0.Add(3 * time.Hour)},
		{Name: "a", N: 1, At: t0.Add(2 * time.Hour)},
		{Name: "c", N: 2, On: true, At: t0.Add(1 * time.Hour)},
		{Name: "B", N: 3, At: t0},
	})
	tests := []struct {
		q    Query
		keep func(*rec) bool
		want string
	}{
		{Query{Limit: -1}, nil, "b,a,c,B"},
		{Query{Limit: 2}, nil, "b,a"},
		{Query{Offset: 3, Limit: 10}, nil, "B"},
		{Query{Offset: 9, Limit: 10}, nil, ""},
		{Query{Limit: 0}, nil, ""},
		{Query{Limit: -1, Sort: "name"}, nil, "B,a,b,c"},
		{Query{Limit: -1, Sort: "NAME", Desc: true}, nil, "c,b,a,B"},
		{Query{Limit: -1, Sort: "n"}, nil, "a,b,c,B"},             // stable: b before c
		{Query{Limit: -1, Sort: "n", Desc: true}, nil, "B,b,c,a"}, // stable in both directions
		{Query{Limit: -1, Sort: "at"}, nil, "B,c,a,b"},
		{Query{Limit: -1, Sort: "on"}, nil, "a,B,b,c"},
		{Query{Limit: -1, Sort: "n", Then: []SortKey{{"name", true}}}, nil, "a,c,b,B"}, // ties broken by the next key
		{Query{Limit: -1, Sort: "n", Desc: true, Then: []SortKey{{"at", false}}}, nil, "B,c,b,a"},
		{Query{Limit: -1, WhereField: "name", WhereValue: "b"}, nil, "b,B"},
		{Query{Limit: -1, WhereField: "n", WhereValue: "2"}, nil, "b,c"},
		{Query{Limit: -1, WhereField: "on", WhereValue: "TRUE"}, nil, "b,c"},
		{Query{Limit: -1, WhereField: "at", WhereValue: "2025-01-01T00:00:00Z"}, nil, "B"},
		{Query{Offset: 1, Limit: 1, WhereField: "name", WhereValue: "b"}, nil, "B"},
		{Query{Limit: 1, Sort: "name"}, func(r *rec) bool { return r.N == 2 }, "b"},
	}
	for _, tt := range tests {
		got, err := l.Page(tt.q, tt.keep)
		if err != nil {
			t.Errorf("Page(%+v): %v", tt.q, err)
			continue
		}
		if names(got) != tt.want {
			t.Errorf("Page(%+v) = %s, want %s", tt.q, names(got), tt.want)
		}
		fresh, _ := Page(l.items, tt.q, tt.keep)
		if names(fresh) != tt.want {
			t.Errorf("uncached Page(%+v) = %s, want %s", tt.q, names(fresh), tt.want)
		}
	}
	for _, q := range []Query{{Sort: "tags"}, {Sort: "Plain"}, {Sort: "nope"}, {WhereField: "tags", WhereValue: "x"}} {
		if _, err := l.Page(q, nil); err == nil || !strings.Contains(err.Error(), "unknown field") {
			t.Errorf("Page(%+v) error = %v, want unknown field", q, err)
		}
	}
	got, _ := l.Page(Query{Limit: 1}, nil)
	got[0].Name = "changed"
	if again, _ := l.Page(Query{Limit: 1}, nil); again[0].Name != "b" {
		t.Error("changing a page changed the list")
	}
}
