package simulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"sync"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// bufs holds encoding buffers between answers: a hot list answered from
// a fresh buffer spent a fifth of its time growing it and collecting it.
var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer is the largest buffer kept for reuse; a whole long list
// (E11 at a large scale) is let go rather than held.
const maxPooledBuffer = 64 << 10

// writeJSON writes v as the JSON body of a status answer. HTML characters
// are not escaped, so strings read as they were stored.
func writeJSON(w http.ResponseWriter, status int, v any) {
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

// writeFileLogs answers 200 with a page of the download log, encoded
// without reflection (appendFileLogs).
func writeFileLogs(w http.ResponseWriter, logs []store.FileLog) {
	p := logBufs.Get().(*[]byte)
	b := appendFileLogs((*p)[:0], logs)
	w.Header()["Content-Type"] = jsonType
	w.WriteHeader(http.StatusOK)
	w.Write(b)
	if cap(b) <= maxPooledBuffer {
		*p = b
		logBufs.Put(p)
	}
}

var logBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// writeEncoded answers status with b, a JSON body appended to the pooled
// buffer p (from logBufs), and gives p back.
func writeEncoded(w http.ResponseWriter, status int, p *[]byte, b []byte) {
	w.Header()["Content-Type"] = jsonType
	w.WriteHeader(status)
	w.Write(b)
	if cap(b) <= maxPooledBuffer {
		*p = b
		logBufs.Put(p)
	}
}

// writeStudents answers 200 with a page of accessible students, encoded
// without reflection (appendStudents).
func writeStudents(w http.ResponseWriter, l []store.Student) {
	p := logBufs.Get().(*[]byte)
	writeEncoded(w, http.StatusOK, p, appendStudents((*p)[:0], l))
}

// writePollResponse answers 200 with one poll response, encoded without
// reflection (appendPollResponse).
func writePollResponse(w http.ResponseWriter, r *store.PollResponse) {
	p := logBufs.Get().(*[]byte)
	writeEncoded(w, http.StatusOK, p, append(appendPollResponse((*p)[:0], r), '\n'))
}

// writeNotification answers 200 with a notification, encoded without
// reflection when it has no ancestors (appendNotification).
func writeNotification(w http.ResponseWriter, n *store.Notification) {
	p := logBufs.Get().(*[]byte)
	b, ok := appendNotification((*p)[:0], n)
	if !ok {
		logBufs.Put(p)
		writeJSON(w, http.StatusOK, n)
		return
	}
	writeEncoded(w, http.StatusOK, p, b)
}

// noContent answers 204 with neither body nor Content-Type.
func noContent(w http.ResponseWriter) {
	w.Header().Del("Content-Type")
	w.WriteHeader(http.StatusNoContent)
}

// fail answers an error: a JSON string body (the specification's error
// form) with Content-Type application/json.
func (s *Simulator) fail(w http.ResponseWriter, status int, msg string) {
	if s.defects.Has(defects.ErrorBodyObject) {
		writeJSON(w, status, map[string]string{"message": msg})
		return
	}
	writeJSON(w, status, msg)
}

// failStore answers a store error: 404 or 400 for a missing record as the
// operation's notFound says, 400 for an invalid request, 403 for a refusal.
func (s *Simulator) failStore(w http.ResponseWriter, err error, notFound int) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.fail(w, notFound, err.Error())
	case errors.Is(err, store.ErrInvalid):
		s.fail(w, http.StatusBadRequest, err.Error())
	case errors.Is(err, store.ErrForbidden):
		s.fail(w, http.StatusForbidden, err.Error())
	default:
		s.fail(w, http.StatusInternalServerError, "internal error: "+err.Error())
	}
}

// writeAttendance answers an attendance record, encoded without reflection
// (appendAttendance): the same bytes as writeJSON.
func writeAttendance(w http.ResponseWriter, status int, a *store.Attendance) {
	p := logBufs.Get().(*[]byte)
	b := appendAttendance((*p)[:0], a)
	w.Header()["Content-Type"] = jsonType
	w.WriteHeader(status)
	w.Write(b)
	*p = b
	logBufs.Put(p)
}
