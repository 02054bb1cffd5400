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
	grouped := false
	now := time.Unix(0, 0)
	// Run feeds n exchanges of one report each, spaced by gap, each
	// costing busy×(1/stretch): stretched cycles mean fewer reports per
	// unit of time, which the spacing stands for here.
	run := func(n int, gap, busy time.Duration) {
		for range n {
			stretch := time.Duration(max(p.stretch, 1))
			now = now.Add(gap * stretch)
			p.observe(now, busy, 1, 100, 64, grouped)
		}
	}
	for range 2000 {
		p.observe(now, time.Millisecond, 0, 1000, 64, grouped) // first requests, back to back
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

// TestPaceGathers checks that a loaded master whose groups hold several
// solvers asks them to gather before it stretches cycles, and stops asking
// once the stretch is back to 1 and its load low; one whose groups are
// single solvers never asks.
func TestPaceGathers(t *testing.T) {
	for _, grouped := range []bool{false, true} {
		var p pace
		now := time.Unix(0, 0)
		run := func(n int, gap, busy time.Duration) {
			for range n {
				now = now.Add(gap * time.Duration(max(p.stretch, 1)))
				p.observe(now, busy, 1, 100, 64, grouped)
			}
		}
		run(300, time.Millisecond, 900*time.Microsecond) // one change of pace
		if grouped && (p.gathering() != paceGather || p.stretch > 1) {
			t.Errorf("grouped, loaded once: gather %g, stretch %d; want %g and 1", p.gathering(), p.stretch, paceGather)
		}
		if !grouped && (p.gathering() != 0 || p.stretch < 2) {
			t.Errorf("ungrouped, loaded once: gather %g, stretch %d; want 0 and more than 1", p.gathering(), p.stretch)
		}
		run(5000, time.Millisecond, 900*time.Microsecond)
		if p.stretch < 2 {
			t.Errorf("grouped %v, loaded: stretch %d", grouped, p.stretch)
		}
		run(20000, time.Millisecond, 50*time.Microsecond)
		if p.stretch != 1 || p.gathering() != 0 {
			t.Errorf("grouped %v, idle: stretch %d, gather %g; want 1 and 0", grouped, p.stretch, p.gathering())
		}
	}
}
