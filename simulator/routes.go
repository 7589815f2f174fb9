package simulator

import (
	"github.com/campusconf/campusconf/fixtures"
	"net/http"
	"strings"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// operation is one operation of the interface: where it lives, who may
// call it, and its handler.
type operation struct {
	// id is the specification's id (E1..E21) or, for the operations the
	// specification does not place, the fixture key.
	id     string
	method string
	path   string
	// access says who may call it beyond holding valid credentials.
	access access
	handle func(s *Simulator, w http.ResponseWriter, r *http.Request, u store.User)
}

// access is a rule of the role model (docs/decisions.md, "Who is calling").
type access int

const (
	anyone       access = iota // every authenticated user
	notStudent                 // refused to students (writes and log reads)
	superAdmin                 // E4: Super Admin only, as the specification states
	accessDelete               // E5: Access_Delete on the module, as the specification states
)

// operations is the one route table of the interface.
var operations = []operation{
	{"E1", http.MethodPost, "/campus/2FA/Auth", anyone, (*Simulator).validateOTP},
	{"E2", http.MethodPost, "/campus/2FA/Poll", anyone, (*Simulator).pollPush},
	{"E3", http.MethodPost, "/campus/2FA/Push", anyone, (*Simulator).sendPush},
	{"E4", http.MethodPost, "/campus/Faculty", superAdmin, (*Simulator).syncFaculties},
	{"E5", http.MethodDelete, "/consultation/Slot", accessDelete, (*Simulator).deleteSlots},
	{"E6", http.MethodPost, "/bank/{id}/copy", notStudent, (*Simulator).copyBankFolder},
	{"E7", http.MethodPost, "/Attendance/Default", notStudent, (*Simulator).addDefaultAttendance},
	{"E8", http.MethodDelete, "/Attendance/{$}", notStudent, (*Simulator).deleteAttendances},
	{"E9", http.MethodGet, "/evaluation/{evaluationid}/Question/{id}", anyone, (*Simulator).getQuestion},
	{"E10", http.MethodGet, "/files/{id}/downloaded", notStudent, (*Simulator).fileDownloadLogs},
	{"E11", http.MethodGet, "/files/FileAnnotation/{id}/all", anyone, (*Simulator).fileAnnotations},
	{"E12", http.MethodGet, "/module/Weblink/{ID}/Log", notStudent, (*Simulator).weblinkLogs},
	{"E13", http.MethodGet, "/multimedia/{id}/downloadlog", notStudent, (*Simulator).mediaDownloadLog},
	{"E14", http.MethodDelete, "/multimedia/media", notStudent, (*Simulator).deleteMedia},
	{"E15", http.MethodGet, "/multimedia/statistics/channel/{id}/users", notStudent, (*Simulator).channelUsers},
	{"E16", http.MethodGet, "/multimedia/capture/{id}/medias", notStudent, (*Simulator).captureSessions},
	{"E17", http.MethodGet, "/survey/question/{id}/response", anyone, (*Simulator).surveyResponses},
	{"E18", http.MethodGet, "/poll/Question/{id}/Response", anyone, (*Simulator).pollResponses},
	{"E19", http.MethodGet, "/poll/Response/{id}", anyone, (*Simulator).pollResponse},
	{"E20", http.MethodGet, "/resource/{id}/students", anyone, (*Simulator).resourceStudents},
	{"E21", http.MethodPut, "/weblecture/session/publish", notStudent, (*Simulator).publishSessions},
	{"GB", http.MethodPatch, "/gradebook/{id}/settings", notStudent, (*Simulator).updateGradebook},
	{"ES", http.MethodPatch, "/evaluation/{id}/session", notStudent, (*Simulator).updateEvaluationSession},
	{"NG", http.MethodGet, "/notification/group/{id}", notStudent, (*Simulator).notificationByGroup},
	{"NR", http.MethodPut, "/notification/read", notStudent, (*Simulator).updateNotificationRead},
	{"QS", http.MethodPut, "/quiz/section", notStudent, (*Simulator).updateQuizSection},
}

// OperationIDs returns the id of every operation (E1..E21, GB, ES, NG,
// NR, QS), in route table order.
func OperationIDs() []string {
	out := make([]string, len(operations))
	for i, op := range operations {
		out[i] = fixtures.OperationID(op.id)
	}
	return out
}

// defectiveAccess is the access rule of op, as the enabled defects loosen
// it.
func (s *Simulator) defectiveAccess(op operation) access {
	switch {
	case op.access == notStudent && s.defects.Has(defects.StudentsAllowed):
		return anyone
	case op.id == "E4" && s.defects.Has(defects.E4AnyStaff):
		return notStudent
	case op.id == "E5" && s.defects.Has(defects.E5StaffMayDelete):
		return notStudent
	}
	return op.access
}

// routes builds the handler: logging and the front checks (front.go)
// around one ServeMux.
func (s *Simulator) routes() http.Handler {
	mux := http.NewServeMux()
	for _, op := range operations {
		op.access = s.variantAccess(s.defectiveAccess(op))
		method, path := s.place(op)
		mux.Handle(method+" "+path, s.declaring(s.shaping(op.id, s.rewriting(op.id, s.generatorFaults(op.id, s.operation(op))))))
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
	mux.HandleFunc("/", s.noRoute(mux))
	h := s.front(mux)
	if s.opts.Docs {
		h = s.withDocs(h)
	}
	return s.logged(h)
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

// declaring carries out the answers-text-plain defect: JSON answers go out
// declared as text/plain. Without it it returns next itself.
func (s *Simulator) declaring(next http.Handler) http.Handler {
	if !s.defects.Has(defects.AnswersTextPlain) {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&textPlainWriter{ResponseWriter: w}, r)
	})
}

// textPlainWriter re-declares a JSON answer as text/plain when its header
// is sent.
type textPlainWriter struct {
	http.ResponseWriter
	sent bool
}

func (t *textPlainWriter) WriteHeader(status int) {
	if t.sent {
		return
	}
	t.sent = true
	h := t.Header()
	if strings.HasPrefix(h.Get("Content-Type"), "application/json") {
		h.Set("Content-Type", "text/plain; charset=utf-8")
	}
	t.ResponseWriter.WriteHeader(status)
}

func (t *textPlainWriter) Write(p []byte) (int, error) {
	t.WriteHeader(http.StatusOK)
	return t.ResponseWriter.Write(p)
}
