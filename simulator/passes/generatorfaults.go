package passes

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/switches"
)

// generatorFaults wraps an operation with the generator defects
// (simulator/defects/generated.go) in force (in) that reach it (each
// defect's Op): mistakes on one odd input each, which only generated
// requests send. Most let the operation answer first and then crash, as a
// fault in building the answer would, so a request the operation refuses
// is refused as before. st is the operation's world.
func generatorFaults(opID registry.OpID, in *switches.Defects, st *store.Store, next http.Handler) http.Handler {
	var mine []fault
	for _, d := range defects.Generated() {
		if (d.Op == "" || d.Op == opID) && in.Has(d.Name) {
			mine = append(mine, faults[d.Name])
		}
	}
	if len(mine) == 0 {
		return next
	}
	var calls atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fr := &faultRequest{w: w, r: r, q: r.URL.Query(), in: in, st: st, calls: &calls}
		if r.Body != nil {
			fr.data, _ = io.ReadAll(io.LimitReader(r.Body, front.MaxBodyBytes))
			r.Body = io.NopCloser(bytes.NewReader(fr.data))
		}
		for _, f := range mine {
			if f.before != nil && f.before(fr) {
				return
			}
		}
		fr.buf = &bufferedWriter{header: w.Header()}
		next.ServeHTTP(fr.buf, r)
		if fr.buf.status < 300 {
			for _, f := range mine {
				if f.after == nil {
					continue
				}
				switch f.after(fr) {
				case crashed:
					front.Fail(w, in, http.StatusInternalServerError, "internal error")
					return
				case answered:
					return
				}
			}
		}
		flushBuffered(w, fr.buf)
	})
}

// faultRequest is a request as a generator defect sees it, and, after
// the operation answered, its buffered answer.
type faultRequest struct {
	w     http.ResponseWriter
	r     *http.Request
	q     url.Values
	data  []byte // the request's body
	in    *switches.Defects
	st    *store.Store
	buf   *bufferedWriter
	calls *atomic.Int64
}

// fail answers the request with status and message itself.
func (f *faultRequest) fail(status int, message string) bool {
	front.Fail(f.w, f.in, status, message)
	return true
}

// body decodes the request's body into v, reporting success.
func (f *faultRequest) body(v any) bool { return json.Unmarshal(f.data, v) == nil }

// outcome is what a fault does after the operation answered.
type outcome int

const (
	passed   outcome = iota // the answer goes out, maybe edited
	crashed                 // a 500 replaces it
	answered                // the fault wrote an answer of its own
)

// fault is one generator defect's mistake: before the operation runs
// (true: it answered the request itself), after it answered with a
// success, or both.
type fault struct {
	before func(f *faultRequest) bool
	after  func(f *faultRequest) outcome
}

// crashIf is an after-fault crashing when odd holds of the request.
func crashIf(odd func(f *faultRequest) bool) fault {
	return fault{after: func(f *faultRequest) outcome {
		if odd(f) {
			return crashed
		}
		return passed
	}}
}

// failIf is a before-fault answering status and message when odd holds.
func failIf(status int, message string, odd func(f *faultRequest) bool) fault {
	return fault{before: func(f *faultRequest) bool { return odd(f) && f.fail(status, message) }}
}

// faults are the generator defects' mistakes, by defect; which operation
// each reaches is the defect's Op.
var faults = map[defects.Name]fault{
	defects.GenRefusedTypeApplied: {before: func(f *faultRequest) bool {
		var b struct {
			ID   int64 `json:"id"`
			Read any   `json:"read"`
		}
		if !f.body(&b) {
			return false
		}
		if _, isString := b.Read.(string); isString {
			// applied before the type is checked; the handler then
			// refuses the request
			_, _ = f.st.SetNotificationRead(b.ID, store.Read)
		}
		return false
	}},
	defects.GenUpperUUID500: failIf(http.StatusInternalServerError, "internal error", func(f *faultRequest) bool {
		id := f.r.PathValue("id")
		return strings.ToLower(id) != id
	}),
	defects.GenNilUUID422: failIf(http.StatusUnprocessableEntity, "ID: the nil uuid addresses no weblink", func(f *faultRequest) bool {
		return f.r.PathValue("ID") == "00000000-0000-0000-0000-000000000000"
	}),
	defects.GenDateRegexOnly: {before: func(f *faultRequest) bool {
		for _, name := range []string{"startDate", "endDate"} {
			if v := f.q.Get(name); datePattern.MatchString(v) && !parses(v) {
				f.q.Del(name)
			}
		}
		f.r.URL.RawQuery = f.q.Encode()
		return false
	}},
	defects.GenPopulateWildcard: {before: func(f *faultRequest) bool {
		if slices.Contains(f.q["populate"], "*") || slices.Contains(f.q["populate"], "all") {
			f.q.Del("populate")
			f.r.URL.RawQuery = f.q.Encode()
		}
		return false
	}},
	defects.GenLimitInt32Max500: failIf(http.StatusInternalServerError, "internal error", func(f *faultRequest) bool {
		return slices.Contains(f.q["limit"], "2147483647")
	}),
	defects.GenIDInt64Max500: failIf(http.StatusInternalServerError, "internal error", func(f *faultRequest) bool {
		var b struct {
			ID json.Number `json:"id"`
		}
		return f.body(&b) && b.ID.String() == "9223372036854775807"
	}),
	defects.GenSearchNonASCII500: crashIf(func(f *faultRequest) bool { return !ascii(f.q.Get("SearchText")) }),
	defects.GenLimitMax500:       crashIf(func(f *faultRequest) bool { return slices.Contains(f.q["limit"], "1000") }),
	defects.GenOffsetOverflow500: crashIf(func(f *faultRequest) bool {
		if !f.q.Has("offset") {
			return false
		}
		off, _ := strconv.ParseInt(f.q.Get("offset"), 10, 64)
		limit, err := strconv.ParseInt(f.q.Get("limit"), 10, 64)
		if err != nil {
			limit = 100
		}
		return off+limit > math.MaxInt32
	}),
	defects.GenPopulateTwice500:    crashIf(func(f *faultRequest) bool { return len(f.q["populate"]) > 1 }),
	defects.GenPopulateCombined500: crashIf(func(f *faultRequest) bool { return strings.Contains(f.q.Get("populate"), ",") }),
	defects.GenPopulateEmpty500: crashIf(func(f *faultRequest) bool {
		return f.q.Has("populate") && strings.TrimSpace(f.q.Get("populate")) == ""
	}),
	defects.GenSortbyTwice500: crashIf(func(f *faultRequest) bool { return len(f.q["sortby"]) > 1 }),
	defects.GenSortbyCombined500: crashIf(func(f *faultRequest) bool {
		return strings.Contains(f.q.Get("sortby"), listing.SortSeparator)
	}),
	defects.GenSortbyEmpty500: crashIf(func(f *faultRequest) bool {
		return f.q.Has("sortby") && strings.TrimSpace(f.q.Get("sortby")) == ""
	}),
	defects.GenIDsMany500: crashIf(func(f *faultRequest) bool {
		var b struct {
			IDs []any `json:"iDs"`
		}
		return f.body(&b) && len(b.IDs) > 64
	}),
	defects.GenSchemaEmpty500: crashIf(func(f *faultRequest) bool {
		var b struct {
			Schema []any `json:"gradingSchema"`
		}
		return f.body(&b) && b.Schema != nil && len(b.Schema) == 0
	}),
	defects.GenEmptyIDs500: crashIf(func(f *faultRequest) bool {
		var b struct {
			IDs []any `json:"iDs"`
		}
		return f.body(&b) && len(b.IDs) == 0
	}),
	defects.GenExtraMember500: crashIf(func(f *faultRequest) bool {
		var b map[string]any
		if !f.body(&b) {
			return false
		}
		for k := range b {
			if k != "resourceID" && k != "publish" {
				return true
			}
		}
		return false
	}),
	defects.GenEmptyListNull: {after: func(f *faultRequest) outcome {
		if string(bytes.TrimSpace(f.buf.body.Bytes())) == "[]" {
			f.buf.body.Reset()
			f.buf.body.WriteString("null")
		}
		return passed
	}},
	defects.GenUnstableOrder: {after: func(f *faultRequest) outcome {
		var list []json.RawMessage
		if json.Unmarshal(f.buf.body.Bytes(), &list) == nil && len(list) > 1 {
			k := int(f.calls.Add(1)) % len(list)
			list = append(list[k:], list[:k]...)
			b, _ := json.Marshal(list)
			f.buf.body.Reset()
			f.buf.body.Write(b)
		}
		return passed
	}},
	defects.GenLongNameErrorObject: {after: func(f *faultRequest) outcome {
		var b struct{ Name string }
		if f.body(&b) && utf8.RuneCountInString(b.Name) > 255 {
			front.WriteJSON(f.w, http.StatusBadRequest, map[string]string{"error": "name: at most 255 characters"})
			return answered
		}
		return passed
	}},
}

// datePattern is the shape of an RFC 3339 date-time, without its ranges.
var datePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$`)

func parses(v string) bool {
	_, err := time.Parse(time.RFC3339Nano, v)
	return err == nil
}

func ascii(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// flushBuffered sends what b held; its headers are already w's.
func flushBuffered(w http.ResponseWriter, b *bufferedWriter) {
	w.Header().Del("Content-Length")
	if b.status == 0 {
		b.status = http.StatusOK
	}
	w.WriteHeader(b.status)
	_, _ = w.Write(b.body.Bytes())
}
