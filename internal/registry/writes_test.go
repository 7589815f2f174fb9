package registry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
)

// TestWritesAreWrites checks the facts of what each write sets: a row per
// operation that changes state, reads of operations that read, and edge
// bodies that are JSON once their placeholders are filled.
func TestWritesAreWrites(t *testing.T) {
	fill := func(text string) string {
		out, err := registry.Fill(text, func(key string) (string, error) {
			if strings.HasPrefix(key, "records.notification") || strings.HasPrefix(key, "saved.") {
				return "7", nil
			}
			return "00000000-0000-4000-8000-000000000000", nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	seen := map[registry.OpID]bool{}
	for _, w := range registry.Writes() {
		op, ok := registry.Lookup(string(w.Op))
		if !ok || !op.ChangesState {
			t.Errorf("%s: expected an operation that changes state, got %+v", w.Op, ok)
		}
		if seen[w.Op] {
			t.Errorf("%s: given twice", w.Op)
		}
		seen[w.Op] = true
		for _, r := range []*registry.Read{w.Read, w.Neighbour} {
			if r == nil {
				continue
			}
			if ro, _ := registry.Lookup(string(r.Op)); ro.ChangesState || ro.Group != op.Group {
				t.Errorf("%s: its read %s should read, in group %q; got group %q", w.Op, r.Op, op.Group, ro.Group)
			}
		}
		if (w.Neighbour == nil) != (w.NeighbourKey == "") {
			t.Errorf("%s: a neighbour read and its fixture key go together", w.Op)
		}
		for _, e := range w.Edges {
			if !json.Valid([]byte(fill(e.Body))) {
				t.Errorf("%s, edge %q: expected a JSON body, got %s", w.Op, e.What, fill(e.Body))
			}
		}
		if w.Change != nil && !json.Valid([]byte(fill(w.Change.Body))) {
			t.Errorf("%s: expected a JSON change body, got %s", w.Op, fill(w.Change.Body))
		}
	}
}
