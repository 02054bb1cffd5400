package swarm

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/spots-dev/spots/sprouts"
)

// TestGroupGather checks Group.gather: with Gather 0 a group reports its
// first ended cycle alone; with a hold it waits for the others, stops as
// soon as every running cycle has ended, and gives up on one that outlasts
// the hold.
func TestGroupGather(t *testing.T) {
	for _, c := range []struct {
		name   string
		gather float64
		took   time.Duration
		late   []time.Duration // when the other running cycles end (-1: not within the test)
		want   int
	}{
		{"at once", 0, time.Hour, []time.Duration{0}, 1},
		{"all ended", 1, time.Hour, []time.Duration{0, 10 * time.Millisecond}, 3},
		{"one outlasts the hold", 1, time.Millisecond, []time.Duration{-1}, 1},
		{"some in time", 0.5, 200 * time.Millisecond, []time.Duration{0, -1}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := DefaultParams()
			p.Capacity, p.Grouping, p.Gather = 1024, 1+len(c.late), c.gather
			g, err := NewGroup("g", p)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range g.solvers {
				s.jobID = fmt.Sprintf("j%d", i)
			}
			for i, d := range c.late {
				if d < 0 {
					continue
				}
				go func() {
					time.Sleep(d)
					g.results <- finished{Report{ID: fmt.Sprintf("j%d", i+1)}, time.Second}
				}()
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			got := g.gather(ctx, []Report{{ID: "j0"}}, time.Duration(c.gather*float64(c.took)))
			if len(got) != c.want {
				t.Errorf("gathered %d reports, want %d", len(got), c.want)
			}
		})
	}
}

// TestSimGather checks that a simulated group gathers as a real one does:
// waiting up to a whole cycle for its other solvers, one group of eight
// sends fewer exchanges, each with more reports, than reporting each
// cycle at once.
func TestSimGather(t *testing.T) {
	root := sprouts.MustParse("0*10")
	sim := func(gather float64) SimResult {
		p := DefaultParams()
		p.Capacity, p.Grouping, p.Iterations, p.Updates, p.Gather = 1024, 8, 400, 100, gather
		r, err := Simulate(context.Background(), root, p, SimConfig{Workers: 1, Costs: MasterCosts{Exchange: 1, Report: 0.1}, Iteration: 1})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	apart, gathered := sim(0), sim(1)
	t.Logf("at once: %d exchanges, %.2f reports each, util %.3f; gathered: %d, %.2f, %.3f",
		apart.Master.Exchanges, apart.ReportsPerExchange, apart.Util, gathered.Master.Exchanges, gathered.ReportsPerExchange, gathered.Util)
	if apart.Outcome != gathered.Outcome || apart.Outcome == "unknown" {
		t.Fatalf("outcomes %s and %s", apart.Outcome, gathered.Outcome)
	}
	if gathered.ReportsPerExchange <= 1.5*apart.ReportsPerExchange {
		t.Errorf("gathered %.2f reports an exchange, at once %.2f: want many more", gathered.ReportsPerExchange, apart.ReportsPerExchange)
	}
}

// TestGatherOf checks what a group makes of the master's ask to gather:
// the larger of its own share and the master's, never beyond MaxGather,
// and its own where the master's is no number.
func TestGatherOf(t *testing.T) {
	for _, c := range []struct{ own, asked, want float64 }{
		{0, 0, 0},
		{0, 0.125, 0.125},
		{0.25, 0.125, 0.25},
		{0, 1e9, MaxGather},
		{0.5, math.Inf(1), MaxGather},
		{0.5, math.NaN(), 0.5},
		{0, -3, 0},
	} {
		if got := gatherOf(c.own, c.asked); got != c.want {
			t.Errorf("gatherOf(%g, %g) = %g, want %g", c.own, c.asked, got, c.want)
		}
	}
}
