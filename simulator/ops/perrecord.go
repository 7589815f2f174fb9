package ops

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// The permission-per-record variant checks a student's permission on the
// record a request names, not on the operation: a write or log read naming
// a record that exists is refused (403), one naming nothing that exists is
// answered as anyone's would be (404, an empty list, a count of 0). It is
// how an implementation that looks records up first and asks who may touch
// each one behaves; the suite's refusal probes must name real records to
// see its refusals. Which input names the record is the registry's fact
// (Operation.PermissionOn); how the simulator looks a record of each kind
// up is recordExists, by the fixture record the input names (IDs).

// perRecord reports whether op's refusal of the caller depends on the
// record the request names, under the variant.
func (env *Env) perRecord(op operation) bool {
	return op.access == notStudent && env.variants.Has(variants.PermissionPerRecord)
}

// recordExists looks a record up by its kind: the fixture record path an
// operation's input takes (registry.Operation.IDs). Every operation
// refused per record has its kind here (TestPerRecordLookups).
var recordExists = map[string]func(st *store.Store, id string) bool{
	"records.bankFolder":           func(st *store.Store, id string) bool { return found(st.BankFolder(id)) },
	"records.attendanceResource":   func(st *store.Store, id string) bool { return found(st.Module(id)) },
	"records.folder":               func(st *store.Store, id string) bool { return found(st.FileLogs(id)) },
	"records.weblink":              func(st *store.Store, id string) bool { return found(st.WeblinkLogs(id)) },
	"records.media":                func(st *store.Store, id string) bool { return noError(st.MediaLog(id)) },
	"records.deletableMedia":       func(st *store.Store, id string) bool { return noError(st.MediaLog(id)) },
	"records.channel":              func(st *store.Store, id string) bool { return found(st.ChannelTotals(id)) },
	"records.capture":              func(st *store.Store, id string) bool { return found(st.Captures(id)) },
	"records.lectureSessions":      func(st *store.Store, id string) bool { return found(st.SessionPublished(id)) },
	"records.gradebookModule.id":   func(st *store.Store, id string) bool { return found(st.Gradebook(id)) },
	"records.evaluation":           func(st *store.Store, id string) bool { return found(st.Evaluation(id)) },
	"records.notification.groupId": func(st *store.Store, id string) bool { return noError(st.NotificationByGroup(id, false)) },
	"records.notification.id":      notificationExists,
	"records.quizSection.id":       func(st *store.Store, id string) bool { return found(st.QuizSection(id)) },
}

func notificationExists(st *store.Store, id string) bool {
	n, err := strconv.ParseInt(id, 10, 64)
	return err == nil && found(st.Notification(n))
}

// namesExisting reports whether the request names a record that exists:
// any of the ids of the input op checks permissions on
// (registry.Operation.PermissionOn), in the path or the body. The body is
// read and put back for the handler. An id it cannot read names nothing;
// an operation that declares no such input names no record, and is
// refused as a whole.
func (env *Env) namesExisting(op registry.OpID, r *http.Request) bool {
	o := registry.Must(op)
	exists := recordExists[o.IDs[o.PermissionOn]]
	if exists == nil {
		return true
	}
	for _, id := range requestIDs(r, o.PermissionOn) {
		if exists(env.store, strings.ToLower(id)) {
			return true
		}
	}
	return false
}

// requestIDs reads the ids of one input of a request: "path.NAME", or
// "body.NAME" (a string, a number or a list of them).
func requestIDs(r *http.Request, input string) []string {
	where, name, _ := strings.Cut(input, ".")
	if where == "path" {
		return []string{r.PathValue(name)}
	}
	var data []byte
	if r.Body != nil {
		data, _ = io.ReadAll(io.LimitReader(r.Body, front.MaxBodyBytes))
		r.Body = io.NopCloser(bytes.NewReader(data))
	}
	var b map[string]json.RawMessage
	_ = json.Unmarshal(data, &b)
	var list []json.RawMessage
	if json.Unmarshal(b[name], &list) != nil {
		list = []json.RawMessage{b[name]}
	}
	var out []string
	for _, raw := range list {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out = append(out, s)
		} else if n := json.Number(bytes.TrimSpace(raw)); n != "" {
			if _, err := n.Int64(); err == nil {
				out = append(out, n.String())
			}
		}
	}
	return out
}

// found reports the second result of a lookup: whether it found the record.
func found[T any](_ T, ok bool) bool { return ok }

// noError reports whether a lookup returned no error: the record exists.
func noError[T any](_ T, err error) bool { return err == nil }
