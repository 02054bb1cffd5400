package swarm

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// SimConfig describes a simulated swarm: Workers groups of Params.Grouping
// solvers, and the master's cost of one exchange, in iterations.
type SimConfig struct {
	Workers int
	// MasterCost is the master's cost of one exchange in whole iterations,
	// whatever the exchange holds. When ExchangeCost, ReportCost or
	// ExpandCost is positive they replace it: an exchange costs
	// ExchangeCost, plus ReportCost for every report it carries, plus
	// ExpandCost for every job it ends (whose leaf the master expands and
	// hands out again), in iterations, fractions allowed. The defaults
	// (DefaultExchangeCost, DefaultReportCost, DefaultExpandCost) are what
	// the master's work under its lock was measured to cost on this
	// project's machine (BENCHMARKS.md); SimResult reports what it cost in
	// each run.
	MasterCost   uint64
	ExchangeCost float64
	ReportCost   float64
	ExpandCost   float64
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
	// What the simulation's exchanges really cost on the machine that ran
	// it, in CPU time: the mean of one Master.Exchange (no transport); of
	// its part under the master's lock (the serial part, which a
	// simulation charges to the master) for an exchange that ends no job;
	// and what each job ended adds under the lock. Against one iteration
	// of a real solver (SequentialBaseline) they give ExchangeCost and
	// ExpandCost in iterations as this machine shows them.
	// IterationSeconds is the mean CPU time of a simulated worker's
	// iteration, cheaper than a real one: simulated solvers share one
	// children cache.
	// ReportsPerExchange is the mean number of reports of the exchanges
	// that ended no job (those ExchangeLockSeconds is the mean of).
	ExchangeSeconds     float64 `json:"exchange_cpu_seconds"`
	ExchangeLockSeconds float64 `json:"exchange_lock_cpu_seconds"`
	ReportsPerExchange  float64 `json:"reports_per_exchange"`
	ExpandLockSeconds   float64 `json:"expand_lock_cpu_seconds"`
	IterationSeconds    float64 `json:"iteration_cpu_seconds"`
}

// DefaultExchangeCost, DefaultReportCost and DefaultExpandCost are the
// master's costs in a simulation, in iterations of a real solver: of one
// exchange, of each report it carries, and of each job it ends. They are
// what the master's work under its lock cost on this project's machine,
// measured by simulations themselves (SimResult.ExchangeLockSeconds,
// ExpandLockSeconds, against SequentialBaseline's iteration;
// BENCHMARKS.md gives the runs), rounded up: 1.2 to 3.3 iterations an
// exchange, next to nothing a report, 0.16 to 1.0 a job ended.
const (
	DefaultExchangeCost = 3.5
	DefaultReportCost   = 0.05
	DefaultExpandCost   = 1.0
)

// simTick is the simulated clock's unit: a thousandth of an iteration, so
// that an exchange may cost less than one iteration.
const simTick = 1000

// simIdleRetry is how long, in ticks, a worker the master had no job for
// waits before it asks again (at least; the master may be busy).
const simIdleRetry = simTick

// simInitNodes is how many nodes per solver the master of a simulation
// grows its DAG to before it hands out jobs.
const simInitNodes = 2

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
// that takes k iterations takes k units of time (k over the threads of a
// PDFPN solver); the master handles one exchange at a time, each costing
// what cfg says. The master and the groups are the same code as in a real
// swarm; only the clock and the link are simulated. With sequential
// solvers (Params.Threads ≤ 1) the results depend only on the inputs, but
// for the measured costs (SimResult.ExchangeSeconds and its kin).
func Simulate(ctx context.Context, root sprouts.Position, params Params, cfg SimConfig) (SimResult, error) {
	return simulate(ctx, root, params, cfg, newSharedChildren(simChildrenBytes), -1)
}

// simulate is Simulate with the game the solvers play and the size of each
// solver's own children cache (as newGroup takes them).
func simulate(ctx context.Context, root sprouts.Position, params Params, cfg SimConfig,
	game solve.Game[sprouts.Position], childrenCache int64) (SimResult, error) {
	// One thread, so that cpuTime measures this goroutine's work only.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := time.Now()
	res := SimResult{Workers: cfg.Workers}
	if cfg.Workers < 1 || cfg.Workers > MaxSimulatedWorkers {
		return res, fmt.Errorf("simulate %d workers: want 1 to %d", cfg.Workers, MaxSimulatedWorkers)
	}
	if err := CheckCapacity(params.Capacity, cfg.Workers*max(params.Grouping, 1)); err != nil {
		return res, fmt.Errorf("simulate %d workers: %w", cfg.Workers, err)
	}
	var clock uint64 // in ticks
	costOf := func(reports, expanded int) uint64 { return cfg.MasterCost * simTick }
	if cfg.ExchangeCost > 0 || cfg.ReportCost > 0 || cfg.ExpandCost > 0 {
		costOf = func(reports, expanded int) uint64 {
			c := cfg.ExchangeCost + cfg.ReportCost*float64(reports) + cfg.ExpandCost*float64(expanded)
			return uint64(c*simTick + 0.5)
		}
	}
	params.Lease = 1 << 40 // no group is ever silent on the simulated clock
	// The master grows the top of the DAG by its own expansions until it
	// has a few leaves for every solver, and the clock starts once it is
	// done: each expansion costs it one iteration.
	params.InitNodes = max(params.InitNodes, simInitNodes*cfg.Workers*params.Grouping)
	m, err := NewMaster(root, params, nil)
	if err != nil {
		return res, err
	}
	m.now = func() time.Time { return time.Unix(0, int64(clock)) }
	workers := make([]*simWorker, cfg.Workers)
	for i := range workers {
		g, err := newGroup(fmt.Sprintf("sim-%04d", i), params, game, childrenCache)
		if err != nil {
			return res, err
		}
		workers[i] = &simWorker{g: g, req: ExchangeRequest{Group: g.Name, Slots: params.Grouping}}
	}
	clock = uint64(m.grown) * simTick
	masterFree, masterBusy := clock, clock
	var lastShow uint64
	var exchangeCPU, workCPU, plainCPU, expandCPU time.Duration
	var plain, plainReports, expanding, expansions int
	m.measure = true
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
		reports := len(w.req.Completed)
		cpu0, prep0, exp0 := cpuTime(), m.prepCPU, m.stats.Expanded
		reply, err := m.Exchange(w.req)
		cpu1 := cpuTime()
		exchangeCPU += cpu1 - cpu0
		locked, expanded := cpu1-cpu0-(m.prepCPU-prep0), m.stats.Expanded-exp0
		if expanded == 0 {
			plainCPU += locked
			plain++
			plainReports += reports
		} else {
			expandCPU += locked
			expanding++
			expansions += expanded
		}
		if err != nil {
			return res, err
		}
		cost := costOf(reports, expanded)
		masterFree = clock + cost
		masterBusy += cost
		for _, e := range reply.Delta {
			w.g.db.Learn(e.Key, e.G)
		}
		w.req.Completed = nil
		if reply.Done {
			break
		}
		if len(reply.Jobs) == 0 {
			// Nothing to do: ask again once the master has moved on.
			w.at = masterFree + max(costOf(0, 0), simIdleRetry)
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
			cpu0 := cpuTime()
			r := w.g.work(ctx, slots[i], spec)
			workCPU += cpuTime() - cpu0
			w.req.Completed = append(w.req.Completed, r)
			// The threads of a PDFPN solver run at once: a cycle takes its
			// iterations over the threads (as if they never waited on each
			// other's locks).
			longest = max(longest, r.Iterations*simTick/uint64(max(params.Threads, 1)), simTick)
			res.TIt += r.Iterations
		}
		for _, spec := range reply.Jobs {
			w.g.release(spec.ID)
		}
		w.busy += longest
		w.lastDone = begin + longest
		w.at = w.lastDone
		if cfg.Progress != nil && clock-lastShow >= 100_000*simTick {
			lastShow = clock
			cfg.Progress(clock/simTick, m.Stats())
		}
	}
	st := m.Stats()
	res.Outcome = m.Outcome().String()
	res.Time = (clock + simTick - 1) / simTick
	res.MasterBusy = masterBusy / simTick
	if st.Exchanges > 0 {
		res.ExchangeSeconds = exchangeCPU.Seconds() / float64(st.Exchanges)
	}
	if plain > 0 {
		res.ExchangeLockSeconds = plainCPU.Seconds() / float64(plain)
		res.ReportsPerExchange = float64(plainReports) / float64(plain)
	}
	if expansions > 0 {
		res.ExpandLockSeconds = max(0, expandCPU.Seconds()-res.ExchangeLockSeconds*float64(expanding)) / float64(expansions)
	}
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
	if res.TIt > 0 {
		res.IterationSeconds = workCPU.Seconds() / float64(res.TIt)
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// SequentialIterations solves root with sequential DFPN as one worker's
// solver would (same table size), the baseline of speedup and search
// overhead.
func SequentialIterations(ctx context.Context, root sprouts.Position, params Params) (uint64, solve.Outcome) {
	it, out, _ := SequentialBaseline(ctx, root, params)
	return it, out
}

// SequentialBaseline is SequentialIterations that also returns the CPU
// time the solve took: the cost of a real solver's iteration on this
// machine, against which a simulation's exchanges are measured.
func SequentialBaseline(ctx context.Context, root sprouts.Position, params Params) (uint64, solve.Outcome, time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := cpuTime()
	d := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: params.Capacity, Seed: params.Seed})
	out := d.Solve(ctx, root, 0)
	return d.Stats().Iterations, out, cpuTime() - cpu0
}
