package ops

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
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
func (env *Env) listQuery(v listing.RawQuery, paged bool) (listing.Query, error) {
	c := listing.Conventions{DefaultLimit: -1, MaxLimit: listing.MaxLimit, Separator: listing.SortSeparator,
		DashSort: env.variants.Has(variants.NoSortbySyntax) || env.variants.Has(variants.SortbyDash)}
	if env.variants.Has(variants.NoSortbySyntax) {
		c.Separator = ""
	}
	if paged {
		c.DefaultLimit = listing.DefaultLimit
	}
	if env.variants.Has(variants.Page10) {
		c.MaxLimit = page10Max
		if paged {
			c.DefaultLimit = page10Default
		}
	}
	if env.variants.Has(variants.PagingCapped) {
		c.MaxLimit, c.MaxOffset = cappedMaxLimit, cappedMaxOffset
		if paged {
			c.DefaultLimit = cappedDefault
		}
	}
	q, err := listing.ParseRaw(v, c)
	q.Reverse = q.Sort == "" && env.variants.Has(variants.NewestFirst)
	if env.variants.Has(variants.WhereIgnored) {
		q.WhereField, q.WhereValue = "", ""
	}
	if err == nil && env.defects.Has(defects.LimitIgnored) {
		q.Limit = -1
	}
	if err == nil && env.defects.Has(defects.OffsetIgnored) {
		q.Offset = 0
	}
	if err == nil && q.Limit > 0 && env.defects.Has(defects.LimitShortByOne) {
		q.Limit--
	}
	if err == nil && q.Offset > 0 && env.defects.Has(defects.OffsetOffByOne) {
		q.Offset++
	}
	if err == nil && env.defects.Has(defects.SortbyIgnored) {
		q.Sort, q.Desc, q.Then = "", false, nil
	}
	return q, err
}

// page says how answerPage serves the entries of a list beyond the
// query: its fields are each left out where unused, so that a call names
// only what it does, e.g. page[store.Student]{fill: fill}.
type page[T any] struct {
	// keep, when set, serves only the entries it accepts.
	keep func(*T) bool
	// fill, when set, completes each entry served (populate).
	fill func(*T)
	// cacheAs, when not nil, lets the page's bytes be encoded once and
	// kept with the list (listing.List.Encoded): it must tell apart the
	// fills the caller may pass (fill == nil, for instance), and the list
	// must be one of the world's, not made for the request.
	cacheAs any
}

// answerPage answers a page of l (an empty list when l is nil).
func answerPage[T any](env *Env, w http.ResponseWriter, l *listing.List[T], q listing.Query, p page[T]) {
	keep, fill, tag := p.keep, p.fill, p.cacheAs
	if l == nil {
		l = listing.New[T](nil)
		tag = nil
	}
	// a whole list (unpaged) is streamed rather than kept
	if tag != nil && q.Limit >= 0 && keep == nil && !env.variants.Has(variants.FewEntries) && (q.Sort == "" || !env.defects.Has(defects.SortAfterPaging)) && !env.pagingDefect(q) {
		b, err := l.Encoded(q, pageTag{env.defects.Set(), env.variants.Set(), tag}, func(b []byte, items []T) []byte {
			for i := range items {
				if fill != nil {
					fill(&items[i])
				}
			}
			return encodePage(b, items)
		})
		if err != nil {
			env.badRequest(w, err)
			return
		}
		front.DeclareJSON(w.Header())
		w.WriteHeader(http.StatusOK)
		w.Write(b)
		return
	}
	var items []T
	var err error
	if env.variants.Has(variants.FewEntries) {
		few, _ := l.Page(listing.Query{Limit: fewEntries}, nil)
		l = listing.New(few)
	}
	if keep != nil && env.defects.Has(defects.FilterAfterPaging) {
		// the page is cut from the whole list, then filtered
		if items, err = l.Page(q, nil); err == nil {
			items = slices.DeleteFunc(items, func(it T) bool { return !keep(&it) })
		}
	} else if q.Sort != "" && env.defects.Has(defects.SortAfterPaging) {
		sorted := q
		q.Sort, q.Desc = "", false
		if items, err = l.Page(q, keep); err == nil {
			items, err = listing.Page(items, listing.Query{Sort: sorted.Sort, Desc: sorted.Desc, Limit: -1}, nil)
		}
	} else if keep == nil && q.WhereField == "" && q.Limit < 0 && !env.pagingDefect(q) {
		// a whole list: at a large --scale it is written from the list's
		// own entries, not from a copy of them
		var sel listing.Selection[T]
		if sel, err = l.Select(q, nil); err != nil {
			env.badRequest(w, err)
			return
		}
		if sel.Len() > streamedEntries {
			streamEach(w, func(fn func(*T) bool) {
				sel.EachWhile(func(it *T) bool {
					if fill != nil {
						c := *it
						fill(&c)
						it = &c
					}
					return fn(it)
				})
			})
			return
		}
		items, err = l.Page(q, nil)
	} else {
		items, err = l.Page(q, keep)
		if err == nil && env.pagingDefect(q) {
			whole := q
			whole.Offset, whole.Limit = 0, -1
			var all []T
			if all, err = l.Page(whole, keep); err == nil {
				items = pagingDefects(env, q, items, all)
			}
		}
	}
	if err != nil {
		env.badRequest(w, err)
		return
	}
	if fill != nil {
		for i := range items {
			fill(&items[i])
		}
	}
	if q.Limit == 1 && len(items) == 1 && env.defects.Has(defects.LimitOneObject) {
		front.WriteJSON(w, http.StatusOK, items[0])
		return
	}
	if len(items) > streamedEntries {
		streamPage(w, items)
		return
	}
	front.WriteJSON(w, http.StatusOK, items)
}

// pagingDefect reports whether a defect of paging or sorting rewrites the
// page q asks for: such a page is made from the whole list each time.
func (env *Env) pagingDefect(q listing.Query) bool {
	return q.Sort != "" && env.defects.Has(defects.SortDropsLast) ||
		q.Limit == 1 && env.defects.Has(defects.LimitOneObject) ||
		q.Offset > 0 && q.Limit > 0 && env.defects.Has(defects.LastPageFilled)
}

// pagingDefects makes the page of the paging defects from the page q
// asks for and the whole list (sorted and filtered as q says).
func pagingDefects[T any](env *Env, q listing.Query, items, all []T) []T {
	n := len(all)
	if q.Sort != "" && env.defects.Has(defects.SortDropsLast) && n > 0 {
		// the sorted list ends one entry early
		all = all[:n-1]
		n--
		items = all[min(q.Offset, n):]
		if q.Limit >= 0 {
			items = items[:min(q.Limit, len(items))]
		}
	}
	if q.Offset > 0 && q.Limit > 0 && q.Offset < n && q.Offset+q.Limit > n && n >= q.Limit && env.defects.Has(defects.LastPageFilled) {
		// a short last page is filled up from before its offset
		items = all[n-q.Limit:]
	}
	return items
}

// streamedEntries is the longest page encoded whole before it is written;
// a longer one (a whole list at a large --scale) is written as it is
// encoded, a few entries at a time.
const streamedEntries = 1000

// streamPage writes items as front.WriteJSON would, in pieces of about
// streamChunk bytes: the body is never held whole (at --scale 1000 a whole
// list is tens of megabytes, and encoding/json keeps the largest buffer
// it has grown for the next answer).
func streamPage[T any](w http.ResponseWriter, items []T) {
	streamEach(w, func(fn func(*T) bool) {
		for i := range items {
			if !fn(&items[i]) {
				return
			}
		}
	})
}

// streamEach is streamPage of the entries each visits, until a write
// fails (the client has gone: at a large --scale the rest of a whole list
// would be made and encoded for no one).
func streamEach[T any](w http.ResponseWriter, each func(fn func(*T) bool)) {
	front.DeclareJSON(w.Header())
	w.WriteHeader(http.StatusOK)
	p := logBufs.Get().(*[]byte)
	b := (*p)[:0]
	b = append(b, '[')
	var one bytes.Buffer
	enc := json.NewEncoder(&one)
	enc.SetEscapeHTML(false)
	first, gone := true, false
	each(func(it *T) bool {
		if !first {
			b = append(b, ',')
		}
		first = false
		one.Reset()
		if err := enc.Encode(it); err != nil {
			// Only JSON-safe values reach here; a failure is a simulator bug.
			panic("simulator: cannot encode a list entry: " + err.Error())
		}
		b = append(b, bytes.TrimSuffix(one.Bytes(), []byte("\n"))...)
		if len(b) >= streamChunk {
			_, err := w.Write(b)
			b, gone = b[:0], err != nil
		}
		return !gone
	})
	if !gone {
		w.Write(append(b, ']', '\n'))
	}
	if cap(b) <= maxPooledBuffer {
		*p = b
		logBufs.Put(p)
	}
}

// streamChunk is the size of the pieces streamPage writes.
const streamChunk = 32 << 10

// pageTag is the tag of an encoded page: the defects and variants in
// force (each switch makes a new set) and the caller's tag.
type pageTag struct {
	defects  *defects.Set
	variants *variants.Set
	tag      any
}

// encodePage is a page's JSON as front.WriteJSON writes it.
func encodePage[T any](b []byte, items []T) []byte {
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(items); err != nil {
		// Only JSON-safe values reach here; a failure is a simulator bug.
		panic("simulator: cannot encode a page: " + err.Error())
	}
	return buf.Bytes()
}

// answerAbsent answers a list whose parent record does not exist: 404
// naming it (what), or the empty page a defect answers instead.
func answerAbsent[T any](env *Env, w http.ResponseWriter, q listing.Query, emptyInstead bool, what string) {
	if emptyInstead {
		answerPage(env, w, nil, q, page[T]{})
		return
	}
	env.fail(w, http.StatusNotFound, what+" does not exist")
}

// answerLog answers a plain log of the record the path's id names (E11,
// E16): an unknown record has an empty log, as has every record when
// empty is set (the logs-empty defect, which the handlers of the
// operations it names pass on, and no other).
func answerLog[T any](env *Env, w http.ResponseWriter, r *http.Request, a listArgs, log func(id string) (*listing.List[T], bool), empty bool) {
	l, found := log(a.id)
	noteUnknown(r, found)
	if empty {
		l = nil
	}
	answerPage(env, w, l, a.q, page[T]{cacheAs: true})
}

// photoFill is the fill of a list whose entries carry a photo and a user
// name (E18, E20): it clears the photo unless populate asked for it, and
// always under the photo-ignored defect; with the photo asked for, the
// populate-changes-others defect writes the user name in upper case.
// photos says that the photos go out as stored: the page's cache key,
// from which the fill follows with the defects.
func photoFill[T any](env *Env, pop map[string]bool, photo, userName func(*T) *string) (fill func(*T), photos bool) {
	if !pop["photo"] || env.defects.Has(defects.PhotoIgnored) {
		fill = func(e *T) { *photo(e) = "" }
	}
	photos = fill == nil
	if pop["photo"] && env.defects.Has(defects.PopulateChangesOthers) {
		fill = chain(fill, func(e *T) { n := userName(e); *n = strings.ToUpper(*n) })
	}
	return fill, photos
}

// dateRange is the range of a list operation's date parameters, its ends
// read as the variants choose (docs/decisions.md, "Open bounds and
// filters": both included unless a variant excludes one).
func (env *Env) dateRange(a listArgs) store.Range {
	return store.Range{Start: a.start, End: a.end,
		StartExclusive: env.variants.Has(variants.DatesStartExclusive), EndExclusive: env.variants.Has(variants.DatesEndExclusive)}
}

// dateSpellingRefused is the refusal of a date-time spelling RFC 3339
// allows that the defects in force refuse (a numeric offset, more than
// three digits of fractional seconds, a lower-case t or z); nil without
// them.
func (env *Env) dateSpellingRefused(q listing.RawQuery, names [2]string) error {
	for _, name := range names {
		v := q.Get(name)
		if v == "" {
			continue
		}
		_, frac, _ := strings.Cut(v, ".")
		switch {
		case env.defects.Has(defects.DateOffsetRefused) && !strings.HasSuffix(strings.ToUpper(v), "Z"):
			return fmt.Errorf("%s: expected a date-time in UTC (Z), got %q", name, front.Clip(v))
		case env.defects.Has(defects.DateFractionRefused) && len(frac) > 0 && len(frac)-len(strings.TrimLeft(frac, "0123456789")) > 3:
			return fmt.Errorf("%s: expected at most milliseconds, got %q", name, front.Clip(v))
		case env.defects.Has(defects.DateLowerRefused) && strings.ContainsAny(v, "tz"):
			return fmt.Errorf("%s: expected T and Z in upper case, got %q", name, front.Clip(v))
		}
	}
	return nil
}

// listRequest reads a list operation's request. On bad input it answers
// 400 itself and returns false.
func (env *Env) listRequest(w http.ResponseWriter, r *http.Request, spec listSpec) (listArgs, bool) {
	var a listArgs
	var err error
	a.query = queryOf(r)
	if env.observed {
		noteList(r, a.query, spec)
	}
	if a.id, err = front.PathUUID(r, spec.idParam); err == nil && spec.populate {
		a.pop, err = env.populateFrom(a.query, env.populates(spec.populateOff, spec.op)...)
	}
	if err == nil {
		a.q, err = env.listQuery(a.query, spec.paged)
	}
	if err == nil && spec.dates[0] != "" {
		err = env.dateSpellingRefused(a.query, spec.dates)
	}
	if err == nil && spec.dates[0] != "" {
		if a.start, err = queryDateTime(a.query, spec.dates[0]); err == nil {
			a.end, err = queryDateTime(a.query, spec.dates[1])
		}
		if err != nil && env.defects.Has(defects.DateMalformedIgnored) {
			a.start, a.end, err = time.Time{}, time.Time{}, nil
		}
	}
	if err != nil {
		env.badRequest(w, err)
		return listArgs{}, false
	}
	return a, true
}
