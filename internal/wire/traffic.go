package wire

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The record of what a front end did against the simulator: the
// simulator keeps it (GET /_sim/TOKEN/traffic) and the traffic report
// (`campusconf serve --report-dir`, reports.TrafficReport) shows it, both
// with these types and the same JSON. It holds no header value.

// Traffic is what an app did against the simulator since it started (or
// since the record was last cleared): the operations it called, the
// request rules its requests broke and the simulator's documented choices
// its answers relied on.
type Traffic struct {
	// Since and Until are the period the record covers: with serve
	// --state it goes on across restarts (Since is then the first
	// start, or when the record was last started over), and Restarts
	// counts the restarts within it.
	Since    time.Time `json:"since"`
	Until    time.Time `json:"until"`
	Restarts int       `json:"restarts,omitempty"`
	Requests int       `json:"requests"`
	// Operations are the operations called, in registry order.
	Operations []OperationUse `json:"operations"`
	// Violations are the request rules broken, by requirement id.
	Violations []ViolationUse `json:"violations"`
	// Relies are the choices relied on, in the simulator's order of its
	// decisions.
	Relies []Reliance `json:"relies"`
}

// Recorded is the period of a traffic record as the traffic report
// writes it (Traffic's Since and Until as RFC 3339 text, absent when the
// record is empty) and how many requests it counts: what the app check
// reads of a report and carries on into its result (reports.App).
type Recorded struct {
	Since    string `json:"since,omitempty"`
	Until    string `json:"until,omitempty"`
	Requests int    `json:"requests"`
}

// OperationUse is one operation the app called.
type OperationUse struct {
	Op string `json:"op"`
	// Method and Path are where the simulator serves it.
	Method string `json:"method"`
	Path   string `json:"path"`
	Count  int    `json:"count"`
	// Statuses counts the answers by status code, the code in decimal.
	Statuses map[string]int `json:"statuses"`
	// Example is one request of the app to it, the first answered 2xx
	// (else the first), to replay elsewhere (its FixtureIDs).
	Example *Example `json:"example,omitempty"`
}

// StatusList writes a count of answers by status code (as
// OperationUse.Statuses holds it) as "200 ×3, 400 ×1", in status order;
// "" when it counts none. The traffic report and the app check show it.
func StatusList(statuses map[string]int) string {
	var codes []int
	for k := range statuses {
		if n, err := strconv.Atoi(k); err == nil {
			codes = append(codes, n)
		}
	}
	slices.Sort(codes)
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%d ×%d", c, statuses[strconv.Itoa(c)])
	}
	return strings.Join(parts, ", ")
}

// ViolationUse is one request rule broken: its requirement, the
// operations that broke it, how often, and the first request that did.
type ViolationUse struct {
	Requirement string   `json:"requirement"`
	Ops         []string `json:"ops"`
	Count       int      `json:"count"`
	// What says what broke it in the example.
	What    string  `json:"what"`
	Example Example `json:"example"`
	// Status is what the simulator answered the example.
	Status int `json:"status"`
}

// Example is one request: method, path and query, and the start of its
// body (BodyCut when there was more). It holds no header, so neither the
// subscription key nor a token; a secret the app put in the query or the
// body is the report writer's to redact.
type Example struct {
	Method  string `json:"method"`
	Target  string `json:"target"`
	Body    string `json:"body,omitempty"`
	BodyCut bool   `json:"bodyCut,omitempty"`
	// Op is the operation the request called; User the fixture role
	// whose token it carried ("owner", "admin", ...; "" for none or a
	// token of no fixture user); ContentType its Content-Type; Status
	// what the simulator answered.
	Op          string `json:"op,omitempty"`
	User        string `json:"user,omitempty"`
	ContentType string `json:"contentType,omitempty"`
	Status      int    `json:"status,omitempty"`
	// FixtureIDs maps each record id the request names (in its path,
	// query or body, as written there) to the fixture key it stands for
	// ("records.folder", "records.deletableSlots.1": a list's element by
	// index, gjson's path syntax), so that the request can be replayed
	// against another implementation with the ids of its fixture. An id
	// of a record the app created is not in it.
	FixtureIDs map[string]string `json:"fixtureIds,omitempty"`
}

// Reliance is one documented choice of the simulator (docs/decisions.md,
// by id) the app's answers depended on: what the simulator does, what a
// real implementation may do instead, how to make the app robust to it,
// the section of docs/decisions.md, how often, and on which operations.
type Reliance struct {
	ID        string   `json:"id"`
	Simulator string   `json:"simulator"`
	Instead   string   `json:"instead"`
	Robust    string   `json:"robust"`
	Section   string   `json:"section"`
	Count     int      `json:"count"`
	Ops       []string `json:"ops"`
	// Example is one request whose answer relied on the choice, the
	// first answered 2xx (else the first).
	Example *Example `json:"example,omitempty"`
}
