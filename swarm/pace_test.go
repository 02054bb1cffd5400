package swarm

import (
	"testing"
	"time"
)

// TestPace checks the master's pacing on made-up exchanges: a loaded
// master stretches the cycles until its load falls under the high mark, an
// idle one shortens them again to Params.Updates, and a burst of first
// requests (no reports) changes nothing.
func TestPace(t *testing.T) {
	var p pace
	now := time.Unix(0, 0)
	// Run feeds n exchanges of one report each, spaced by gap, each
	// costing busy×(1/stretch): stretched cycles mean fewer reports per
	// unit of time, which the spacing stands for here.
	run := func(n int, gap, busy time.Duration) {
		for range n {
			stretch := time.Duration(max(p.stretch, 1))
			now = now.Add(gap * stretch)
			p.observe(now, busy, 1, 100, 64)
		}
	}
	for range 2000 {
		p.observe(now, time.Millisecond, 0, 1000, 64) // first requests, back to back
	}
	if p.stretch > 1 {
		t.Fatalf("a burst of first requests stretched the cycles %d times", p.stretch)
	}
	run(5000, time.Millisecond, 900*time.Microsecond) // load 0.9
	if p.stretch < 2 || p.load() > paceHigh {
		t.Errorf("loaded: stretch %d, load %.2f", p.stretch, p.load())
	}
	run(20000, time.Millisecond, 50*time.Microsecond) // load 0.05 unstretched
	if p.stretch != 1 {
		t.Errorf("idle: stretch %d, want 1", p.stretch)
	}
	run(50000, time.Millisecond, 100*time.Second) // hopelessly loaded
	if p.stretch != 64 {
		t.Errorf("overloaded: stretch %d, want the bound 64", p.stretch)
	}
}
