package reports

// The app check (`campusconf run --app-traffic FILE`): for each app whose
// traffic report (TrafficReport, recorded by `campusconf serve
// --report-dir`) the run was given, what the app relied on in the
// simulator's answers and what the target does instead. It is a verdict of
// its own per app and never changes the conformance verdict; `--app-gate`
// makes an app at risk fail the run.

import "github.com/campusconf/campusconf/internal/wire"

// AppVerdict is the conclusion on one app. The set is closed.
type AppVerdict string

// App verdicts.
const (
	// AppCompatible: every reliance and every operation the app used
	// that could be observed holds on the target, and at least one could.
	AppCompatible AppVerdict = "compatible"
	// AppAtRisk: at least one reliance or operation differs on the target.
	AppAtRisk AppVerdict = "at risk"
	// AppUnknown: nothing the app relied on could be observed (or the
	// traffic report could not be read).
	AppUnknown AppVerdict = "unknown"
)

// AppVerdicts is the closed set of app verdicts; the report's JSON Schema
// lists the same.
var AppVerdicts = []AppVerdict{AppCompatible, AppAtRisk, AppUnknown}

// Holding says whether one reliance holds on the target. The set is closed.
type Holding string

// Holdings.
const (
	// Holds: the target answers as the simulator did.
	Holds Holding = "holds"
	// Differs: the target answers otherwise; Target says how.
	Differs Holding = "differs"
	// Unobservable: the probe could not observe it; Why says why.
	Unobservable Holding = "unobservable"
)

// Holdings is the closed set of holdings.
var Holdings = []Holding{Holds, Differs, Unobservable}

// App is the check of one app's traffic report against the target.
type App struct {
	// Name names the app: the traffic report's file, as given.
	Name string `json:"name"`
	// Verdict is compatible, at risk or unknown; VerdictReason says why.
	Verdict       AppVerdict `json:"verdict"`
	VerdictReason string     `json:"verdictReason,omitempty"`
	// Recorded says when the traffic was recorded (its since and until)
	// and how many requests it counts.
	wire.Recorded
	// Relies are the simulator's choices the app relied on, each probed,
	// in the traffic report's order.
	Relies []AppReliance `json:"relies"`
	// Operations are the operations the app used, each called once.
	Operations []AppOperation `json:"operations"`
}

// AppReliance is one documented choice of the simulator (a decision id of
// docs/decisions.md) the app relied on, and what the target does there.
type AppReliance struct {
	ID string `json:"id"`
	// Ops are the operations on which the app relied on it.
	Ops []string `json:"ops,omitempty"`
	// Result says whether the choice holds on the target.
	Result Holding `json:"result"`
	// Request is the probe sent (method and target, no header), the app's
	// own request where the traffic report gave one.
	Request string `json:"request,omitempty"`
	// Simulator is what the simulator does (the traffic report's words or
	// the value observed of it), Target what the target did.
	Simulator string `json:"simulator"`
	Target    string `json:"target,omitempty"`
	// Why says why it could not be observed (Result unobservable).
	Why string `json:"why,omitempty"`
	// Robust is how to make the app robust to the difference.
	Robust string `json:"robust,omitempty"`
}

// AppOperation is one operation the app used: the status classes the
// simulator answered it and the class the target answered the probe.
type AppOperation struct {
	Op     string  `json:"op"`
	Result Holding `json:"result"`
	// Request is the probe sent (method and target, no header).
	Request string `json:"request,omitempty"`
	// Simulator lists the status classes the simulator answered ("2xx"),
	// Target the status the target answered.
	Simulator string `json:"simulator"`
	Target    string `json:"target,omitempty"`
	Why       string `json:"why,omitempty"`
}

// AppsAtRisk lists the names of the apps of r at risk.
func AppsAtRisk(r *Report) []string {
	var out []string
	for _, a := range r.Apps {
		if a.Verdict == AppAtRisk {
			out = append(out, a.Name)
		}
	}
	return out
}

// Conclude sets a's verdict from its reliances and operations: at risk
// when one differs, compatible when at least one holds and none differs,
// unknown when nothing could be observed.
func (a *App) Conclude() {
	var differs []string
	held := 0
	for _, r := range a.Relies {
		switch r.Result {
		case Differs:
			differs = append(differs, r.ID)
		case Holds:
			held++
		}
	}
	for _, o := range a.Operations {
		switch o.Result {
		case Differs:
			differs = append(differs, o.Op)
		case Holds:
			held++
		}
	}
	switch {
	case len(differs) > 0:
		a.Verdict = AppAtRisk
		a.VerdictReason = "differs on " + joinCapped(differs, 8)
	case held > 0:
		a.Verdict = AppCompatible
		a.VerdictReason = plural(held, "observation holds", "observations hold")
	default:
		a.Verdict = AppUnknown
		if a.VerdictReason == "" {
			a.VerdictReason = "nothing the app relied on could be observed"
		}
	}
}

// joinCapped joins at most n items with ", ", then "and N more".
func joinCapped(items []string, n int) string {
	shown, more := capList(items, n)
	s := ""
	for i, x := range shown {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	if more > 0 {
		s += " and " + plural(more, "more", "more")
	}
	return s
}
