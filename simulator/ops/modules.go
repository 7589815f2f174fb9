package ops

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// weblinkLogs is E12; an unknown weblink is 404.
func (env *Env) weblinkLogs(w http.ResponseWriter, r *http.Request, a listArgs) {
	l, ok := env.store.WeblinkLogs(a.id)
	if env.defects.Has(defects.WeblinkIDExactCase) && r.PathValue("ID") != a.id {
		ok = false
	}
	if !ok {
		answerAbsent[store.WeblinkLog](env, w, a.q, env.defects.Has(defects.E12AbsentEmpty), "weblink "+a.id)
		return
	}
	if env.defects.Has(defects.LogsEmpty) {
		l = nil
	}
	answerPage(env, w, l, a.q, page[store.WeblinkLog]{cacheAs: true})
}

// modulesRoutes are the routes of module content: E12 lists the logs of a weblink.
var modulesRoutes = map[registry.OpID]route{
	registry.E12: {access: notStudent, list: (*Env).weblinkLogs},
}
