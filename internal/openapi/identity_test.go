package openapi

import (
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
)

// TestRecordsHaveAnIdentity holds the registry's identities to the
// document: every record an operation answers has an "id" member or
// declared identity members, and every declared member is a property of
// its record.
func TestRecordsHaveAnIdentity(t *testing.T) {
	doc := mustLoad(t)
	declared := registry.DeclaredIdentities()
	for name, members := range declared {
		ref := doc.Components.Schemas[name]
		if ref == nil || ref.Value == nil {
			t.Errorf("registry declares the identity of %s, which openapi.yaml does not describe", name)
			continue
		}
		for _, m := range members {
			if ref.Value.Properties[m] == nil {
				t.Errorf("identity of %s: expected a member %q in openapi.yaml, got none (members: %v)", name, m, keys(ref.Value.Properties))
			}
		}
	}
	for _, op := range registry.All() {
		if op.Record == "" {
			continue
		}
		ref := doc.Components.Schemas[op.Record]
		if ref == nil || ref.Value == nil {
			continue
		}
		if _, ok := declared[op.Record]; !ok && ref.Value.Properties["id"] == nil {
			t.Errorf("%s answers %s, which has no \"id\" member: declare its identity in internal/registry/identity.go", op.ID, op.Record)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
