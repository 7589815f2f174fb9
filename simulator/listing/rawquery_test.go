package listing

import (
	"net/url"
	"strings"
	"testing"
)

// TestRawQueryAsParseQuery holds RawQuery.Lookup to url.ParseQuery's first
// value for every name of odd queries: escapes, "+", repeated names, empty
// and nameless pairs, ";", bad escapes in names and values, a query too
// long to scan.
func TestRawQueryAsParseQuery(t *testing.T) {
	queries := []string{
		"", "&", "&&", "=", "==", "limit", "limit=", "limit=5", "limit=5&limit=6",
		"offset=10&limit=20", "limit=%35", "%6Cimit=7", "li%6dit=8&limit=9",
		"limit=a+b", "limit=a%2Bb", "limit+=1&limit =2&limit=3", "limit%20=4",
		"limit=%zz&limit=5", "%zz=1&limit=6", "limit=1;x&limit=2", "a=1;b=2",
		"limit=5&=6&&where=name:a%3Ab", "where=%E2%82%AC", "where=%e2%82", "sortby=userName+desc",
		"populate=module,user&populate=x", "x=1&limit=%", "limit=%2", "limit==5", "limit=5=6",
		"LIMIT=5", "startDate=2026-01-01T00:00:00%2B01:00&endDate=2026-01-01T00:00:00+01:00",
		strings.Repeat("x=1&", 300) + "limit=3",
		strings.Repeat("limit=1&", 2000),
		strings.Repeat("a&", 6000) + "limit=2",
	}
	names := []string{"limit", "offset", "where", "sortby", "populate", "startDate", "endDate", "LIMIT", "limit ", "x", "a", "", "€"}
	for _, raw := range queries {
		want, _ := url.ParseQuery(raw)
		for _, name := range names {
			got, ok := RawQuery(raw).Lookup(name)
			vals, wantOK := want[name]
			wantV := ""
			if wantOK && len(vals) > 0 {
				wantV = vals[0]
			}
			if got != wantV || ok != (wantOK && len(vals) > 0) {
				t.Errorf("RawQuery(%.60q).Lookup(%q): expected %q, %v (url.ParseQuery), got %q, %v", raw, name, wantV, wantOK, got, ok)
			}
			if g := RawQuery(raw).Get(name); g != want.Get(name) {
				t.Errorf("RawQuery(%.60q).Get(%q): expected %q, got %q", raw, name, want.Get(name), g)
			}
		}
		if got := RawQuery(raw).Values(); got.Encode() != want.Encode() {
			t.Errorf("RawQuery(%.60q).Values(): expected %v, got %v", raw, want, got)
		}
	}
}

// TestParseRawAsParseWith holds ParseRaw to ParseWith on the parsed query.
func TestParseRawAsParseWith(t *testing.T) {
	c := Conventions{DefaultLimit: 100, MaxLimit: MaxLimit, Separator: ","}
	for _, raw := range []string{
		"", "offset=10&limit=20", "limit=%32%30&offset=+3", "limit=-1", "limit=5000", "offset=x",
		"sortby=name+desc,id", "sortby=name%20asc&sortby=id", "where=name:a%3Ab", "where=name", "limit=5&limit=x",
	} {
		v, _ := url.ParseQuery(raw)
		want, wantErr := ParseWith(v, c)
		got, err := ParseRaw(RawQuery(raw), c)
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Errorf("ParseRaw(%q): expected error %v, got %v", raw, wantErr, err)
		}
		if got.Offset != want.Offset || got.Limit != want.Limit || got.Sort != want.Sort || got.Desc != want.Desc ||
			len(got.Then) != len(want.Then) || got.WhereField != want.WhereField || got.WhereValue != want.WhereValue {
			t.Errorf("ParseRaw(%q): expected %+v, got %+v", raw, want, got)
		}
	}
}

// BenchmarkRawQuery reads a page's parameters from a query as sent, and
// through url.Values as before.
func BenchmarkRawQuery(b *testing.B) {
	const raw = "offset=10&limit=20"
	c := Conventions{DefaultLimit: 100, MaxLimit: MaxLimit, Separator: ","}
	b.Run("raw", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ParseRaw(RawQuery(raw), c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("values", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v, _ := url.ParseQuery(raw)
			if _, err := ParseWith(v, c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
