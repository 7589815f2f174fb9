package reports

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/internal/doccheck"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports/redact"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Secrets of the sample run, and what the report shows instead.
const (
	sampleKey        = "sk-live-0123456789abcdef"
	sampleStaffToken = "eyJhbGciOiJIUzI1NiJ9.staff.sig"
	sampleOwnerToken = "eyJhbGciOiJIUzI1NiJ9.owner.sig"
)

func sampleRedactor() *redact.Redactor {
	return redact.With(map[string]string{
		sampleKey:        "<SUBSCRIPTION_KEY>",
		sampleStaffToken: "<TOKEN_staff>",
		sampleOwnerToken: "<TOKEN_owner>",
	})
}

// record builds an exchange the way the suite does: from raw headers and
// bodies, through the redactor.
func record(red *redact.Redactor, method, url string, reqH http.Header, reqBody string, status int, respH http.Header, respBody string, d time.Duration) Exchange {
	rb, cut1 := TruncateBody([]byte(red.String(reqBody)))
	sb, cut2 := TruncateBody([]byte(red.String(respBody)))
	return Exchange{
		Method:          method,
		URL:             red.String(url),
		RequestHeaders:  red.Headers(reqH),
		RequestBody:     rb,
		Status:          status,
		ResponseHeaders: red.Headers(respH),
		ResponseBody:    sb,
		Truncated:       cut1 || cut2,
		Duration:        Duration(d),
	}
}

// ownerHeaders are the request headers of the sample's calls, made as the
// module's owner.
func ownerHeaders() http.Header {
	return http.Header{
		"Ocp-Apim-Subscription-Key": {sampleKey},
		"Authorization":             {"Bearer " + sampleOwnerToken},
		"Accept":                    {"application/json"},
	}
}

// longBody is a JSON list longer than MaxBody, with multi-byte characters
// and HTML-special characters in every item.
func longBody() string {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; b.Len() < MaxBody+4000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"00000000-0000-4000-8000-%012d","userName":"Ünïcødé 学生 %d","note":"<b>&</b>"}`, i, i)
	}
	b.WriteString("]")
	return b.String()
}

// sampleReport is a hand-built report with every outcome (passed, failed
// MUST, failed SHOULD, skipped for a missing fixture key, for read-only and
// for a runner limit, not configured, unsupported, error), a flaky pass,
// claimed profiles of every result, a cross-cutting failure, a long cut
// body, unicode and HTML-special characters. Scenarios are deliberately out
// of order.
func sampleReport() *Report {
	red := sampleRedactor()
	base := "https://campus.example.test/api"
	seed := int64(42)
	jsonH := http.Header{"Content-Type": {"application/json; charset=utf-8"}}

	slotDelete := record(red, "DELETE", base+"/consultation/Slot?moduleId=6f1c&subscription-key="+sampleKey,
		http.Header{"Ocp-Apim-Subscription-Key": {sampleKey}, "Authorization": {"Bearer " + sampleStaffToken}, "Content-Type": {"application/json"}, "Content-Length": {"52"}},
		`{"iDs":["7d1e0c52-3f4b-4a51-9a3c-0c6b9d1e2f30"]}`,
		204, http.Header{"Date": {"Sat, 21 Nov 2026 09:00:01 GMT"}, "Set-Cookie": {"session=abc123; Path=/; HttpOnly"}}, "", 41*time.Millisecond)

	questionGet := record(red, "GET", base+"/evaluation/11111111-1111-4111-8111-111111111111/Question/does-not-exist",
		ownerHeaders(), "",
		500, http.Header{"Content-Type": {"text/html"}},
		"<h1>Server Error</h1><script>alert(\"x\")</script> & 'quotes' \x1b[0m token="+sampleOwnerToken, 18*time.Millisecond)

	offsetPage := record(red, "GET", base+"/survey/question/22222222-2222-4222-8222-222222222222/response?offset=2&limit=5",
		ownerHeaders(), "", 200, jsonH, longBody(), 230*time.Millisecond)
	firstPage := record(red, "GET", base+"/survey/question/22222222-2222-4222-8222-222222222222/response?offset=0&limit=5",
		ownerHeaders(), "", 200, jsonH, `[{"id":"a"},{"id":"b"},{"id":"c"}]`, 12*time.Millisecond)

	channelUsers := Exchange{
		Method:         "GET",
		URL:            base + "/multimedia/statistics/channel/55555555-5555-4555-8555-555555555555/users",
		RequestHeaders: red.Headers(ownerHeaders()),
		Error:          "read tcp 10.0.0.2:51240->10.0.0.7:443: read: connection reset by peer",
		Duration:       Duration(2 * time.Millisecond),
	}

	copyFolder := Exchange{
		Method:         "POST",
		URL:            base + "/bank/33333333-3333-4333-8333-333333333333/copy",
		RequestHeaders: red.Headers(ownerHeaders()),
		RequestBody:    `{"name":"Kopie – Ordner \"A\""}`,
		Error:          "dial tcp 10.0.0.7:443: connect: connection refused",
		Duration:       Duration(3 * time.Millisecond),
	}

	r := &Report{
		Schema: SchemaVersion,
		Tool: Tool{Name: "campusconf", Version: "v0.9.0-test", Commit: "0123456789abcdef0123456789abcdef01234567", Modified: true,
			SuiteVersion: "3.0.0", SpecDigest: "sha256:4546cceab299c988cea769220a0a74d2f95bf8a6fcb0b5f1482492b7b4bfe2eb"},
		Target: Target{URL: base, Seed: &seed, Fixtures: "fixtures.json"},
		Mode:   Mode{Tags: "~@slow"},
		Implements: []string{"second-factor", "faculty", "consultation", "bank", "evaluation", "multimedia", "survey",
			"web-lectures", "gradebook"},
		Implementation: &Implementation{Organization: "Example University <IT>", Project: "campus-api", Version: "v2.4.0",
			URL: "https://git.example.edu/campus-api", Contact: []string{"api-team@example.edu", "@campus-api"}},
		Started:  time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC),
		Duration: Duration(12345 * time.Millisecond),
		Options: map[string]string{
			"target":    base,
			"fixtures":  "fixtures.json",
			"tags":      "~@slow",
			"read-only": "false",
			"key":       red.String(sampleKey),
		},
		OpenPoints: []OpenPoint{
			{ID: "OP-1", Section: "Endpoints", Topic: "Paths of the five unplaced operations <GB, ES, NG, NR, QS>", Treatment: "Taken from the fixture's operations.*; a scenario whose path is absent is not configured."},
			{ID: "OP-2", Section: "Errors", Topic: "No 401 is listed for a missing key", Treatment: "Any 4xx refusal passes; 401 & 403 alike."},
		},
		Requirements: []Requirement{
			{ID: "E1-STATUS-1", Operation: "E1", Kind: "status", Strictness: Must, Section: "E1", Text: "A correct one-time password gives 200 with status 0000."},
			{ID: "E4-PERM-1", Operation: "E4", Kind: "permission", Strictness: Must, Section: "E4", Text: "Only the Super Admin role may synchronise faculties."},
			{ID: "E5-PERM-1", Operation: "E5", Kind: "permission", Strictness: Must, Section: "E5", Text: "Only users holding Access_Delete on the module may delete slots."},
			{ID: "E6-STATUS-1", Operation: "E6", Kind: "status", Strictness: Must, Section: "E6", Text: "Copying a bank folder gives 201 with the new folder."},
			{ID: "E9-SHAPE-1", Operation: "E9", Kind: "shape", Strictness: Must, Section: "Evaluation question", Text: "A question has a text."},
			{ID: "E9-ENUM-1", Operation: "E9", Kind: "enum-range", Strictness: Must, Section: "Evaluation question", Text: "difficultyLevel is one of 0, 1, 2, 3."},
			{ID: "E13-STATUS-1", Operation: "E13", Kind: "status", Strictness: Must, Section: "E13", Text: "Downloads of an absent media give 404."},
			{ID: "E17-QUERY-2", Operation: "E17", Kind: "query", Strictness: Should, Section: "Lists", Text: "offset skips items of the same order."},
			{ID: "E21-TRANSITION-1", Operation: "E21", Kind: "transition", Strictness: Must, Section: "E21", Text: "Publishing sessions marks them published."},
			{ID: "E21-TRANSITION-2", Operation: "E21", Kind: "transition", Strictness: Must, Section: "E21", Text: "Unpublishing sessions marks them unpublished."},
			{ID: "E15-SHAPE-1", Operation: "E15", Kind: "shape", Strictness: Must, Section: "Channel user statistics entry", Text: "A channel user statistics entry has the documented fields."},
			{ID: "E16-SHAPE-1", Operation: "E16", Kind: "shape", Strictness: Must, Section: "Lecture-capture session", Text: "A lecture-capture session has the documented fields."},
			{ID: "GB-DEFAULT-1", Operation: "GB", Kind: "default", Strictness: Must, Section: "Gradebook settings", Text: "Settings not sent keep their defaults."},
			{ID: "QS-NAME-1", Operation: "QS", Kind: "status", Strictness: Must, Section: "Quiz section", Text: "A quiz section update needs a name."},
			{ID: "AUTH-1", Operation: "", Kind: "auth", Strictness: Must, Section: "Authentication", Text: "A request without a subscription key is refused with a 4xx status."},
			{ID: "ERR-FORM-1", Operation: "", Kind: "error-form", Strictness: Must, Section: "Errors", Text: "An error response is a JSON string with Content-Type: application/json & no HTML."},
		},
		Scenarios: []Scenario{
			{
				ID: "features/e21_publish.feature:8", Feature: "E21 publish sessions",
				Name:      "Publishing „Vorlesung Ünïcødé – 日本語“ sessions marks them published ✓",
				Operation: "E21", Kind: "transition", Requirements: []string{"E21-TRANSITION-1"}, Strictness: Must,
				Tags: []string{"@E21", "@E21-TRANSITION-1"}, Outcome: Passed, Duration: Duration(88 * time.Millisecond),
			},
			{
				ID: "features/e5_slots.feature:14", Feature: "E5 delete slots",
				Name:      "Staff without Access_Delete cannot delete slots",
				Operation: "E5", Kind: "permission", Requirements: []string{"E5-PERM-1"}, Strictness: Must,
				Tags: []string{"@E5", "@E5-PERM-1"}, Outcome: Failed, Duration: Duration(45 * time.Millisecond),
				Exchanges: []Exchange{slotDelete},
				Failure: &Failure{
					Requirements: []string{"E5-PERM-1"},
					Step:         `user "staff" deletes the slot`,
					Message:      "expected a refusal (403 or another 4xx), got 204 No Content: the slot was deleted",
					Expected:     "403 (or another 4xx refusal)",
					Got:          "204 No Content",
					Exchange:     0,
					Curl:         Curl(slotDelete),
				},
			},
			{
				ID: "features/e1_second_factor.feature:12", Feature: "E1 validate one-time password",
				Name:      "A correct one-time password is accepted",
				Operation: "E1", Kind: "status", Requirements: []string{"E1-STATUS-1"}, Strictness: Must,
				Outcome: Passed, Duration: Duration(21 * time.Millisecond),
				Exchanges: []Exchange{record(red, "POST", base+"/campus/2FA/Auth", ownerHeaders(),
					`{"userid":"owner","otp":"123456"}`, 200, jsonH, `{"status":"0000","credentialId":"c-1"}`, 20*time.Millisecond)},
			},
			{
				ID: "features/e9_question.feature:12", Feature: "E9 get evaluation question",
				Name:      "A question has a text",
				Operation: "E9", Kind: "shape", Requirements: []string{"E9-SHAPE-1"}, Strictness: Must,
				Outcome: Passed, Duration: Duration(31 * time.Millisecond), Retries: 1, Flaky: true,
				Exchanges: []Exchange{
					{Method: "GET", URL: base + "/evaluation/11111111-1111-4111-8111-111111111111/Question/44444444-4444-4444-8444-444444444444",
						RequestHeaders: red.Headers(ownerHeaders()), Error: "read tcp 10.0.0.2:51234->10.0.0.7:443: read: connection reset by peer", Duration: Duration(2 * time.Millisecond)},
					record(red, "GET", base+"/evaluation/11111111-1111-4111-8111-111111111111/Question/44444444-4444-4444-8444-444444444444",
						ownerHeaders(), "", 200, jsonH, `{"id":"44444444-4444-4444-8444-444444444444","text":"Why?"}`, 28*time.Millisecond),
				},
			},
			{
				ID: "features/e15_channel.feature:4", Feature: "E15 channel users",
				Name:      "Channel user statistics have their documented shape",
				Operation: "E15", Kind: "shape", Requirements: []string{"E15-SHAPE-1"}, Strictness: Must,
				Outcome: Error, Duration: Duration(5 * time.Millisecond), Retries: 1,
				Exchanges: []Exchange{channelUsers, channelUsers},
				Failure: &Failure{
					Requirements: []string{},
					Step:         "I call E15 for the channel",
					Message:      "no HTTP answer, and none on the retry: read tcp 10.0.0.2:51240->10.0.0.7:443: read: connection reset by peer",
					Exchange:     1,
					Curl:         Curl(channelUsers),
				},
			},
			{
				ID: "features/e21_publish.feature:20", Feature: "E21 publish sessions",
				Name:      "Unpublishing sessions marks them unpublished",
				Operation: "E21", Kind: "transition", Requirements: []string{"E21-TRANSITION-2"}, Strictness: Must,
				Outcome: Skipped, SkipCause: CauseReadOnly, SkipReason: "read-only run: E21 (Publish sessions) changes state, no request sent",
			},
			{
				ID: "features/e16_capture.feature:5", Feature: "E16 lecture-capture files",
				Name:      "Lecture-capture sessions have their documented shape",
				Operation: "E16", Kind: "shape", Requirements: []string{"E16-SHAPE-1"}, Strictness: Must,
				Outcome: Skipped, SkipCause: CauseRunnerLimit, SkipReason: "the answer of E16 is longer than the runner reads (4 MiB): --max-body raises the bound",
			},
			{
				ID: "features/e9_question.feature:31", Feature: "E9 get evaluation question",
				Name:      "difficultyLevel stays in 0..3",
				Operation: "E9", Kind: "enum-range", Requirements: []string{"E9-ENUM-1"}, Strictness: Must,
				Outcome: Passed, Duration: Duration(9 * time.Millisecond),
			},
			{
				ID: "features/e9_question.feature:32", Feature: "E9 get evaluation question",
				Name:      "difficultyLevel stays in 0..3",
				Operation: "E9", Kind: "enum-range", Requirements: []string{"E9-ENUM-1"}, Strictness: Must,
				Outcome: Passed, Duration: Duration(8 * time.Millisecond),
			},
			{
				ID: "features/e9_question.feature:20", Feature: "E9 get evaluation question",
				Name:      "An unknown question is an error in the documented form",
				Operation: "E9", Kind: "shape", Requirements: []string{"E9-SHAPE-1"}, Strictness: Must,
				Outcome: Failed, Duration: Duration(19 * time.Millisecond),
				Exchanges: []Exchange{questionGet},
				Failure: &Failure{
					Requirements: []string{"ERR-FORM-1"},
					Step:         "the response is an error in the documented form",
					Message:      "expected a JSON string body with Content-Type: application/json, got text/html <h1>…</h1>",
					Expected:     `Content-Type: application/json; body "a message"`,
					Got:          `Content-Type: text/html; body <h1>Server Error</h1><script>alert("x")</script>`,
					Exchange:     0,
				},
			},
			{
				ID: "features/e17_survey.feature:40", Feature: "E17 responses by survey question",
				Name:      "offset skips items of the same order",
				Operation: "E17", Kind: "query", Requirements: []string{"E17-QUERY-2"}, Strictness: Should,
				Outcome: Failed, Duration: Duration(250 * time.Millisecond),
				Exchanges: []Exchange{firstPage, offsetPage},
				Failure: &Failure{
					Requirements: []string{"E17-QUERY-2"},
					Step:         "the items are those of the first page from the third on",
					Message:      "offset=2 did not skip two items",
					Expected:     `first item "c"`,
					Got:          `first item "00000000-0000-4000-8000-000000000000"`,
					Exchange:     1,
				},
			},
			{
				ID: "features/e13_media.feature:9", Feature: "E13 downloads of a media",
				Name:      "Downloads of an absent media give 404",
				Operation: "E13", Kind: "status", Requirements: []string{"E13-STATUS-1"}, Strictness: Must,
				Outcome: Skipped, SkipCause: CauseFixture, SkipReason: "fixture key records.media is missing",
			},
			{
				ID: "features/gb_settings.feature:6", Feature: "GB update gradebook settings",
				Name:      "Settings not sent keep their defaults",
				Operation: "GB", Kind: "default", Requirements: []string{"GB-DEFAULT-1"}, Strictness: Must,
				Outcome: NotConfigured, SkipReason: "operations.updateGradebookSettings is not in the fixture file",
			},
			{
				ID: "features/e4_faculty.feature:7", Feature: "E4 sync faculties",
				Name:      "A request without a subscription key is refused",
				Operation: "E4", Kind: "auth", Requirements: []string{"AUTH-1"}, Strictness: Must,
				Outcome: Passed, Duration: Duration(5 * time.Millisecond),
			},
			{
				ID: "features/e4_faculty.feature:15", Feature: "E4 sync faculties",
				Name:      "Only the Super Admin may synchronise faculties",
				Operation: "E4", Kind: "permission", Requirements: []string{"E4-PERM-1"}, Strictness: Must,
				Outcome: Passed, Duration: Duration(30 * time.Millisecond),
			},
			{
				ID: "features/quiz.feature:5", Feature: "QS update quiz section",
				Name:      "A section update without a name is refused",
				Operation: "QS", Kind: "status", Requirements: []string{"QS-NAME-1", "AUTH-1"}, Strictness: Must,
				Outcome: Unsupported, SkipReason: "profile quizzes is not claimed (the fixture's implements): nothing sent",
			},
			{
				ID: "features/e6_bank.feature:11", Feature: "E6 copy bank folder",
				Name:      "Copying a bank folder gives 201",
				Operation: "E6", Kind: "status", Requirements: []string{"E6-STATUS-1"}, Strictness: Must,
				Outcome: Failed, Duration: Duration(4 * time.Millisecond),
				Exchanges: []Exchange{copyFolder},
				Failure: &Failure{
					Step:     "the owner copies the bank folder",
					Message:  "no response: dial tcp 10.0.0.7:443: connect: connection refused",
					Exchange: 0,
					Curl:     Curl(copyFolder),
				},
			},
		},
	}
	finalize(r, sampleProfiles())
	// a baseline that knows two of the MUST failures, one of them past its
	// date, and lists a requirement that now passes
	g := Baseline{Entries: []BaselineEntry{
		{ID: "E5-PERM-1", Reason: "role model lands in 2.4", Expires: "2026-11-01", Owner: "team <timetable>"},
		{ID: "E6-STATUS-1", Reason: "flaky upstream"},
		{ID: "E4-PERM-1", Reason: "fixed in 2.3"},
	}}.Gate(r, r.Started)
	g.File = ".conformance-baseline.json"
	r.Gate = &g
	finalize(r, sampleProfiles()) // the verdict is the gate's
	return r
}

// sampleProfiles are the profiles sampleReport lists, fixed here so that
// the golden files show the writers' form of a profile and not the
// registry's profiles of the day: adding an operation to the registry
// leaves them alone (TestFinalizeListsTheRegistrysProfiles holds the
// reports the suite writes to the registry's profiles). They are the
// profiles of the sample's scenarios, grouped as the registry grouped
// them when this table was written, and one neither claimed nor run
// (attendance). Re-finalizing the sample with Finalize lists the
// registry's profiles in their place.
func sampleProfiles() []registry.ProfileOps {
	return []registry.ProfileOps{
		{Name: "second-factor", Operations: []registry.OpID{"E1", "E2", "E3"}},
		{Name: "faculty", Operations: []registry.OpID{"E4"}},
		{Name: "consultation", Operations: []registry.OpID{"E5"}},
		{Name: "bank", Operations: []registry.OpID{"E6"}},
		{Name: "attendance", Operations: []registry.OpID{"E7", "E8"}},
		{Name: "evaluation", Operations: []registry.OpID{"E9", "ES"}},
		{Name: "multimedia", Operations: []registry.OpID{"E13", "E14", "E15", "E16"}},
		{Name: "survey", Operations: []registry.OpID{"E17"}},
		{Name: "web-lectures", Operations: []registry.OpID{"E21"}},
		{Name: "gradebook", Operations: []registry.OpID{"GB"}},
		{Name: "quizzes", Operations: []registry.OpID{"QS"}},
	}
}

// golden compares got with testdata/name, or rewrites the file under
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reports -run %s -update to create it)", err, t.Name())
	}
	if bytes.Equal(got, want) {
		return
	}
	if d := doccheck.Differences(string(got), string(want)); len(d) > 0 {
		t.Fatalf("%s differs from the golden file at line %d:\ngot:  %.200q\nwant: %.200q\n(run with -update if the change is intended)", path, d[0].Line, d[0].Got, d[0].Want)
	}
	t.Fatalf("%s differs from the golden file (run with -update if the change is intended)", path)
}
