package ops

import (
	"net/http"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
)

// fileDownloadLogs is E10.
func (env *Env) fileDownloadLogs(w http.ResponseWriter, r *http.Request, _ store.User) {
	a, ok := env.listRequest(w, r, listSpec{idParam: "id", paged: true, dates: [2]string{"StartDate", "EndDate"}})
	if !ok {
		return
	}
	dates := env.dateRange(a)
	search := strings.ToLower(a.query.Get("SearchText"))
	if env.defects.Has(defects.E10SearchIgnored) {
		search = ""
	}
	if env.defects.Has(defects.E10DatesIgnored) {
		dates = store.Range{}
	}
	if !dates.Open() && env.defects.Has(defects.E10DatesDropAll) {
		front.WriteJSON(w, http.StatusOK, []store.FileLog{})
		return
	}
	var keep func(*store.FileLog) bool
	if search != "" || !dates.Open() {
		keep = func(e *store.FileLog) bool {
			if !dates.Holds(e.LogDate) {
				return false
			}
			return search == "" || strings.Contains(strings.ToLower(e.Name), search) || strings.Contains(strings.ToLower(e.FileName), search)
		}
	}
	l, found := env.store.FileLogs(a.id)
	noteUnknown(r, found)
	answerPage(env, w, l, a.q, page[store.FileLog]{keep: keep, cacheAs: true})
}

// fileAnnotations is E11.
func (env *Env) fileAnnotations(w http.ResponseWriter, r *http.Request, _ store.User) {
	answerLog(env, w, r, env.store.Annotations, env.defects.Has(defects.LogsEmpty))
}

// filesRoutes are the routes of files: E10 lists the download log of a folder, E11 the annotations of a file.
var filesRoutes = map[registry.OpID]route{
	registry.E10: {notStudent, (*Env).fileDownloadLogs},
	registry.E11: {anyone, (*Env).fileAnnotations},
}
