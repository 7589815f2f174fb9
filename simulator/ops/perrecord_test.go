package ops

import (
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
)

// TestPerRecordLookups: every operation refused to students says which of
// its inputs names the record the permission-per-record variant checks
// (registry.Operation.PermissionOn), and the simulator can look that kind
// of record up; without the two, the variant would refuse the operation
// as a whole, silently.
func TestPerRecordLookups(t *testing.T) {
	for _, routes := range domains {
		for id, rt := range routes {
			if rt.access != notStudent {
				continue
			}
			o := registry.Must(id)
			switch kind := o.IDs[o.PermissionOn]; {
			case o.PermissionOn == "":
				t.Errorf("%s is refused to students but its registry row declares no PermissionOn (the input naming the record a per-record permission is checked on): add it in internal/registry/registry.go", id)
			case recordExists[kind] == nil:
				t.Errorf("%s checks permissions on %s (%q), a kind of record recordExists cannot look up: add it in simulator/ops/perrecord.go", id, o.PermissionOn, kind)
			}
		}
	}
}
