package swarm

import (
	"context"
	"slices"
	"testing"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestSharedChildrenChangeNothing checks that the children cache the
// simulated solvers share changes how long a simulation takes, not what
// it measures: the same run with every solver making its own children
// gives the same figures.
func TestSharedChildrenChangeNothing(t *testing.T) {
	p := DefaultParams()
	p.Capacity, p.Grouping = 1024, 2
	root := sprouts.MustParse("0*9")
	cfg := SimConfig{Workers: 4, Costs: MasterCosts{Exchange: 0.5, Report: 1.5}, Iteration: 1}
	shared, err := simulate(context.Background(), root, p, cfg, newSharedChildren(simChildrenBytes), -1)
	if err != nil {
		t.Fatal(err)
	}
	own, err := simulate(context.Background(), root, p, cfg, sprouts.Rules{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if shared.Outcome != "W" || shared.TIt == 0 || shared.Time != own.Time || shared.TIt != own.TIt || shared.TGN != own.TGN ||
		shared.MNodes != own.MNodes || shared.WNodes != own.WNodes || shared.Util != own.Util {
		t.Errorf("shared children cache: %+v\nown caches: %+v", shared, own)
	}
}

// TestConcurrentCyclesChangeNothing checks that computing the groups'
// cycles on several goroutines changes how long a simulation takes, not
// what it measures: one goroutine and four give the same figures, with
// groups of one solver and of several (reporting each cycle at once, or
// gathering), with a master slow enough that
// groups wait in line, and with PDFPN solvers (whose threads take turns).
func TestConcurrentCyclesChangeNothing(t *testing.T) {
	for _, c := range []struct {
		pos                     string
		workers, group, threads int
		exchange, report        float64
		gather                  float64
	}{
		{"0*9", 8, 1, 0, 0.5, 0.5, 0},
		{"0*9", 3, 3, 0, 2, 1, 0},
		{"0*9", 3, 4, 0, 2, 1, 0.25},
		{"0*9", 16, 1, 0, 20, 5, 0},
		{"0*9", 4, 2, 3, 1, 1, 0},
	} {
		p := DefaultParams()
		p.Capacity, p.Grouping, p.Iterations, p.Updates, p.Threads, p.Gather = 1024, c.group, 500, 50, c.threads, c.gather
		root := sprouts.MustParse(c.pos)
		var res [2]SimResult
		for i, procs := range []int{1, 4} {
			cfg := SimConfig{Workers: c.workers, Costs: MasterCosts{Exchange: c.exchange, Report: c.report}, Iteration: 1, Procs: procs}
			r, err := Simulate(context.Background(), root, p, cfg)
			if err != nil {
				t.Fatal(err)
			}
			res[i] = r
		}
		a, b := res[0], res[1]
		if a.Outcome == "unknown" || a.TIt == 0 || a.Time != b.Time || a.TIt != b.TIt || a.TGN != b.TGN || a.MNodes != b.MNodes ||
			a.WNodes != b.WNodes || a.Util != b.Util || a.Waited != b.Waited || a.MasterBusy != b.MasterBusy || a.Outcome != b.Outcome {
			t.Errorf("%s, %d × %d × %d: one goroutine: %+v\nfour: %+v", c.pos, c.workers, c.group, c.threads, a, b)
		}
	}
}

// TestSharedChildrenBound checks that a full cache is emptied rather than
// grown, and that what it returns are the children.
func TestSharedChildrenBound(t *testing.T) {
	c := newSharedChildren(4096)
	for _, s := range []string{"0*5", "0*6", "0*7", "0*8", "0*9"} {
		p := sprouts.MustParse(s)
		want := p.Children()
		if got := c.Children(p); !slices.Equal(keys(got), keys(want)) {
			t.Fatalf("%s: children differ from the rules'", s)
		}
		if got, ok := c.ChildrenUntil(p, func(sprouts.Position) bool { return false }); !ok || len(got) != len(want) {
			t.Fatalf("%s: ChildrenUntil gave %d children (complete %v), want %d", s, len(got), ok, len(want))
		}
		if c.bytes > c.max {
			t.Fatalf("%s: cache holds %d bytes, bound %d", s, c.bytes, c.max)
		}
	}
	// A stop on the first child answers as the rules do, cached or not.
	p := sprouts.MustParse("0*10")
	if _, ok := c.ChildrenUntil(p, func(sprouts.Position) bool { return true }); ok {
		t.Error("ChildrenUntil ignored stop")
	}
}

func keys(ps []sprouts.Position) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Key())
	}
	return out
}

// TestFractionalExchangeCost checks that an exchange may cost a fraction
// of an iteration, that the master's share of the time follows the cost,
// and that the simulation stays deterministic.
func TestFractionalExchangeCost(t *testing.T) {
	p := DefaultParams()
	p.Capacity = 2048
	root := sprouts.MustParse("0*11")
	run := func(cost float64) SimResult {
		res, err := Simulate(context.Background(), root, p, SimConfig{Workers: 8, Costs: MasterCosts{Exchange: cost}, Iteration: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != "W" {
			t.Fatalf("cost %g: outcome %s", cost, res.Outcome)
		}
		return res
	}
	a, b, cheap := run(2), run(2), run(0.25)
	if a.Time != b.Time || a.TIt != b.TIt || a.MNodes != b.MNodes {
		t.Errorf("runs differ: %+v and %+v", a, b)
	}
	if cheap.MasterBusy >= a.MasterBusy {
		t.Errorf("exchanges of 0.25 iterations kept the master busy %d, of 2 iterations %d", cheap.MasterBusy, a.MasterBusy)
	}
	if a.ExchangeSeconds <= 0 || a.IterationSeconds <= 0 {
		t.Errorf("costs not measured: %+v", a)
	}
}

// TestDAGOrdersChildrenAsTheSolver checks the child-ordering heuristic in
// the master's DAG: children tied on lives plus four per heap unit and on
// lands come in order of fewer estimated children, as in package solve.
func TestDAGOrdersChildrenAsTheSolver(t *testing.T) {
	d := newDAG(solve.NewNimberDB(), 0)
	root := sprouts.MustParse("0*6")
	d.setRoot(root, 0)
	d.expand(d.root)
	if len(d.root.kids) < 2 {
		t.Fatalf("0*6 has %d children in the DAG", len(d.root.kids))
	}
	for i := 1; i < len(d.root.kids); i++ {
		x, y := d.root.kids[i-1], d.root.kids[i]
		kx, ky := x.size+4*int(x.n), y.size+4*int(y.n)
		switch {
		case kx > ky:
			t.Errorf("child %d before %d: lives+4n %d > %d", i-1, i, kx, ky)
		case kx == ky && x.pos.NumLands() < y.pos.NumLands():
			t.Errorf("child %d before %d: fewer lands", i-1, i)
		case kx == ky && x.pos.NumLands() == y.pos.NumLands() && x.pos.EstimateChildren() > y.pos.EstimateChildren():
			t.Errorf("child %d before %d: estimated children %d > %d", i-1, i, x.pos.EstimateChildren(), y.pos.EstimateChildren())
		}
	}
}

// TestSharedLog checks the master's sharing of values through its log:
// a value one group sends reaches every other group once, never its
// sender, and a group that joins late is sent everything known.
func TestSharedLog(t *testing.T) {
	m, err := NewMaster(sprouts.MustParse("0*9"), DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ex := func(group string, nimbers []solve.NimberEntry) ExchangeReply {
		t.Helper()
		r, err := m.Exchange(ExchangeRequest{Group: group, Slots: 1, Nimbers: nimbers})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	has := func(delta []solve.NimberEntry, key string) int {
		n := 0
		for _, e := range delta {
			if e.Key == key {
				n++
			}
		}
		return n
	}
	ex("a", nil)
	ex("b", nil)
	v := solve.NimberEntry{Key: sprouts.MustParse("0*2").Key(), G: 0}
	if r := ex("a", []solve.NimberEntry{v}); has(r.Delta, v.Key) != 0 {
		t.Error("the sender was sent its own value back")
	}
	if r := ex("b", nil); has(r.Delta, v.Key) != 1 {
		t.Errorf("b was sent the value %d times, want once", has(r.Delta, v.Key))
	}
	if r := ex("b", nil); has(r.Delta, v.Key) != 0 {
		t.Error("b was sent the value again")
	}
	if r := ex("c", nil); has(r.Delta, v.Key) != 1 {
		t.Errorf("a late group was sent the value %d times, want once", has(r.Delta, v.Key))
	}
	if st := m.Stats(); st.Slots != 3 || st.Groups != 3 {
		t.Errorf("slots %d, groups %d: want 3 and 3", st.Slots, st.Groups)
	}
	if n := m.DropGroup("c"); n != 1 || m.Stats().Slots != 2 {
		t.Errorf("dropping c took %d jobs and left %d slots, want 1 and 2", n, m.Stats().Slots)
	}
}

// TestSpreadReachesSolvers checks that Params.Spread reaches each
// solver's PDFPN threads: the simulation is deterministic, so a different
// spread must give the same outcome by a different search.
func TestSpreadReachesSolvers(t *testing.T) {
	root := sprouts.MustParse("0*9")
	var res []SimResult
	for _, spread := range []uint64{1, 64} {
		p := DefaultParams()
		p.Capacity, p.Grouping, p.Iterations, p.Updates, p.Threads, p.Spread = 1024, 2, 500, 50, 4, spread
		r, err := Simulate(context.Background(), root, p, SimConfig{Workers: 4, Costs: MasterCosts{Exchange: 1, Report: 1}, Iteration: 1})
		if err != nil {
			t.Fatal(err)
		}
		res = append(res, r)
	}
	if res[0].Outcome != res[1].Outcome || res[0].Outcome == "unknown" {
		t.Fatalf("outcomes %s (spread 1) and %s (spread 64)", res[0].Outcome, res[1].Outcome)
	}
	if res[0].TIt == res[1].TIt && res[0].Time == res[1].Time {
		t.Errorf("spread 1 and 64 searched alike (%d iterations, time %d): Params.Spread does not reach the solvers", res[0].TIt, res[0].Time)
	}
}

// TestIterating checks SimResult.Iterating, the cores' share of time on
// iterations, against Util: about equal, whether each group is one solver
// or one group holds all eight. A group's solvers run their jobs apart, as
// in a real group: none waits for the group's longest cycle (when it did,
// the group of eight spent 30 % of its time waiting).
func TestIterating(t *testing.T) {
	root := sprouts.MustParse("0*9")
	sim := func(grouping int) SimResult {
		p := DefaultParams()
		p.Capacity, p.Grouping, p.Iterations, p.Updates = 1024, grouping, 200, 100
		r, err := Simulate(context.Background(), root, p, SimConfig{Workers: 8 / grouping, Costs: MasterCosts{Exchange: 0.01, Report: 0.01}, Iteration: 1})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, grouping := range []int{1, 8} {
		r := sim(grouping)
		t.Logf("groups of %d: iterating %.3f, util %.3f", grouping, r.Iterating, r.Util)
		if r.Iterating <= 0 || r.Iterating > 1 || r.Util-r.Iterating > 0.05 || r.Iterating < 0.9 {
			t.Errorf("groups of %d: iterating %.3f, util %.3f; want both above 0.9 and about the same", grouping, r.Iterating, r.Util)
		}
		want := float64(r.TIt) / float64(8*r.Time)
		if d := r.Iterating - want; d > 1e-9 || d < -1e-9 {
			t.Errorf("groups of %d: iterating %.4f, want T-It / (cores × Time) = %.4f", grouping, r.Iterating, want)
		}
	}
}
