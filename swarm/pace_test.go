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
	p := pace{cfg: defaultPace()}
	grouped := false
	now := time.Unix(0, 0)
	// Run feeds n exchanges of one report each, spaced by gap, each
	// costing busy×(1/stretch): stretched cycles mean fewer reports per
	// unit of time, which the spacing stands for here.
	run := func(n int, gap, busy time.Duration) {
		for range n {
			stretch := time.Duration(max(p.stretch, 1))
			now = now.Add(gap * stretch)
			p.observe(now, busy, 1, 1, paceShape{jobs: 100, maxStretch: 64, grouped: grouped})
		}
	}
	for range 2000 {
		p.observe(now, time.Millisecond, 0, 0, paceShape{jobs: 1000, maxStretch: 64, grouped: grouped}) // first requests, back to back
	}
	if p.stretch > 1 {
		t.Fatalf("a burst of first requests stretched the cycles %d times", p.stretch)
	}
	run(5000, time.Millisecond, 900*time.Microsecond) // load 0.9
	if p.stretch < 2 || p.load() > p.cfg.High {
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
		p := pace{cfg: defaultPace()}
		now := time.Unix(0, 0)
		run := func(n int, gap, busy time.Duration) {
			for range n {
				now = now.Add(gap * time.Duration(max(p.stretch, 1)))
				p.observe(now, busy, 1, 1, paceShape{jobs: 100, maxStretch: 64, grouped: grouped})
			}
		}
		run(300, time.Millisecond, 900*time.Microsecond) // one change of pace
		if grouped && (p.gathering() != p.cfg.Gather || p.stretch > 1) {
			t.Errorf("grouped, loaded once: gather %g, stretch %d; want %g and 1", p.gathering(), p.stretch, p.cfg.Gather)
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

// TestPaceEarlyEnds checks that the pace stretches cycles for the load
// longer cycles remove, not for the load of jobs that end early by solving
// their leaf, which comes whatever the cycle; and that it shortens cycles
// that load made long once it has gone, though the whole load stays
// between the marks. Exchanges of one report come at two rates: early
// ends every fixed apart, reports at a cycle's end every paced×stretch.
func TestPaceEarlyEnds(t *testing.T) {
	const cost = 100 * time.Microsecond
	run := func(p *pace, n int, fixed, paced float64) {
		now := time.Unix(0, 0).Add(time.Hour)
		nextEarly, nextPaced := now, now
		for range n {
			early := nextEarly.Before(nextPaced)
			if early {
				now, nextEarly = nextEarly, nextEarly.Add(time.Duration(float64(cost)/fixed))
			} else {
				now, nextPaced = nextPaced, nextPaced.Add(time.Duration(float64(cost)/paced)*time.Duration(p.stretch))
			}
			paced := 1.0
			if early {
				paced = 0
			}
			p.observe(now, cost, 1, paced, paceShape{jobs: 100, maxStretch: 64})
		}
	}
	tests := []struct {
		name         string
		stretch      uint64
		fixed, paced float64 // loads of early ends and, unstretched, of cycles' ends
		least, most  uint64
	}{
		// 0.55 + 0.40: the paced part is brought to Pace.Floor, 0.125, at
		// a stretch of 3.2. Stretching for the whole load went to 10.
		{"early ends leave little room", 1, 0.55, 0.40, 3, 4},
		// All the load is paced: stretched to the target, as before.
		{"all paced", 1, 0.001, 0.90, 2, 3},
		// Stretched 40 times by a load that has gone: 0.45 + 0.01 lies
		// between the marks, and the cycles shorten.
		{"overstretched", 40, 0.45, 0.40, 3, 4},
		// Idle: back to 1.
		{"idle", 16, 0.10, 0.10, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pace{cfg: defaultPace(), stretch: tt.stretch}
			run(&p, 20000, tt.fixed, tt.paced)
			if p.stretch < tt.least || p.stretch > tt.most {
				t.Errorf("stretch %d, want %d to %d (load %.2f, paced %.2f)", p.stretch, tt.least, tt.most, p.load(), p.pacedLoad())
			}
		})
	}
}
