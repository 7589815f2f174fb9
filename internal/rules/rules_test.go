package rules

import (
	"slices"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
)

func TestOpenAccepts(t *testing.T) {
	documented := []int{200, 400, 403, 404, 500}
	tests := []struct {
		status int
		want   bool
	}{
		{200, true}, {400, true}, {404, true},
		{201, false}, // a 2xx the operation does not list
		{422, false}, // a 4xx it does not list
		{500, false}, // listed, but a server error is never a reading of an open point
		{302, false},
	}
	for _, tt := range tests {
		if got := OpenPaging.Accepts(tt.status, documented); got != tt.want {
			t.Errorf("Accepts(%d, %v): expected %v, got %v", tt.status, documented, tt.want, got)
		}
	}
}

func TestLimits(t *testing.T) {
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"mark 10000", Mark.Contains(10000), true},
		{"mark 10000.5", Mark.Contains(10000.5), false},
		{"mark -1", Mark.Contains(-1), false},
		{"difficultyLevel 4", DifficultyLevel.Contains(4), false},
		{"read 10", NotificationRead.Contains(ReadUnread), true},
		{"read 12", NotificationRead.Contains(12), false},
		{"total 100", WeightageOver(100, RoundingTolerance), false},
		{"total 100.001, to rounding", WeightageOver(100.001, RoundingTolerance), true},
		{"total 100.001, to a hundredth", WeightageOver(100.001, HundredthTolerance), false},
		{"total 100.01, to a hundredth", WeightageOver(100.01, HundredthTolerance), true},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: expected %v, got %v", tt.name, tt.want, tt.got)
		}
	}
	if got := VideoTimeStamp.String(); got != "0..2147483647" {
		t.Errorf("VideoTimeStamp: expected 0..2147483647, got %s", got)
	}
}

func TestKinds(t *testing.T) {
	k := Kinds()
	if len(k) != len(RuleKinds)+1 || k[len(k)-1] != KindGenerated {
		t.Errorf("Kinds: expected the rule kinds then generated, got %v", k)
	}
	k[0] = "changed"
	if RuleKinds[0] != KindStatus {
		t.Error("Kinds: expected a copy, got RuleKinds itself")
	}
	for _, l := range []Level{Must, Should} {
		if !l.Valid() {
			t.Errorf("%s: expected valid", l)
		}
	}
	if Level("must").Valid() {
		t.Error(`"must": expected invalid (levels are upper case)`)
	}
}

func TestRefusalOf(t *testing.T) {
	tests := []struct {
		name     string
		op       registry.OpID
		p        Problem
		want     string
		wantOpen bool
	}{
		{"a populate entity", registry.E17, Problem{In: InQuery, Name: "populate", Rule: RulePopulate}, "E17.populate-unknown", false},
		{"a path id", registry.E9, Problem{In: InPath, Name: "id", Rule: RuleFormat, Format: FormatUUID}, "E9.400.uuid", false},
		{"a paging value", registry.E10, Problem{In: InQuery, Name: "limit", Rule: RuleType}, "E10.400.paging", false},
		{"a date", registry.E15, Problem{In: InQuery, Name: "startDate", Rule: RuleFormat, Format: FormatDateTime}, "E15.400.date", false},
		{"a uuid in the query", registry.E15, Problem{In: InQuery, Name: "CampusId", Rule: RuleFormat, Format: FormatUUID}, "E15.400.uuid", false},
		{"a query string of no stated syntax", registry.E17, Problem{In: InQuery, Name: "where", Rule: RuleType}, "", true},
		{"a body that is not JSON", registry.E7, Problem{In: InBody, Rule: RuleJSON}, "E7.400.json", false},
		{"a grading schema entry's member", registry.GB, Problem{In: InBody, Name: "/gradingSchema/0/maxMark", Rule: RuleRequired}, ReqGradingSchema, false},
		{"a required member", registry.NR, Problem{In: InBody, Name: "/read", Rule: RuleRequired}, "NR.400.required", false},
		{"a uuid in the body", registry.E5, Problem{In: InBody, Name: "/iDs/0", Rule: RuleFormat}, "E5.400.uuid", false},
		{"a member's type", registry.QS, Problem{In: InBody, Name: "/name", Rule: RuleType}, "QS.400.type", false},
		{"a range", registry.NR, Problem{In: InBody, Name: "/read", Rule: RuleMaximum}, "NR.range", false},
	}
	for _, tt := range tests {
		got := RefusalOf(tt.op, tt.p)
		if got.Requirement != tt.want || (got.Open != nil) != tt.wantOpen {
			t.Errorf("%s: RefusalOf(%s, %+v): expected %q (open %v), got %q (open %v)", tt.name, tt.op, tt.p, tt.want, tt.wantOpen, got.Requirement, got.Open != nil)
		}
	}
}

func TestReadRequirement(t *testing.T) {
	for read, want := range map[int64]string{10: "NR.unread", 11: "NR.read", 12: "", 0: ""} {
		if got := ReadRequirement(read); got != want {
			t.Errorf("ReadRequirement(%d): expected %q, got %q", read, want, got)
		}
	}
}

func TestReadUpdateSets(t *testing.T) {
	for member, want := range map[string]bool{"notifyStatus": true, "recordDate": true, "ancestor": true,
		"id": false, "targetID": false, "notifyGroupId": false, "type": false, "notifyMessage": false} {
		if got := ReadUpdateSets(member); got != want {
			t.Errorf("ReadUpdateSets(%q): expected %v, got %v", member, want, got)
		}
	}
}

func TestAcceptedValues(t *testing.T) {
	tests := []struct {
		desc string
		want []string
	}{
		{"Related entities to fill in. Accepted values are Creator and ContentCount.", []string{"Creator", "ContentCount"}},
		{"Related entities to fill in. The accepted value is photo.", []string{"photo"}},
		{"Accepted values are lastUpdatedUser, Response and ResponseWithCreator.", []string{"lastUpdatedUser", "Response", "ResponseWithCreator"}},
		{"Ordering of the list.", nil},
		{"accepted values are A,B and  C .", []string{"A", "B", "C"}},
	}
	for _, tt := range tests {
		if got := AcceptedValues(tt.desc); !slices.Equal(got, tt.want) {
			t.Errorf("AcceptedValues(%q): expected %v, got %v", tt.desc, tt.want, got)
		}
	}
}

func TestEntities(t *testing.T) {
	tests := []struct {
		populate string
		want     []string
		hasPhoto bool
	}{
		{"photo", []string{"photo"}, true},
		{" Photo , Creator", []string{"Photo", "Creator"}, true},
		{"photo,,x", []string{"photo", "x"}, true},
		{"", nil, false},
		{"photos", []string{"photos"}, false},
	}
	for _, tt := range tests {
		if got := Entities(tt.populate); !slices.Equal(got, tt.want) {
			t.Errorf("Entities(%q): expected %q, got %q", tt.populate, tt.want, got)
		}
		if got := HasEntity(tt.populate, "photo"); got != tt.hasPhoto {
			t.Errorf("HasEntity(%q, photo): expected %v, got %v", tt.populate, tt.hasPhoto, got)
		}
	}
}
