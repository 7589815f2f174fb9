package proxy

import (
	"hash/maphash"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/openapi"
)

// shapes remembers the shape problems (openapi.Validator.Check) of answers
// already judged, by operation, status and a hash of the body: the same
// bytes get the same verdict, and traffic repeats its answers (a page
// polled, a list read again), so each distinct answer is decoded and
// walked once. Validating a 20-entry page costs about 0.2 ms
// (BenchmarkCheck), most of the checks' time. The cache holds at most
// maxShapes entries of a few words each; when full it starts over.
type shapes struct {
	mu    sync.Mutex
	seed  maphash.Seed
	m     map[shapeKey][]openapi.Problem
	valid map[shapeKey]bool // whether a body is JSON
}

type shapeKey struct {
	op     string
	status int
	sum    uint64
	n      int
}

const maxShapes = 4096

func newShapes() *shapes {
	return &shapes{seed: maphash.MakeSeed(), m: map[shapeKey][]openapi.Problem{}, valid: map[shapeKey]bool{}}
}

// check returns v.Check(op, status, body), from the cache when the same
// answer was judged before. A 64-bit hash of the body and its length name
// it: two different answers sharing both are not to be expected.
func (s *shapes) check(v *openapi.Validator, op string, status int, body []byte) []openapi.Problem {
	k := shapeKey{op, status, maphash.Bytes(s.seed, body), len(body)}
	s.mu.Lock()
	ps, ok := s.m[k]
	s.mu.Unlock()
	if ok {
		return ps
	}
	ps = v.Check(op, status, body)
	s.mu.Lock()
	if len(s.m) >= maxShapes {
		clear(s.m)
	}
	s.m[k] = ps
	s.mu.Unlock()
	return ps
}

// json reports whether body is JSON (gjson.ValidBytes), from the cache
// when the same bytes were seen before.
func (s *shapes) json(body []byte) bool {
	k := shapeKey{sum: maphash.Bytes(s.seed, body), n: len(body)}
	s.mu.Lock()
	ok, seen := s.valid[k]
	s.mu.Unlock()
	if seen {
		return ok
	}
	ok = gjson.ValidBytes(body)
	s.mu.Lock()
	if len(s.valid) >= maxShapes {
		clear(s.valid)
	}
	s.valid[k] = ok
	s.mu.Unlock()
	return ok
}
