// Package totp generates and verifies time-based one-time passwords as RFC
// 6238 defines them with the parameters the project uses everywhere: HMAC-SHA-1,
// 30-second steps from the Unix epoch, 6 digits, secrets in unpadded or padded
// base32 (the form authenticator apps and `oathtool -b` take).
package totp

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/subtle"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"strings"
	"time"
)

// Step is the length of one time step.
const Step = 30 * time.Second

// Digits is the number of digits of a code.
const Digits = 6

// DecodeSecret decodes a base32 secret, ignoring case, spaces and padding.
func DecodeSecret(secret string) ([]byte, error) {
	s := strings.ToUpper(strings.ReplaceAll(secret, " ", ""))
	s = strings.TrimRight(s, "=")
	key, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("totp secret: expected base32, got %q: %w", secret, err)
	}
	if len(key) == 0 {
		return nil, fmt.Errorf("totp secret: expected at least one byte, got an empty secret")
	}
	return key, nil
}

// EncodeSecret encodes key as unpadded base32, the form DecodeSecret reads.
func EncodeSecret(key []byte) string {
	return base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(key)
}

// Generate returns the code for the base32 secret at time t.
func Generate(secret string, t time.Time) (string, error) {
	key, err := DecodeSecret(secret)
	if err != nil {
		return "", err
	}
	return codeAt(key, uint64(counter(t)), Digits), nil
}

// Verify reports whether code is valid for the base32 secret at time t,
// accepting the codes of up to skew steps before and after t.
func Verify(secret, code string, t time.Time, skew int) bool {
	key, err := DecodeSecret(secret)
	if err != nil || len(code) != Digits {
		return false
	}
	c := counter(t)
	for d := -skew; d <= skew; d++ {
		if c+int64(d) < 0 {
			continue
		}
		want := codeAt(key, uint64(c+int64(d)), Digits)
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return true
		}
	}
	return false
}

func counter(t time.Time) int64 {
	return t.Unix() / int64(Step/time.Second)
}

// codeAt is HOTP (RFC 4226) with dynamic truncation.
func codeAt(key []byte, c uint64, digits int) string {
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], c)
	mac := hmac.New(sha1.New, key)
	mac.Write(msg[:])
	sum := mac.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	bin := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	mod := uint32(1)
	for range digits {
		mod *= 10
	}
	return fmt.Sprintf("%0*d", digits, bin%mod)
}
