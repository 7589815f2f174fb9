package rules

import "testing"

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
