// Per-operation facts beyond where an operation lives and what it takes:
// which reads show a write, and the permissions the specification states.

package registry

// Readback is a read that shows what a write changes (Operation.ShownBy):
// a refused call of the write must leave its answers as they were, and an
// accepted one shows its effect there. The scenarios read a write back
// through it, the generated requests compare its answers around a refused
// write, and the proxy remembers a write to judge the read.
type Readback struct {
	// Op is the read.
	Op OpID
	// Each, when set, is the write's input (a key of its IDs, "body.iDs")
	// whose ids the read addresses one by one, in the place of its path
	// parameter; empty: the read addresses the fixture records its own IDs
	// name.
	Each string
	// Members are the members of the read's answer the write sets, beyond
	// those of the body it sends: the read's answers around a refused
	// write are compared by the records they show and by these members,
	// since no other member is stable from one answer to the next.
	Members []string
}

// Readbacks returns the reads that show what a call of id changes (nil
// for a write no read shows, and for a read).
func Readbacks(id OpID) []Readback { return byID[string(id)].ShownBy }

// Permission is a permission the specification states for an operation
// (Operation.Stated).
type Permission string

// The permissions the specification states (Authentication 3).
const (
	// SuperAdmin: only the Super Admin may call it (E4).
	SuperAdmin Permission = "Super Admin"
	// AccessDelete: the caller needs Access_Delete on the module of the
	// records (E5).
	AccessDelete Permission = "Access_Delete on the module"
)
