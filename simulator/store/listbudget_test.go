package store

import (
	"testing"
	"time"
)

// TestListBudget holds a budget to dropping idle lists only while the lists
// held cost more than its threshold, and a dropped list to being generated
// again on its next use.
func TestListBudget(t *testing.T) {
	tests := []struct {
		name      string
		threshold int
		wantDrop  bool
	}{
		{"under the threshold: kept", 100, false},
		{"over the threshold: dropped when idle", 10, true},
	}
	for _, tt := range tests {
		b := NewListBudget(tt.threshold, time.Millisecond)
		gens := 0
		l := NewBudgeted(b, 50, func() []int { gens++; return []int{1, 2, 3} })
		if got := l.Get(); len(got) != 3 || gens != 1 {
			t.Fatalf("%s: first Get = %v after %d generations, want [1 2 3] after 1", tt.name, got, gens)
		}
		dropped := waitDropped(b, 2*time.Second)
		if dropped != tt.wantDrop {
			t.Fatalf("%s: list of cost 50 at threshold %d dropped = %v, want %v", tt.name, tt.threshold, dropped, tt.wantDrop)
		}
		l.Get()
		wantGens := 1
		if tt.wantDrop {
			wantGens = 2
		}
		if gens != wantGens {
			t.Errorf("%s: %d generations after a second Get, want %d", tt.name, gens, wantGens)
		}
	}
}

// waitDropped reports whether b drops a list within limit. (It waits for
// an event, bounded; it measures no time.)
func waitDropped(b *ListBudget, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		b.mu.Lock()
		n, pending := b.Dropped, b.timer != nil
		b.mu.Unlock()
		if n > 0 {
			return true
		}
		if !pending {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return false
}

// TestKeepFor holds a list to being kept idle at least IdleFactor times
// what generating it took, and at least the budget's idle period.
func TestKeepFor(t *testing.T) {
	tests := []struct {
		took, idle, want time.Duration
	}{
		{0, 2 * time.Second, 2 * time.Second},
		{100 * time.Millisecond, 2 * time.Second, 2 * time.Second},
		{time.Second, 2 * time.Second, IdleFactor * time.Second},
	}
	for _, tt := range tests {
		l := NewBudgeted(NewListBudget(0, tt.idle), 1, func() int { return 0 })
		l.took.Store(int64(tt.took))
		if got := l.keepFor(tt.idle); got != tt.want {
			t.Errorf("keepFor(%v) after a generation of %v = %v, want %v", tt.idle, tt.took, got, tt.want)
		}
	}
}

// BenchmarkBudgetedGet is the cost a budgeted list adds to each read of
// it under the threshold (every list read at small scales).
func BenchmarkBudgetedGet(b *testing.B) {
	l := NewBudgeted(NewListBudget(1<<30, time.Hour), 1, func() []int { return []int{1} })
	for b.Loop() {
		if len(l.Get()) != 1 {
			b.Fatal("Get lost the value")
		}
	}
}
