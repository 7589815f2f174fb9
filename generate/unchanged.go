package generate

import (
	"context"
	"fmt"

	"github.com/campusconf/campusconf/reports"
)

// observedBy names, for the writes whose effect a read shows, the reads
// that show it: a refused request to the write must leave their answers as
// they were. The other writes change records no operation reads back
// (quiz sections, gradebook settings, lecture sessions, slots,
// attendances), so a refused request to them is only checked for its
// status.
var observedBy = map[string][]observer{
	"NR":  {{op: "NG", members: []string{"notifyStatus"}}},
	"E14": {{op: "E13"}, {op: "E13", pool: "E14.iDs"}},
	"ES":  {{op: "E9"}}, // and the members of the fixture's body
}

// observer is a read of the records a write may change: op with the
// fixture ids of its path parameters, or one read per id of pool. Its
// answers before and after are compared by the records they show
// (rules.Identity) and by members, the members the write sets: no other
// member is stable from one answer to the next (issue 38).
type observer struct {
	op      string
	pool    string
	members []string
}

// snapshotReads returns the reads that show what a request to s changes.
func (ru *runner) snapshotReads(s *opSpec) []Request {
	var out []Request
	for _, o := range observedBy[s.id] {
		rs := ru.specs[o.op]
		if rs == nil {
			continue
		}
		base := Request{Op: rs.id, Path: map[string]string{}}
		complete := true
		for _, p := range rs.pathParams {
			if len(p.ids) == 0 {
				complete = false
				break
			}
			base.Path[p.name] = p.ids[0]
		}
		if !complete {
			continue
		}
		if o.pool == "" {
			out = append(out, base)
			continue
		}
		for _, id := range ru.ids[o.pool] {
			r := base.clone()
			for k := range r.Path {
				r.Path[k] = id
			}
			out = append(out, r)
		}
	}
	return out
}

// snapshot is the answers to reads, in order.
type snapshot struct {
	ops       []string
	exchanges []reports.Exchange
	bodies    [][]byte
}

func (ru *runner) snapshot(ctx context.Context, reads []Request) (snapshot, bool) {
	var sn snapshot
	for _, r := range reads {
		ex, raw, kind := ru.exchange(ctx, ru.specs[r.Op], r)
		if kind != answered {
			return sn, false
		}
		sn.ops = append(sn.ops, r.Op)
		sn.exchanges = append(sn.exchanges, ex)
		sn.bodies = append(sn.bodies, raw)
	}
	return sn, true
}

// changed compares two snapshots of the same reads, made around a request
// to write, and describes the first difference: a status, the records an
// answer shows, or a member the write sets (sameRecords): the observer's,
// and those of a body the fixture gives (the write sets what it sends).
func changed(write *opSpec, before, after snapshot) (string, string, int, bool) {
	members := map[string][]string{}
	for _, o := range observedBy[write.id] {
		members[o.op] = append(members[o.op], o.members...)
		for k := range write.fixedBody {
			members[o.op] = append(members[o.op], k)
		}
	}
	for i := range before.exchanges {
		b, a := before.exchanges[i], after.exchanges[i]
		if b.Status != a.Status || !sameRecords(before.ops[i], before.bodies[i], after.bodies[i], members[before.ops[i]]) {
			return fmt.Sprintf("%s %s: %d %s", b.Method, b.URL, b.Status, clip(b.ResponseBody)),
				fmt.Sprintf("%d %s", a.Status, clip(a.ResponseBody)), i, true
		}
	}
	return "", "", 0, false
}
