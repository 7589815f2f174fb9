package passes

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/switches"
	"github.com/campusconf/campusconf/simulator/variants"
)

// TestFaithfulNeverBuffers: without defects and variants no operation is
// wrapped in the post-processing of answers.
func TestFaithfulNeverBuffers(t *testing.T) {
	d, v := inForce(t, nil)
	for _, id := range registry.IDs() {
		if p := passesOf(id, d, v); p.buffered() || p.textPlain {
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
		h := http.Header{"Content-Type": {"application/json"}}
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
			on, v := inForce(t, []string{string(d.Name)})
			answer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { front.WriteJSON(w, d.Status.From, "x") })
			for _, op := range registry.IDs() {
				rec := httptest.NewRecorder()
				answering(op, on, v, answer).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
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

// inForce returns the defects named, and no variant, as switches in force.
func inForce(t *testing.T, names []string) (*switches.Defects, *switches.Variants) {
	t.Helper()
	set, err := defects.New(names)
	if err != nil {
		t.Fatal(err)
	}
	var d switches.Defects
	var v switches.Variants
	d.Store(set)
	v.Store(variants.Set{})
	return &d, &v
}
