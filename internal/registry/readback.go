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
}

// Readbacks returns the reads that show what a call of id changes (nil
// for a write no read shows, and for a read).
func Readbacks(id OpID) []Readback { return byID[string(id)].ShownBy }
