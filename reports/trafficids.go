package reports

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
)

// The example requests of a traffic report name records by the ids of the
// simulator's world. MapFixtureIDs says, for each, which fixture key it
// stands for, so that another tool (the app check) can replay the request
// against an implementation with the ids of that implementation's fixture:
// the id under "records.folder" here is the one under "records.folder"
// there.

// MapFixtureIDs fills the FixtureIDs of every example of t (of its
// operations, reliances and violations) from f, the fixture of the world
// that answered: each path parameter, and each query parameter and body
// member the registry says names a record (registry.Operation.IDs), whose
// value is an id of f's records or second factor, is mapped to that id's
// key ("records.folder", "records.deletableSlots.1"). Ids the fixture does
// not hold (records the app created) are left out.
func (t *TrafficReport) MapFixtureIDs(f *fixtures.File) {
	index := fixtureIndex(f)
	paths := map[string]string{}
	for _, o := range t.Operations {
		paths[o.Op] = o.Path
	}
	mapOne := func(e *wire.Example, op string) {
		if e == nil {
			return
		}
		if e.Op != "" {
			op = e.Op
		}
		e.FixtureIDs = exampleIDs(e, paths[op], op, index)
	}
	for i := range t.Operations {
		mapOne(t.Operations[i].Example, t.Operations[i].Op)
	}
	for i := range t.Relies {
		mapOne(t.Relies[i].Example, "")
	}
	for i := range t.Violations {
		op := ""
		if len(t.Violations[i].Ops) > 0 {
			op = t.Violations[i].Ops[0]
		}
		mapOne(&t.Violations[i].Example, op)
	}
}

// fixtureIndex maps each id the fixture's records and second factor's user hold
// (strings, and numbers as JSON writes them) to their keys, sorted.
func fixtureIndex(f *fixtures.File) map[string][]string {
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(f.JSON()))
	dec.UseNumber()
	if dec.Decode(&doc) != nil {
		return nil
	}
	index := map[string][]string{}
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				walk(key+"."+k, c)
			}
		case []any:
			for i, c := range x {
				walk(key+"."+strconv.Itoa(i), c)
			}
		case string:
			if x != "" {
				index[x] = append(index[x], key)
			}
		case json.Number:
			index[x.String()] = append(index[x.String()], key)
		}
	}
	walk("records", doc["records"])
	if sf, ok := doc["secondFactor"].(map[string]any); ok {
		// the user id only: the rest of it is a secret
		walk("secondFactor.userid", sf["userid"])
	}
	for _, keys := range index {
		slices.Sort(keys)
	}
	return index
}

// exampleIDs maps the ids e names to fixture keys; pattern is where its
// operation is served ("/files/{id}/downloaded"), op its id.
func exampleIDs(e *wire.Example, pattern, op string, index map[string][]string) map[string]string {
	var where map[string]string // location -> the registry's fixture key
	if o, ok := registry.Lookup(op); ok {
		where = o.IDs
	}
	out := map[string]string{}
	add := func(value, preferred string) {
		keys := index[value]
		if len(keys) == 0 {
			return
		}
		key := keys[0]
		for _, k := range keys {
			if preferred != "" && (k == preferred || strings.HasPrefix(k, preferred+".")) {
				key = k
				break
			}
		}
		out[value] = key
	}
	rawPath, rawQuery, _ := strings.Cut(e.Target, "?")
	if pattern != "" {
		ps, ts := strings.Split(pattern, "/"), strings.Split(rawPath, "/")
		for i, seg := range ps {
			name, ok := strings.CutPrefix(seg, "{")
			if !ok || i >= len(ts) {
				continue
			}
			name = strings.TrimSuffix(strings.TrimSuffix(name, "}"), "...")
			if v, err := url.PathUnescape(ts[i]); err == nil {
				add(v, where["path."+name])
			}
		}
	}
	if q, err := url.ParseQuery(rawQuery); err == nil {
		for loc, key := range where {
			if name, ok := strings.CutPrefix(loc, "query."); ok {
				for _, v := range q[name] {
					add(v, key)
				}
			}
		}
	}
	var body any
	dec := json.NewDecoder(strings.NewReader(e.Body))
	dec.UseNumber()
	if e.Body != "" && !e.BodyCut && dec.Decode(&body) == nil {
		for loc, key := range where {
			if members, ok := strings.CutPrefix(loc, "body."); ok {
				for _, v := range leaves(body, strings.Split(members, ".")) {
					add(v, key)
				}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// leaves returns the strings and numbers at path in v, a list's items
// each followed.
func leaves(v any, path []string) []string {
	switch x := v.(type) {
	case []any:
		var out []string
		for _, c := range x {
			out = append(out, leaves(c, path)...)
		}
		return out
	case map[string]any:
		if len(path) == 0 {
			return nil
		}
		return leaves(x[path[0]], path[1:])
	case string:
		if len(path) == 0 {
			return []string{x}
		}
	case json.Number:
		if len(path) == 0 {
			return []string{x.String()}
		}
	}
	return nil
}
