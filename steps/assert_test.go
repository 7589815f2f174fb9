package steps

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
)

// The assertions of the steps, each against answers that keep and break
// it: a broken assertion fails here, in every CI run, rather than only in
// the kill matrix's run of the defect it misses.

// answerOf is answer with the catalogue loaded and one exchange made by
// op (the scenario's own operation, scenarioOp), for the checks that name
// a requirement.
func answerOf(t *testing.T, op, scenarioOp registry.OpID, status int, body string) (context.Context, *state) {
	t.Helper()
	cat, err := features.Load()
	if err != nil {
		t.Fatal(err)
	}
	ctx, s := answer(status, "application/json", body)
	s.env.cat = cat
	s.lastOp, s.op = op, scenarioOp
	s.exchanges = []reports.Exchange{{Status: status}}
	return ctx, s
}

// verdict sums up what a check returned: "" for a pass, the requirements
// its failure names (or "own" for the scenario's own) for a failure.
func verdict(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("expected a *Failure or nothing, got %v", err)
	}
	if len(f.Requirements) == 0 {
		return "own"
	}
	return strings.Join(f.Requirements, ",")
}

func TestStatusIs(t *testing.T) {
	tests := []struct {
		name       string
		op         registry.OpID // operation of the exchange (the scenario's is E7)
		status     int
		body       string
		want       []int
		jsonPatch  bool // the request was sent as application/json-patch+json
		wantBroken string
	}{
		{"the success expected", "E7", 201, `{}`, []int{201}, false, ""},
		{"either of two", "E5", 204, ``, []int{200, 204}, false, ""},
		{"another success", "E7", 200, `{}`, []int{201}, false, "E7.201"},
		{"a refusal of the scenario's call", "E7", 400, `"no"`, []int{201}, false, "own"},
		{"a refusal of a preparing call", "E9", 404, `"no"`, []int{200}, false, "E9.200"},
		{"an error expected, another came", "E7", 500, `"boom"`, []int{400}, false, "own"},
		{"the error expected, a JSON string", "E7", 400, `"resourceID: expected a uuid"`, []int{400}, false, ""},
		{"the error expected, an object", "E7", 400, `{"message":"no"}`, []int{400}, false, "ALL.error-body"},
		{"the error expected, no body", "E7", 403, ``, []int{403}, false, "ALL.error-body"},
		{"204 with a body", "E8", 204, `"gone"`, []int{204}, false, "E8.204"},
		{"415 for the documented media type", "E7", 415, `"no"`, []int{201}, true, "ALL.media-type"},
	}
	for _, tt := range tests {
		ctx, s := answerOf(t, tt.op, "E7", tt.status, tt.body)
		req, _ := http.NewRequest(http.MethodPost, "http://x.test/", nil)
		if tt.jsonPatch {
			req.Header.Set("Content-Type", jsonPatch)
		}
		s.lastReq = req
		err := stateFrom(ctx).statusIs(tt.want...)
		if got := verdict(t, err); got != tt.wantBroken {
			t.Errorf("%s: status %d, body %s, expecting %v: expected %q broken, got %q (%v)", tt.name, tt.status, tt.body, tt.want, tt.wantBroken, got, err)
		}
	}
	ctx, _ := answer(200, "", "")
	if err := stateFrom(ctx).statusIs(200); err == nil {
		t.Error("a status checked before any request: expected an error, got none")
	}
}

func TestRefusedForKey(t *testing.T) {
	for status, refused := range map[int]bool{400: true, 401: true, 403: true, 404: true, 429: true, 200: false, 302: false, 500: false} {
		ctx, _ := answerOf(t, "E10", "E10", status, `"no"`)
		if err := refusedForKey(ctx); (err == nil) != refused {
			t.Errorf("status %d: expected refused %v, got error %v", status, refused, err)
		}
	}
}

func TestListChecks(t *testing.T) {
	tests := []struct {
		name       string
		body       string
		check      func(context.Context) error
		wantBroken string
	}{
		{"at most 2 of 2", `[1,2]`, func(ctx context.Context) error { return listAtMost(ctx, "2") }, ""},
		{"at most 2 of 3", `[1,2,3]`, func(ctx context.Context) error { return listAtMost(ctx, "2") }, "own"},
		{"at most 0 of 0", `[]`, func(ctx context.Context) error { return listAtMost(ctx, "0") }, ""},
		{"at most 1 of an object", `{"items":[1]}`, func(ctx context.Context) error { return listAtMost(ctx, "1") }, "E10.200"},
		{"not empty", `[{}]`, listNotEmpty, ""},
		{"not empty, empty", `[]`, listNotEmpty, "own"},
		{"empty", `[]`, listEmpty, ""},
		{"empty, one entry", `[{}]`, listEmpty, "own"},
		{"every entry equal", `[{"a":"X"},{"a":"X"}]`, func(ctx context.Context) error { return everyEquals(ctx, "a", `"X"`, "") }, ""},
		{"every entry equal, one not", `[{"a":"X"},{"a":"Y"}]`, func(ctx context.Context) error { return everyEquals(ctx, "a", `"X"`, "") }, "own"},
		{"every entry after", `[{"d":"2026-01-02T00:00:00Z"}]`, func(ctx context.Context) error { return everyTime(ctx, "d", "after", "2026-01-01T00:00:00Z") }, ""},
		{"every entry after, one before", `[{"d":"2025-12-31T23:59:59Z"}]`, func(ctx context.Context) error { return everyTime(ctx, "d", "after", "2026-01-01T00:00:00Z") }, "own"},
		{"every entry at the bound", `[{"d":"2026-01-01T00:00:00Z"}]`, func(ctx context.Context) error { return everyTime(ctx, "d", "before", "2026-01-01T00:00:00Z") }, ""},
		{"sorted ascending", `[{"n":1},{"n":2},{"n":2}]`, func(ctx context.Context) error { return sortedBy(ctx, "n", "ascending") }, ""},
		{"sorted ascending, one out of order", `[{"n":2},{"n":1}]`, func(ctx context.Context) error { return sortedBy(ctx, "n", "ascending") }, "own"},
		{"sorted descending by date", `[{"d":"2026-02-01T00:00:00Z"},{"d":"2026-01-01T00:00:00+01:00"}]`, func(ctx context.Context) error { return sortedBy(ctx, "d", "descending") }, ""},
		{"non-empty field", `[{"s":"x"}]`, func(ctx context.Context) error { return everyNonEmpty(ctx, "s") }, ""},
		{"non-empty field, one empty", `[{"s":"x"},{"s":""}]`, func(ctx context.Context) error { return everyNonEmpty(ctx, "s") }, "own"},
	}
	for _, tt := range tests {
		ctx, _ := answerOf(t, "E10", "E10", 200, tt.body)
		if got := verdict(t, tt.check(ctx)); got != tt.wantBroken {
			t.Errorf("%s: body %s: expected %q broken, got %q", tt.name, tt.body, tt.wantBroken, got)
		}
	}
}

func TestFieldChecks(t *testing.T) {
	const body = `{"publish":true,"id":"0F8FAD5B-D9CB-469F-A165-70867728950E","mark":10,"name":"x","tags":[],"none":null}`
	tests := []struct {
		name   string
		check  func(context.Context) error
		passes bool
	}{
		{"true", func(ctx context.Context) error { return fieldIs(ctx, "publish", "", "true", "") }, true},
		{"true, is false", func(ctx context.Context) error { return fieldIs(ctx, "publish", "", "false", "") }, false},
		{"not false", func(ctx context.Context) error { return fieldIs(ctx, "publish", "not ", "false", "") }, true},
		{"a uuid in another case", func(ctx context.Context) error {
			return fieldIs(ctx, "id", "", `"0f8fad5b-d9cb-469f-a165-70867728950e"`, "")
		}, true},
		{"a number written otherwise", func(ctx context.Context) error { return fieldIs(ctx, "mark", "", "10.0", "") }, true},
		{"an absent field", func(ctx context.Context) error { return fieldIs(ctx, "missing", "", "true", "") }, false},
		{"an absent field, where present", func(ctx context.Context) error { return fieldIs(ctx, "missing", "", "true", " where present") }, true},
		{"a string", func(ctx context.Context) error { return fieldHasType(ctx, "name", "string", "") }, true},
		{"an integer", func(ctx context.Context) error { return fieldHasType(ctx, "mark", "integer", "") }, true},
		{"an integer, is a string", func(ctx context.Context) error { return fieldHasType(ctx, "name", "integer", "") }, false},
		{"a non-empty array, is empty", func(ctx context.Context) error { return fieldHasType(ctx, "tags", "non-empty array", "") }, false},
		{"a boolean, absent, where present", func(ctx context.Context) error { return fieldHasType(ctx, "none", "boolean", " where present") }, true},
	}
	for _, tt := range tests {
		ctx, _ := answerOf(t, "E7", "E7", 201, body)
		if err := tt.check(ctx); (err == nil) != tt.passes {
			t.Errorf("%s: expected pass %v, got %v", tt.name, tt.passes, err)
		}
	}
	ctx, _ := answerOf(t, "E14", "E14", 200, `"3"`)
	if got := verdict(t, bodyHasType(ctx, "integer")); got != "E14.count" {
		t.Errorf("a count sent as a string: expected E14.count broken, got %q", got)
	}
}

// TestNoEntryNames: the ancestors of a target leaving the target out pass,
// one naming it (in another case) fails, and an answer that shows nothing
// to compare is unobservable, never passed.
func TestNoEntryNames(t *testing.T) {
	const target = "0f8fad5b-d9cb-469f-a165-70867728950e"
	tests := []struct {
		name string
		body string
		want string // "pass", "fail" or "skip"
	}{
		{"other ancestors", `{"targetID":"` + target + `","ancestor":[{"id":"1f8fad5b-d9cb-469f-a165-70867728950e"}]}`, "pass"},
		{"the target among them", `{"targetID":"` + target + `","ancestor":[{"id":"1f8fad5b-d9cb-469f-a165-70867728950e"},{"id":"0F8FAD5B-D9CB-469F-A165-70867728950E"}]}`, "fail"},
		{"no targetID", `{"ancestor":[{"id":"` + target + `"}]}`, "skip"},
		{"no ancestor", `{"targetID":"` + target + `"}`, "skip"},
		{"empty ancestor", `{"targetID":"` + target + `","ancestor":[]}`, "skip"},
		{"ancestors without ids", `{"targetID":"` + target + `","ancestor":[{"name":"x"}]}`, "skip"},
	}
	for _, tt := range tests {
		ctx, _ := answerOf(t, "NG", "NG", 200, tt.body)
		err := noEntryNames(ctx, "ancestor", "id", "targetID")
		var sk *skip
		got := "pass"
		switch {
		case errors.As(err, &sk):
			got = "skip"
		case err != nil:
			verdict(t, err)
			got = "fail"
		}
		if got != tt.want {
			t.Errorf("%s: body %s: expected %s, got %s (%v)", tt.name, tt.body, tt.want, got, err)
		}
	}
}
