// Package passes carries out, around an operation's handler, what the
// defects and variants in force do to its answers, so that the handler
// reads like the reference behaviour: the defects' status changes and
// rewrites of bodies declared as data (simulator/defects), the variants'
// shaping of JSON bodies (simulator/variants), the answers-text-plain
// defect, and the generator defects, mistakes on one odd input each.
package passes

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/switches"
)

// Around returns next, the handler of op, with the passes over its
// answers and the generator defects of the defects and variants in force
// (d, v); the generator defects act on st, op's world. Without any, it is
// next itself, so a faithful simulator never buffers.
func Around(op registry.OpID, d *switches.Defects, v *switches.Variants, st *store.Store, next http.Handler) http.Handler {
	return answering(op, d, v, generatorFaults(op, d, st, next))
}

// passes are the post-processing passes over one operation's answers, in
// the order they run: the defects' status changes, their rewrites of 2xx
// bodies (rewrite.go), the variants' shaping of JSON bodies (shaping.go),
// and the answers-text-plain defect's re-declaration of JSON as
// text/plain.
type passes struct {
	op        registry.OpID
	status    []defects.StatusChange
	rewrites  []defects.Rewrite
	shape     shaper
	textPlain bool
}

// passesOf returns the passes over op's answers as the switches stand.
func passesOf(op registry.OpID, d *switches.Defects, v *switches.Variants) passes {
	return passes{op: op, status: statusChanges(op, d), rewrites: rewrites(op, d), shape: shaperOf(v), textPlain: d.Has(defects.AnswersTextPlain)}
}

// buffered reports whether a pass needs the whole answer before it is
// sent.
func (p passes) buffered() bool { return len(p.status) > 0 || len(p.rewrites) > 0 || p.shape.any() }

// answering carries out the passes over op's answers. It buffers an answer
// once, and only when a pass needs the whole of it; without any pass it
// returns next itself, so a faithful simulator never buffers.
func answering(op registry.OpID, d *switches.Defects, v *switches.Variants, next http.Handler) http.Handler {
	p := passesOf(op, d, v)
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
// 204 goes out without body or Content-Type, as front.NoContent sends it.
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
