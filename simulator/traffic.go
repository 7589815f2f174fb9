package simulator

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
)

// What the simulator tells a front end about its requests: the request
// rules each breaks (openapi.Violations, the proxy's reading too) and the
// documented choices its answer relied on (decisions.go). It is worked
// out only while someone reads it (the request log, a console watching,
// Options.TrafficReport); otherwise the layer below costs a context
// lookup.

// relyOn notes on r's log line that its answer depends on the choice d.
// Cheap and allocation-free; nothing happens when no log line is made.
func relyOn(r *http.Request, d decision) {
	if info, ok := r.Context().Value(infoKey{}).(*requestInfo); ok {
		info.relies |= 1 << d
	}
}

// inspect reads an operation's request against the request rules when
// someone consumes the result (opHandler calls it then): it keeps the body
// for the handler, lists the violations and notes the unplaced path.
func (h *opHandler) inspect(info *requestInfo, r *http.Request) {
	s, op, params := h.s, h.op, h.params
	if op.Unplaced() {
		info.relies |= 1 << dUnplacedPaths
	}
	var pv map[string]string
	if len(params) > 0 {
		pv = make(map[string]string, len(params))
		for _, p := range params {
			pv[p] = pathValue(r, p)
		}
	}
	var data []byte
	cut := false
	if r.Body != nil && r.Body != http.NoBody {
		var err error
		data, err = io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
		cut = err != nil || len(data) > MaxBodyBytes
		// the handler reads the same bytes, and what lies beyond them
		// (its own limit answers 413)
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(data), r.Body), r.Body}
	}
	if v := requestValidator(); v != nil {
		info.violations = v.Violations(op.ID, pv, queryOf(r).Values(), data, cut)
	}
	if s.traffic != nil && len(info.violations) > 0 {
		info.example = exampleOf(r, data, cut)
	}
}

// pathParams lists the names of the {parameters} of a route path.
func pathParams(path string) []string {
	var out []string
	for seg := range strings.SplitSeq(path, "/") {
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			out = append(out, strings.TrimSuffix(strings.TrimSuffix(name, "}"), "..."))
		}
	}
	return out
}

// requestValidator is the validator of the OpenAPI document, built once
// on first use (nil if the embedded document does not load, which its
// own tests rule out).
var requestValidator = sync.OnceValue(func() *openapi.Validator {
	v, err := openapi.NewValidator()
	if err != nil {
		return nil
	}
	return v
})

// Example is a request as the traffic record keeps it.
type Example = wire.Example

// exampleBodyBytes bounds the body an example request keeps.
const exampleBodyBytes = 4 << 10

// exampleOf is r as a traffic report shows it: method, path and query, and
// the start of its body. No header is kept, so neither the subscription
// key nor a token; a secret the app put in the query or the body is the
// report writer's to redact.
func exampleOf(r *http.Request, body []byte, cut bool) Example {
	e := Example{Method: r.Method, Target: logPath(r.URL.Path)}
	if r.URL.RawQuery != "" {
		e.Target += "?" + r.URL.RawQuery
	}
	if len(body) > exampleBodyBytes {
		body, cut = body[:exampleBodyBytes], true
	}
	e.Body, e.BodyCut = string(body), cut
	return e
}

// violationIDs lists the requirement ids of vs, each once, in order.
func violationIDs(vs []openapi.Violation) []string {
	if len(vs) == 0 {
		return nil
	}
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		if !slices.Contains(out, v.Requirement) {
			out = append(out, v.Requirement)
		}
	}
	return out
}

// idList is a list of ids on a log line: a JSON array in the JSON log, a
// comma-separated note in the text log.
type idList []string

// MarshalJSON writes the ids as a JSON array. Ids are letters, digits,
// dots and dashes, written as they are; anything else goes through
// encoding/json.
func (l idList) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 16*len(l)+2)
	b = append(b, '[')
	for i, id := range l {
		for _, c := range []byte(id) {
			if c < ' ' || c == '"' || c == '\\' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
				return json.Marshal([]string(l))
			}
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), id...), '"')
	}
	return append(b, ']'), nil
}

// MarshalText writes the ids comma-separated.
func (l idList) MarshalText() ([]byte, error) { return []byte(strings.Join(l, ",")), nil }

// trafficRecord accumulates the traffic record (wire.Traffic); one per
// server, every world feeding it.
type trafficRecord struct {
	mu       sync.Mutex
	since    time.Time
	requests int
	ops      map[string]*wire.OperationUse
	viols    map[string]*wire.ViolationUse
	relies   [numDecisions]struct {
		count int
		ops   []string
	}
}

func newTrafficRecord() *trafficRecord {
	return &trafficRecord{since: time.Now().UTC(), ops: map[string]*wire.OperationUse{}, viols: map[string]*wire.ViolationUse{}}
}

// add records one answered operation request.
func (t *trafficRecord) add(s *Simulator, info *requestInfo, status int) {
	if info.op == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.requests++
	u := t.ops[info.op]
	if u == nil {
		op := registry.Must(registry.OpID(info.op))
		method, path := s.place(operation{Operation: op})
		u = &wire.OperationUse{Op: info.op, Method: method, Path: path, Statuses: map[string]int{}}
		t.ops[info.op] = u
	}
	u.Count++
	u.Statuses[strconv.Itoa(status)]++
	for _, v := range info.violations {
		vu := t.viols[v.Requirement]
		if vu == nil {
			vu = &wire.ViolationUse{Requirement: v.Requirement, What: v.What, Example: info.example, Status: status}
			t.viols[v.Requirement] = vu
		}
		vu.Count++
		if !slices.Contains(vu.Ops, info.op) {
			vu.Ops = append(vu.Ops, info.op)
		}
	}
	for d := range numDecisions {
		if info.relies.has(d) {
			r := &t.relies[d]
			r.count++
			if !slices.Contains(r.ops, info.op) {
				r.ops = append(r.ops, info.op)
			}
		}
	}
}

// snapshot returns the record as it stands.
func (t *trafficRecord) snapshot() wire.Traffic {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := emptyTraffic()
	out.Since, out.Until, out.Requests = t.since, time.Now().UTC(), t.requests
	for _, id := range registry.IDs() {
		if u := t.ops[string(id)]; u != nil {
			c := *u
			c.Statuses = maps.Clone(u.Statuses)
			out.Operations = append(out.Operations, c)
		}
	}
	for _, req := range slices.Sorted(maps.Keys(t.viols)) {
		c := *t.viols[req]
		c.Ops = slices.Clone(c.Ops)
		out.Violations = append(out.Violations, c)
	}
	for d := range numDecisions {
		if r := t.relies[d]; r.count > 0 {
			dt := decisionTable[d]
			out.Relies = append(out.Relies, wire.Reliance{ID: dt.ID, Simulator: dt.Simulator, Instead: dt.Instead, Robust: dt.Robust,
				Section: dt.Section, Count: r.count, Ops: slices.Clone(r.ops)})
		}
	}
	return out
}

// Traffic returns what the app did since the simulator started (or since
// the record was last cleared): empty unless Options.TrafficReport is set.
func (s *Simulator) Traffic() wire.Traffic {
	if s.traffic == nil {
		return emptyTraffic()
	}
	return s.traffic.snapshot()
}

// emptyTraffic is a record of no traffic, its lists empty (JSON [], not
// null).
func emptyTraffic() wire.Traffic {
	return wire.Traffic{Operations: []wire.OperationUse{}, Violations: []wire.ViolationUse{}, Relies: []wire.Reliance{}}
}

// inspecting reports whether a request's violations and reliances have a
// reader: the request log, a console watching, the traffic record.
func (s *Simulator) inspecting() bool {
	return s.log != nil || s.traffic != nil || (s.events != nil && s.events.watchers.Load() > 0)
}

// noTrafficRecord is the control API's answer when no traffic is recorded.
const noTrafficRecord = "no traffic record: start the simulator with --report-dir"

// controlReport is POST /_sim/TOKEN/report: the traffic report written
// now, by Options.TrafficReport.
func (s *Simulator) controlReport(w http.ResponseWriter, r *http.Request) {
	if s.opts.TrafficReport == nil {
		s.fail(w, http.StatusNotFound, noTrafficRecord)
		return
	}
	where, err := s.opts.TrafficReport(s.Traffic())
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "traffic report: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"written": where})
}
