// Package listing applies the list conventions of the simulator (offset,
// limit, sortby, where; see docs/decisions.md) to read-only lists, keeping a
// page cheap on very long lists: the default order is the stored order, and
// the order for each sort field is computed once per list and cached.
package listing

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// DefaultLimit and MaxLimit bound limit.
const (
	DefaultLimit = 100
	MaxLimit     = 1000
)

// SortSeparator joins several sort keys in one sortby, the simulator's
// choice (Conventions.Separator).
const SortSeparator = ","

// Query is a parsed list query.
type Query struct {
	Offset int
	// Limit is the most items returned; negative means no limit.
	Limit int
	// Sort is the field to sort by ("" keeps the stored order).
	Sort string
	Desc bool
	// Then are further sort keys, for entries equal on those before.
	Then []SortKey
	// WhereField and WhereValue keep only items whose field equals the
	// value, ignoring case ("" keeps everything).
	WhereField string
	WhereValue string
	// Reverse reverses the stored order when Sort is empty.
	Reverse bool
}

// SortKey is one key of a sort: a field and its direction.
type SortKey struct {
	Field string
	Desc  bool
}

// Conventions are the list conventions a simulator variant chooses where
// the specification leaves them open (see simulator/variants).
type Conventions struct {
	// DefaultLimit applies when limit is absent (negative: no limit).
	DefaultLimit int
	// MaxLimit is the largest limit accepted.
	MaxLimit int
	// MaxOffset is the largest offset accepted (0: any int32).
	MaxOffset int
	// DashSort reads sortby as "field" or "-field" (descending) instead of
	// "field [asc|desc]".
	DashSort bool
	// Separator joins several sort keys in one sortby ("": one key only).
	Separator string
}

// Parse reads offset, limit, sortby and where from v. defaultLimit applies
// when limit is absent (negative: no limit).
func Parse(v url.Values, defaultLimit int) (Query, error) {
	return ParseWith(v, Conventions{DefaultLimit: defaultLimit, MaxLimit: MaxLimit})
}

// ParseWith reads offset, limit, sortby and where from v under c.
func ParseWith(v url.Values, c Conventions) (Query, error) {
	return parse(values(v), c)
}

// ParseRaw is ParseWith on a query as sent, read without url.Values.
func ParseRaw(raw RawQuery, c Conventions) (Query, error) {
	return parse(raw, c)
}

// parse is ParseWith on any reader of parameters; generic, so that a
// RawQuery is not boxed.
func parse[P params](v P, c Conventions) (Query, error) {
	q := Query{Limit: c.DefaultLimit}
	var err error
	if s, ok := v.Lookup("offset"); ok {
		maxOffset := 1<<31 - 1
		if c.MaxOffset > 0 {
			maxOffset = c.MaxOffset
		}
		if q.Offset, err = nonNegative("offset", s, maxOffset); err != nil {
			return Query{}, err
		}
	}
	if s, ok := v.Lookup("limit"); ok {
		if q.Limit, err = nonNegative("limit", s, c.MaxLimit); err != nil {
			return Query{}, err
		}
	}
	if s, ok := v.Lookup("sortby"); ok && strings.TrimSpace(s) != "" {
		parts := []string{s}
		if c.Separator != "" {
			parts = strings.Split(s, c.Separator)
		}
		for i, part := range parts {
			k, err := sortKey(part, c.DashSort)
			if err != nil {
				return Query{}, err
			}
			if i == 0 {
				q.Sort, q.Desc = k.Field, k.Desc
			} else {
				q.Then = append(q.Then, k)
			}
		}
	}
	if s, ok := v.Lookup("where"); ok && s != "" {
		field, value, found := strings.Cut(s, ":")
		field = strings.TrimSpace(field)
		if !found || field == "" {
			return Query{}, fmt.Errorf("where: expected \"field:value\", got %q", s)
		}
		q.WhereField, q.WhereValue = field, value
	}
	return q, nil
}

// sortKey reads one sort key: "field [asc|desc]", or "field" and "-field"
// with dash.
func sortKey(s string, dash bool) (SortKey, error) {
	if dash {
		field := strings.TrimSpace(s)
		field, desc := strings.CutPrefix(field, "-")
		if field == "" || strings.ContainsAny(field, " -") {
			return SortKey{}, fmt.Errorf("sortby: expected \"field\" or \"-field\", got %q", s)
		}
		return SortKey{Field: field, Desc: desc}, nil
	}
	parts := strings.Fields(s)
	switch {
	case len(parts) == 1:
		return SortKey{Field: parts[0]}, nil
	case len(parts) == 2 && strings.EqualFold(parts[1], "asc"):
		return SortKey{Field: parts[0]}, nil
	case len(parts) == 2 && strings.EqualFold(parts[1], "desc"):
		return SortKey{Field: parts[0], Desc: true}, nil
	}
	return SortKey{}, fmt.Errorf("sortby: expected \"field\", \"field asc\" or \"field desc\", got %q", s)
}

func nonNegative(name, s string, max int) (int, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s: expected a non-negative int32, got %q", name, s)
	}
	if int(n) > max {
		return 0, fmt.Errorf("%s: expected at most %d, got %d", name, max, n)
	}
	return int(n), nil
}
