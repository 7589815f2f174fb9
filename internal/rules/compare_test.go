package rules

import (
	"testing"

	"github.com/tidwall/gjson"
)

func TestSameRecord(t *testing.T) {
	for _, tc := range []struct {
		name, record, a, b string
		want               bool
	}{
		{"a signed link differs", "Student", `{"id":"0b6b2c4e-1d2a-4e5f-9a8b-7c6d5e4f3a2b","photo":"https://x/p.jpg?sig=1"}`, `{"id":"0B6B2C4E-1D2A-4E5F-9A8B-7C6D5E4F3A2B","photo":"https://x/p.jpg?sig=2"}`, true},
		{"another id", "Student", `{"id":"0b6b2c4e-1d2a-4e5f-9a8b-7c6d5e4f3a2b"}`, `{"id":"1b6b2c4e-1d2a-4e5f-9a8b-7c6d5e4f3a2b"}`, false},
		{"no id at all", "Student", `{"userName":"a"}`, `{"userName":"a"}`, false},
		{"log entry spelled otherwise", "FileLog", `{"targetID":"t","userGuid":"u","action":"download","logDate":"2025-03-01T10:00:00Z","name":"A"}`, `{"targetID":"t","userGuid":"u","action":"download","logDate":"2025-03-01t11:00:00.000+01:00","name":"B"}`, true},
		{"log entry at another time", "FileLog", `{"targetID":"t","userGuid":"u","action":"download","logDate":"2025-03-01T10:00:00Z"}`, `{"targetID":"t","userGuid":"u","action":"download","logDate":"2025-03-01T10:00:01Z"}`, false},
		{"a user by matriculation number", "ChannelUser", `{"matrixNo":"A1","photoUrl":"x?s=1","plays":3}`, `{"matrixNo":"A1","photoUrl":"x?s=2","plays":3.0}`, true},
	} {
		if got := SameRecord(tc.record, gjson.Parse(tc.a), gjson.Parse(tc.b)); got != tc.want {
			t.Errorf("%s: SameRecord(%s, %s, %s): expected %v, got %v", tc.name, tc.record, tc.a, tc.b, tc.want, got)
		}
	}
}

func TestSameValue(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{`1`, `1.0`, true},
		{`"2025-03-01T10:00:00Z"`, `"2025-03-01t10:00:00z"`, true},
		{`{"a":1,"b":"x"}`, `{"b":"x","a":1}`, true},
		{`["a","b"]`, `["b","a"]`, false},
		{`"x"`, `"X"`, false},
	} {
		if got := SameValue(gjson.Parse(tc.a), gjson.Parse(tc.b)); got != tc.want {
			t.Errorf("SameValue(%s, %s): expected %v, got %v", tc.a, tc.b, tc.want, got)
		}
	}
}
