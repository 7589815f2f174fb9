package rules

import "testing"

func TestErrorBodyIsString(t *testing.T) {
	tests := []struct {
		body string
		want bool
	}{
		{`"not found"`, true},
		{`""`, true},
		{`{"message": "not found"}`, false},
		{`{"statusCode": 401, "message": "Access denied"}`, false},
		{`not found`, false},
		{``, false},
		{`"a" "b"`, false},
	}
	for _, tt := range tests {
		if got := ErrorBodyIsString([]byte(tt.body)); got != tt.want {
			t.Errorf("ErrorBodyIsString(%q) = %v, want %v", tt.body, got, tt.want)
		}
	}
}

func TestSameAtFloatPrecision(t *testing.T) {
	tests := []struct {
		sent, got float64
		want      bool
	}{
		{33.3, 33.3, true},
		{33.3, 33.29999923706055, true},
		{33.3, 33, false},
		{0, 0, true},
		{3.4028234663852886e+38, 3.4028234663852886e+38, true},
		{0.1, 0.10000000149011612, true},
		{0.1, 0.2, false},
	}
	for _, tt := range tests {
		if got := SameAtFloatPrecision(tt.sent, tt.got); got != tt.want {
			t.Errorf("SameAtFloatPrecision(%v, %v) = %v, want %v", tt.sent, tt.got, got, tt.want)
		}
	}
}
