package steps

import "testing"

func TestGodogTags(t *testing.T) {
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{in: "", want: ""},
		{in: "@E7", want: "@E7"},
		{in: "not @destructive", want: "~@destructive"},
		{in: "@E7 or @E8", want: "@E7,@E8"},
		{in: "@E7 and not @destructive", want: "@E7 && ~@destructive"},
		{in: "(@E7 or @E8) and not @destructive", want: "@E7,@E8 && ~@destructive"},
		{in: "@a or (@b and @c)", want: "@a,@b && @a,@c"},
		{in: "not (@a or @b)", want: "~@a && ~@b"},
		{in: "not (@a and @b)", want: "~@a,~@b"},
		{in: "@E7 && ~@destructive", want: "@E7 && ~@destructive"},
		{in: "@E7,@E8", want: "@E7,@E8"},
		{in: "@E7,", wantErr: true},
		{in: "E7", wantErr: true},
		{in: "@a and", wantErr: true},
		{in: "(@a or @b", wantErr: true},
		{in: "@a @b", wantErr: true},
	}
	for _, tt := range tests {
		got, err := godogTags(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("godogTags(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if got != tt.want {
			t.Errorf("godogTags(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
