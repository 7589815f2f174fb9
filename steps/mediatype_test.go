package steps

import (
	"mime"
	"net/http"
	"slices"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/inproc"
	"github.com/campusconf/campusconf/reports"
)

// TestMediaTypeCheckTellsContentFromMediaType plays E1 targets that answer
// the typical call (a wrong one-time password) with 400: a refusal of the
// content under both JSON media types passes the media-type checks, a 400
// under one of them only fails that one's requirement.
func TestMediaTypeCheckTellsContentFromMediaType(t *testing.T) {
	tests := []struct {
		name    string
		refuses func(mediaType string) int // status for a wrong password
		want    []string                   // failed requirements
	}{
		{"wrong password is 400 whatever the type", func(string) int { return 400 }, nil},
		{"json-patch refused with 400", func(mt string) int {
			if mt == jsonPatch {
				return 400
			}
			return 200
		}, []string{"ALL.media-type"}},
		{"json refused with 400", func(mt string) int {
			if mt == "application/json" {
				return 400
			}
			return 200
		}, []string{"ALL.media-json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
				w.Header().Set("Content-Type", "application/json")
				if status := tt.refuses(mt); status != 200 {
					w.WriteHeader(status)
					_, _ = w.Write([]byte(`"otp: not valid"`))
					return
				}
				_, _ = w.Write([]byte(`{"status": "6004"}`))
			})
			f := &fixtures.File{Version: fixtures.Version, SubscriptionKey: "k",
				Users:        map[string]fixtures.User{"owner": {Headers: map[string]string{"Authorization": "Bearer t"}}},
				SecondFactor: fixtures.SecondFactor{UserID: "u1"}}
			rep, err := Run(t.Context(), Config{BaseURL: "http://target.invalid", Client: inproc.Client(h), Fixture: f,
				Tags: "(@ALL.media-type or @ALL.media-json) and @E1"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, sc := range rep.Scenarios {
				got = append(got, reports.FailedRequirements(sc)...)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("failed requirements = %v, want %v", got, tt.want)
			}
		})
	}
}
