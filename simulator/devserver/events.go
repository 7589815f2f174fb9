package devserver

import (
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// The console's live request log: every request to the interface (in any
// world; control API calls excepted) as one event, the last backlogSize
// kept for a page that connects later, streamed as server-sent events at
// GET /_sim/TOKEN/events.

// backlogSize is how many recent requests a new stream starts with.
const backlogSize = 200

// logEntry is one request as the console shows it. It holds no header
// value: neither the key nor a token.
type logEntry struct {
	Seq    int64     `json:"seq"`
	Time   time.Time `json:"time"`
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Status int       `json:"status"`
	Millis float64   `json:"ms"`
	User   string    `json:"user,omitempty"`
	Op     string    `json:"op,omitempty"`
	World  string    `json:"world,omitempty"`
	// Violations are the request rules the request broke, by
	// requirement id; Relies the documented choices its answer depended
	// on (simulator/decisions). Worked out only while a stream is open.
	Violations []string `json:"violations,omitempty"`
	Relies     []string `json:"relies,omitempty"`
}

// Events fan the request log's entries out to the console's open streams.
type Events struct {
	mu      sync.Mutex
	seq     int64
	backlog []logEntry // ring of the last backlogSize
	next    int
	subs    map[chan logEntry]struct{}
	// watchers counts the open streams, read without the lock by every
	// request (Watch.Inspecting).
	watchers atomic.Int32
	closed   chan struct{}
	once     sync.Once
}

// NewEvents returns a hub with no stream open yet.
func NewEvents() *Events {
	return &Events{subs: map[chan logEntry]struct{}{}, closed: make(chan struct{})}
}

// publish records e and sends it to every stream; a stream that is behind
// by a full buffer misses it rather than slow the request down.
func (h *Events) publish(e logEntry) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	e.Seq = h.seq
	if len(h.backlog) < backlogSize {
		h.backlog = append(h.backlog, e)
	} else {
		h.backlog[h.next] = e
		h.next = (h.next + 1) % backlogSize
	}
	for ch := range h.subs {
		select {
		case ch <- e:
		default:
		}
	}
}

// subscribe returns the backlog, oldest first, and a channel of what
// follows; cancel ends the subscription.
func (h *Events) subscribe() ([]logEntry, chan logEntry, func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	backlog := append(append([]logEntry(nil), h.backlog[h.next:]...), h.backlog[:h.next]...)
	ch := make(chan logEntry, 256)
	h.subs[ch] = struct{}{}
	h.watchers.Add(1)
	return backlog, ch, func() {
		h.mu.Lock()
		delete(h.subs, ch)
		h.mu.Unlock()
		h.watchers.Add(-1)
	}
}

// Close ends every stream (a server shutting down waits for none); a nil
// hub has none.
func (h *Events) Close() {
	if h != nil {
		h.once.Do(func() { close(h.closed) })
	}
}

// serve is GET /_sim/TOKEN/events: the request log as server-sent
// events, one JSON logEntry per "data:" line.
func (h *Events) serve(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	// a stream outlives the server's write timeout; a writer without
	// deadlines (a test's recorder) has none to lift
	_ = rc.SetWriteDeadline(time.Time{})
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	backlog, ch, cancel := h.subscribe()
	defer cancel()
	send := func(e logEntry) bool {
		b, _ := json.Marshal(e)
		if _, err := w.Write(append(append([]byte("data: "), b...), '\n', '\n')); err != nil {
			return false
		}
		return true
	}
	for _, e := range backlog {
		if !send(e) {
			return
		}
	}
	if rc.Flush() != nil {
		return
	}
	ping := time.NewTicker(20 * time.Second)
	defer ping.Stop()
	for {
		select {
		case e := <-ch:
			if !send(e) || rc.Flush() != nil {
				return
			}
		case <-ping.C:
			if _, err := w.Write([]byte(": ping\n\n")); err != nil || rc.Flush() != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-h.closed:
			return
		}
	}
}
