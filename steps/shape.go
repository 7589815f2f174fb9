package steps

import (
	"fmt"
	"github.com/campusconf/campusconf/internal/registry"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/internal/openapi"
)

// checkShape validates a 2xx body against the OpenAPI document and turns
// each problem into the requirement it breaks: a near-miss field name
// breaks REC.<record>.names; an enum or range with a requirement of its own
// breaks that; any other type, format or required-field problem breaks
// REC.<record>.types; a problem at the root (an array where an object
// belongs) breaks the operation's success requirement.
func (s *state) checkShape() error {
	if s.status < 200 || s.status > 299 || len(s.body) == 0 {
		return nil
	}
	s.exercise(s.recordRequirements()...)
	problems := s.env.validator.Check(string(s.lastOp), s.status, s.body)
	if len(problems) == 0 {
		return nil
	}
	reqs := map[string]bool{}
	var lines []string
	for _, p := range problems {
		if p.Rule == "status" {
			continue // the status assertions judge the status
		}
		reqs[p.Requirement(s.successReq(s.lastOp), s.known)] = true
		lines = append(lines, fmt.Sprintf("  %s: %s", orRoot(p.Pointer), p.Message))
	}
	if len(lines) == 0 {
		return nil
	}
	ids := make([]string, 0, len(reqs))
	for id := range reqs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return s.fail(ids, "a body matching the interface's record definitions",
		fmt.Sprintf("%d problem(s)", len(lines)), strings.Join(lines, "\n"))
}

func (s *state) known(id string) bool {
	_, ok := s.env.cat.Requirement(id)
	return ok
}

func (s *state) successReq(op registry.OpID) string {
	if o, ok := s.env.cat.Operation(string(op)); ok && o.Success != "" {
		return o.Success
	}
	return ""
}

func orRoot(p string) string {
	if p == "" {
		return "(body)"
	}
	return p
}

// recordRequirements are the record-level requirements a body of the last
// operation exercises: those of its record and of the records it nests. A
// body holding no record (an empty list) exercises none, and a rule on one
// field (an enum, a range) is exercised only by a body where that field
// appears: a requirement is never counted as checked on nothing.
func (s *state) recordRequirements() []string {
	rec, _ := s.env.validator.RecordOf(string(s.lastOp), s.status)
	if rec == "" {
		return nil
	}
	body := s.json()
	if !holdsRecord(body) {
		return nil
	}
	keys := map[string]bool{}
	collectKeys(body, keys)
	var out []string
	for _, r := range s.env.cat.Requirements {
		name, field, _ := strings.Cut(strings.TrimPrefix(r.ID, "REC."), ".")
		if r.Operation != features.Records || (name != rec && openapi.Holder(name) != rec) {
			continue
		}
		if field != "names" && field != "types" && !keys[field] {
			continue
		}
		out = append(out, r.ID)
	}
	return out
}

// holdsRecord reports whether a body is a record or a list holding one.
func holdsRecord(v gjson.Result) bool {
	if v.IsObject() {
		return true
	}
	if v.IsArray() {
		for _, e := range v.Array() {
			if e.IsObject() {
				return true
			}
		}
	}
	return false
}

// collectKeys adds the member names of every object in v, at any depth,
// whose value is not null.
func collectKeys(v gjson.Result, keys map[string]bool) {
	switch {
	case v.IsObject():
		v.ForEach(func(k, e gjson.Result) bool {
			if e.Type != gjson.Null {
				keys[k.Str] = true
			}
			collectKeys(e, keys)
			return true
		})
	case v.IsArray():
		v.ForEach(func(_, e gjson.Result) bool {
			collectKeys(e, keys)
			return true
		})
	}
}

// exercise notes requirements a scenario checked beyond its own tags.
func (s *state) exercise(ids ...string) {
	if s.exercised == nil {
		s.exercised = map[string]bool{}
	}
	for _, id := range ids {
		s.exercised[id] = true
	}
}
