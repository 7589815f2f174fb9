package front

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator/decisions"
)

// Note is what a request's log line says about it beyond method, path and
// status: the operation's wrapper (simulator/ops) fills it; the request
// log, the console and the traffic record read it. A request carries one
// only while something reads them (NoteOf).
type Note struct {
	Op   string
	User string
	// Evicted counts the run-time records the request evicted (see
	// store.MaxCreated).
	Evicted int
	// Inspect asks the operation's wrapper for the request's Violations
	// of the request rules; Relies are the documented choices its answer
	// depended on; Example is the request as the traffic report shows it.
	Inspect    bool
	Violations []openapi.Violation
	Relies     decisions.Set
	Example    wire.Example
	// Refused says why a CORS preflight was refused.
	Refused string
}

type noteKey struct{}

// NoteOf returns the note r carries, nil when nothing reads one. It
// does not allocate.
func NoteOf(r *http.Request) *Note {
	n, _ := r.Context().Value(noteKey{}).(*Note)
	return n
}

// ViolationIDs lists the requirement ids of the note's violations, each
// once, in order.
func (n *Note) ViolationIDs() []string {
	vs := n.Violations
	if len(vs) == 0 {
		return nil
	}
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		if !slices.Contains(out, v.Requirement) {
			out = append(out, v.Requirement)
		}
	}
	return out
}

// A Watcher reads what each request did besides the request log: the
// console's live log and the traffic record (simulator/devserver).
type Watcher interface {
	// Inspecting reports whether a request's violations and reliances
	// have a reader now.
	Inspecting() bool
	// Observed is called once a request is answered.
	Observed(x Exchange)
}

// Exchange is one answered request as the entry layer observed it.
type Exchange struct {
	Start time.Time
	Took  time.Duration
	// Method, and Path with its query, as the log shows them (LogPath).
	Method, Path string
	// Control is set for a request to the control API.
	Control bool
	Status  int
	Note    *Note
}

// recorder remembers the status and size of an answer.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

// Unwrap lets http.ResponseController reach the connection's writer (the
// console's event stream flushes through it).
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// logged is the entry layer's path when a request is observed: it serves
// the request with a Note in its context, then writes one line per
// request: method, path and query, status, duration, operation and the
// caller's fixture role. It never logs header values, and the query goes
// through the redactor, so neither the subscription key nor a token
// appears, as sent or encoded. The same facts go to the Watcher.
func (e *Entry) logged(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	note := &Note{Inspect: e.log != nil || e.watch != nil && e.watch.Inspecting()}
	rec := &recorder{ResponseWriter: w}
	e.serve(rec, r.WithContext(context.WithValue(r.Context(), noteKey{}, note)))
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	path := LogPath(r.URL.Path)
	if r.URL.RawQuery != "" {
		// a key or token a client put in the query, in any encoding
		// (URL escapes, base64, upper case), never reaches the log or
		// the console; the path is an operation's, its ids the
		// records' (about 1 µs a query; the path too would cost 10)
		path += "?" + e.red.String(r.URL.RawQuery)
	}
	took := time.Since(start)
	if e.log != nil {
		e.log.LogAttrs(r.Context(), levelOf(rec.status), r.Method+" "+path,
			slogAttrs(rec.status, took, note, rec.bytes)...)
	}
	if e.watch != nil {
		e.watch.Observed(Exchange{Start: start, Took: took, Method: r.Method, Path: path,
			Control: IsControlPath(r.URL.Path), Status: rec.status, Note: note})
	}
}

// LogPath is the path as the log shows it: under the control API the
// segment that carries the token is masked.
func LogPath(p string) string {
	rest, ok := strings.CutPrefix(p, ControlPrefix+"/")
	if !ok {
		return p
	}
	_, after, more := strings.Cut(rest, "/")
	if more {
		return ControlPrefix + "/TOKEN/" + after
	}
	return ControlPrefix + "/TOKEN"
}

func levelOf(status int) slog.Level {
	if status >= 500 {
		return slog.LevelError
	}
	if status >= 400 {
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

func slogAttrs(status int, d time.Duration, note *Note, bytes int) []slog.Attr {
	attrs := []slog.Attr{slog.Int("status", status), slog.Duration("duration", d)}
	if note.Op != "" {
		attrs = append(attrs, slog.String("op", note.Op))
	}
	if note.User != "" {
		attrs = append(attrs, slog.String("user", note.User))
	}
	if note.Refused != "" {
		attrs = append(attrs, slog.String("refused", note.Refused))
	}
	if note.Evicted > 0 {
		attrs = append(attrs, slog.Int("evicted", note.Evicted))
	}
	if len(note.Violations) > 0 {
		attrs = append(attrs, slog.Any("violations", idList(note.ViolationIDs())))
	}
	if note.Relies != 0 {
		attrs = append(attrs, slog.Any("relies", idList(note.Relies.IDs())))
	}
	return append(attrs, slog.Int("bytes", bytes))
}

// idList is a list of ids on a log line: a JSON array in the JSON log, a
// comma-separated note in the text log.
type idList []string

// MarshalJSON writes the ids as a JSON array. Ids are letters, digits,
// dots and dashes, written as they are; anything else goes through
// encoding/json.
func (l idList) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 16*len(l)+2)
	b = append(b, '[')
	for i, id := range l {
		for _, c := range []byte(id) {
			if c < ' ' || c == '"' || c == '\\' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
				return json.Marshal([]string(l))
			}
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), id...), '"')
	}
	return append(b, ']'), nil
}

// MarshalText writes the ids comma-separated.
func (l idList) MarshalText() ([]byte, error) { return []byte(strings.Join(l, ",")), nil }
