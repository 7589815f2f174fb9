package steps

import (
	"fmt"
	"sort"
	"strings"
)

// nested maps records that the catalogue does not list on their own to the
// record that holds them.
var nested = map[string]string{
	"Tag":                "EvaluationQuestion",
	"Target":             "Notification",
	"Weightage":          "GradebookSettings",
	"GradingSchemaEntry": "GradebookSettings",
}

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
	problems := s.env.validator.Check(s.lastOp, s.status, s.body)
	if len(problems) == 0 {
		return nil
	}
	reqs := map[string]bool{}
	var lines []string
	for _, p := range problems {
		if p.Rule == "status" {
			continue // the status assertions judge the status
		}
		reqs[s.shapeRequirement(p.Record, p.Field, p.Rule)] = true
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

func (s *state) shapeRequirement(record, field, rule string) string {
	if record == "" {
		return s.successReq(s.lastOp)
	}
	if field != "" && (rule == "enum" || rule == "minimum" || rule == "maximum") {
		if id := "REC." + record + "." + field; s.known(id) {
			return id
		}
	}
	if parent, ok := nested[record]; ok {
		record = parent
	}
	if rule == "near-miss" {
		return "REC." + record + ".names"
	}
	return "REC." + record + ".types"
}

func (s *state) known(id string) bool {
	_, ok := s.env.cat.Requirement(id)
	return ok
}

func (s *state) successReq(op string) string {
	if o, ok := s.env.cat.Operation(op); ok && o.Success != "" {
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
// operation exercises: those of its record and of the records it nests.
func (s *state) recordRequirements() []string {
	rec, _ := s.env.validator.RecordOf(s.lastOp, s.status)
	if rec == "" {
		return nil
	}
	var out []string
	for _, r := range s.env.cat.Requirements {
		name, _, _ := strings.Cut(strings.TrimPrefix(r.ID, "REC."), ".")
		if r.Operation == "REC" && (name == rec || nested[name] == rec) {
			out = append(out, r.ID)
		}
	}
	return out
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
