package ops

import (
	"errors"
	"net/http"
	"sync"

	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
)

// maxPooledBuffer is the largest buffer kept for reuse; a whole long list
// (E11 at a large scale) is let go rather than held.
const maxPooledBuffer = 64 << 10

var logBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// writeEncoded answers status with b, a JSON body appended to the pooled
// buffer p (from logBufs), and gives p back.
func writeEncoded(w http.ResponseWriter, status int, p *[]byte, b []byte) {
	front.DeclareJSON(w.Header())
	w.WriteHeader(status)
	w.Write(b)
	if cap(b) <= maxPooledBuffer {
		*p = b
		logBufs.Put(p)
	}
}

// writePollResponse answers 200 with one poll response, encoded without
// reflection (appendPollResponse).
func writePollResponse(w http.ResponseWriter, r *store.PollResponse) {
	if !handJSON {
		front.WriteJSON(w, http.StatusOK, r)
		return
	}
	p := logBufs.Get().(*[]byte)
	writeEncoded(w, http.StatusOK, p, append(appendPollResponse((*p)[:0], r), '\n'))
}

// failStore answers a store error: 404 or 400 for a missing record as the
// operation's notFound says, 400 for an invalid request, 403 for a refusal.
func (env *Env) failStore(w http.ResponseWriter, err error, notFound int) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		env.fail(w, notFound, err.Error())
	case errors.Is(err, store.ErrInvalid):
		env.fail(w, http.StatusBadRequest, err.Error())
	case errors.Is(err, store.ErrForbidden):
		env.fail(w, http.StatusForbidden, err.Error())
	default:
		env.fail(w, http.StatusInternalServerError, "internal error: "+err.Error())
	}
}

// writeAttendance answers an attendance record, encoded without reflection
// (appendAttendance): the same bytes as front.WriteJSON.
func writeAttendance(w http.ResponseWriter, status int, a *store.Attendance) {
	if !handJSON {
		front.WriteJSON(w, status, a)
		return
	}
	p := logBufs.Get().(*[]byte)
	writeEncoded(w, status, p, appendAttendance((*p)[:0], a))
}
