package swarmlab

import (
	"context"
	"slices"
	"testing"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
)

// TestSharedChildrenChangeNothing checks that the children cache the
// simulated solvers share changes how long a simulation takes, not what
// it measures: the same run with every solver making its own children
// gives the same figures.
func TestSharedChildrenChangeNothing(t *testing.T) {
	p := swarm.DefaultParams()
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
	if shared.Outcome != solve.Win || shared.TIt == 0 || shared.Time != own.Time || shared.TIt != own.TIt || shared.TGN != own.TGN ||
		shared.MNodes != own.MNodes || shared.WNodes != own.WNodes || shared.Util != own.Util {
		t.Errorf("shared children cache: %+v\nown caches: %+v", shared, own)
	}
}

// TestConcurrentCyclesChangeNothing checks that computing the groups'
// cycles on several goroutines changes how long a simulation takes, not
// what it measures: one goroutine and four give the same figures, with
// groups of one solver and of several (reporting each cycle at once, or
// gathering when a loaded master asks them to), with a master slow enough
// that groups wait in line, and with PDFPN solvers (whose threads take
// turns).
func TestConcurrentCyclesChangeNothing(t *testing.T) {
	for _, c := range []struct {
		pos                     string
		workers, group, threads int
		exchange, report        float64
	}{
		{"0*9", 8, 1, 0, 0.5, 0.5},
		{"0*9", 3, 3, 0, 2, 1},
		{"0*9", 3, 4, 0, 20, 5},
		{"0*9", 16, 1, 0, 20, 5},
		{"0*9", 4, 2, 3, 1, 1},
	} {
		p := swarm.DefaultParams()
		p.Capacity, p.Grouping, p.Iterations, p.Updates, p.Threads = 1024, c.group, 500, 50, c.threads
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
		if a.Outcome == solve.Unknown || a.TIt == 0 || a.Time != b.Time || a.TIt != b.TIt || a.TGN != b.TGN || a.MNodes != b.MNodes ||
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
	p := swarm.DefaultParams()
	p.Capacity = 2048
	root := sprouts.MustParse("0*11")
	run := func(cost float64) SimResult {
		res, err := Simulate(context.Background(), root, p, SimConfig{Workers: 8, Costs: MasterCosts{Exchange: cost}, Iteration: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != solve.Win {
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

// TestSpreadReachesSolvers checks that Params.Spread reaches each
// solver's PDFPN threads: the simulation is deterministic, so a different
// spread must give the same outcome by a different search.
func TestSpreadReachesSolvers(t *testing.T) {
	root := sprouts.MustParse("0*9")
	var res []SimResult
	for _, spread := range []uint64{1, 64} {
		p := swarm.DefaultParams()
		p.Capacity, p.Grouping, p.Iterations, p.Updates, p.Threads, p.Spread = 1024, 2, 500, 50, 4, spread
		r, err := Simulate(context.Background(), root, p, SimConfig{Workers: 4, Costs: MasterCosts{Exchange: 1, Report: 1}, Iteration: 1})
		if err != nil {
			t.Fatal(err)
		}
		res = append(res, r)
	}
	if res[0].Outcome != res[1].Outcome || res[0].Outcome == solve.Unknown {
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
		p := swarm.DefaultParams()
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

// TestSimulationIsDeterministic checks that two runs of one simulation
// give the same figures.
func TestSimulationIsDeterministic(t *testing.T) {
	p := swarm.DefaultParams()
	p.Capacity = 4096
	root := sprouts.MustParse("0*10")
	var first SimResult
	for i := range 2 {
		res, err := Simulate(context.Background(), root, p, SimConfig{Workers: 8, Costs: MasterCosts{Exchange: 10}, Iteration: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != solve.Win || res.Util <= 0 || res.Util > 1 {
			t.Fatalf("%+v", res)
		}
		if i == 0 {
			first = res
			continue
		}
		if res.Time != first.Time || res.TIt != first.TIt || res.TGN != first.TGN || res.MNodes != first.MNodes {
			t.Errorf("runs differ: %+v and %+v", first, res)
		}
	}
}

// TestSimulatedGroupsUseEverySolver checks that the solvers of a simulated
// group each run their own jobs with their own table: were the group's jobs
// all run on one solver (as a sequential loop would place them), the mean
// table of its 4 solvers could hold at most a quarter of one table.
func TestSimulatedGroupsUseEverySolver(t *testing.T) {
	p := swarm.DefaultParams()
	p.Capacity, p.Grouping = 1024, 4
	res, err := Simulate(context.Background(), sprouts.MustParse("0*11"), p, SimConfig{Workers: 1, Costs: MasterCosts{Exchange: 4}, Iteration: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != solve.Win || res.WNodes <= float64(p.Capacity)/4 {
		t.Errorf("outcome %s, mean table %.0f entries of %d (T-It %d)", res.Outcome, res.WNodes, p.Capacity, res.TIt)
	}
}

// TestLargeSwarm checks swarm.Params.LargeSwarm in simulation: below it
// the swarm searches exactly as without the rule; at it, jobs end sooner.
func TestLargeSwarm(t *testing.T) {
	root := sprouts.MustParse("0*9")
	sim := func(large int) SimResult {
		p := swarm.DefaultParams()
		p.Capacity, p.Updates, p.LargeSwarm, p.LargeIterations = 1024, 10, large, 50
		r, err := Simulate(context.Background(), root, p, SimConfig{Workers: 4, Costs: MasterCosts{Exchange: 1, Report: 1}, Iteration: 1})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	never, above, at := sim(0), sim(5), sim(4)
	if never.TIt != above.TIt || never.MNodes != above.MNodes || never.Time != above.Time {
		t.Errorf("4 cores searched differently with the rule at 5 (%+v) and without it (%+v)", above, never)
	}
	if at.Outcome != never.Outcome || at.MNodes <= never.MNodes {
		t.Errorf("with the rule at 4 cores, %s and %d master nodes; without, %s and %d: jobs did not end sooner", at.Outcome, at.MNodes, never.Outcome, never.MNodes)
	}
}

// TestLargeSwarmPaced checks that a large swarm's short jobs give way to
// the master's pace: when exchanges cost the master more than its time,
// the jobs, one cycle each, lengthen with their cycles, where otherwise
// every solver would wait in line for each next job.
func TestLargeSwarmPaced(t *testing.T) {
	root := sprouts.MustParse("0*8")
	sim := func(cost float64) SimResult {
		p := swarm.DefaultParams()
		p.Capacity, p.Updates, p.LargeSwarm, p.LargeIterations = 1024, 1000, 8, 100
		r, err := Simulate(context.Background(), root, p, SimConfig{Workers: 8, Costs: MasterCosts{Exchange: cost, Report: cost}, Iteration: 1})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	idle, loaded := sim(0.01), sim(5)
	if idle.Master.ReportEvery != 100 || idle.Master.JobIterations != 100 {
		t.Errorf("an idle master: reports every %d, jobs of %d; want 100 and 100", idle.Master.ReportEvery, idle.Master.JobIterations)
	}
	if loaded.Outcome != idle.Outcome {
		t.Errorf("outcomes %s (loaded) and %s (idle)", loaded.Outcome, idle.Outcome)
	}
	if loaded.Master.ReportEvery <= 100 || loaded.Master.JobIterations != loaded.Master.ReportEvery {
		t.Errorf("a loaded master (load %.2f): reports every %d, jobs of %d; want longer jobs of one cycle", loaded.Master.Load, loaded.Master.ReportEvery, loaded.Master.JobIterations)
	}
	t.Logf("idle: T-It %d, util %.3f; loaded: T-It %d, util %.3f, load %.2f, jobs of %d",
		idle.TIt, idle.Util, loaded.TIt, loaded.Util, loaded.Master.Load, loaded.Master.JobIterations)
}

// TestSimGather checks that a simulated group gathers as a real one does
// when a loaded master asks it to: a group of eight then sends fewer
// exchanges, each with more reports, than under an idle master.
func TestSimGather(t *testing.T) {
	root := sprouts.MustParse("0*10")
	sim := func(cost float64) SimResult {
		p := swarm.DefaultParams()
		p.Capacity, p.Grouping, p.Iterations, p.Updates = 1024, 8, 400, 100
		p.Pace.Gather, p.Pace.Every = swarm.MaxGather, 16
		r, err := Simulate(context.Background(), root, p, SimConfig{Workers: 1, Costs: MasterCosts{Exchange: cost, Report: cost / 10}, Iteration: 1})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	apart, gathered := sim(0.01), sim(200)
	t.Logf("idle master: %d exchanges, %.2f reports each, util %.3f; loaded: %d, %.2f, %.3f, gather %g",
		apart.Master.Exchanges, apart.ReportsPerExchange, apart.Util, gathered.Master.Exchanges, gathered.ReportsPerExchange, gathered.Util, gathered.Master.Gather)
	if apart.Outcome != gathered.Outcome || apart.Outcome == solve.Unknown {
		t.Fatalf("outcomes %s and %s", apart.Outcome, gathered.Outcome)
	}
	if gathered.ReportsPerExchange <= 1.5*apart.ReportsPerExchange {
		t.Errorf("gathered %.2f reports an exchange, at once %.2f: want many more", gathered.ReportsPerExchange, apart.ReportsPerExchange)
	}
}
