package simulator

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
)

// The post-processing of answers: what the defects and variants in force
// do to an operation's answer after its handler has written it, so the
// handler reads like the reference behaviour.

// passes are the post-processing passes over one operation's answers, in
// the order they run: the defects' status changes, their rewrites of 2xx
// bodies (rewrite.go), the variants' shaping of JSON bodies (variants.go),
// and the answers-text-plain defect's re-declaration of JSON as
// text/plain.
type passes struct {
	op        registry.OpID
	status    []defects.StatusChange
	rewrites  []defects.Rewrite
	shape     shaper
	textPlain bool
}

// passes returns the passes over op's answers as the switches stand.
func (s *Simulator) passes(op registry.OpID) passes {
	return passes{op: op, status: s.statusChanges(op), rewrites: s.rewrites(op), shape: s.shaper(), textPlain: s.defects.Has(defects.AnswersTextPlain)}
}

// buffered reports whether a pass needs the whole answer before it is
// sent.
func (p passes) buffered() bool { return len(p.status) > 0 || len(p.rewrites) > 0 || p.shape.any() }

// answering carries out the passes over op's answers. It buffers an answer
// once, and only when a pass needs the whole of it; without any pass it
// returns next itself, so a faithful simulator never buffers.
func (s *Simulator) answering(op registry.OpID, next http.Handler) http.Handler {
	p := s.passes(op)
	if !p.buffered() && !p.textPlain {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.textPlain {
			w = &textPlainWriter{ResponseWriter: w}
		}
		if !p.buffered() {
			next.ServeHTTP(w, r)
			return
		}
		buf := &bufferedWriter{header: w.Header()}
		next.ServeHTTP(buf, r)
		status, body := buf.status, buf.body.Bytes()
		if status == 0 {
			status = http.StatusOK
		}
		status, body = changeStatus(p.status, w.Header(), status, body)
		if len(p.rewrites) > 0 && status >= 200 && status < 300 && len(bytes.TrimSpace(body)) > 0 {
			if out, err := rewriteBody(body, p.rewrites); err == nil {
				body = out
			}
		}
		if p.shape.any() {
			body = p.shape.shapeAnswer(p.op, r, w.Header(), status, body)
			w.Header().Del("Content-Length")
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	})
}

// changeStatus carries out the first of changes that applies to status: a
// 204 goes out without body or Content-Type, as noContent sends it.
func changeStatus(changes []defects.StatusChange, h http.Header, status int, body []byte) (int, []byte) {
	for _, c := range changes {
		if c.From != status {
			continue
		}
		if c.To == http.StatusNoContent {
			h.Del("Content-Type")
			body = nil
		}
		return c.To, body
	}
	return status, body
}

// bufferedWriter keeps an answer until the passes are done. Headers go
// straight to the real writer's map: they are sent only at WriteHeader.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header { return b.header }

func (b *bufferedWriter) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *bufferedWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

// textPlainWriter re-declares a JSON answer as text/plain when its header
// is sent.
type textPlainWriter struct {
	http.ResponseWriter
	sent bool
}

func (t *textPlainWriter) WriteHeader(status int) {
	if t.sent {
		return
	}
	t.sent = true
	h := t.Header()
	if strings.HasPrefix(h.Get("Content-Type"), "application/json") {
		h.Set("Content-Type", "text/plain; charset=utf-8")
	}
	t.ResponseWriter.WriteHeader(status)
}

func (t *textPlainWriter) Write(p []byte) (int, error) {
	t.WriteHeader(http.StatusOK)
	return t.ResponseWriter.Write(p)
}
