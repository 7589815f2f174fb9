package ops

import (
	"net/http"
	"strings"
	"time"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// fileDownloadLogs is E10.
func (env *Env) fileDownloadLogs(w http.ResponseWriter, r *http.Request, a listArgs) {
	dates := env.dateRange(a)
	search := a.query.Get("SearchText")
	fold := strings.ToLower
	if env.variants.Has(variants.SearchCaseSensitive) {
		fold = func(s string) string { return s }
	}
	search = fold(search)
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
	if !dates.Open() && env.defects.Has(defects.E10SearchOffWithDates) {
		search = ""
	}
	wide := env.defects.Has(defects.E10SearchWide)
	l, found := env.store.FileLogs(a.id)
	if !found && env.defects.Has(defects.UnknownParentListed) {
		l, _ = env.store.FileLogs(env.refs.Folder)
	}
	var keep func(*store.FileLog) bool
	if search != "" || !dates.Open() {
		var oldest time.Time
		if !dates.Open() && l != nil && env.defects.Has(defects.E10DatesDropFirst) {
			inRange, _ := l.Page(listing.Query{Limit: -1}, func(e *store.FileLog) bool { return dates.Holds(e.LogDate) })
			for _, e := range inRange {
				if oldest.IsZero() || e.LogDate.Before(oldest) {
					oldest = e.LogDate
				}
			}
		}
		keep = func(e *store.FileLog) bool {
			if !dates.Holds(e.LogDate) || !oldest.IsZero() && e.LogDate.Equal(oldest) {
				return false
			}
			return search == "" || strings.Contains(fold(e.Name), search) || strings.Contains(fold(e.FileName), search) ||
				wide && (strings.Contains(fold(e.FolderName), search) || strings.Contains(fold(e.Email), search))
		}
	}
	noteUnknown(r, found)
	answerPage(env, w, l, a.q, page[store.FileLog]{keep: keep, cacheAs: true})
}

// fileAnnotations is E11.
func (env *Env) fileAnnotations(w http.ResponseWriter, r *http.Request, a listArgs) {
	answerLog(env, w, r, a, env.store.Annotations, env.defects.Has(defects.LogsEmpty))
}

// filesRoutes are the routes of files: E10 lists the download log of a folder, E11 the annotations of a file.
var filesRoutes = map[registry.OpID]route{
	registry.E10: {access: notStudent, list: (*Env).fileDownloadLogs},
	registry.E11: {access: anyone, list: (*Env).fileAnnotations},
}
