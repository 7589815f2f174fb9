package listing

import (
	"net/url"
	"os"
	"strings"
)

// RawQuery is a request's query as sent (URL.RawQuery), read one
// parameter at a time. Lookup answers what url.ParseQuery's first value
// of a name would be, without building the url.Values map: a list request
// reads three or four parameters, and the map and its slices cost more
// than the rest of the query handling.
type RawQuery string

// rawScanMax is the longest query Lookup scans itself. A longer one (up
// to then at most 1024 parameters, far below url.ParseQuery's limit of
// 10,000) goes to url.ParseQuery, which owns that limit; so does every
// query when GODEBUG may change the limit (urlmaxqueryparams).
const rawScanMax = 1024

// parseAlways sends every query to url.ParseQuery: GODEBUG names
// urlmaxqueryparams, so the limit on parameters may be one a scan does not
// know.
var parseAlways = strings.Contains(os.Getenv("GODEBUG"), "urlmaxqueryparams")

// Lookup returns the first value of name, as url.ParseQuery reads the
// query: pairs joined by "&", a pair holding ";" or a bad %-escape in its
// name or value left out, "+" read as a space.
func (q RawQuery) Lookup(name string) (string, bool) {
	s := string(q)
	if len(s) > rawScanMax || parseAlways {
		v, _ := url.ParseQuery(s)
		return values(v).Lookup(name)
	}
	// one pass of plain byte loops: the strings functions cost more in
	// their set-up than a query of a few dozen bytes takes to walk
	for start := 0; start < len(s); {
		end, eq, escaped, semicolon := start, -1, false, false
		for ; end < len(s) && s[end] != '&'; end++ {
			switch s[end] {
			case '=':
				if eq < 0 {
					eq = end
				}
			case '%', '+':
				escaped = true
			case ';':
				semicolon = true
			}
		}
		pair := s[start:end]
		key, value := pair, ""
		if eq >= 0 {
			key, value = s[start:eq], s[eq+1:end]
		}
		start = end + 1
		if pair == "" || semicolon {
			continue
		}
		if !escaped {
			if key == name {
				return value, true
			}
			continue
		}
		k, err := url.QueryUnescape(key)
		if err != nil || k != name {
			continue
		}
		v, err := url.QueryUnescape(value)
		if err != nil {
			continue
		}
		return v, true
	}
	return "", false
}

// Get returns the first value of name, or "" (url.Values.Get).
func (q RawQuery) Get(name string) string {
	v, _ := q.Lookup(name)
	return v
}

// Values returns the whole query as url.Values (URL.Query), for a reader
// that wants every parameter.
func (q RawQuery) Values() url.Values {
	v, _ := url.ParseQuery(string(q))
	return v
}

// values is url.Values read as Parse reads a query.
type values url.Values

func (v values) Lookup(name string) (string, bool) {
	vals, ok := v[name]
	if !ok || len(vals) == 0 {
		return "", false
	}
	return vals[0], true
}

// params is what parse reads a query from: the first value of a
// parameter, its name matched exactly.
type params interface {
	Lookup(name string) (string, bool)
}
