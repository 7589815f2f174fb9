package ops

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"

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
type handler func(env *Env, w http.ResponseWriter, r *http.Request, u store.User)

// access is a rule of the role model (docs/decisions.md, "Who is calling").
type access int

const (
	anyone       access = iota // every authenticated user
	notStudent                 // refused to students (writes and log reads)
	superAdmin                 // E4: Super Admin only, as the specification states
	accessDelete               // E5: Access_Delete on the module, as the specification states
)

// route is who may call an operation and its handler: handle, or for a
// list operation list, served with the request read as the registry
// declares the operation (listSpecOf); populateOff is then the defect
// that leaves its populate unimplemented, if it takes populate.
type route struct {
	access      access
	handle      handler
	list        listHandler
	populateOff defects.Name
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
		h := rt.handle
		switch {
		case (rt.list != nil) == (h != nil), rt.list != nil && !op.List:
			panic("simulator: operation " + string(op.ID) + " must have one handler, a list handler only if the registry declares it a list")
		case rt.list != nil:
			h = listed(listSpecOf(op, rt.populateOff), rt.list)
		}
		out = append(out, operation{Operation: op, access: rt.access, handle: h})
	}
	if len(out) != len(handlers) {
		panic("simulator: a handler for an operation the registry does not know")
	}
	return out
}()

// defectiveAccess is the access rule of op, as the enabled defects loosen
// it.
func (env *Env) defectiveAccess(op operation) access {
	switch {
	case op.access == notStudent && env.defects.Has(defects.StudentsAllowed):
		return anyone
	case op.access == superAdmin && env.defects.Has(defects.E4AnyStaff):
		return notStudent
	case op.access == accessDelete && env.defects.Has(defects.E5StaffMayDelete):
		return notStudent
	}
	return op.access
}
