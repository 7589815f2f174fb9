package reports

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

//go:embed templates
var templateFS embed.FS

var htmlTemplate = template.Must(template.New("report.html.tmpl").Funcs(template.FuncMap{
	"ms":       formatMillis,
	"pct":      percent,
	"oneline":  oneLine,
	"lower":    strings.ToLower,
	"join":     strings.Join,
	"outclass": outcomeClass,
	"resclass": resultClass,
	"oplabel":  operationLabel,
	"add":      func(a, b int) int { return a + b },
	"slug":     func(s any) string { return strings.ReplaceAll(fmt.Sprint(s), " ", "-") },
}).ParseFS(templateFS, "templates/report.html.tmpl"))

// WriteHTML writes r as one self-contained HTML page (report.html): styles
// and script are inline, nothing is fetched, so the page works from file://
// and as a CI artifact. A Content-Security-Policy meta tag forbids any fetch,
// so a later edit cannot add one by accident. r should be finalized.
func WriteHTML(w io.Writer, r *Report) error {
	v, err := newHTMLView(r)
	if err != nil {
		return err
	}
	return execute(w, htmlTemplate, v, HTMLFile)
}

// htmlView is what the page template reads; it holds no logic of its own.
type htmlView struct {
	R            *Report
	CSS          template.CSS
	JS           template.JS
	VerdictClass string
	VerdictText  string
	Kinds        []Kind
	MatrixOps    []string
	Matrix       []matrixRow
	Operations   []string // operations with scenarios, for the filter
	Failures     []scenarioView
	FailedReqs   []failedRequirementView
	Scenarios    []scenarioView
	Requirements []requirementView
	Outcomes     []outcomeCount
	Options      []keyValue
	// Conformance is the conformance report, whose profile table opens
	// the page: the claimed profiles, then the names of the others.
	Conformance ConformanceReport
	Claimed     []ProfileResult
	Unclaimed   []string
}

// failedRequirementView is one line of the failed requirements table.
type failedRequirementView struct {
	failedRequirement
	Text      string
	Scenarios int
}

// openFailures is how many failure cards start unfolded; the rest show
// their one-line summary, so a run with hundreds of failures stays
// readable.
const openFailures = 10

type outcomeCount struct {
	Outcome Outcome
	Label   string
	Count   int
}

type keyValue struct{ Key, Value string }

// matrixRow is one rule kind across the operations.
type matrixRow struct {
	Kind  Kind
	Cells []matrixCell
}

type matrixCell struct {
	Operation string
	Class     string
	Text      string
	Title     string
}

type scenarioView struct {
	Scenario
	Anchor   string
	Search   string
	Failed   []reqRef
	Severity string // "must" or "should", for failed scenarios
	Note     string
	// ShowMessage is false when the message only repeats expected and got.
	ShowMessage bool
	Open        bool
	Focus       *exchangeView
	Others      []exchangeView
	CurlID      string
	CurlLine    string
	StepLabel   string
}

type reqRef struct {
	ID         string
	Strictness Strictness
}

type exchangeView struct {
	Exchange
	Index            int
	RequestHeaders   []keyValue
	ResponseHeaders  []keyValue
	RequestBodyView  string
	ResponseBodyView string
	StatusClass      string
}

type requirementView struct {
	Requirement
	Search string
}

func newHTMLView(r *Report) (*htmlView, error) {
	css, err := templateFS.ReadFile("templates/report.css")
	if err != nil {
		return nil, err
	}
	js, err := templateFS.ReadFile("templates/report.js")
	if err != nil {
		return nil, err
	}
	v := &htmlView{
		R:   r,
		CSS: template.CSS(css),
		JS:  template.JS(js),
	}
	v.VerdictText = Headline(r)
	v.VerdictClass = verdictClass(r.Verdict)
	v.Outcomes = []outcomeCount{
		{Passed, "Passed", r.Counts.Passed},
		{Failed, "Failed", r.Counts.Failed},
		{Skipped, "Skipped", r.Counts.Skipped},
		{NotConfigured, "Not configured", r.Counts.NotConfigured},
		{Unsupported, "Unsupported", r.Counts.Unsupported},
		{Error, "Errored", r.Counts.Errored},
	}
	for _, k := range slices.Sorted(maps.Keys(r.Options)) {
		v.Options = append(v.Options, keyValue{k, r.Options[k]})
	}

	strict := map[string]Strictness{}
	for _, q := range r.Requirements {
		strict[q.ID] = q.Strictness
	}
	for i, s := range r.Scenarios {
		sv := newScenarioView(i, s, strict)
		v.Scenarios = append(v.Scenarios, sv)
		if s.Outcome == Failed || s.Outcome == Error {
			v.Failures = append(v.Failures, sv)
		}
		if !slices.Contains(v.Operations, s.Operation) {
			v.Operations = append(v.Operations, s.Operation)
		}
	}
	// MUST failures before SHOULD ones, then errors; report order within
	// each.
	slices.SortStableFunc(v.Failures, func(a, b scenarioView) int {
		return strings.Compare(a.Severity, b.Severity)
	})
	for i := range v.Failures {
		v.Failures[i].Open = i < openFailures
	}
	failedCount := map[string]int{}
	for _, s := range r.Scenarios {
		for _, id := range FailedRequirements(s) {
			failedCount[id]++
		}
	}
	text := map[string]string{}
	for _, q := range r.Requirements {
		text[q.ID] = q.Text
	}
	must, should := failedRequirements(r)
	for _, f := range append(must, should...) {
		v.FailedReqs = append(v.FailedReqs, failedRequirementView{f, text[f.ID], failedCount[f.ID]})
	}
	for _, q := range r.Requirements {
		v.Requirements = append(v.Requirements, requirementView{
			Requirement: q,
			Search:      strings.ToLower(strings.Join([]string{q.ID, q.Operation, string(q.Kind), q.Section, q.Text}, " ")),
		})
	}
	v.Kinds, v.MatrixOps, v.Matrix = buildMatrix(r, strict)
	v.Conformance = ConformanceOf(r)
	for _, p := range r.Profiles {
		if p.Result == ProfileUnsupported {
			v.Unclaimed = append(v.Unclaimed, p.Name)
		} else {
			v.Claimed = append(v.Claimed, p)
		}
	}
	return v, nil
}

func newScenarioView(i int, s Scenario, strict map[string]Strictness) scenarioView {
	sv := scenarioView{
		Scenario: s,
		Anchor:   "sc-" + strconv.Itoa(i+1),
		CurlID:   "curl-" + strconv.Itoa(i+1),
	}
	words := append([]string{s.ID, s.Name, s.Feature, s.Operation, string(s.Kind), s.SkipReason}, s.Requirements...)
	sv.Search = strings.ToLower(strings.Join(append(words, FailedRequirements(s)...), " "))
	switch s.Outcome {
	case Skipped, NotConfigured, Unsupported:
		sv.Note = s.SkipReason
		if s.SkipCause != "" {
			sv.Note = string(s.SkipCause) + ": " + s.SkipReason
		}
	case Failed, Error:
		failed := FailedRequirements(s)
		for _, id := range failed {
			st, ok := strict[id]
			if !ok {
				st = s.Strictness
			}
			sv.Failed = append(sv.Failed, reqRef{id, st})
		}
		switch {
		case s.Outcome == Error:
			sv.Severity = "xerror" // sorts after must and should
		case failedMust(s, failed, strict):
			sv.Severity = "must"
		default:
			sv.Severity = "should"
		}
		if f := s.Failure; f != nil {
			sv.Note = oneLine(f.Message)
			sv.StepLabel = f.Step
			repeats := f.Expected != "" && f.Got != "" &&
				strings.Contains(oneLine(f.Message), oneLine(f.Expected)) && strings.Contains(oneLine(f.Message), oneLine(f.Got))
			sv.ShowMessage = f.Message != "" && !repeats
		}
		sv.CurlLine = curlOf(s)
		focus := failureExchangeIndex(s)
		for j, ex := range s.Exchanges {
			ev := newExchangeView(j, ex)
			if j == focus {
				sv.Focus = &ev
			} else {
				sv.Others = append(sv.Others, ev)
			}
		}
	}
	return sv
}

func newExchangeView(i int, ex Exchange) exchangeView {
	ev := exchangeView{
		Exchange:         ex,
		Index:            i + 1,
		RequestHeaders:   sortedHeaders(ex.RequestHeaders),
		ResponseHeaders:  sortedHeaders(ex.ResponseHeaders),
		RequestBodyView:  prettyBody(ex.RequestBody),
		ResponseBodyView: prettyBody(ex.ResponseBody),
	}
	switch {
	case ex.Error != "" || ex.Status == 0:
		ev.StatusClass = "s-err"
	case ex.Status < 300:
		ev.StatusClass = "s-2xx"
	case ex.Status < 400:
		ev.StatusClass = "s-3xx"
	case ex.Status < 500:
		ev.StatusClass = "s-4xx"
	default:
		ev.StatusClass = "s-5xx"
	}
	return ev
}

func sortedHeaders(h map[string]string) []keyValue {
	var out []keyValue
	for _, k := range slices.Sorted(maps.Keys(h)) {
		out = append(out, keyValue{k, h[k]})
	}
	return out
}

// prettyBody indents a JSON body for reading; anything else, a cut body
// included, shows as recorded.
func prettyBody(s string) string {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') || !json.Valid([]byte(t)) {
		return s
	}
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(t), "", "  "); err != nil {
		return s
	}
	return b.String()
}

// buildMatrix returns the rule kinds, the operations, and one row per
// kind with a cell per operation. A cell sums up the scenarios of that
// operation and kind; where none ran, the results of the requirements of
// that operation and kind (a cross-cutting requirement is failed by
// scenarios of other kinds).
func buildMatrix(r *Report, strict map[string]Strictness) (kinds []Kind, ops []string, rows []matrixRow) {
	// The columns are the operations the report speaks of: a run's report
	// lists every requirement of the catalogue, run or not, so every
	// operation has its column even when --tags picked a few.
	kinds = slices.Clone(RuleKinds)
	type cellKey struct {
		op   string
		kind Kind
	}
	cells := map[cellKey]*matrixTally{}
	get := func(op string, kind Kind) *matrixTally {
		if !slices.Contains(ops, op) {
			ops = append(ops, op)
		}
		if !slices.Contains(kinds, kind) {
			kinds = append(kinds, kind)
		}
		k := cellKey{op, kind}
		if cells[k] == nil {
			cells[k] = &matrixTally{}
		}
		return cells[k]
	}
	for _, s := range r.Scenarios {
		t := get(s.Operation, s.Kind)
		switch s.Outcome {
		case Passed:
			t.passed++
		case Failed:
			if failedMust(s, FailedRequirements(s), strict) {
				t.failMust++
			} else {
				t.failShould++
			}
		case Skipped:
			t.skipped++
		case NotConfigured:
			t.notConf++
		case Unsupported:
			t.unsupported++
		}
	}
	for _, q := range r.Requirements {
		t := get(q.Operation, q.Kind)
		switch {
		case q.Result == ResultPassed:
			t.reqPassed++
		case q.Result == ResultFailed && q.Strictness == Should:
			t.reqFailShould++
		case q.Result == ResultFailed:
			t.reqFailMust++
		case q.Result == ResultUnsupported:
			t.reqUnsupported++
		default:
			t.reqNotRun++
		}
	}
	slices.SortFunc(ops, CompareOperations)
	for _, kind := range kinds {
		row := matrixRow{Kind: kind}
		for _, op := range ops {
			c := matrixCell{Operation: op, Class: "empty"}
			if t := cells[cellKey{op, kind}]; t != nil {
				c.Class, c.Text, c.Title = t.cell(op, kind)
			}
			row.Cells = append(row.Cells, c)
		}
		rows = append(rows, row)
	}
	return kinds, ops, rows
}

// matrixTally counts the scenarios and requirements of one matrix cell.
type matrixTally struct {
	passed, failMust, failShould, skipped, notConf, unsupported      int
	reqPassed, reqFailMust, reqFailShould, reqNotRun, reqUnsupported int
}

// cell returns the class, text and tooltip of a matrix cell: scenario
// outcomes when a scenario ran there, requirement results otherwise.
func (t *matrixTally) cell(op string, kind Kind) (class, text, title string) {
	ran := t.passed + t.failMust + t.failShould
	if ran+t.skipped+t.notConf+t.unsupported > 0 {
		none := "skip"
		if t.skipped+t.notConf == 0 {
			none = "unsupported"
		}
		class = cellClass(t.failMust, t.failShould, t.passed, none)
		text = "skip"
		switch {
		case ran == 0 && class == "unsupported":
			text = "n/a"
		case ran > 0:
			text = strconv.Itoa(t.passed) + "/" + strconv.Itoa(ran)
		}
		title = "scenarios: " + tally([]int{t.passed, t.failMust, t.failShould, t.skipped, t.notConf, t.unsupported}, scenarioWords)
	} else {
		none := "notrun"
		if t.reqNotRun == 0 && t.reqUnsupported > 0 {
			none = "unsupported"
		}
		class = cellClass(t.reqFailMust, t.reqFailShould, t.reqPassed, none)
		text = "–"
		if covered := t.reqPassed + t.reqFailMust + t.reqFailShould; covered > 0 {
			text = strconv.Itoa(t.reqPassed) + "/" + strconv.Itoa(covered) + "*"
		}
		title = "no scenario of this kind; requirements: " + tally([]int{t.reqPassed, t.reqFailMust, t.reqFailShould, t.reqNotRun, t.reqUnsupported}, requirementWords)
	}
	return class, text, operationLabel(op) + " × " + string(kind) + ": " + title
}

// The words of a matrix cell's counts, in the order cell gives them.
var (
	scenarioWords    = []string{"passed", "failed (MUST)", "failed (SHOULD)", "skipped", "not configured", "unsupported"}
	requirementWords = []string{"passed", "failed (MUST)", "failed (SHOULD)", "not run", "unsupported"}
)

// tally words the counts that are not zero, each with its word:
// "2 passed, 1 failed (MUST)".
func tally(counts []int, words []string) string {
	var parts []string
	for i, n := range counts {
		if n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+words[i])
		}
	}
	return strings.Join(parts, ", ")
}

// formatMillis shows a duration the way a person reads it.
func formatMillis(d Duration) string {
	t := max(time.Duration(d), 0)
	switch {
	case t < time.Millisecond:
		return "<1 ms"
	case t < time.Second:
		return strconv.FormatInt(t.Milliseconds(), 10) + " ms"
	case t < time.Minute:
		return strconv.FormatFloat(t.Seconds(), 'f', 1, 64) + " s"
	}
	return t.Round(time.Second).String()
}

func percent(n, of int) int {
	if of <= 0 {
		return 0
	}
	return n * 100 / of
}

func outcomeClass(o Outcome) string {
	switch o {
	case Passed:
		return "pass"
	case Failed:
		return "fail"
	case Skipped:
		return "skip"
	case NotConfigured:
		return "notconf"
	case Error:
		return "error"
	case Unsupported:
		return "unsupported"
	}
	return "other"
}

func resultClass(res Result) string {
	switch res {
	case ResultPassed:
		return "pass"
	case ResultFailed:
		return "fail"
	case ResultUnsupported:
		return "unsupported"
	}
	return "notrun"
}

// cellClass is the class of a matrix cell: its worst result, or none when
// nothing passed or failed.
func cellClass(failMust, failShould, passed int, none string) string {
	switch {
	case failMust > 0:
		return "fail-must"
	case failShould > 0:
		return "fail-should"
	case passed > 0:
		return "pass"
	}
	return none
}
