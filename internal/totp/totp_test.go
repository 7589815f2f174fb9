package totp

import (
	"testing"
	"time"
)

// rfcSecret is the SHA-1 seed of RFC 6238 appendix B, "12345678901234567890".
var rfcSecret = EncodeSecret([]byte("12345678901234567890"))

func TestGenerateRFC6238Vectors(t *testing.T) {
	// RFC 6238 appendix B gives 8-digit codes; the 6-digit code is the
	// same truncation modulo 10^6, so its last six digits.
	tests := []struct {
		unix  int64
		want8 string
	}{
		{59, "94287082"},
		{1111111109, "07081804"},
		{1111111111, "14050471"},
		{1234567890, "89005924"},
		{2000000000, "69279037"},
		{20000000000, "65353130"},
	}
	for _, tt := range tests {
		got, err := Generate(rfcSecret, time.Unix(tt.unix, 0))
		if err != nil {
			t.Fatal(err)
		}
		if want := tt.want8[2:]; got != want {
			t.Errorf("Generate(t=%d) = %q, want %q", tt.unix, got, want)
		}
		key, _ := DecodeSecret(rfcSecret)
		if got8 := codeAt(key, uint64(tt.unix/30), 8); got8 != tt.want8 {
			t.Errorf("8-digit code at t=%d = %q, want %q", tt.unix, got8, tt.want8)
		}
	}
}

func TestVerifySkew(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	tests := []struct {
		name   string
		offset time.Duration
		want   bool
	}{
		{"same step", 0, true},
		{"one step behind", -Step, true},
		{"one step ahead", Step, true},
		{"two steps behind", -2 * Step, false},
		{"two steps ahead", 2 * Step, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, err := Generate(rfcSecret, now.Add(tt.offset))
			if err != nil {
				t.Fatal(err)
			}
			if got := Verify(rfcSecret, code, now, 1); got != tt.want {
				t.Errorf("Verify(code at %v) = %v, want %v", tt.offset, got, tt.want)
			}
		})
	}
}

func TestVerifyRejectsMalformed(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	for _, code := range []string{"", "12345", "1234567", "abcdef"} {
		if Verify(rfcSecret, code, now, 1) {
			t.Errorf("Verify(%q) = true, want false", code)
		}
	}
	if Verify("not base32!", "123456", now, 1) {
		t.Error("Verify with a malformed secret = true, want false")
	}
}

func TestDecodeSecretForms(t *testing.T) {
	want := "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
	for _, in := range []string{want, "gezdgnbvgy3tqojqgezdgnbvgy3tqojq", "GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ", want + "===="} {
		key, err := DecodeSecret(in)
		if err != nil {
			t.Fatalf("DecodeSecret(%q): %v", in, err)
		}
		if got := EncodeSecret(key); got != want {
			t.Errorf("DecodeSecret(%q) re-encoded = %q, want %q", in, got, want)
		}
	}
	if _, err := DecodeSecret(""); err == nil {
		t.Error("DecodeSecret(\"\") succeeded, want an error")
	}
}
