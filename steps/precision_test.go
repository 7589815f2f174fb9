package steps

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/reports"
)

// answer returns a context holding a scenario whose last answer is the one
// given, for the checks that read only the answer.
func answer(status int, contentType, body string) (context.Context, *state) {
	s := &state{env: &env{}, saved: map[string]gjson.Result{}, status: status, header: http.Header{}, body: []byte(body)}
	if contentType != "" {
		s.header.Set("Content-Type", contentType)
	}
	return context.WithValue(context.Background(), stateKey{}, s), s
}

func TestAnswerDeclaredJSON(t *testing.T) {
	tests := []struct {
		name, contentType, body string
		status                  int
		wantErr                 bool
	}{
		{"application/json", "application/json", `"x"`, 404, false},
		{"with charset", "application/json; charset=utf-8", `{}`, 200, false},
		{"a +json type", "application/problem+json", `"x"`, 400, false},
		{"text/plain", "text/plain; charset=utf-8", `{}`, 200, true},
		{"none", "", `[]`, 200, true},
		{"not +json", "text/x+json", `[]`, 200, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, _ := answer(tt.status, tt.contentType, tt.body)
			err := answerDeclaredJSON(ctx)
			if got := err != nil; got != tt.wantErr {
				t.Errorf("Content-Type %q: got error %v, want an error: %v", tt.contentType, err, tt.wantErr)
			}
		})
	}
	ctx, _ := answer(204, "", "")
	if _, ok := asSkip(answerDeclaredJSON(ctx)); !ok {
		t.Error("an answer with no body: expected a skip (nothing to declare), got none")
	}
}

func TestOTPNotConfirmed(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string // pass, fail or skip
	}{
		{"refused with a JSON string", 400, `"otp: not valid"`, "pass"},
		{"refused with an object", 403, `{"message":"no"}`, "fail"},
		{"200 with another status", 200, `{"status":"6004"}`, "pass"},
		{"200 without status: nothing shows the code refused", 200, `{}`, "skip"},
		{"200 confirming", 200, `{"status":"0000"}`, "fail"},
		{"a server error", 500, `"boom"`, "fail"},
		{"unavailable", 503, `"later"`, "fail"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, s := answer(tt.status, "application/json", tt.body)
			s.exercised = map[string]bool{}
			err := otpNotConfirmed(ctx)
			got := "pass"
			if sk, ok := asSkip(err); ok && sk.cause == reports.CauseUnobservable {
				got = "skip"
			} else if err != nil {
				got = "fail"
			}
			if got != tt.want {
				t.Errorf("%d %s: expected %s, got %s (%v)", tt.status, tt.body, tt.want, got, err)
			}
		})
	}
}

func TestDistinguishable(t *testing.T) {
	tests := []struct {
		name   string
		values []string // identities of the entries (rules.Identity)
		want   bool
	}{
		{"one entry", []string{"a"}, false},
		{"look-alikes", []string{"a", "a"}, false},
		{"two records", []string{"a", "b"}, true},
		{"an entry without identity", []string{"a", ""}, false},
	}
	for _, tt := range tests {
		if got := distinguishable(tt.values); got != tt.want {
			t.Errorf("%s: distinguishable = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestEveryFailsOnNothing(t *testing.T) {
	ctx, s := answer(200, "application/json", `[]`)
	if err := everyEquals(ctx, "questionID", `"x"`, ""); err == nil {
		t.Error("every entry of []: expected a failure (the fixture promises entries), got none")
	}
	s.body = []byte(`[{"questionID":"x"},{"other":1}]`)
	if err := everyEquals(ctx, "questionID", `"x"`, " where present"); err != nil {
		t.Errorf("an entry without the optional field: expected no failure where present, got %v", err)
	}
	if err := everyEquals(ctx, "questionID", `"x"`, ""); err == nil {
		t.Error("an entry without the field, not where present: expected a failure, got none")
	}
}

// TestEqualValues holds equalValues to judging decoded JSON values as
// cmp.Equal did before it: deeply, with null, an empty array and an empty
// object all different, and numbers by value.
func TestEqualValues(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{"same page", `[{"id":"a","n":1},{"id":"b","n":2}]`, `[{"id":"a","n":1},{"id":"b","n":2}]`, true},
		{"keys in another order", `[{"id":"a","n":1}]`, `[{"n":1,"id":"a"}]`, true},
		{"numbers by value", `[{"n":1}]`, `[{"n":1.0}]`, true},
		{"next page", `[{"id":"a"},{"id":"b"}]`, `[{"id":"c"},{"id":"d"}]`, false},
		{"one field differs deep down", `[{"o":{"p":[1,2]}}]`, `[{"o":{"p":[1,3]}}]`, false},
		{"shorter page", `[{"id":"a"},{"id":"b"}]`, `[{"id":"a"}]`, false},
		{"null and empty array", `[null]`, `[[]]`, false},
		{"empty array and empty object", `[[]]`, `[{}]`, false},
		{"number and string", `[1]`, `["1"]`, false},
		{"missing key and null", `[{"a":null}]`, `[{}]`, false},
	}
	for _, tt := range tests {
		a, b := gjson.Parse(tt.a).Value(), gjson.Parse(tt.b).Value()
		if got := equalValues(a, b); got != tt.want {
			t.Errorf("%s: equalValues(%s, %s) = %v, want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
		if got := cmp.Equal(a, b); got != tt.want {
			t.Errorf("%s: cmp.Equal(%s, %s) = %v, want %v: the two no longer agree", tt.name, tt.a, tt.b, got, tt.want)
		}
	}
}

// BenchmarkEqualPages compares two different pages of 1000 entries, as a
// walk through a large list does for each page (issue 30: cmp.Equal took
// most of a suite run at --scale 100 doing this).
func BenchmarkEqualPages(b *testing.B) {
	page := func(from int) []any {
		out := make([]any, 1000)
		for i := range out {
			out[i] = map[string]any{"id": fmt.Sprint(from + i), "name": "x", "n": float64(i)}
		}
		return out
	}
	first, next := page(0), page(1000)
	for b.Loop() {
		if equalValues(first, next) {
			b.Fatal("two different pages compared equal")
		}
	}
}
