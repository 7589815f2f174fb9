package store

import "strconv"

func quote(s string) string { return strconv.Quote(s) }

// unique returns ids without repeats, in first-seen order.
func unique(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// lookup returns the record named id in the world's map m, read under the
// lock and passed through dup there, so that the caller shares none of
// the store's slices; false when there is none.
func lookup[T any](s *Store, m func(*World) map[string]T, id string, dup func(T) T) (T, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := m(s.w)[id]
	return dup(v), ok
}

// same is the copy of a record that holds no slice or map.
func same[T any](v T) T { return v }
