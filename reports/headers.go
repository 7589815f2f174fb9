package reports

import (
	"maps"
	"net/http"
	"slices"

	"github.com/campusconf/campusconf/reports/redact"
)

// ResponseHeaders is red.Headers for what a target sent, bounded: at most
// maxNames header names (in name order) and MaxHeaderBytes of values, each
// value cut at MaxHeaderValue bytes after redaction. It also returns the
// number of header fields dropped or cut.
func ResponseHeaders(red *redact.Redactor, h http.Header, maxNames int) (map[string]string, int) {
	all := red.Headers(h)
	names := slices.Sorted(maps.Keys(all))
	dropped, total := 0, 0
	for i, name := range names {
		v := all[name]
		cut := len(v) > MaxHeaderValue
		if cut {
			v = truncateString(v, MaxHeaderValue) + "…"
		}
		if i >= maxNames || total+len(v) > MaxHeaderBytes {
			delete(all, name)
			dropped++
			continue
		}
		if cut {
			dropped++
		}
		total += len(v)
		all[name] = v
	}
	return all, dropped
}
