package front

import "testing"

func TestIDListJSON(t *testing.T) {
	for _, tt := range []struct {
		in   idList
		want string
	}{
		{idList{"E10.400.date"}, `["E10.400.date"]`},
		{idList{"D-limit-default", "D-sort-default"}, `["D-limit-default","D-sort-default"]`},
		{idList{`a"b`, "<x>"}, `["a\"b","\u003cx\u003e"]`},
	} {
		got, err := tt.in.MarshalJSON()
		if err != nil || string(got) != tt.want {
			t.Errorf("idList%q.MarshalJSON() = %s, %v; want %s", []string(tt.in), got, err, tt.want)
		}
	}
}
