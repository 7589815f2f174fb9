package proxy

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator"
)

// step is one scripted exchange: who sent what, and what came back.
type step struct {
	user, method, path, body string
	status                   int
	resp                     string
	noKey                    bool
	ct                       string // the request's Content-Type when not application/json
}

// fixtureFolder in a step's path, and fixtureNotification and fixtureSlot
// in its body, stand for the fixture's folder, notification and first
// deletable slot, ids the proxy knows name a record.
const (
	fixtureFolder       = "{fixture-folder}"
	fixtureNotification = "{fixture-notification}"
	fixtureSlot         = "{fixture-slot}"
)

const (
	media  = "11111111-1111-4111-8111-111111111111"
	folder = "22222222-2222-4222-8222-222222222222"
	module = "33333333-3333-4333-8333-333333333333"
	item1  = "44444444-4444-4444-8444-444444444444"
	item2  = "55555555-5555-4555-8555-555555555555"
)

func testChecker(t testing.TB) (*checker, *fixtures.File) {
	t.Helper()
	sim, err := simulator.New(simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fx := sim.Fixtures()
	// the reset call of a simulator serving --self-reset
	fx.Reset = &fixtures.Reset{Method: "POST", Path: "/_campusconf/reset", User: "admin"}
	c, err := loadChecker(fx, 0)
	if err != nil {
		t.Fatal(err)
	}
	return c, fx
}

func exchangeOf(fx *fixtures.File, s step) *Exchange {
	u, _ := url.Parse(strings.ReplaceAll(s.path, fixtureFolder, fx.Records.Folder))
	h := http.Header{}
	if !s.noKey {
		h.Set(wire.KeyHeader, fx.SubscriptionKey)
	}
	if s.user == "" {
		s.user = "owner"
	}
	for k, v := range fx.Users[s.user].Headers {
		h.Set(k, v)
	}
	if s.body != "" {
		h.Set("Content-Type", "application/json")
		if s.ct != "" {
			h.Set("Content-Type", s.ct)
		}
	}
	rh := http.Header{"Content-Type": {"application/json"}}
	body := strings.ReplaceAll(s.body, fixtureNotification, fmt.Sprint(fx.Records.Notification.ID))
	body = strings.ReplaceAll(body, fixtureSlot, fx.Records.DeletableSlots[0])
	resp := strings.ReplaceAll(s.resp, fixtureSlot, strings.ToUpper(fx.Records.DeletableSlots[0]))
	return &Exchange{Method: s.method, URL: u, RequestHeader: h, RequestBody: []byte(body), Status: s.status, ResponseHeader: rh, ResponseBody: []byte(resp)}
}

// TestStatefulSequences: short request sequences, the target's answers
// scripted, and the requirement ids the proxy names (none for a faithful
// sequence).
func TestStatefulSequences(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
		want  []string // "OP REQ", in any order; nil: no violation
	}{
		{"read update then read shows it", []step{
			{method: "PUT", path: "/notification/read", body: `{"id":7,"read":11}`, status: 200, resp: `{"id":7,"notifyStatus":11}`},
			{method: "GET", path: "/notification/group/" + folder, status: 200, resp: `{"id":7,"notifyStatus":11,"notifyGroupId":"` + folder + `"}`},
		}, nil},
		{"read update ignored by the read", []step{
			{method: "PUT", path: "/notification/read", body: `{"id":7,"read":11}`, status: 200, resp: `{"id":7}`},
			{method: "GET", path: "/notification/group/" + folder, status: 200, resp: `{"id":7,"notifyStatus":10}`},
		}, []string{"NG NR.read"}},
		{"read update answering the notification the read shows", []step{
			{method: "PUT", path: "/notification/read", body: `{"id":7,"read":10}`, status: 200, resp: `{"id":7,"notifyStatus":10,"type":"file","notifyMessage":"New file","notifyGroupId":"` + folder + `"}`},
			{method: "GET", path: "/notification/group/" + folder, status: 200, resp: `{"id":7,"notifyStatus":10,"type":"file","notifyMessage":"New file","notifyGroupId":"` + strings.ToUpper(folder) + `"}`},
		}, nil},
		{"read update answering a record made up", []step{
			{method: "PUT", path: "/notification/read", body: `{"id":7,"read":10}`, status: 200, resp: `{"id":7,"notifyStatus":10,"type":"","notifyMessage":""}`},
			{method: "GET", path: "/notification/group/" + folder, status: 200, resp: `{"id":7,"notifyStatus":10,"type":"file","notifyMessage":"New file","notifyGroupId":"` + folder + `"}`},
		}, []string{"NG NR.unread"}},
		{"read set twice, the second answer toggled", []step{
			{method: "PUT", path: "/notification/read", body: `{"id":7,"read":11}`, status: 200, resp: `{"id":7,"notifyStatus":11}`},
			{method: "PUT", path: "/notification/read", body: `{"id":7,"read":11}`, status: 200, resp: `{"id":7,"notifyStatus":10}`},
		}, []string{"NR NR.same"}},
		{"refused read value changed nothing", []step{
			{method: "PUT", path: "/notification/read", body: `{"id":7,"read":10}`, status: 200, resp: `{"id":7,"notifyStatus":10}`},
			{method: "PUT", path: "/notification/read", body: `{"id":7,"read":12}`, status: 400, resp: `"read: expected 10 or 11"`},
			{method: "GET", path: "/notification/group/" + folder, status: 200, resp: `{"id":7,"notifyStatus":10,"notifyGroupId":"` + folder + `"}`},
		}, nil},
		{"refused read value carried out", []step{
			{method: "PUT", path: "/notification/read", body: `{"id":7,"read":10}`, status: 200, resp: `{"id":7,"notifyStatus":10}`},
			{method: "PUT", path: "/notification/read", body: `{"id":7,"read":12}`, status: 400, resp: `"read: expected 10 or 11"`},
			{method: "GET", path: "/notification/group/" + folder, status: 200, resp: `{"id":7,"notifyStatus":11,"notifyGroupId":"` + folder + `"}`},
		}, []string{"NG NR.range-unchanged"}},
		{"read value out of range accepted", []step{
			{method: "PUT", path: "/notification/read", body: `{"id":7,"read":12}`, status: 200, resp: `{"id":7}`},
		}, []string{"NR NR.range"}},
		{"slots deleted, 204", []step{
			{method: "DELETE", path: "/consultation/Slot", body: `{"iDs":["` + fixtureSlot + `"]}`, status: 204},
		}, nil},
		{"slots deleted, 200 naming them", []step{
			{method: "DELETE", path: "/consultation/Slot", body: `{"iDs":["` + fixtureSlot + `"]}`, status: 200, resp: `["` + fixtureSlot + `"]`},
		}, nil},
		{"slots deleted, 200 naming none", []step{
			{method: "DELETE", path: "/consultation/Slot", body: `{"iDs":["` + fixtureSlot + `"]}`, status: 200, resp: `[]`},
		}, []string{"E5 E5.success"}},
		{"slots deleted twice, 200 naming none the second time", []step{
			{method: "DELETE", path: "/consultation/Slot", body: `{"iDs":["` + fixtureSlot + `"]}`, status: 204},
			{method: "DELETE", path: "/consultation/Slot", body: `{"iDs":["` + fixtureSlot + `"]}`, status: 200, resp: `[]`},
		}, []string{"E5 E5.gone"}},
		{"annotations of the file asked", []step{
			{method: "GET", path: "/files/FileAnnotation/" + folder + "/all", status: 200, resp: `[{"annotationId":"` + item1 + `","documentId":"` + strings.ToUpper(folder) + `"}]`},
		}, nil},
		{"annotations of another file", []step{
			{method: "GET", path: "/files/FileAnnotation/" + folder + "/all", status: 200, resp: `[{"annotationId":"` + item1 + `","documentId":"` + item2 + `"}]`},
		}, []string{"E11 E11.file"}},
		{"attendance of another resource", []step{
			{method: "POST", path: "/Attendance/Default", body: `{"resourceID":"` + module + `"}`, status: 201, resp: `{"id":"` + item1 + `","resourceID":"` + item2 + `"}`},
		}, []string{"E7 E7.201", "E7 E7.resource"}},
		{"a student listed twice", []step{
			{method: "GET", path: "/resource/" + folder + "/students", status: 200, resp: `[{"id":"` + item1 + `"},{"id":"` + item2 + `"},{"id":"` + item1 + `"}]`},
		}, []string{"E20 E20.distinct"}},
		{"a poll response read as its question lists it", []step{
			{method: "GET", path: "/poll/Question/" + folder + "/Response", status: 200, resp: `[{"id":"` + item1 + `","questionID":"` + folder + `","selectedOptions":[0,2]}]`},
			{method: "GET", path: "/poll/Response/" + item1, status: 200, resp: `{"id":"` + strings.ToUpper(item1) + `","questionID":"` + folder + `","selectedOptions":[0,2],"photo":"p.png"}`},
		}, nil},
		{"a poll response read otherwise than its question lists it", []step{
			{method: "GET", path: "/poll/Question/" + folder + "/Response", status: 200, resp: `[{"id":"` + item1 + `","questionID":"` + folder + `","selectedOptions":[0,2]}]`},
			{method: "GET", path: "/poll/Response/" + item1, status: 200, resp: `{"id":"` + item1 + `","questionID":"` + folder + `","selectedOptions":[1,3]}`},
		}, []string{"E19 E19.agrees"}},
		{"deleted media gone", []step{
			{method: "DELETE", path: "/multimedia/media", body: `{"iDs":["` + media + `"]}`, status: 200, resp: `1`},
			{method: "GET", path: "/multimedia/" + media + "/downloadlog", status: 404, resp: `"not found"`},
		}, nil},
		{"deleted media still readable", []step{
			{method: "DELETE", path: "/multimedia/media", body: `{"iDs":["` + media + `"]}`, status: 200, resp: `1`},
			{method: "GET", path: "/multimedia/" + media + "/downloadlog", status: 200, resp: `{}`},
		}, []string{"E13 E14.gone"}},
		{"refused delete deleted nothing", []step{
			{method: "GET", path: "/multimedia/" + media + "/downloadlog", status: 200, resp: `{}`},
			{method: "DELETE", path: "/multimedia/media", body: `{"iDs":["` + media + `","not-a-uuid"]}`, status: 400, resp: `"iDs[1]: not a uuid"`},
			{method: "GET", path: "/multimedia/" + media + "/downloadlog", status: 200, resp: `{}`},
		}, nil},
		{"refused delete deleted the media", []step{
			{method: "GET", path: "/multimedia/" + media + "/downloadlog", status: 200, resp: `{}`},
			{method: "DELETE", path: "/multimedia/media", body: `{"iDs":["` + media + `","not-a-uuid"]}`, status: 400, resp: `"iDs[1]: not a uuid"`},
			{method: "GET", path: "/multimedia/" + media + "/downloadlog", status: 404, resp: `"not found"`},
		}, []string{"E13 E14.refused-unchanged"}},
		{"refused delete of a media not read before", []step{
			{method: "DELETE", path: "/multimedia/media", body: `{"iDs":["` + media + `","not-a-uuid"]}`, status: 400, resp: `"iDs[1]: not a uuid"`},
			{method: "GET", path: "/multimedia/" + media + "/downloadlog", status: 404, resp: `"not found"`},
		}, nil},
		{"reset brings media back", []step{
			{method: "DELETE", path: "/multimedia/media", body: `{"iDs":["` + media + `"]}`, status: 200, resp: `1`},
			{user: "admin", method: "POST", path: "/_campusconf/reset", status: 204},
			{method: "GET", path: "/multimedia/" + media + "/downloadlog", status: 200, resp: `{}`},
		}, nil},
		{"copy keeps the source id", []step{
			{method: "POST", path: "/bank/" + folder + "/copy", status: 201, resp: `{"id":"` + folder + `"}`},
		}, []string{"E6 E6.201"}},
		{"gradebook answer over 100", []step{
			{method: "PATCH", path: "/gradebook/" + module + "/settings", body: `{"iD_Weightage":[{"key":"` + item1 + `","value":60}],"gradingSchema":[]}`, status: 200,
				resp: `{"iD_Weightage":[{"key":"` + item1 + `","value":60},{"key":"` + item2 + `","value":50}]}`},
		}, []string{"GB GB.total-over"}},
		{"gradebook request over 100 accepted", []step{
			{method: "PATCH", path: "/gradebook/" + module + "/settings", body: `{"iD_Weightage":[{"key":"` + item1 + `","value":60},{"key":"` + item2 + `","value":40.01}],"gradingSchema":[]}`, status: 200, resp: `{}`},
		}, []string{"GB GB.total-over"}},
		{"denied push polled as approved", []step{
			{user: "staff", method: "POST", path: "/campus/2FA/Push", status: 200, resp: `{"status":"0000","transactionId":"tx-1"}`},
			{user: "staff", method: "POST", path: "/campus/2FA/Poll", body: `{"transactionId":"tx-1"}`, status: 200, resp: `{"status":"0000"}`},
		}, []string{"E2 E2.deny"}},
		{"denied push polled as denied", []step{
			{user: "staff", method: "POST", path: "/campus/2FA/Push", status: 200, resp: `{"status":"0000","transactionId":"tx-1"}`},
			{user: "staff", method: "POST", path: "/campus/2FA/Poll", body: `{"transactionId":"tx-1"}`, status: 200, resp: `{"status":"7002"}`},
		}, nil},
		{"student served a forbidden operation", []step{
			{user: "student", method: "POST", path: "/bank/" + folder + "/copy", status: 201, resp: `{"id":"` + media + `"}`},
		}, []string{"E6 ALL.forbidden"}},
		{"non-admin syncs faculties", []step{
			{user: "staff", method: "POST", path: "/campus/Faculty", status: 200, resp: `[]`},
		}, []string{"E4 E4.403"}},
		{"no key served", []step{
			{noKey: true, method: "GET", path: "/poll/Response/" + media, status: 200, resp: `{}`},
		}, []string{"E19 ALL.key"}},
		{"malformed uuid answered 404 with an object", []step{
			{method: "GET", path: "/poll/Response/nope", status: 404, resp: `{"error":"x"}`},
		}, []string{"E19 E19.400.uuid", "E19 ALL.error-body"}},
		{"a delete counting fewer than sent leaves the media readable", []step{
			{user: "staff", method: "DELETE", path: "/multimedia/media", body: `{"iDs":["` + media + `"]}`, status: 200, resp: `0`},
			{method: "GET", path: "/multimedia/" + media + "/downloadlog", status: 200, resp: `{}`},
		}, nil},
		{"a session named twice counted once", []step{
			{method: "PUT", path: "/weblecture/session/publish", body: `{"iDs":["` + media + `","` + media + `"],"publish":true}`, status: 200, resp: `1`},
		}, nil},
		{"a session named twice counted twice", []step{
			{method: "PUT", path: "/weblecture/session/publish", body: `{"iDs":["` + media + `","` + media + `"],"publish":true}`, status: 200, resp: `2`},
		}, []string{"E21 E21.count-distinct"}},
		{"sessions counted past the ids sent", []step{
			{method: "PUT", path: "/weblecture/session/publish", body: `{"iDs":["` + media + `","` + folder + `"],"publish":true}`, status: 200, resp: `3`},
		}, []string{"E21 E21.count-unknown"}},
		{"survey responses describe their creator", []step{
			{method: "GET", path: "/survey/question/" + folder + "/response?populate=Creator", status: 200, resp: `[{"questionID":"` + folder + `","userName":"Ann"},{"questionID":"` + folder + `","userMatrixNo":"A1"}]`},
		}, nil},
		{"a survey response without its creator", []step{
			{method: "GET", path: "/survey/question/" + folder + "/response?populate=Creator", status: 200, resp: `[{"questionID":"` + folder + `","userName":"Ann"},{"questionID":"` + folder + `","userId":""}]`},
		}, []string{"E17 E17.creator"}},
		{"valid request refused", []step{
			{method: "GET", path: "/files/" + fixtureFolder + "/downloaded?limit=2", status: 400, resp: `"no"`},
		}, []string{"E10 E10.200"}},
		// where the specification leaves a bound, a check or a status
		// open, a refusal is no violation (rules.OpenIn)
		{"negative offset refused", []step{
			{method: "GET", path: "/files/" + fixtureFolder + "/downloaded?offset=-1", status: 400, resp: `"no"`},
		}, nil},
		{"limit above a cap refused", []step{
			{method: "GET", path: "/files/" + fixtureFolder + "/downloaded?limit=2000", status: 400, resp: `"no"`},
		}, nil},
		{"inverted date range refused", []step{
			{method: "GET", path: "/files/" + fixtureFolder + "/downloaded?StartDate=2024-02-01T00:00:00Z&EndDate=2024-01-01T00:00:00Z", status: 400, resp: `"no"`},
		}, nil},
		{"unknown id refused where no 404 is listed", []step{
			{method: "GET", path: "/files/" + folder + "/downloaded?limit=2", status: 400, resp: `"no"`},
		}, nil},
		{"a form body refused 415", []step{
			{method: "PUT", path: "/notification/read", ct: "application/x-www-form-urlencoded", body: `{"id":7,"read":11}`, status: 415, resp: `"no"`},
		}, nil},
		{"a JSON body under text/plain refused 400", []step{
			{method: "PUT", path: "/notification/read", ct: "text/plain", body: `{"id":` + fixtureNotification + `,"read":11}`, status: 400, resp: `"no"`},
		}, nil},
		{"a form body that is not JSON refused 415", []step{
			{method: "PUT", path: "/notification/read", ct: "application/x-www-form-urlencoded", body: `id=7&read=11`, status: 415, resp: `"no"`},
		}, nil},
		{"a body that is not JSON under JSON refused 415", []step{
			{method: "PUT", path: "/notification/read", body: `id=7&read=11`, status: 415, resp: `"no"`},
		}, []string{"NR NR.400.json"}},
		{"a valid JSON body refused 400", []step{
			{method: "PUT", path: "/notification/read", body: `{"id":` + fixtureNotification + `,"read":11}`, status: 400, resp: `"no"`},
		}, []string{"NR NR.read"}},
		{"the documented media type refused 415", []step{
			{method: "PUT", path: "/notification/read", ct: "application/json-patch+json", body: `{"id":7,"read":11}`, status: 415, resp: `"no"`},
		}, []string{"NR ALL.media-type"}},
		{"limit ignored", []step{
			{method: "GET", path: "/files/" + folder + "/downloaded?limit=1", status: 200, resp: `[{},{}]`},
		}, []string{"E10 E10.limit"}},
		{"each world has its own records", []step{
			{method: "DELETE", path: "/_w/alice/multimedia/media", body: `{"iDs":["` + media + `"]}`, status: 200, resp: `1`},
			{method: "GET", path: "/multimedia/" + media + "/downloadlog", status: 200, resp: `{}`},
			{method: "GET", path: "/_w/alice/multimedia/" + media + "/downloadlog", status: 200, resp: `{}`},
		}, []string{"E13 E14.gone"}},
		{"search kept", []step{
			{method: "GET", path: "/files/" + folder + "/downloaded?SearchText=lec", status: 200, resp: `[{"name":"Ann","fileName":"Lecture 1.pdf"},{"name":"Alec","fileName":"x"}]`},
		}, nil},
		{"search ignored", []step{
			{method: "GET", path: "/files/" + folder + "/downloaded?SearchText=lec", status: 200, resp: `[{"name":"Ann","fileName":"Lecture 1.pdf"},{"name":"Bob","fileName":"notes.txt"}]`},
		}, []string{"E10 E10.search"}},
		{"paths match without regard to case", []step{
			{method: "GET", path: "/FILES/" + folder + "/DOWNLOADED?StartDate=yesterday", status: 200, resp: `[]`},
		}, []string{"E10 E10.400.date"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, fx := testChecker(t)
			var got []string
			for _, s := range tt.steps {
				_, fs := c.check(exchangeOf(fx, s))
				for _, f := range fs {
					got = append(got, string(f.Operation)+" "+f.Requirement)
				}
			}
			slices.Sort(got)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("expected violations [%s], got [%s]", strings.Join(want, ", "), strings.Join(got, ", "))
			}
		})
	}
}
