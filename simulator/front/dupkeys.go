package front

import (
	"bytes"
	"encoding/json"
	"strings"
)

// keyFrame is one open object or array while duplicateKey walks a value.
type keyFrame struct {
	object  bool
	wantKey bool                // the next string of an object is a member name
	member  []byte              // the member name this frame is the value of, for messages
	first   int                 // where the object's names start in the shared list
	set     map[string]struct{} // the names, once there are many
}

// maxLinearKeys is the object size above which names are kept in a map:
// a body of many names would otherwise cost time quadratic in its size.
const maxLinearKeys = 16

// duplicateKey reports the first member name that appears twice in one
// object, at any depth, and where: "the body" or the path of the object
// ("questions[].answers"). data must be valid JSON (parseBody decoded it
// first). Names are compared after unescaping, so "a" and "\u0061" are the
// same name. One pass over the bytes; names without escapes are compared
// in place.
func duplicateKey(data []byte) (at, name string, dup bool) {
	// The frames and the names of the open objects share two lists, so
	// a body of many small objects costs no allocation per object.
	var frames [16]keyFrame
	var names [64][]byte
	stack, keys := frames[:0], names[:0]
	var member []byte // the last member name read: the name of the next value
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '{', '[':
			f := keyFrame{object: c == '{', wantKey: c == '{', first: len(keys)}
			if top := len(stack) - 1; top >= 0 && stack[top].object {
				f.member = member // an array's elements are named by the array
			}
			stack = append(stack, f)
		case '}', ']':
			keys = keys[:stack[len(stack)-1].first]
			stack = stack[:len(stack)-1]
		case ',':
			if top := len(stack) - 1; top >= 0 && stack[top].object {
				stack[top].wantKey = true
			}
		case '"':
			start := i + 1
			escaped := false
			for i++; data[i] != '"'; i++ {
				if data[i] == '\\' {
					escaped = true
					i++
				}
			}
			top := len(stack) - 1
			if top < 0 || !stack[top].object || !stack[top].wantKey {
				continue // a string value
			}
			f := &stack[top]
			f.wantKey = false
			key := data[start:i]
			if escaped {
				var s string
				if err := json.Unmarshal(data[start-1:i+1], &s); err == nil {
					key = []byte(s)
				}
			}
			var seen bool
			if keys, seen = f.seen(keys, key); seen {
				return where(stack), string(key), true
			}
			member = key
		}
	}
	return "", "", false
}

// seen records key among the frame's names (keys[f.first:]) and reports
// whether it was there already.
func (f *keyFrame) seen(keys [][]byte, key []byte) ([][]byte, bool) {
	if f.set != nil {
		if _, ok := f.set[string(key)]; ok {
			return keys, true
		}
		f.set[string(key)] = struct{}{}
		return keys, false
	}
	for _, k := range keys[f.first:] {
		if bytes.Equal(k, key) {
			return keys, true
		}
	}
	keys = append(keys, key)
	if len(keys)-f.first > maxLinearKeys {
		f.set = make(map[string]struct{}, 2*maxLinearKeys)
		for _, k := range keys[f.first:] {
			f.set[string(k)] = struct{}{}
		}
		keys = keys[:f.first]
	}
	return keys, false
}

// where names the innermost object of stack for a message.
func where(stack []keyFrame) string {
	if len(stack) == 1 {
		return "the body"
	}
	var b strings.Builder
	for _, f := range stack[1:] {
		if len(f.member) > 0 {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.Write(f.member)
		}
		if !f.object {
			b.WriteString("[]")
		}
	}
	return b.String()
}
