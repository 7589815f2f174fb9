package simulator

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
	sim := newEnv(t, Options{Seed: 3})
	if l, ok := sim.sim.store.FileLogs(sim.fx.Records.Folder); ok {
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
