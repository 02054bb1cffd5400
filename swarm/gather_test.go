package swarm

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"
)

// TestGroupGather checks Group.gather: asked to gather nothing, a group reports its
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
			p.Capacity, p.Grouping = 1024, 1+len(c.late)
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

// TestGatherOf checks what a group makes of the master's ask to gather:
// the master's share, never beyond MaxGather, and none where the master's
// is no number or negative.
func TestGatherOf(t *testing.T) {
	for _, c := range []struct{ asked, want float64 }{
		{0, 0},
		{0.125, 0.125},
		{1e9, MaxGather},
		{math.Inf(1), MaxGather},
		{math.NaN(), 0},
		{-3, 0},
	} {
		if got := GatherOf(c.asked); got != c.want {
			t.Errorf("GatherOf(%g) = %g, want %g", c.asked, got, c.want)
		}
	}
}
