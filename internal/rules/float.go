package rules

// SameAtFloatPrecision reports whether a number sent as a member the
// specification types number (float) came back as the same value at
// float (32-bit) precision: an implementation may store it as a float
// and give back the float nearest to what was sent.
func SameAtFloatPrecision(sent, got float64) bool {
	return sent == got || float32(sent) == float32(got)
}
