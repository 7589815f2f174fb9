package simulator

import (
	"net/http"
	"strings"
	"time"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// filesRoutes are the routes of files: E10 lists the download log of a folder, E11 the annotations of a file.
var filesRoutes = map[registry.OpID]route{
	registry.E10: {notStudent, (*Simulator).fileDownloadLogs},
	registry.E11: {anyone, (*Simulator).fileAnnotations},
}

// fileDownloadLogs is E10.
func (s *Simulator) fileDownloadLogs(w http.ResponseWriter, r *http.Request, _ store.User) {
	a, ok := s.listRequest(w, r, listSpec{idParam: "id", paged: true, dates: [2]string{"StartDate", "EndDate"}})
	if !ok {
		return
	}
	start, end := a.start, a.end
	search := strings.ToLower(a.query.Get("SearchText"))
	if s.defects.Has(defects.E10SearchIgnored) {
		search = ""
	}
	if s.defects.Has(defects.E10DatesIgnored) {
		start, end = time.Time{}, time.Time{}
	}
	if (!start.IsZero() || !end.IsZero()) && s.defects.Has(defects.E10DatesDropAll) {
		writeJSON(w, http.StatusOK, []store.FileLog{})
		return
	}
	var keep func(*store.FileLog) bool
	if search != "" || !start.IsZero() || !end.IsZero() {
		keep = func(e *store.FileLog) bool {
			if !start.IsZero() && e.LogDate.Before(start) || !end.IsZero() && e.LogDate.After(end) {
				return false
			}
			return search == "" || strings.Contains(strings.ToLower(e.Name), search) || strings.Contains(strings.ToLower(e.FileName), search)
		}
	}
	l, _ := s.store.FileLogs(a.id)
	answerPage(s, w, l, a.q, keep, nil)
}

// fileAnnotations is E11.
func (s *Simulator) fileAnnotations(w http.ResponseWriter, r *http.Request, _ store.User) {
	answerLog(s, w, r, s.store.Annotations, s.defects.Has(defects.LogsEmpty))
}
