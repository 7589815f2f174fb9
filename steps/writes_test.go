package steps

import (
	"testing"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
)

func TestSameMember(t *testing.T) {
	tests := []struct {
		kind      registry.Kind
		sent, got string
		want      bool
	}{
		{registry.KindText, `"Sección 😀 𝄞"`, `"Sección 😀 𝄞"`, true},
		{registry.KindText, `"Sección 😀 𝄞"`, `"Secci\u00f3n \ud83d\ude00 \ud834\udd1e"`, true}, // escaped, the same text
		{registry.KindText, `"Sección 😀"`, `"Secci?n ?"`, false},
		{registry.KindText, `""`, `null`, false},
		{registry.KindBool, `false`, `false`, true},
		{registry.KindBool, `false`, `0`, false},
		{registry.KindInt, `2147483647`, `2147483647`, true},
		{registry.KindInt, `-2147483648`, `-2147483648.0`, false},
		{registry.KindInt, `0`, `"0"`, false},
		{registry.KindFloat, `33.3`, `33.29999923706055`, true},
		{registry.KindFloat, `33.3`, `33`, false},
		{registry.KindUUID, `"0a1b2c3d-0000-4000-8000-00000000000a"`, `"0A1B2C3D-0000-4000-8000-00000000000A"`, true},
	}
	for _, tt := range tests {
		if got := sameMember(tt.kind, gjson.Parse(tt.sent), gjson.Parse(tt.got)); got != tt.want {
			t.Errorf("sameMember(%s, %s, %s) = %v, want %v", tt.kind, tt.sent, tt.got, got, tt.want)
		}
	}
}

func TestListItem(t *testing.T) {
	c, item, ok := listItem(`gradingSchema.#(letterGrade=="Ä😀").maxMark`)
	if !ok || c != "gradingSchema" || item != `gradingSchema.#(letterGrade=="Ä😀")` {
		t.Errorf(`listItem: got %q, %q, %v; want "gradingSchema", the item query, true`, c, item, ok)
	}
	if _, _, ok := listItem("name"); ok {
		t.Errorf("listItem(name): expected no list item")
	}
}

func TestRespell(t *testing.T) {
	tests := []struct{ in, how, want string }{
		{"2024-03-01T12:00:00Z", "with a numeric offset", "2024-03-01T17:30:00+05:30"},
		{"2024-03-01T12:00:00Z", "with fractional seconds", "2024-03-01T12:00:00.000000000Z"},
		{"2024-03-01T12:00:00Z", "in lower case", "2024-03-01t12:00:00z"},
	}
	for _, tt := range tests {
		got, err := respell(tt.in, tt.how)
		if err != nil || got != tt.want {
			t.Errorf("respell(%q, %q) = %q, %v; want %q", tt.in, tt.how, got, err, tt.want)
		}
	}
}
