package ops

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// weblinkLogs is E12; an unknown weblink is 404.
func (env *Env) weblinkLogs(w http.ResponseWriter, r *http.Request, _ store.User) {
	a, ok := env.listRequest(w, r, listSpec{idParam: "ID"})
	if !ok {
		return
	}
	id, q := a.id, a.q
	l, ok := env.store.WeblinkLogs(id)
	if !ok {
		answerAbsent[store.WeblinkLog](env, w, q, env.defects.Has(defects.E12AbsentEmpty), "weblink "+id)
		return
	}
	if env.defects.Has(defects.LogsEmpty) {
		l = nil
	}
	answerPage(env, w, l, q, page[store.WeblinkLog]{cacheAs: true})
}

// modulesRoutes are the routes of module content: E12 lists the logs of a weblink.
var modulesRoutes = map[registry.OpID]route{
	registry.E12: {notStudent, (*Env).weblinkLogs},
}
