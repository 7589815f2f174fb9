package conformance

import (
	"context"
	"testing"
)

// contextOf is the test's context, cancelled when the test ends, or a
// background context without a test.
func contextOf(t *testing.T) context.Context {
	if t == nil {
		return context.Background()
	}
	return t.Context()
}
