package openapi

import (
	"testing"

	"github.com/campusconf/campusconf/internal/rules"
)

func TestProblemRequirement(t *testing.T) {
	known := func(id string) bool { return id == "REC.EvaluationQuestion.difficultyLevel" }
	tests := []struct {
		name string
		p    Problem
		want string
	}{
		{"at the root", Problem{Rule: rules.RuleType}, "E9.200"},
		{"a near-miss name", Problem{Record: "Attendance", Field: "userMatrixNo", Rule: rules.RuleNearMiss}, "REC.Attendance.names"},
		{"a type", Problem{Record: "Attendance", Field: "publish", Rule: rules.RuleType}, "REC.Attendance.types"},
		{"a range with a rule of its own", Problem{Record: "EvaluationQuestion", Field: "difficultyLevel", Rule: rules.RuleMaximum}, "REC.EvaluationQuestion.difficultyLevel"},
		{"a range without one", Problem{Record: "EvaluationQuestion", Field: "mark", Rule: rules.RuleMinimum}, "REC.EvaluationQuestion.types"},
		{"a format of a nested record", Problem{Record: "Tag", Field: "id", Rule: rules.RuleFormat}, "REC.EvaluationQuestion.types"},
		{"a near-miss in a nested record", Problem{Record: "Target", Field: "typeId", Rule: rules.RuleNearMiss}, "REC.Notification.names"},
	}
	for _, tt := range tests {
		if got := tt.p.Requirement("E9.200", known); got != tt.want {
			t.Errorf("%s: %+v: expected %s, got %s", tt.name, tt.p, tt.want, got)
		}
	}
}
