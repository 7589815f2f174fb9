package front

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/switches"
)

// bufs holds encoding buffers between answers: a hot list answered from
// a fresh buffer spent a fifth of its time growing it and collecting it.
var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer is the largest buffer kept for reuse; a whole long list
// (E11 at a large scale) is let go rather than held.
const maxPooledBuffer = 64 << 10

// WriteJSON writes v as the JSON body of a status answer. HTML characters
// are not escaped, so strings read as they were stored.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	buf := bufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooledBuffer {
			bufs.Put(buf)
		}
	}()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only JSON-safe values reach here; a failure is a simulator bug.
		http.Error(w, `"internal error: cannot encode the answer"`, http.StatusInternalServerError)
		return
	}
	w.Header()["Content-Type"] = jsonType
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// DeclareJSON sets the Content-Type of h to application/json, without an
// allocation (the header value is shared).
func DeclareJSON(h http.Header) { h["Content-Type"] = jsonType }

// NoContent answers 204 with neither body nor Content-Type.
func NoContent(w http.ResponseWriter) {
	w.Header().Del("Content-Type")
	w.WriteHeader(http.StatusNoContent)
}

// Fail answers an error: a JSON string body (the specification's error
// form) with Content-Type application/json, or the object the
// error-body-object defect writes when it is in force (d).
func Fail(w http.ResponseWriter, d *switches.Defects, status int, msg string) {
	if d.Has(defects.ErrorBodyObject) {
		WriteJSON(w, status, map[string]string{"message": msg})
		return
	}
	WriteJSON(w, status, msg)
}

// AnswerJSON returns w writing what a handler answers with a status of
// 300 or above and no JSON body (an http.Error, a ServeMux redirect) as
// the JSON string error form (jsonAnswers).
func AnswerJSON(w http.ResponseWriter, r *http.Request, d *switches.Defects) http.ResponseWriter {
	return &jsonAnswers{ResponseWriter: w, defects: d, r: r}
}

// jsonAnswers makes sure an answer of 300 or above carries a JSON string
// body: the handlers write one already; what ServeMux writes by itself
// (its redirect to a subtree's slash, for DELETE /Attendance) or any
// http.Error is rewritten, keeping the status and the Location and Allow
// headers.
type jsonAnswers struct {
	http.ResponseWriter
	defects *switches.Defects
	r       *http.Request
	wrote   bool
	swallow bool
}

func (j *jsonAnswers) WriteHeader(status int) {
	if status < http.StatusOK { // informational: the answer is still to come
		j.ResponseWriter.WriteHeader(status)
		return
	}
	if j.wrote {
		return
	}
	j.wrote = true
	h := j.Header()
	if ct := h["Content-Type"]; status < http.StatusMultipleChoices || (len(ct) > 0 && ct[0] == "application/json") {
		j.ResponseWriter.WriteHeader(status)
		return
	}
	msg := fmt.Sprintf("%s %s: %s", j.r.Method, j.r.URL.Path, strings.ToLower(http.StatusText(status)))
	if loc := h.Get("Location"); loc != "" {
		msg = fmt.Sprintf("%s %s: the operation is at %s; send the request there", j.r.Method, j.r.URL.Path, loc)
	}
	h.Del("Content-Length")
	h.Del("X-Content-Type-Options")
	j.swallow = true
	Fail(j.ResponseWriter, j.defects, status, msg)
}

func (j *jsonAnswers) Write(b []byte) (int, error) {
	if !j.wrote {
		j.WriteHeader(http.StatusOK)
	}
	if j.swallow {
		return len(b), nil
	}
	return j.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (j *jsonAnswers) Unwrap() http.ResponseWriter { return j.ResponseWriter }

// anyOrigin and jsonType are header values shared by every answer: setting
// the map entry to them saves an allocation a request. Header.Set and
// Header.Add never change a value slice in place, so sharing is safe.
var (
	anyOrigin = []string{"*"}
	jsonType  = []string{"application/json"}
)
