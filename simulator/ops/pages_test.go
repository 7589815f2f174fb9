package ops

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
)

// TestStreamedPageAsWhole: a long page written in pieces (streamPage) is
// byte for byte what front.WriteJSON writes for it, for the lists with their
// own encoder and for those encoding/json encodes.
func TestStreamedPageAsWhole(t *testing.T) {
	env, rec := newTestEnv(t, 5, 40)
	logs, _ := env.store.FileLogs(rec.Folder)
	students, _ := env.store.Students(rec.Resource)
	notes, _ := env.store.Annotations(rec.File)
	links, _ := env.store.WeblinkLogs(rec.Weblink)
	check := func(name string, n int, stream, whole func(w http.ResponseWriter)) {
		t.Helper()
		got, want := httptest.NewRecorder(), httptest.NewRecorder()
		stream(got)
		whole(want)
		if !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) || got.Header().Get("Content-Type") != want.Header().Get("Content-Type") {
			t.Errorf("%s (%d entries): streamed %d bytes (%s), whole %d bytes (%s); expected the same bytes and type",
				name, n, got.Body.Len(), got.Header().Get("Content-Type"), want.Body.Len(), want.Header().Get("Content-Type"))
		}
	}
	all := listing.Query{Limit: -1}
	l1, _ := logs.Page(all, nil)
	l2, _ := students.Page(all, nil)
	l3, _ := notes.Page(all, nil)
	l4, _ := links.Page(all, nil)
	check("download log", len(l1), func(w http.ResponseWriter) { streamPage(w, l1) }, func(w http.ResponseWriter) { front.WriteJSON(w, http.StatusOK, l1) })
	check("students", len(l2), func(w http.ResponseWriter) { streamPage(w, l2) }, func(w http.ResponseWriter) { front.WriteJSON(w, http.StatusOK, l2) })
	check("annotations", len(l3), func(w http.ResponseWriter) { streamPage(w, l3) }, func(w http.ResponseWriter) { front.WriteJSON(w, http.StatusOK, l3) })
	check("weblink log", len(l4), func(w http.ResponseWriter) { streamPage(w, l4) }, func(w http.ResponseWriter) { front.WriteJSON(w, http.StatusOK, l4) })
	// answerPage writes a whole list from the list's own entries: filled
	// on copies, in the query's order, the same bytes.
	fill := func(st *store.Student) { st.Photo = "photo of " + st.ID }
	filled := slices.Clone(l2)
	for i := range filled {
		fill(&filled[i])
	}
	check("students, whole and filled", len(l2), func(w http.ResponseWriter) { answerPage(env, w, students, all, page[store.Student]{fill: fill}) }, func(w http.ResponseWriter) { front.WriteJSON(w, http.StatusOK, filled) })
	if again, _ := students.Page(all, nil); !reflect.DeepEqual(again, l2) {
		t.Error("answerPage's fill changed the list's own entries; expected it to fill copies")
	}
	byName := listing.Query{Limit: -1, Sort: "userName", Desc: true}
	sorted, _ := students.Page(byName, nil)
	check("students, whole and sorted", len(sorted), func(w http.ResponseWriter) { answerPage(env, w, students, byName, page[store.Student]{}) }, func(w http.ResponseWriter) { front.WriteJSON(w, http.StatusOK, sorted) })
	if len(l1) <= streamedEntries || len(l3) <= 1 {
		t.Errorf("the download log has %d entries and the annotations %d: expected more than %d and more than 1, so that pieces are written", len(l1), len(l3), streamedEntries)
	}
}

// goneWriter is a client that went away after the first piece.
type goneWriter struct {
	*httptest.ResponseRecorder
	writes int
}

func (g *goneWriter) Write(b []byte) (int, error) {
	if g.writes++; g.writes > 1 {
		return 0, errors.New("connection reset by peer")
	}
	return g.ResponseRecorder.Write(b)
}

// TestStreamStopsWhenTheClientHasGone: a streamed list stops making
// entries at the first write that fails.
func TestStreamStopsWhenTheClientHasGone(t *testing.T) {
	entry := store.FileLog{Action: "Download File", Name: strings.Repeat("n", 200)}
	made, n := 0, 10*streamChunk/200
	streamEach(&goneWriter{ResponseRecorder: httptest.NewRecorder()}, func(fn func(*store.FileLog) bool) {
		for range n {
			made++
			e := entry
			if !fn(&e) {
				return
			}
		}
	})
	if made >= n/4 {
		t.Errorf("made %d of %d entries after the client went at the second piece of %d bytes; expected the stream to stop there", made, n, streamChunk)
	}
}

// TestListSpecOf: the list request each list operation reads is derived
// from its registry row, and is what the handlers used to spell out: the
// path parameter, paging, populate and the date range.
func TestListSpecOf(t *testing.T) {
	tests := []struct {
		op   registry.OpID
		want listSpec
	}{
		{registry.E10, listSpec{idParam: "id", paged: true, dates: [2]string{"StartDate", "EndDate"}}},
		{registry.E11, listSpec{idParam: "id"}},
		{registry.E12, listSpec{idParam: "ID"}},
		{registry.E15, listSpec{idParam: "id", paged: true, dates: [2]string{"startDate", "endDate"}}},
		{registry.E16, listSpec{idParam: "id"}},
		{registry.E17, listSpec{idParam: "id", paged: true, populate: true, populateOff: defects.E17PopulateUnsupported}},
		{registry.E18, listSpec{idParam: "id", paged: true, populate: true, populateOff: defects.E18PopulateUnsupported}},
		{registry.E20, listSpec{idParam: "id", paged: true, populate: true, populateOff: defects.E20PopulateUnsupported}},
	}
	served := map[registry.OpID]route{}
	for _, d := range domains {
		for id, rt := range d {
			if rt.list != nil {
				served[id] = rt
			}
		}
	}
	if len(served) != len(tests) {
		t.Errorf("got %d operations with a list handler, want the %d below", len(served), len(tests))
	}
	for _, tt := range tests {
		rt, ok := served[tt.op]
		if !ok {
			t.Errorf("%s: no list handler", tt.op)
			continue
		}
		tt.want.op = tt.op
		if got := listSpecOf(registry.Must(tt.op), rt.populateOff); got != tt.want {
			t.Errorf("listSpecOf(%s) = %+v, want %+v", tt.op, got, tt.want)
		}
	}
}
