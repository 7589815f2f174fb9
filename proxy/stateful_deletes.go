package proxy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// slotsDeleted (E5) judges the refusal of staff, who lacks Access_Delete
// on the slots' module, and a second deletion of slots already deleted.
func slotsDeleted(j *judgement) {
	ids := strs(j.req.Get("iDs"))
	if len(ids) == 0 {
		return
	}
	if j.user == "staff" && j.is2xx && subset(ids, j.c.fx.Records.DeletableSlots) {
		if _, declared := j.c.fx.Users["staff"]; declared {
			j.Broke("E5.403", "403 for staff, who lacks Access_Delete on the slots' module", fmt.Sprint(j.ex.Status))
		}
	}
	if j.m.allIn(kindSlot, ids) {
		gone(j, "E5.gone")
	}
	// A 200 names the slots deleted: here every id sent, when each is a
	// fixture slot the traffic has not deleted yet.
	if j.ex.Status == 200 && subset(ids, j.c.fx.Records.DeletableSlots) && !slices.ContainsFunc(ids, func(id string) bool { return j.m.has(kindSlot, id) }) {
		j.Breach(registry.E5.Requirement(".success"), rules.DeletedIDsAnswer(j.ex.Status, j.resp, j.req.Get("iDs")))
	}
	if j.is2xx {
		for _, id := range ids {
			j.m.set(kindSlot, id, true)
		}
	}
}

// gone judges the answer to a call addressing records deleted earlier.
func gone(j *judgement, req string) {
	if b, judged := rules.GoneAnswer(j.ex.Status); judged {
		j.Breach(req, b)
	}
}

// What the traffic showed of a media that is not deleted (kindMediaAt):
// read (200), or, read so before, named by a delete that was refused.
const (
	mediaReadable = "readable"
	mediaRefused  = "refused"
)

// mediaRead (E13) judges a read of a media deleted earlier (mediasDeleted),
// or of one readable before a delete naming it was refused, which must
// have deleted nothing (E14.refused-unchanged).
func mediaRead(j *judgement) {
	id := j.params["id"]
	if j.m.has(kindMedia, id) {
		gone(j, "E14.gone")
		return
	}
	if at, _ := j.m.get(kindMediaAt, id); at == mediaRefused {
		j.Judge(registry.E14.Requirement(".refused-unchanged"), "200: the media a refused delete named, read before it, is still there", j.ex.Status == 404, fmt.Sprint(j.ex.Status))
	}
	if j.is2xx {
		j.m.set(kindMediaAt, id, mediaReadable)
	} else if j.ex.Status == 404 {
		j.m.set(kindMediaAt, id, "")
	}
}

// mediasDeleted (E14) judges the count answered, and remembers the medias
// gone: only when the count says every id was deleted, since an
// implementation may serve a caller who owns some of them, or none (a
// count of 0), and which were deleted the answer does not say.
func mediasDeleted(j *judgement) {
	mediasNamed(j)
	ids := strs(j.req.Get("iDs"))
	if !j.is2xx || j.resp.Type != gjson.Number || len(ids) == 0 {
		return
	}
	countWithin(j, "E14.count", ids)
	if j.m.allIn(kindMedia, ids) {
		j.Judge("E14.count", "0: every id sent was deleted before", j.resp.Int() != 0, "count "+j.resp.Raw)
	}
	if j.resp.Int() == int64(distinctCount(ids)) {
		for _, id := range ids {
			j.m.set(kindMedia, id, true)
		}
	}
}

// mediasNamed (E14, valid or not) remembers the medias read before that a
// refused delete names, for mediaRead to find them still there; after a
// delete answered 2xx, which of them went the answer does not say.
func mediasNamed(j *judgement) {
	for _, id := range strs(j.req.Get("iDs")) {
		switch at, _ := j.m.get(kindMediaAt, id); {
		case rules.ClientError(j.ex.Status) && at == mediaReadable:
			j.m.set(kindMediaAt, id, mediaRefused)
		case j.is2xx && at != nil:
			j.m.set(kindMediaAt, id, "")
		}
	}
}

// sessionsPublished (E21) judges the count answered. A count past the
// distinct ids sent, where the body names a session more than once and
// the count is within the ids as written, counts the repeats
// (E21.count-distinct); any other count past them counts what the body
// does not name (E21.count-unknown).
func sessionsPublished(j *judgement) {
	ids := strs(j.req.Get("iDs"))
	if j.is2xx && j.resp.Type == gjson.Number && len(ids) > 0 {
		req := registry.E21.Requirement(".count-unknown")
		if distinctCount(ids) < len(ids) && j.resp.Int() <= int64(len(ids)) {
			req = registry.E21.Requirement(".count-distinct")
		}
		countWithin(j, req, ids)
	}
}

// countWithin judges a count of records affected against the ids sent: a
// count within them may still count absent ones, which the traffic does
// not show, so only a count past them is judged (broken).
func countWithin(j *judgement, req string, ids []string) {
	if n := distinctCount(ids); j.resp.Int() > int64(n) {
		j.Broke(req, fmt.Sprintf("a count of at most %d (the ids sent)", n), "count "+j.resp.Raw)
	}
}

// idsEqual reports whether two ids are the same, without regard to case.
func idsEqual(a, b string) bool { return strings.EqualFold(a, b) }
