package ops

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
)

// TestFastAttendanceJSON holds appendAttendance to encoding/json, odd text
// and both flags included.
func TestFastAttendanceJSON(t *testing.T) {
	odd := []string{"", "plain", `quote " and \ backslash`, "tab\tnewline", "\x00\x1f", "<b>&amp;", "naïve", "line\u2028sep", "bad \xff utf8"}
	for i, s := range odd {
		a := store.Attendance{ID: "0b8f5c1e-8d1a-4c57-9a0e-0a8d8b5a8f11", Name: s, ResourceID: s, Publish: i%2 == 0,
			CreatedDate: time.Date(2025, 4, 6, 8, 0, i, i*1000, time.UTC), CreatorID: s, PhotoURL: s, UserName: s,
			UserID: s, UserMatricNo: s, Email: s, Description: s, IsDefault: i%3 == 0}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(a); err != nil {
			t.Fatal(err)
		}
		if got := appendAttendance(nil, &a); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("attendance %d:\n got %s\nwant %s", i, got, want.Bytes())
		}
	}
}

// TestPollResponseJSON holds appendPollResponse to encoding/json: odd
// text, optional members present and absent, and every seeded poll
// response of the fixture's question.
func TestPollResponseJSON(t *testing.T) {
	odd := []string{"", "plain", `quote " and \ backslash`, "tab\tnewline", "\x00\x1f", "<b>&amp;", "naïve", "line\u2028sep", "bad \xff utf8"}
	encode := func(v any) []byte {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		return want.Bytes()
	}
	env, refs := newTestEnv(t, 3, 1)
	var polls []store.PollResponse
	for i, s := range odd {
		var opts []int32
		if i%3 == 1 {
			opts = []int32{}
		} else if i%3 == 2 {
			opts = []int32{int32(i), -1, 1 << 30}
		}
		polls = append(polls, store.PollResponse{ID: s, QuestionID: s, CreatedDate: time.Date(2025, 4, 6, 8, 0, i, i*1000, time.UTC),
			CreatorID: s, UserID: s, UserName: s, UserMatrixNo: s, Photo: odd[(i+2)%len(odd)], SelectedOptions: opts, Text: s})
	}
	if l, ok := env.store.PollResponses(refs.PollQuestion); ok {
		page, _ := l.Page(listing.Query{Limit: 1000}, nil)
		polls = append(polls, page...)
	}
	if len(polls) < len(odd)+1 {
		t.Fatalf("compared %d poll responses: the seeded world should add some", len(polls))
	}
	for i := range polls {
		if got, want := append(appendPollResponse(nil, &polls[i]), '\n'), encode(polls[i]); !bytes.Equal(got, want) {
			t.Errorf("poll response %d:\n got %s\nwant %s", i, got, want)
		}
	}
}
