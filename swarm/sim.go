package swarm

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// SimConfig describes a simulated swarm: Workers groups of Params.Grouping
// solvers, and the master's cost of one exchange, in iterations.
type SimConfig struct {
	Workers    int
	MasterCost uint64
	// Progress, if set, is called now and then with the virtual time and the
	// master's counters.
	Progress func(now uint64, st MasterStats)
}

// SimResult is what a simulation measured, in the paper's terms.
type SimResult struct {
	Workers    int         `json:"workers"`
	Outcome    string      `json:"outcome"`
	Time       uint64      `json:"time"`    // virtual time to solve the root, in iterations
	TIt        uint64      `json:"t_it"`    // iterations of all workers
	TGN        int         `json:"t_gn"`    // entries of the master's nimber database
	MNodes     int         `json:"m_nodes"` // nodes of the master DAG
	WNodes     float64     `json:"w_nodes"` // mean table entries per solver at the end
	Util       float64     `json:"util"`    // mean busy / (busy + idle) over solvers
	Master     MasterStats `json:"master"`
	Seconds    float64     `json:"seconds"`     // real time the simulation took
	MasterBusy uint64      `json:"master_busy"` // virtual time the master spent on exchanges
}

// simWorker is a simulated worker process: a real Group whose solvers run
// one after another, with times kept on the virtual clock.
type simWorker struct {
	g        *Group
	at       uint64 // when its next request reaches the master
	req      ExchangeRequest
	busy     uint64 // virtual time inside jobs
	idle     uint64 // virtual time between a job's end and the next job's start
	lastDone uint64
	started  bool
}

// Simulate runs the master and cfg.Workers groups in one process under a
// deterministic discrete-event clock counted in iterations: a job cycle
// that takes k iterations takes k units of time; the master handles one
// exchange at a time, each costing cfg.MasterCost. The master and the
// groups are the same code as in a real swarm; only the clock and the link
// are simulated. Results depend only on the inputs.
func Simulate(ctx context.Context, root sprouts.Position, params Params, cfg SimConfig) (SimResult, error) {
	start := time.Now()
	res := SimResult{Workers: cfg.Workers}
	if cfg.Workers < 1 || cfg.Workers > MaxSimulatedWorkers {
		return res, fmt.Errorf("simulate %d workers: want 1 to %d", cfg.Workers, MaxSimulatedWorkers)
	}
	if err := CheckCapacity(params.Capacity, cfg.Workers*max(params.Grouping, 1)); err != nil {
		return res, fmt.Errorf("simulate %d workers: %w", cfg.Workers, err)
	}
	var clock uint64
	params.Lease = 1 << 40 // no group is ever silent on the simulated clock
	params.InitNodes = max(params.InitNodes, 100*cfg.Workers)
	m, err := NewMaster(root, params, nil)
	if err != nil {
		return res, err
	}
	m.now = func() time.Time { return time.Unix(0, int64(clock)) }
	workers := make([]*simWorker, cfg.Workers)
	for i := range workers {
		g, err := NewGroup(fmt.Sprintf("sim-%04d", i), params)
		if err != nil {
			return res, err
		}
		workers[i] = &simWorker{g: g, req: ExchangeRequest{Group: g.Name, Slots: params.Grouping}}
	}
	var masterFree, lastShow uint64
	for !solved(m.dag.root) {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		// The next request to reach the master (ties by worker order).
		w := slices.MinFunc(workers, func(a, b *simWorker) int {
			if c := cmp.Compare(a.at, b.at); c != 0 {
				return c
			}
			return cmp.Compare(a.g.Name, b.g.Name)
		})
		clock = max(w.at, masterFree)
		if !params.NoSharing {
			w.req.Nimbers = w.g.db.TakeNew()
		}
		reply, err := m.Exchange(w.req)
		if err != nil {
			return res, err
		}
		masterFree = clock + cfg.MasterCost
		res.MasterBusy += cfg.MasterCost
		for _, e := range reply.Delta {
			w.g.db.Learn(e.Key, e.G)
		}
		w.req.Completed = nil
		if reply.Done {
			break
		}
		if len(reply.Jobs) == 0 {
			// Nothing to do: ask again once the master has moved on.
			w.at = masterFree + cfg.MasterCost
			continue
		}
		// The group runs its jobs; it reports when the first finishes its
		// cycle (the others' reports go with the next exchange in a real
		// group; here they all finish at their own times and the group
		// reports at the latest one, which keeps the solvers busy).
		begin := masterFree
		if w.started {
			w.idle += begin - w.lastDone
		}
		w.started = true
		// Every job gets its own solver (and table) before any runs, as in
		// a real group whose solvers run at once.
		slots := make([]*slot, len(reply.Jobs))
		for i, spec := range reply.Jobs {
			if slots[i] = w.g.place(spec); slots[i] == nil {
				return res, fmt.Errorf("simulate: the master sent %s more jobs than it has solvers", w.g.Name)
			}
		}
		var longest uint64
		for i, spec := range reply.Jobs {
			r := w.g.work(ctx, slots[i], spec)
			w.req.Completed = append(w.req.Completed, r)
			longest = max(longest, r.Iterations, 1)
			res.TIt += r.Iterations
		}
		for _, spec := range reply.Jobs {
			w.g.release(spec.ID)
		}
		w.busy += longest
		w.lastDone = begin + longest
		w.at = w.lastDone
		if cfg.Progress != nil && clock-lastShow >= 100_000 {
			lastShow = clock
			cfg.Progress(clock, m.Stats())
		}
	}
	st := m.Stats()
	res.Outcome = m.Outcome().String()
	res.Time = clock
	res.TGN = m.db.Len()
	res.MNodes = st.Nodes
	res.Master = st
	var util float64
	var entries int64
	for _, w := range workers {
		if w.busy+w.idle > 0 {
			util += float64(w.busy) / float64(w.busy+w.idle)
		} else {
			util += 1
		}
		for _, s := range w.g.solvers {
			entries += s.dfpn.Stats().TTEntries
		}
	}
	res.Util = util / float64(len(workers))
	res.WNodes = float64(entries) / float64(len(workers)*params.Grouping)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// SequentialIterations solves root with sequential DFPN as one worker's
// solver would (same table size), the baseline of speedup and search
// overhead.
func SequentialIterations(ctx context.Context, root sprouts.Position, params Params) (uint64, solve.Outcome) {
	d := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: params.Capacity, Seed: params.Seed})
	out := d.Solve(ctx, root, 0)
	return d.Stats().Iterations, out
}
