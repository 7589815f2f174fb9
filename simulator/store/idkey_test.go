package store

import (
	"testing"

	"github.com/brianvoe/gofakeit/v7"
)

// TestParseID: an id parses to a key exactly when the key formats back to
// it; every run-time id (gofakeit's UUID) does.
func TestParseID(t *testing.T) {
	for _, tt := range []struct {
		id   string
		want bool
	}{
		{"0a1b2c3d-4e5f-4a6b-8c7d-8e9f00112233", true},
		{"00000000-0000-0000-0000-000000000000", true},
		{"ffffffff-ffff-ffff-ffff-ffffffffffff", true},
		{"0A1B2C3D-4E5F-4A6B-8C7D-8E9F00112233", false}, // upper case would not format back
		{"0a1b2c3d4e5f4a6b8c7d8e9f00112233", false},
		{"0a1b2c3d-4e5f-4a6b-8c7d-8e9f0011223", false},
		{"0a1b2c3d-4e5f-4a6b-8c7d-8e9f001122334", false},
		{"0a1b2c3-d4e5f-4a6b-8c7d-8e9f00112233", false},
		{"0a1b2c3d-4e5f-4a6b-8c7d-8e9f0011223g", false},
		{"{a1b2c3d-4e5f-4a6b-8c7d-8e9f00112233", false},
		{"seeded-attendance", false},
		{"", false},
	} {
		k, ok := parseID(tt.id)
		if ok != tt.want {
			t.Errorf("parseID(%q) ok = %v, want %v", tt.id, ok, tt.want)
		}
		if ok && k.String() != tt.id {
			t.Errorf("parseID(%q).String() = %q, want the id back", tt.id, k.String())
		}
	}
	f := gofakeit.New(3)
	for range 10_000 {
		id := f.UUID()
		if k, ok := parseID(id); !ok || k.String() != id {
			t.Fatalf("run-time id %q: parsed %v, formats back as %q; want it back", id, ok, k.String())
		}
	}
}

// TestOddIDs: an id that is not a key, or whose key has the form of an
// odd id's, is kept as its string and given back unchanged.
func TestOddIDs(t *testing.T) {
	var o oddIDs
	ids := []string{"seeded-attendance", "ffffffff-ffff-ffff-0000-000000000001", "0a1b2c3d-4e5f-4a6b-8c7d-8e9f00112233", "ODD"}
	keys := map[idKey]string{}
	for _, id := range ids {
		k := o.key(id)
		if got := o.id(k); got != id {
			t.Errorf("id(key(%q)) = %q, want %q", id, got, id)
		}
		if other, dup := keys[k]; dup {
			t.Errorf("%q and %q share the key %x", id, other, k)
		}
		keys[k] = id
	}
	if got, want := len(o.ids), 3; got != want {
		t.Errorf("odd ids held: %d, want %d (all but the plain key)", got, want)
	}
	for k := range keys {
		o.forget(k)
	}
	if len(o.ids) != 0 {
		t.Errorf("after forget: %d odd ids held, want 0", len(o.ids))
	}
}
