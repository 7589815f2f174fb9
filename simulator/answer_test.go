package simulator

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
)

// TestFaithfulNeverBuffers: without defects and variants no operation is
// wrapped in the post-processing of answers.
func TestFaithfulNeverBuffers(t *testing.T) {
	sim := newEnv(t, Options{}).sim
	for _, id := range registry.IDs() {
		if p := sim.passes(id); p.buffered() || p.textPlain {
			t.Errorf("%s: a faithful simulator post-processes its answers: %+v", id, p)
		}
	}
}

// TestStatusChanges checks the status pass: the first change from the
// answer's status applies, a 204 loses body and Content-Type, other
// statuses pass as they were.
func TestStatusChanges(t *testing.T) {
	changes := []defects.StatusChange{{Op: "X", From: 200, To: 204}, {Op: "X", From: 404, To: 400}, {Op: "X", From: 404, To: 403}}
	for _, tt := range []struct {
		status     int
		wantStatus int
		wantBody   string
		wantType   string
	}{
		{200, 204, "", ""},
		{404, 400, `"absent"`, "application/json"},
		{201, 201, `"absent"`, "application/json"},
	} {
		h := http.Header{"Content-Type": jsonType}
		gotStatus, gotBody := changeStatus(changes, h, tt.status, []byte(`"absent"`))
		if gotStatus != tt.wantStatus || string(gotBody) != tt.wantBody || h.Get("Content-Type") != tt.wantType {
			t.Errorf("%d: got %d %q (%q), want %d %q (%q)", tt.status, gotStatus, gotBody, h.Get("Content-Type"), tt.wantStatus, tt.wantBody, tt.wantType)
		}
	}
}

// TestStatusDefectsOnTheWire runs each status defect against its
// operation's handler through the post-processing: the declared status goes
// out, and only for its operation.
func TestStatusDefectsOnTheWire(t *testing.T) {
	for _, d := range defects.All() {
		if d.Status == nil {
			continue
		}
		t.Run(string(d.Name), func(t *testing.T) {
			sim := newEnv(t, Options{Defects: []string{string(d.Name)}}).sim
			answer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { writeJSON(w, d.Status.From, "x") })
			for _, op := range registry.IDs() {
				rec := httptest.NewRecorder()
				sim.answering(op, answer).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
				want := d.Status.From
				if op == d.Status.Op {
					want = d.Status.To
				}
				if rec.Code != want {
					t.Errorf("%s: status %d, want %d", op, rec.Code, want)
				}
			}
		})
	}
}
