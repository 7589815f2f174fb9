package steps

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
)

// observation names what a check made of an answer: pass, fail, or skip
// (unobservable).
func observation(err error) string {
	if sk, ok := asSkip(err); ok {
		if sk.cause == reports.CauseUnobservable {
			return "skip"
		}
		return "skip(" + string(sk.cause) + ")"
	}
	if err != nil {
		return "fail"
	}
	return "pass"
}

// TestNoVacuousPass holds the field checks to "no pass without an
// observation": a check that is the scenario's observation skips when the
// answer leaves the optional field out, a check marked "where present"
// does not judge an absent field, and a required field or a field asked
// for by populate fails when absent.
func TestNoVacuousPass(t *testing.T) {
	tests := []struct {
		name        string
		op          registry.OpID
		query, body string
		check       func(context.Context) error
		want        string
	}{
		{"optional field there, right", "NR", "", `{"notifyStatus": 11}`,
			func(ctx context.Context) error { return fieldIs(ctx, "notifyStatus", "", "11", "") }, "pass"},
		{"optional field there, wrong", "NR", "", `{"notifyStatus": 10}`,
			func(ctx context.Context) error { return fieldIs(ctx, "notifyStatus", "", "11", "") }, "fail"},
		{"optional field absent", "NR", "", `{"id": 1}`,
			func(ctx context.Context) error { return fieldIs(ctx, "notifyStatus", "", "11", "") }, "skip"},
		{"optional field null", "NR", "", `{"notifyStatus": null}`,
			func(ctx context.Context) error { return fieldIs(ctx, "notifyStatus", "", "11", "") }, "skip"},
		{"optional field absent, where present", "NR", "", `{"id": 1}`,
			func(ctx context.Context) error { return fieldIs(ctx, "notifyStatus", "", "11", " where present") }, "pass"},
		{"required field absent", "QS", "", `{"id": "x"}`,
			func(ctx context.Context) error { return fieldIs(ctx, "name", "", `"a"`, "") }, "fail"},
		{"field asked for by populate, absent", "NG", "populate=ancestor", `{"id": 1}`,
			func(ctx context.Context) error { return fieldHasType(ctx, "ancestor", "array", "") }, "fail"},
		{"optional false absent", "E7", "", `{"id": "x"}`,
			func(ctx context.Context) error { return fieldIs(ctx, "publish", "", "false", "") }, "skip"},
		{"every entry, none carries the field", "E18", "", `[{"id": "a"}, {"id": "b"}]`,
			func(ctx context.Context) error { return everyEquals(ctx, "questionID", `"q"`, " where present") }, "skip"},
		{"every entry, one carries it rightly", "E18", "", `[{"id": "a"}, {"questionID": "q"}]`,
			func(ctx context.Context) error { return everyEquals(ctx, "questionID", `"q"`, " where present") }, "pass"},
		{"every entry, one carries it wrongly", "E18", "", `[{"id": "a"}, {"questionID": "r"}]`,
			func(ctx context.Context) error { return everyEquals(ctx, "questionID", `"q"`, " where present") }, "fail"},
		{"containing, no entry carries either field", "E10", "", `[{"action": "Download File"}]`,
			func(ctx context.Context) error { return everyContains(ctx, "name", "fileName", "x") }, "skip"},
		{"dates, no entry carries the field", "E10", "", `[{"action": "Download File"}]`,
			func(ctx context.Context) error {
				return everyTime(ctx, "logDate", "after", "2025-01-01T00:00:00Z")
			}, "skip"},
		{"weightages left out", "GB", "", `{"resourceID": "x"}`,
			func(ctx context.Context) error { return weightsEchoed(ctx) }, "skip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, s := answer(200, "application/json", tt.body)
			s.lastOp = tt.op
			s.lastReq = httptest.NewRequest("GET", "/x?"+tt.query, nil)
			if got := observation(tt.check(ctx)); got != tt.want {
				t.Errorf("%s on %s: expected %s, got %s", tt.op, tt.body, tt.want, got)
			}
		})
	}
}

// TestSaveBetween checks the bound the date scenarios send: strictly
// between the earliest and the latest instant of the list, whatever their
// offsets; unobservable when no entry is dated, and no bound at all where
// the list shows one instant only.
func TestSaveBetween(t *testing.T) {
	tests := []struct {
		name, body, want, verdict string
	}{
		{"two instants", `[{"logDate":"2025-01-01T00:00:00Z"},{"logDate":"2025-01-01T00:00:10Z"},{"x":1}]`, "2025-01-01T00:00:05Z", "pass"},
		{"offsets", `[{"logDate":"2025-01-01T08:00:00+08:00"},{"logDate":"2025-01-01T00:00:04Z"}]`, "2025-01-01T00:00:02Z", "pass"},
		{"one instant", `[{"logDate":"2025-01-01T00:00:00Z"},{"logDate":"2025-01-01T00:00:00Z"}]`, "", "skip(fixture)"},
		{"no dates", `[{"x":1}]`, "", "skip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, s := answer(200, "application/json", tt.body)
			s.lastOp = "E10"
			if got := observation(saveBetween(ctx, "logDate", "mid")); got != tt.verdict {
				t.Fatalf("expected %s, got %s", tt.verdict, got)
			}
			if got := s.saved["mid"].Str; got != tt.want {
				t.Errorf("expected %q saved, got %q", tt.want, got)
			}
		})
	}
}
