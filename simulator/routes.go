package simulator

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/simulator/devserver"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/ops"
)

// observed reports whether anything reads what each request did: the
// request log, the console's live log (with the control API on), the
// traffic record. Fixed when the simulator is built.
func (s *Simulator) observed() bool { return s.log != nil || s.events != nil || s.traffic != nil }

// entry is the layer in front of mux as the options stand (front.Entry).
func (s *Simulator) entry(mux http.Handler) http.Handler {
	c := front.Config{Defects: s.defects, Log: s.log, ControlPath: s.ControlPath(), Redactor: s.redactor, CORS: &s.cors}
	if s.events != nil || s.traffic != nil {
		c.Watch = &devserver.Watch{Events: s.events, Traffic: s.traffic, World: s.name, Variants: s.variants}
	}
	if s.opts.Docs {
		c.Docs, c.DocsPath = devserver.NewDocs(s.store, s.defects, s.variants, s.Fixtures), devserver.DocsPath
	}
	return front.NewEntry(mux, c)
}

// routes builds the handler: one entry layer (front.Entry: logging,
// docs, the front checks) around the route table, which it keeps for
// createsWorld.
func (s *Simulator) routes() http.Handler {
	t := s.routeTable()
	s.table.Store(t)
	return s.entry(t.Router())
}

// routeTable is one ServeMux of the operations' handlers (ops.Env.Mount)
// and of the endpoints beside them.
func (s *Simulator) routeTable() *front.RouteTable {
	mux := front.NewRouteTable()
	s.env.Mount(mux)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		front.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(openapi.JSON())
	})
	if s.opts.Control {
		devserver.Mount(mux, controlled{s}, s.control())
	}
	if s.opts.SelfReset {
		mux.HandleActing("POST "+ops.SelfResetPath, s.env.SelfReset)
	}
	mux.HandleFunc("/", front.NoRoute(mux.ServeMux, s.defects))
	return mux
}
