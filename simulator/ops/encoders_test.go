package ops

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
)

// TestFastFileLogJSON: the hand-written download-log encoder writes exactly
// what encoding/json writes, for awkward strings and for every entry of a
// seeded folder.
func TestFastFileLogJSON(t *testing.T) {
	odd := []string{"", "plain", `quote " and \ backslash`, "tab\tnewline\ncr\r", "\x00\x01\x1f", "<html>&amp;",
		"naïve café", "日本語", "line\u2028sep\u2029", "bad \xff utf8", "emoji 🎓"}
	var logs []store.FileLog
	for i, s := range odd {
		logs = append(logs, store.FileLog{Action: "Download File", Name: s, FileName: s, Email: s,
			LogDate: time.Date(2025, 1, 6, 8, 0, i, i*1000, time.UTC)})
	}
	env, refs := newTestEnv(t, 3, 1)
	if l, ok := env.store.FileLogs(refs.Folder); ok {
		page, err := l.Page(listing.Query{Limit: 1000}, nil)
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, page...)
	}
	for i := range logs {
		got := appendFileLogs(nil, logs[i:i+1])
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(logs[i : i+1]); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("entry %d:\n got %s\nwant %s", i, got, want.Bytes())
		}
	}
	if len(logs) < len(odd)+4 {
		t.Errorf("only %d entries compared; the seeded folder's log should add at least 4", len(logs))
	}
}

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

// TestFastStudentPollNotificationJSON holds appendStudents,
// appendPollResponse and appendNotification to encoding/json: odd text,
// optional members present and absent, and every seeded record of their
// kind in the fixture's lists.
func TestFastStudentPollNotificationJSON(t *testing.T) {
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
	var students []store.Student
	var polls []store.PollResponse
	var notes []store.Notification
	for i, s := range odd {
		students = append(students, store.Student{ID: s, UserID: s, UserName: s, UserMatricNo: s, OfficialEmail: s, Email: s, UserFaculty: s, LoginDomain: s, Photo: odd[(i+1)%len(odd)]})
		var opts []int32
		if i%3 == 1 {
			opts = []int32{}
		} else if i%3 == 2 {
			opts = []int32{int32(i), -1, 1 << 30}
		}
		polls = append(polls, store.PollResponse{ID: s, QuestionID: s, CreatedDate: time.Date(2025, 4, 6, 8, 0, i, i*1000, time.UTC),
			CreatorID: s, UserID: s, UserName: s, UserMatrixNo: s, Photo: odd[(i+2)%len(odd)], SelectedOptions: opts, Text: s})
		notes = append(notes, store.Notification{ID: int64(i) * 1_000_003, TargetID: s, NotifyGroupID: s, Type: s,
			RecordDate: time.Date(2025, 4, 6, 8, 0, i, i*1000, time.UTC), NotifyMessage: s, NotifyStatus: int32(10 + i%2)})
	}
	if l, ok := env.store.Students(refs.Resource); ok {
		page, _ := l.Page(listing.Query{Limit: 1000}, nil)
		students = append(students, page...)
	}
	if l, ok := env.store.PollResponses(refs.PollQuestion); ok {
		page, _ := l.Page(listing.Query{Limit: 1000}, nil)
		polls = append(polls, page...)
	}
	if n, ok := env.store.Notification(refs.Notification); ok {
		notes = append(notes, n)
	}
	if len(students) < len(odd)+4 || len(polls) < len(odd)+1 || len(notes) < len(odd)+1 {
		t.Fatalf("compared %d students, %d poll responses, %d notifications: the seeded world should add some of each", len(students), len(polls), len(notes))
	}
	for i := range students {
		if got, want := appendStudents(nil, students[i:i+1]), encode(students[i:i+1]); !bytes.Equal(got, want) {
			t.Errorf("student %d:\n got %s\nwant %s", i, got, want)
		}
	}
	for i := range polls {
		if got, want := append(appendPollResponse(nil, &polls[i]), '\n'), encode(polls[i]); !bytes.Equal(got, want) {
			t.Errorf("poll response %d:\n got %s\nwant %s", i, got, want)
		}
	}
	for i := range notes {
		got, ok := appendNotification(nil, &notes[i])
		if want := encode(notes[i]); !ok || !bytes.Equal(got, want) {
			t.Errorf("notification %d (encoded: %v):\n got %s\nwant %s", i, ok, got, want)
		}
	}
	withAncestor := store.Notification{ID: 1, Ancestor: []store.Target{{ID: "x"}}}
	if _, ok := appendNotification(nil, &withAncestor); ok {
		t.Error("appendNotification encoded a notification with ancestors; expected ok=false so that front.WriteJSON encodes it")
	}
}
