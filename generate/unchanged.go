package generate

import (
	"context"
	"fmt"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
)

// snapshotReads returns the reads that show what a request to s changes
// (registry.Operation.ShownBy): a refused request must leave their answers
// as they were. A write no read shows (NotShown) is only checked for its
// status.
func (ru *runner) snapshotReads(s *opSpec) []Request {
	var out []Request
	for _, o := range registry.Readbacks(s.id) {
		rs := ru.specs[o.Op]
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
		if o.Each == "" {
			out = append(out, base)
			continue
		}
		_, member, _ := strings.Cut(o.Each, ".")
		for _, id := range ru.ids[string(s.id)+"."+member] { // the pools of idSources
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
	ops       []registry.OpID
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
	members := map[registry.OpID][]string{}
	for _, o := range registry.Readbacks(write.id) {
		members[o.Op] = append(members[o.Op], o.Members...)
		for k := range write.fixedBody {
			members[o.Op] = append(members[o.Op], k)
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
