package uuid

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" when in is not a uuid
	}{
		{"3f2504e0-4f89-11d3-9a0c-0305e82c3301", "3f2504e0-4f89-11d3-9a0c-0305e82c3301"},
		{"3F2504E0-4F89-11D3-9A0C-0305E82C3301", "3f2504e0-4f89-11d3-9a0c-0305e82c3301"},
		{"3F2504e0-4f89-11D3-9a0c-0305E82c3301", "3f2504e0-4f89-11d3-9a0c-0305e82c3301"},
		{"00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000"},
		// No version or variant check: any hex digit anywhere.
		{"ffffffff-ffff-ffff-ffff-ffffffffffff", "ffffffff-ffff-ffff-ffff-ffffffffffff"},
		{"3f2504e0-4f89-11d3-9a0c-0305e82c330", ""},   // 35 characters
		{"3f2504e0-4f89-11d3-9a0c-0305e82c33011", ""}, // 37 characters
		{"3f2504e04f8911d39a0c0305e82c3301", ""},      // no hyphens
		{"{3f2504e0-4f89-11d3-9a0c-0305e82c3301}", ""},
		{"urn:uuid:3f2504e0-4f89-11d3-9a0c-0305e82c3301", ""},
		{"3f2504e0-4f89-11d3-9a0c-0305e82c330g", ""},
		{"3f2504e0_4f89-11d3-9a0c-0305e82c3301", ""},
		{"3f2504e-04f89-11d3-9a0c-0305e82c3301", ""}, // hyphen in the wrong place
		{"3f2504e0-4f89-11d3-9a0c-0305e82c33é", ""},  // 36 bytes, not all hex
		{" 3f2504e0-4f89-11d3-9a0c-0305e82c330", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if got != tt.want {
			t.Errorf("Parse(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if wantErr := tt.want == ""; (err != nil) != wantErr || err != nil && !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) error = %v, want ErrSyntax: %v", tt.in, err, wantErr)
		}
		if got, want := Valid(tt.in), tt.want != ""; got != want {
			t.Errorf("Valid(%q) = %v, want %v", tt.in, got, want)
		}
	}
}
