package rules

import (
	"fmt"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
)

// Parts of a request a Problem can name.
const (
	InPath  = "path"
	InQuery = "query"
	InBody  = "body"
)

// Rules a problem of a request or of an answer can break. The first are
// those of a value against its declared schema; RuleJSON and RulePopulate
// are a request's only.
const (
	RuleType     = "type"
	RuleFormat   = "format"
	RuleEnum     = "enum"
	RuleMinimum  = "minimum"
	RuleMaximum  = "maximum"
	RuleRequired = "required"
	RuleNearMiss = "near-miss"
	RuleStatus   = "status"
	// RuleJSON: a body that is not well-formed JSON.
	RuleJSON = "json"
	// RulePopulate: a populate entity the operation does not accept.
	RulePopulate = "populate"
)

// The formats of a string the specification names.
const (
	FormatUUID     = "uuid"
	FormatDateTime = "date-time"
)

// Problem is one way a request departs from what the interface states
// (internal/openapi finds them, from its document).
type Problem struct {
	// In is InPath, InQuery or InBody; Name the parameter's name, or the
	// body member's JSON pointer ("" for the body as a whole).
	In, Name string
	// Rule is one of the Rule constants; Format the value's declared
	// format (FormatUUID, FormatDateTime), "" for none.
	Rule, Format, Message string
}

func (p Problem) String() string {
	where := p.In
	if p.Name != "" {
		where += " " + p.Name
	}
	return fmt.Sprintf("%s [%s]: %s", where, p.Rule, p.Message)
}

// Requirement suffixes of the request rules every operation they apply to
// shares: the operation's id, then the suffix, is the requirement's id
// (registry.OpID.Requirement).
const (
	SuffixUUID            = ".400.uuid"
	SuffixJSON            = ".400.json"
	SuffixRequired        = ".400.required"
	SuffixType            = ".400.type"
	SuffixPaging          = ".400.paging"
	SuffixDate            = ".400.date"
	SuffixRange           = ".range"
	SuffixPopulateUnknown = ".populate-unknown"
	// SuffixPopulate: an accepted populate entity is served.
	SuffixPopulate = ".populate"
)

// Requirements of the stated limits that belong to one operation.
const (
	// ReqGradingSchema: a grading schema entry lacking one of its two
	// required members is refused.
	ReqGradingSchema = "GB.400.schema"
	// ReqWeightageOver: an update leaving a module's weightages over
	// MaxWeightageTotal is refused, and no answer shows such a module.
	ReqWeightageOver = "GB.total-over"
	// ReqWeightageAtLimit: a total of exactly MaxWeightageTotal is
	// accepted.
	ReqWeightageAtLimit = "GB.total-100"
	// ReqQuestionOutside and ReqQuestionInside: an evaluation session
	// update carrying a question field outside QuestionLimits is
	// refused, one within them is not.
	ReqQuestionOutside = "ES.question-outside"
	ReqQuestionInside  = "ES.question-inside"
	// ReqDefaultPublish: a default attendance added without publish is
	// published (DefaultAttendancePublish).
	ReqDefaultPublish = "E7.default-publish"
	// ReqDefaultQuestionMark: a quiz section updated without
	// displayQuestionMark keeps it false (DefaultDisplayQuestionMark).
	ReqDefaultQuestionMark = "QS.default"
)

// ReadRequirement is the requirement of setting a notification's read
// status to read (ReadUnread or ReadRead): NR.unread or NR.read; "" for
// any other value, which the input refuses.
func ReadRequirement(read int64) string {
	switch read {
	case ReadUnread:
		return "NR.unread"
	case ReadRead:
		return "NR.read"
	}
	return ""
}

// ReadUpdateSets reports whether a notification's member is one a read
// update (NR) may answer otherwise than a read (NG) shows it afterwards:
// the status the update sets, the record's date, and the ancestors only
// populate fills. In every other member both carry, the record the update
// answers is the one the read shows (NR.read, NR.unread); the scenarios
// and the proxy compare the two answers with it.
func ReadUpdateSets(member string) bool {
	switch member {
	case "notifyStatus", "recordDate", "ancestor":
		return true
	}
	return false
}

// Refusal is what a request problem calls for.
type Refusal struct {
	// Requirement is the requirement whose refusal (400) the problem
	// calls for; "" when the specification states no such rule.
	Requirement string
	// Open, when Requirement is "", is the matter the specification
	// leaves open that the problem touches: any status the operation
	// documents in 2xx or 4xx is acceptable (Open.Accepts).
	Open *Open
}

// RefusalOf returns what a problem of a request of op calls for. A
// producer checks the requirement is in its catalogue before it judges by
// it: an operation has the requirements of the rules it takes part in
// only.
func RefusalOf(op registry.OpID, p Problem) Refusal {
	req := func(suffix string) Refusal { return Refusal{Requirement: op.Requirement(suffix)} }
	switch {
	case p.Rule == RulePopulate:
		return req(SuffixPopulateUnknown)
	case p.In == InPath:
		return req(SuffixUUID)
	case p.In == InQuery && (p.Name == "offset" || p.Name == "limit"):
		return req(SuffixPaging)
	case p.In == InQuery && p.Format == FormatUUID:
		return req(SuffixUUID)
	case p.In == InQuery && p.Format == FormatDateTime:
		return req(SuffixDate)
	case p.In == InQuery:
		// sortby, where and the other strings have no syntax the
		// specification states
		return Refusal{Open: &OpenQuerySyntax}
	case p.Rule == RuleJSON:
		return req(SuffixJSON)
	case p.Rule == RuleRequired && op == registry.GB && strings.Contains(p.Name, "gradingSchema/"):
		return Refusal{Requirement: ReqGradingSchema}
	case p.Rule == RuleRequired:
		return req(SuffixRequired)
	case p.Rule == RuleFormat:
		return req(SuffixUUID)
	case p.Rule == RuleType:
		return req(SuffixType)
	case p.Rule == RuleEnum || p.Rule == RuleMinimum || p.Rule == RuleMaximum:
		return req(SuffixRange)
	}
	return Refusal{}
}

// ValidityNotShown reports whether a request of op that breaks no stated
// rule may still be refused for a reason the request alone does not show,
// so a refusal of it is no verdict: a wrong one-time password (E1), a
// transaction id never issued (E2), a weightage total counting grade items
// the request does not name (GB), a body the specification does not
// describe (ES).
func ValidityNotShown(op registry.OpID) bool {
	switch op {
	case registry.E1, registry.E2, registry.GB, registry.ES:
		return true
	}
	return false
}
