package simulator

import (
	"net/http"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// operation is one operation of the interface as this simulator serves
// it: the registry's facts, who may call it and its handler.
type operation struct {
	registry.Operation
	// access says who may call it beyond holding valid credentials.
	access access
	handle handler
}

// handler serves one operation for the user u.
type handler func(s *Simulator, w http.ResponseWriter, r *http.Request, u store.User)

// access is a rule of the role model (docs/decisions.md, "Who is calling").
type access int

const (
	anyone       access = iota // every authenticated user
	notStudent                 // refused to students (writes and log reads)
	superAdmin                 // E4: Super Admin only, as the specification states
	accessDelete               // E5: Access_Delete on the module, as the specification states
)

// route is who may call an operation and its handler.
type route struct {
	access access
	handle handler
}

// domains are the route tables of what the simulator simulates, one per
// file of handlers (secondfactor.go, consultation.go, ...), each closing
// its file: it gives the file's operations their access rule and handler;
// where they live comes from the registry.
var domains = []map[registry.OpID]route{
	secondFactorRoutes,
	campusRoutes,
	consultationRoutes,
	bankRoutes,
	attendanceRoutes,
	evaluationRoutes,
	filesRoutes,
	modulesRoutes,
	multimediaRoutes,
	surveyPollRoutes,
	resourcesRoutes,
	webLectureRoutes,
	gradebookRoutes,
	notificationRoutes,
	quizRoutes,
}

// operations is the route table: every operation of the registry, in its
// order, with its handler. It panics when an operation has no handler or
// two, or a domain routes an operation the registry does not know.
var operations = func() []operation {
	handlers := map[registry.OpID]route{}
	for _, d := range domains {
		for id, rt := range d {
			if _, twice := handlers[id]; twice {
				panic("simulator: two handlers for operation " + string(id))
			}
			handlers[id] = rt
		}
	}
	var out []operation
	for _, op := range registry.All() {
		rt, ok := handlers[op.ID]
		if !ok {
			panic("simulator: no handler for operation " + string(op.ID))
		}
		out = append(out, operation{Operation: op, access: rt.access, handle: rt.handle})
	}
	if len(out) != len(handlers) {
		panic("simulator: a handler for an operation the registry does not know")
	}
	return out
}()

// routePattern is the ServeMux pattern of method and path: the registry
// writes a path ending in "/" as it is sent, and the pattern matches only
// that path ("{$}"), not the subtree.
func routePattern(method, path string) string {
	if strings.HasSuffix(path, "/") {
		path += "{$}"
	}
	return method + " " + path
}

// OperationIDs returns the id of every operation (registry.IDs), in route
// table order.
func OperationIDs() []string { return registry.Strings(registry.IDs()) }

// defectiveAccess is the access rule of op, as the enabled defects loosen
// it.
func (s *Simulator) defectiveAccess(op operation) access {
	switch {
	case op.access == notStudent && s.defects.Has(defects.StudentsAllowed):
		return anyone
	case op.ID == registry.E4 && s.defects.Has(defects.E4AnyStaff):
		return notStudent
	case op.ID == registry.E5 && s.defects.Has(defects.E5StaffMayDelete):
		return notStudent
	}
	return op.access
}

// routes builds the handler: one entry layer (front.go: logging, docs,
// the front checks) around one ServeMux of operation handlers
// (opHandler), most of which are found without it (fastroute.go).
func (s *Simulator) routes() http.Handler {
	mux := newRouteTable()
	for _, op := range operations {
		op.access = s.variantAccess(s.defectiveAccess(op))
		method, path := s.place(op)
		mux.handleOperation(routePattern(method, path), s.opHandler(op, path))
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(openapi.JSON())
	})
	if s.opts.Control {
		s.controlRoutes(mux)
	}
	if s.opts.SelfReset {
		mux.HandleFunc("POST "+selfResetPath, s.selfReset)
	}
	mux.HandleFunc("/", s.noRoute(mux.ServeMux))
	return s.entry(mux.router())
}

// noRoute answers requests no pattern matches: 405 when the path exists
// under another method, else 404, both with a JSON string body.
func (s *Simulator) noRoute(mux *http.ServeMux) http.HandlerFunc {
	methods := []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}
	return func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, m := range methods {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := mux.Handler(probe); pattern != "/" && pattern != "" {
				allow = append(allow, m)
			}
		}
		if len(allow) > 0 {
			for _, m := range allow {
				w.Header().Add("Allow", m)
			}
			s.fail(w, http.StatusMethodNotAllowed, "method "+r.Method+" is not allowed on "+r.URL.Path)
			return
		}
		s.fail(w, http.StatusNotFound, "no operation at "+r.Method+" "+r.URL.Path)
	}
}
