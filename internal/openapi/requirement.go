package openapi

import "github.com/campusconf/campusconf/internal/rules"

// The mapping of a shape problem to the requirement it breaks, shared by
// every producer that validates answers (the scenarios, the proxy), so
// traffic and suite name the same requirement.

// nested maps the records the catalogue has no requirements of their own
// for to the record that holds them.
var nested = map[string]string{
	"Tag":                "EvaluationQuestion",
	"Target":             "Notification",
	"Weightage":          "GradebookSettings",
	"GradingSchemaEntry": "GradebookSettings",
}

// Holder returns the record whose requirements (REC.<record>.…) cover
// record: the record holding it when it is nested in another (a tag in an
// evaluation question), else record itself.
func Holder(record string) string {
	if parent, ok := nested[record]; ok {
		return parent
	}
	return record
}

// Requirement names the requirement p breaks, a problem of a body an
// operation answered: a problem at the root breaks the operation's
// success requirement (success); a near-miss field name breaks
// REC.<record>.names; an enum or range with a requirement of its own
// (REC.<record>.<field>, if known says the catalogue has it) breaks that;
// anything else breaks REC.<record>.types, the record being its Holder.
func (p Problem) Requirement(success string, known func(id string) bool) string {
	if p.Record == "" {
		return success
	}
	if p.Field != "" && (p.Rule == rules.RuleEnum || p.Rule == rules.RuleMinimum || p.Rule == rules.RuleMaximum) {
		if id := "REC." + p.Record + "." + p.Field; known(id) {
			return id
		}
	}
	if p.Rule == rules.RuleNearMiss {
		return "REC." + Holder(p.Record) + ".names"
	}
	return "REC." + Holder(p.Record) + ".types"
}
