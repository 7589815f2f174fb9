package reports

import "strings"

// What a test-report consumer counts. junit.xml and ctrf.json agree with
// the gate (the exit code): a consumer that counts failures and errors
// finds one exactly where the run fails. A failure or error the gate does
// not fail on (a SHOULD failure, a MUST failure the baseline excuses, an
// isolated error the verdict is judged beside, a failure an inconclusive
// run's setup explains) is written in one form consumers do not count,
// with the reason first in its message: JUnit's <skipped
// message="not counted (…): …"> with the failure's text in <system-out>,
// CTRF's status "other" with the same message (extra.outcome keeps the
// scenario's own outcome). A verdict the scenarios alone do not show (an
// inconclusive run, --strict) adds one case that fails or errs, named by
// its cause. Report.StrictJUnit keeps the older mapping, in which every
// failed scenario is a failure and every errored one an error.

// NotCounted starts the message of every failure or error junit.xml and
// ctrf.json write in the form consumers do not count.
const NotCounted = "not counted"

// gateView decides, for one finalized report, which scenarios the gate
// fails on.
type gateView struct {
	r       *Report
	strict  map[string]Strictness
	excused map[string]bool
}

func gateViewOf(r *Report) gateView {
	g := gateView{r: r, strict: map[string]Strictness{}, excused: map[string]bool{}}
	for _, q := range r.Requirements {
		g.strict[q.ID] = q.Strictness
	}
	if r.Gate != nil {
		for _, id := range r.Gate.Known {
			g.excused[id] = true
		}
	}
	return g
}

// counted says whether s's failure or error is one the gate fails on, and
// when not, why (the message's prefix).
func (g gateView) counted(s Scenario) (bool, string) {
	if g.r.StrictJUnit {
		return true, ""
	}
	switch s.Outcome {
	case Failed:
		if g.r.Verdict == VerdictInconclusive {
			return false, NotCounted + " (the run is " + Word(g.r.Verdict, g.r.VerdictCause) + ")"
		}
		must := false
		for _, id := range FailedRequirements(s) {
			st, ok := g.strict[id]
			if !ok {
				st = s.Strictness
			}
			if st == Must {
				if !g.excused[id] {
					return true, ""
				}
				must = true
			}
		}
		if must {
			return false, NotCounted + " (known failure, baseline)"
		}
		return false, NotCounted + " (SHOULD)"
	case Error:
		if g.r.VerdictCause == InconclusiveStopped || g.r.Strict && g.r.Verdict == VerdictNotConformant {
			return true, ""
		}
		return false, NotCounted + " (errored, the verdict judged on the rest)"
	}
	return true, ""
}

// runCase is the case a verdict the scenarios' counted failures do not
// show adds: its name and reason, and whether it is an error (else a
// failure). ok is false when none is added.
func (g gateView) runCase() (name, why string, isError, ok bool) {
	r := g.r
	if r.StrictJUnit {
		return "", "", false, false
	}
	switch r.Verdict {
	case VerdictInconclusive:
		switch r.VerdictCause {
		case InconclusiveSetup:
			return "setup", r.VerdictReason, true, true
		case InconclusiveStopped:
			return "target answering", r.VerdictReason, true, true
		case InconclusiveCutShort:
			return "run finished", r.VerdictReason, true, true
		case InconclusiveNothingJudged:
			return "something judged", r.VerdictReason, false, true
		}
	case VerdictNotConformant:
		for _, s := range r.Scenarios {
			if s.Outcome == Failed || s.Outcome == Error {
				if c, _ := g.counted(s); c {
					return "", "", false, false
				}
			}
		}
		return "verdict", r.VerdictReason, false, true
	}
	return "", "", false, false
}

// notCountedMessage is the message of a failure written in the form
// consumers do not count.
func notCountedMessage(prefix, msg string) string {
	return strings.TrimSuffix(prefix+": "+msg, ": ")
}
