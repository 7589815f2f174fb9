package steps

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
	"github.com/tidwall/gjson"
)

// makeNotification brings the fixture's notification to a read status
// before a check of what an update does from there: it sets the status
// and reads the notification back through the read that shows NR's effect
// (registry.Readbacks: NG) unless the update's answer gives the status
// asked for (the scenario reads back what was kept), and sets it once more when
// the read shows the other status (an update that flips a notification
// already holding the value sent reaches it on the second try). A
// notification that will not take the status breaks the transition to it
// (NR.read, NR.unread), not the rule the scenario checks; one whose
// status NG does not show leaves the check unobservable.
func makeNotification(ctx context.Context, state string) error {
	s := stateFrom(ctx)
	want := rules.ReadRead
	if state == "unread" {
		want = rules.ReadUnread
	}
	req := rules.ReadRequirement(int64(want))
	var got string
	for range 2 {
		c := call{op: registry.NR, hasBody: true,
			body: `{"id": {records.notification.id}, "read": ` + strconv.Itoa(want) + `}`}
		if err := s.do(ctx, c); err != nil {
			return err
		}
		s.refusal = refusal{exchange: len(s.exchanges) - 1, reqs: []string{req}}
		if err := s.statusIs(200); err != nil {
			return err
		}
		// an answer that gives the state asked for is taken at its word:
		// the scenario's own read-back judges what was kept
		if v := s.json().Get("notifyStatus"); v.Type == gjson.Number && v.Int() == int64(want) {
			return nil
		}
		if err := readNotificationBack(ctx); err != nil {
			return err
		}
		if err := s.statusIs(200); err != nil {
			return err
		}
		v := s.json().Get("notifyStatus")
		if absent(v) {
			return s.optionalAbsent("notifyStatus")
		}
		if v.Int() == int64(want) {
			return nil
		}
		got = v.Raw
	}
	return s.fail([]string{req}, fmt.Sprintf("the notification %s (notifyStatus %d) after read=%d, read back", state, want, want), "notifyStatus "+got+" after two updates")
}

// readNotificationBack reads the fixture's notification back through the
// read that shows NR's effect (registry.Readbacks: NG, by its group) and
// holds the answer to be of that group: a read-back answering another
// group's notification breaks NG.group, as the proxy judges it, not the
// rule of the write read back. The status is left to the step after.
func readNotificationBack(ctx context.Context) error {
	s := stateFrom(ctx)
	const group = "{records.notification.groupId}"
	if err := s.do(ctx, newCall(registry.Readbacks(registry.NR)[0].Op, group)); err != nil {
		return err
	}
	if s.status != 200 {
		return nil
	}
	want, err := s.interpolate(group)
	if err != nil {
		return err
	}
	if g := s.json().Get("notifyGroupId"); !absent(g) && !strings.EqualFold(g.String(), want) {
		return s.fail([]string{"NG.group"}, "the notification of group "+want+", read back", "notifyGroupId "+g.Raw)
	}
	return nil
}
