package swarm

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"
)

// TestGroupGather checks Group.gather: asked to gather nothing, a group reports its
// first ended cycle alone; with a hold it waits for the others, stops as
// soon as every running cycle has ended, and gives up on one that outlasts
// the hold. A cycle that ended before the gather has its result waiting
// in the group's channel; one that ends while the gather waits sends it
// from another goroutine (with a hold of an hour, so that when it comes
// does not matter); one that outlasts the hold never sends.
func TestGroupGather(t *testing.T) {
	for _, c := range []struct {
		name                 string
		gather               float64
		took                 time.Duration
		ended, during, never int // the group's other running cycles
		want                 int
	}{
		{"at once", 0, time.Hour, 1, 0, 0, 1},
		{"all ended", 1, time.Hour, 1, 1, 0, 3},
		{"one outlasts the hold", 1, time.Millisecond, 0, 0, 1, 1},
		{"some in time", 0.5, 200 * time.Millisecond, 1, 0, 1, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := DefaultParams()
			p.Capacity, p.Grouping = 1024, 1+c.ended+c.during+c.never
			g, err := NewGroup("g", p)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range g.solvers {
				s.jobID = fmt.Sprintf("j%d", i)
			}
			end := func(i int) { g.results <- finished{Report{ID: fmt.Sprintf("j%d", i)}, time.Second} }
			for i := range c.ended {
				end(1 + i)
			}
			var wg sync.WaitGroup
			for i := range c.during {
				wg.Go(func() { end(1 + c.ended + i) })
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			got := g.gather(ctx, []Report{{ID: "j0"}}, time.Duration(c.gather*float64(c.took)))
			wg.Wait()
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
