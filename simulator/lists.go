package simulator

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/campusconf/campusconf/simulator/defects"

	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// The page size of the page-10 variant.
const (
	page10Default = 10
	page10Max     = 50
)

// fewEntries is the length of every list with the few-entries variant.
const fewEntries = 3

// The page size and caps of the paging-capped variant.
const (
	cappedDefault   = 7
	cappedMaxLimit  = 25
	cappedMaxOffset = 1000
)

// listQuery reads offset, limit, sortby and where. Operations that declare
// paging default to listing.DefaultLimit; the others (E11, E12, E16) return
// the whole list unless the caller pages.
func (s *Simulator) listQuery(v url.Values, paged bool) (listing.Query, error) {
	c := listing.Conventions{DefaultLimit: -1, MaxLimit: listing.MaxLimit, DashSort: s.variants.Has(variants.NoSortbySyntax)}
	if paged {
		c.DefaultLimit = listing.DefaultLimit
	}
	if s.variants.Has(variants.Page10) {
		c.MaxLimit = page10Max
		if paged {
			c.DefaultLimit = page10Default
		}
	}
	if s.variants.Has(variants.PagingCapped) {
		c.MaxLimit, c.MaxOffset = cappedMaxLimit, cappedMaxOffset
		if paged {
			c.DefaultLimit = cappedDefault
		}
	}
	q, err := listing.ParseWith(v, c)
	q.Reverse = q.Sort == "" && s.variants.Has(variants.NewestFirst)
	if err == nil && s.defects.Has(defects.LimitIgnored) {
		q.Limit = -1
	}
	if err == nil && s.defects.Has(defects.OffsetIgnored) {
		q.Offset = 0
	}
	if err == nil && q.Offset > 0 && s.defects.Has(defects.OffsetOffByOne) {
		q.Offset++
	}
	if err == nil && s.defects.Has(defects.SortbyIgnored) {
		q.Sort, q.Desc = "", false
	}
	return q, err
}

// answerPage answers a page of l (an empty list when l is nil).
func answerPage[T any](s *Simulator, w http.ResponseWriter, l *listing.List[T], q listing.Query, keep func(*T) bool, fill func(*T)) {
	if l == nil {
		l = listing.New[T](nil)
	}
	var items []T
	var err error
	if s.variants.Has(variants.FewEntries) {
		few, _ := l.Page(listing.Query{Limit: fewEntries}, nil)
		l = listing.New(few)
	}
	if q.Sort != "" && s.defects.Has(defects.SortAfterPaging) {
		sorted := q
		q.Sort, q.Desc = "", false
		if items, err = l.Page(q, keep); err == nil {
			items, err = listing.Page(items, listing.Query{Sort: sorted.Sort, Desc: sorted.Desc, Limit: -1}, nil)
		}
	} else {
		items, err = l.Page(q, keep)
	}
	if err != nil {
		s.badRequest(w, err)
		return
	}
	if fill != nil {
		for i := range items {
			fill(&items[i])
		}
	}
	if logs, ok := any(items).([]store.FileLog); ok {
		writeFileLogs(w, logs)
		return
	}
	writeJSON(w, http.StatusOK, items)
}

// answerAbsent answers a list whose parent record does not exist: 404
// naming it (what), or the empty page a defect answers instead.
func answerAbsent[T any](s *Simulator, w http.ResponseWriter, q listing.Query, emptyInstead bool, what string) {
	if emptyInstead {
		answerPage[T](s, w, nil, q, nil, nil)
		return
	}
	s.fail(w, http.StatusNotFound, what+" does not exist")
}

// listArgs is what a list operation reads from its request.
type listArgs struct {
	id         string
	pop        map[string]bool
	q          listing.Query
	start, end time.Time
	// query is the request's query, parsed once
	query url.Values
}

// listSpec says what a list operation takes besides offset, limit, sortby
// and where.
type listSpec struct {
	idParam string // the path parameter naming the parent record
	paged   bool   // the default limit applies (the operation declares paging)
	// populate: the operation takes a populate parameter, whose accepted
	// entities are accept (none: every entity is refused)
	populate bool
	accept   []string
	dates    [2]string // query parameters of a date-time range, if any
}

// listRequest reads a list operation's request. On bad input it answers
// 400 itself and returns false.
func (s *Simulator) listRequest(w http.ResponseWriter, r *http.Request, spec listSpec) (listArgs, bool) {
	var a listArgs
	var err error
	a.query = queryOf(r)
	if a.id, err = pathID(r, spec.idParam); err == nil && spec.populate {
		a.pop, err = s.populateFrom(a.query, spec.accept...)
	}
	if err == nil {
		a.q, err = s.listQuery(a.query, spec.paged)
	}
	if err == nil && spec.dates[0] != "" {
		if a.start, err = queryDateTime(a.query, spec.dates[0]); err == nil {
			a.end, err = queryDateTime(a.query, spec.dates[1])
		}
		if err != nil && s.defects.Has(defects.DateMalformedIgnored) {
			a.start, a.end, err = time.Time{}, time.Time{}, nil
		}
	}
	if err != nil {
		s.badRequest(w, err)
		return listArgs{}, false
	}
	return a, true
}

// fileDownloadLogs is E10.
func (s *Simulator) fileDownloadLogs(w http.ResponseWriter, r *http.Request, _ store.User) {
	a, ok := s.listRequest(w, r, listSpec{idParam: "id", paged: true, dates: [2]string{"StartDate", "EndDate"}})
	if !ok {
		return
	}
	start, end := a.start, a.end
	search := strings.ToLower(a.query.Get("SearchText"))
	if s.defects.Has(defects.E10SearchIgnored) {
		search = ""
	}
	if s.defects.Has(defects.E10DatesIgnored) {
		start, end = time.Time{}, time.Time{}
	}
	if (!start.IsZero() || !end.IsZero()) && s.defects.Has(defects.E10DatesDropAll) {
		writeJSON(w, http.StatusOK, []store.FileLog{})
		return
	}
	var keep func(*store.FileLog) bool
	if search != "" || !start.IsZero() || !end.IsZero() {
		keep = func(e *store.FileLog) bool {
			if !start.IsZero() && e.LogDate.Before(start) || !end.IsZero() && e.LogDate.After(end) {
				return false
			}
			return search == "" || strings.Contains(strings.ToLower(e.Name), search) || strings.Contains(strings.ToLower(e.FileName), search)
		}
	}
	l, _ := s.store.FileLogs(a.id)
	answerPage(s, w, l, a.q, keep, nil)
}

// fileAnnotations is E11.
func (s *Simulator) fileAnnotations(w http.ResponseWriter, r *http.Request, _ store.User) {
	answerLog(s, w, r, s.store.Annotations)
}

// answerLog answers a plain log of the record the path's id names (E11,
// E16): an unknown record has an empty log, as has every record under the
// logs-empty defect.
func answerLog[T any](s *Simulator, w http.ResponseWriter, r *http.Request, log func(id string) (*listing.List[T], bool)) {
	a, ok := s.listRequest(w, r, listSpec{idParam: "id"})
	if !ok {
		return
	}
	l, _ := log(a.id)
	if s.defects.Has(defects.LogsEmpty) {
		l = nil
	}
	answerPage(s, w, l, a.q, nil, nil)
}

// weblinkLogs is E12; an unknown weblink is 404.
func (s *Simulator) weblinkLogs(w http.ResponseWriter, r *http.Request, _ store.User) {
	a, ok := s.listRequest(w, r, listSpec{idParam: "ID"})
	if !ok {
		return
	}
	id, q := a.id, a.q
	l, ok := s.store.WeblinkLogs(id)
	if !ok {
		answerAbsent[store.WeblinkLog](s, w, q, s.defects.Has(defects.E12AbsentEmpty), "weblink "+id)
		return
	}
	if s.defects.Has(defects.LogsEmpty) {
		l = nil
	}
	answerPage(s, w, l, q, nil, nil)
}

// channelUsers is E15: all-time totals, or sums over startDate..endDate.
func (s *Simulator) channelUsers(w http.ResponseWriter, r *http.Request, _ store.User) {
	a, ok := s.listRequest(w, r, listSpec{idParam: "id", paged: true, dates: [2]string{"startDate", "endDate"}})
	if !ok {
		return
	}
	id, q, start, end := a.id, a.q, a.start, a.end
	if start.IsZero() && end.IsZero() {
		l, _ := s.store.ChannelTotals(id)
		answerPage(s, w, l, q, nil, nil)
		return
	}
	users, _ := s.store.ChannelRange(id, start, end)
	if s.variants.Has(variants.FewEntries) && len(users) > fewEntries {
		users = users[:fewEntries]
	}
	items, err := listing.Page(users, q, nil)
	if err != nil {
		s.badRequest(w, err)
		return
	}
	writeJSON(w, http.StatusOK, items)
}

// captureSessions is E16.
func (s *Simulator) captureSessions(w http.ResponseWriter, r *http.Request, _ store.User) {
	answerLog(s, w, r, s.store.Captures)
}

// surveyResponses is E17; an unknown question is 404.
func (s *Simulator) surveyResponses(w http.ResponseWriter, r *http.Request, _ store.User) {
	a, ok := s.listRequest(w, r, listSpec{idParam: "id", paged: true, populate: true, accept: s.populates(defects.E17PopulateUnsupported, "Creator")})
	if !ok {
		return
	}
	id, pop, q := a.id, a.pop, a.q
	l, ok := s.store.SurveyResponses(id)
	if !ok {
		answerAbsent[store.SurveyResponse](s, w, q, s.defects.Has(defects.E17AbsentEmpty), "survey question "+id)
		return
	}
	var fill func(*store.SurveyResponse)
	if !pop["Creator"] {
		fill = func(r *store.SurveyResponse) { r.UserID, r.UserName, r.UserMatrixNo = "", "", "" }
	}
	if s.defects.Has(defects.ResponsesOtherQuestion) {
		fill = chain(fill, otherQuestion(func(r *store.SurveyResponse) *string { return &r.ID }, func(r *store.SurveyResponse) *string { return &r.QuestionID }))
	}
	answerPage(s, w, l, q, nil, fill)
}

// pollResponses is E18.
func (s *Simulator) pollResponses(w http.ResponseWriter, r *http.Request, _ store.User) {
	a, ok := s.listRequest(w, r, listSpec{idParam: "id", paged: true, populate: true, accept: s.populates(defects.E18PopulateUnsupported, "photo")})
	if !ok {
		return
	}
	id, pop, q := a.id, a.pop, a.q
	l, _ := s.store.PollResponses(id)
	var fill func(*store.PollResponse)
	if !pop["photo"] || s.defects.Has(defects.PhotoIgnored) {
		fill = func(r *store.PollResponse) { r.Photo = "" }
	}
	if s.defects.Has(defects.ResponsesOtherQuestion) {
		fill = chain(fill, otherQuestion(func(r *store.PollResponse) *string { return &r.ID }, func(r *store.PollResponse) *string { return &r.QuestionID }))
	}
	answerPage(s, w, l, q, nil, fill)
}

// resourceStudents is E20.
func (s *Simulator) resourceStudents(w http.ResponseWriter, r *http.Request, _ store.User) {
	a, ok := s.listRequest(w, r, listSpec{idParam: "id", paged: true, populate: true, accept: s.populates(defects.E20PopulateUnsupported, "photo")})
	if !ok {
		return
	}
	id, pop, q := a.id, a.pop, a.q
	l, _ := s.store.Students(id)
	var fill func(*store.Student)
	if !pop["photo"] || s.defects.Has(defects.PhotoIgnored) {
		fill = func(st *store.Student) { st.Photo = "" }
	}
	answerPage(s, w, l, q, nil, fill)
}

// chain runs two fills in turn; either may be nil.
func chain[T any](a, b func(*T)) func(*T) {
	return func(t *T) {
		if a != nil {
			a(t)
		}
		if b != nil {
			b(t)
		}
	}
}

// otherQuestionID is the question every second response names with the
// responses-other-question defect.
const otherQuestionID = "7d0e5a3c-2f4b-4c1a-9e6d-3b8f1a2c4d5e"

// otherQuestion returns a fill that files about every second response
// (those whose id ends in an even hex digit, so that every page agrees)
// under otherQuestionID, for the responses-other-question defect.
func otherQuestion[T any](id, question func(*T) *string) func(*T) {
	return func(t *T) {
		if s := *id(t); s != "" && strings.ContainsRune("02468ace", rune(s[len(s)-1])) {
			*question(t) = otherQuestionID
		}
	}
}
