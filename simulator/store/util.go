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
