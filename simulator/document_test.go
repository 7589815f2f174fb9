package simulator

import (
	"testing"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/simulator/listing"
)

// TestDocumentGivesListBounds holds what the OpenAPI document says of the
// simulator's paging (in its x-campusconf-simulator extension, since the
// specification states no bound) to the bounds the simulator applies.
func TestDocumentGivesListBounds(t *testing.T) {
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	num := func(p *float64) any {
		if p == nil {
			return nil
		}
		return *p
	}
	for _, tc := range []struct {
		param         string
		min, max, def any
	}{
		{"Offset", 0.0, nil, 0.0},
		{"Limit", 0.0, float64(listing.MaxLimit), float64(listing.DefaultLimit)},
	} {
		c, ok, err := openapi.ChoiceOf(doc.Components.Parameters[tc.param].Value.Schema.Value.Extensions)
		if !ok || err != nil {
			t.Errorf("%s: expected %s, got none (%v)", tc.param, openapi.Extension, err)
			continue
		}
		if got, want := []any{num(c.Minimum), num(c.Maximum), c.Default}, []any{tc.min, tc.max, tc.def}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Errorf("%s: the document gives minimum, maximum, default %v, the simulator applies %v (simulator/listing)", tc.param, got, want)
		}
	}
}
