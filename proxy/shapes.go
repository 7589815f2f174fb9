package proxy

import (
	"hash/maphash"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
)

// shapes remembers the shape problems (openapi.Validator.Check) of answers
// already judged, by operation, status and a hash of the body: the same
// bytes get the same verdict, and traffic repeats its answers (a page
// polled, a list read again), so each distinct answer is decoded and
// walked once. Validating a 20-entry page costs about 0.2 ms
// (BenchmarkCheck), most of the checks' time. Each cache holds at most
// maxShapes entries of a few words each; when full it starts over.
type shapes struct {
	seed  maphash.Seed
	m     memo[[]openapi.Problem]
	valid memo[bool] // whether a body is JSON
}

type shapeKey struct {
	op     registry.OpID
	status int
	sum    uint64
	n      int
}

const maxShapes = 4096

func newShapes() *shapes {
	return &shapes{seed: maphash.MakeSeed(), m: memo[[]openapi.Problem]{m: map[shapeKey][]openapi.Problem{}}, valid: memo[bool]{m: map[shapeKey]bool{}}}
}

// memo is one cache of verdicts by shapeKey, safe for concurrent use.
type memo[V any] struct {
	mu sync.Mutex
	m  map[shapeKey]V
}

// get returns the verdict remembered for k, else compute's, remembered.
// compute runs outside the lock: two checkers meeting the same new body
// at once both compute it, and agree.
func (c *memo[V]) get(k shapeKey, compute func() V) V {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = compute()
	c.mu.Lock()
	if len(c.m) >= maxShapes {
		clear(c.m)
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}

// check returns v.Check(op, status, body), from the cache when the same
// answer was judged before. A 64-bit hash of the body and its length name
// it: two different answers sharing both are not to be expected.
func (s *shapes) check(v *openapi.Validator, op registry.OpID, status int, body []byte) []openapi.Problem {
	k := shapeKey{op, status, maphash.Bytes(s.seed, body), len(body)}
	return s.m.get(k, func() []openapi.Problem { return v.Check(string(op), status, body) })
}

// json reports whether body is JSON (gjson.ValidBytes), from the cache
// when the same bytes were seen before.
func (s *shapes) json(body []byte) bool {
	k := shapeKey{sum: maphash.Bytes(s.seed, body), n: len(body)}
	return s.valid.get(k, func() bool { return gjson.ValidBytes(body) })
}
