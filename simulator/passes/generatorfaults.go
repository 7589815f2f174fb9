package passes

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"net/http"
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
// (simulator/defects/generated.go) in force (in): mistakes on one odd
// input each, which only generated requests send. Most let the operation
// answer first and then crash, as a fault in building the answer would,
// so a request the operation refuses is refused as before. st is the
// operation's world.
func generatorFaults(opID registry.OpID, in *switches.Defects, st *store.Store, next http.Handler) http.Handler {
	on := false
	for _, d := range defects.Generated() {
		on = on || in.Has(d.Name)
	}
	if !on {
		return next
	}
	var calls atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		has := in.Has
		var data []byte
		if r.Body != nil {
			data, _ = io.ReadAll(io.LimitReader(r.Body, front.MaxBodyBytes))
			r.Body = io.NopCloser(bytes.NewReader(data))
		}
		switch {
		case opID == registry.NR && has(defects.GenRefusedTypeApplied):
			var b struct {
				ID   int64 `json:"id"`
				Read any   `json:"read"`
			}
			if json.Unmarshal(data, &b) == nil {
				if _, isString := b.Read.(string); isString {
					// applied before the type is checked; the handler
					// then refuses the request
					_, _ = st.SetNotificationRead(b.ID, store.Read)
				}
			}
		case opID == registry.E19 && has(defects.GenUpperUUID500) && strings.ToLower(front.PathValue(r, "id")) != front.PathValue(r, "id"):
			front.Fail(w, in, http.StatusInternalServerError, "internal error")
			return
		case opID == registry.E12 && has(defects.GenNilUUID422) && front.PathValue(r, "ID") == "00000000-0000-0000-0000-000000000000":
			front.Fail(w, in, http.StatusUnprocessableEntity, "ID: the nil uuid addresses no weblink")
			return
		case opID == registry.E15 && has(defects.GenDateRegexOnly):
			for _, name := range []string{"startDate", "endDate"} {
				if v := q.Get(name); datePattern.MatchString(v) && !parses(v) {
					q.Del(name)
				}
			}
			r.URL.RawQuery = q.Encode()
		case opID == registry.E18 && has(defects.GenPopulateWildcard) && (slices.Contains(q["populate"], "*") || slices.Contains(q["populate"], "all")):
			q.Del("populate")
			r.URL.RawQuery = q.Encode()
		case has(defects.GenLimitInt32Max500) && slices.Contains(q["limit"], "2147483647"):
			front.Fail(w, in, http.StatusInternalServerError, "internal error")
			return
		case opID == registry.NR && has(defects.GenIDInt64Max500):
			var b struct {
				ID json.Number `json:"id"`
			}
			if json.Unmarshal(data, &b) == nil && b.ID.String() == "9223372036854775807" {
				front.Fail(w, in, http.StatusInternalServerError, "internal error")
				return
			}
		}
		buf := &bufferedWriter{header: w.Header()}
		next.ServeHTTP(buf, r)
		ok := buf.status < 300
		crash := false
		switch {
		case !ok:
		case opID == registry.E10 && has(defects.GenSearchNonASCII500) && !ascii(q.Get("SearchText")):
			crash = true
		case has(defects.GenLimitMax500) && slices.Contains(q["limit"], "1000"):
			crash = true
		case has(defects.GenOffsetOverflow500) && q.Has("offset"):
			off, _ := strconv.ParseInt(q.Get("offset"), 10, 64)
			limit, err := strconv.ParseInt(q.Get("limit"), 10, 64)
			if err != nil {
				limit = 100
			}
			crash = off+limit > math.MaxInt32
		case opID == registry.E9 && has(defects.GenPopulateTwice500):
			crash = len(q["populate"]) > 1
		case opID == registry.E6 && has(defects.GenPopulateCombined500):
			crash = strings.Contains(q.Get("populate"), ",")
		case opID == registry.E20 && has(defects.GenPopulateEmpty500):
			crash = q.Has("populate") && strings.TrimSpace(q.Get("populate")) == ""
		case opID == registry.E17 && has(defects.GenSortbyTwice500):
			crash = len(q["sortby"]) > 1
		case opID == registry.E10 && has(defects.GenSortbyCombined500):
			crash = strings.Contains(q.Get("sortby"), listing.SortSeparator)
		case opID == registry.E18 && has(defects.GenSortbyEmpty500):
			crash = q.Has("sortby") && strings.TrimSpace(q.Get("sortby")) == ""
		case opID == registry.E8 && has(defects.GenIDsMany500):
			var b struct {
				IDs []any `json:"iDs"`
			}
			crash = json.Unmarshal(data, &b) == nil && len(b.IDs) > 64
		case opID == registry.GB && has(defects.GenSchemaEmpty500):
			var b struct {
				Schema []any `json:"gradingSchema"`
			}
			crash = json.Unmarshal(data, &b) == nil && b.Schema != nil && len(b.Schema) == 0
		case opID == registry.E21 && has(defects.GenEmptyIDs500):
			var b struct {
				IDs []any `json:"iDs"`
			}
			crash = json.Unmarshal(data, &b) == nil && len(b.IDs) == 0
		case opID == registry.E7 && has(defects.GenExtraMember500):
			var b map[string]any
			if json.Unmarshal(data, &b) == nil {
				for k := range b {
					crash = crash || (k != "resourceID" && k != "publish")
				}
			}
		case opID == registry.E16 && has(defects.GenEmptyListNull) && string(bytes.TrimSpace(buf.body.Bytes())) == "[]":
			buf.body.Reset()
			buf.body.WriteString("null")
		case opID == registry.E11 && has(defects.GenUnstableOrder):
			var list []json.RawMessage
			if json.Unmarshal(buf.body.Bytes(), &list) == nil && len(list) > 1 {
				k := int(calls.Add(1)) % len(list)
				list = append(list[k:], list[:k]...)
				b, _ := json.Marshal(list)
				buf.body.Reset()
				buf.body.Write(b)
			}
		case opID == registry.QS && has(defects.GenLongNameErrorObject):
			var b struct{ Name string }
			if json.Unmarshal(data, &b) == nil && utf8.RuneCountInString(b.Name) > 255 {
				front.WriteJSON(w, http.StatusBadRequest, map[string]string{"error": "name: at most 255 characters"})
				return
			}
		}
		if crash {
			front.Fail(w, in, http.StatusInternalServerError, "internal error")
			return
		}
		flushBuffered(w, buf)
	})
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
