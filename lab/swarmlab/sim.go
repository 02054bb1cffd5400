package swarmlab

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spots-dev/spots/internal/memguard"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
)

// simInitNodes is how many nodes per solver the master of a simulation
// grows its DAG to before it hands out jobs.
const simInitNodes = 2

// simWorker is a simulated worker process: a real Group whose solvers run
// one after another, with times kept on the virtual clock. As in a real
// group (Group.Run), each solver's job runs on its own: the group sends a
// request as soon as one job has finished its cycle, reporting every job
// finished by then, and the solvers of the others keep going.
type simWorker struct {
	g   *swarm.Group
	at  uint64 // when its next request reaches the master
	req swarm.ExchangeRequest
	// runs are its jobs' cycles on the clock, not reported yet; cycle is
	// the batch of cycles started at its latest exchange while it is
	// computed on another goroutine (nil once settled into runs).
	runs  []*simRun
	cycle *simCycle
	// replied is when its latest exchange was answered: a request goes no
	// sooner, and carries every cycle finished by then.
	replied  uint64
	gather   float64 // the share of a cycle it gathers for (swarm.GatherOf)
	busy     uint64  // virtual time its solvers spent in jobs, summed over them
	first    uint64  // when its first job began
	started  bool
	parked   bool // waiting at the master for a job (at is then never)
	parkedAt uint64
	waited   uint64 // virtual time parked
}

// simRun is one cycle of a job on the clock: when it began and ends, what
// its solver reports, and the Grundy values it proved (sent with the
// report: values proved by a cycle still running reach the master with
// its report, a little later than a real group would send them).
type simRun struct {
	id         string
	began, end uint64
	report     swarm.Report
	nimbers    []solve.NimberEntry
}

// simCycle is the batch of cycles a group started at one exchange,
// computed one after another off the event loop.
type simCycle struct {
	began   uint64
	jobs    []swarm.JobSpec
	slots   []*swarm.Solver
	reports []swarm.Report
	nimbers [][]solve.NimberEntry
	cpu     time.Duration
	done    chan struct{}
	// How far the batch has surely got while it runs: the fewest
	// iterations of a finished cycle, how many are left, and the cycle
	// running now.
	fewest  atomic.Uint64
	left    atomic.Int32
	current atomic.Pointer[simJob]
}

// simJob is a cycle being computed: its place in the batch, its solver,
// and the solver's published count when the cycle began.
type simJob struct {
	i    int
	s    *swarm.Solver
	from uint64
}

// floor returns a time, in ticks after the batch began, before which none
// of its cycles surely ends: nothing is known of a cycle not yet started,
// so until the last one runs the floor is one iteration.
func (c *simCycle) floor(threads int) uint64 {
	left := c.left.Load()
	it := c.fewest.Load()
	switch {
	case left > 1:
		return simTick
	case left == 1:
		j := c.current.Load()
		if j == nil || j.i != len(c.jobs)-1 {
			return simTick
		}
		// The count at the cycle's start lagged by up to the publishing
		// interval a thread: take it off again.
		now, lag := j.s.IterationsSoFar(), uint64(solve.IterationsPublishedEvery*threads)
		ran := uint64(0)
		if now > j.from+lag {
			ran = now - j.from - lag
		}
		it = min(it, ran)
	}
	return max(it*simTick/uint64(threads), simTick)
}

// never is the time of a request that is not coming.
const never = ^uint64(0)

// Simulate runs the master and cfg.Workers groups in one process under a
// deterministic discrete-event clock counted in iterations: a job cycle
// that takes k iterations takes k units of time (k over the threads of a
// PDFPN solver); the master handles one exchange at a time, each costing
// what cfg says. As in a real group, a group's solvers run their jobs
// apart: the group asks the master as soon as one of its cycles ends,
// reporting those ended by then, while its other solvers go on. A group
// the master has no job for waits at the master (swarm.Master.Park)
// until it has. The master and the groups are the
// same code as in a real swarm; only the clock and the link are simulated.
// The threads of a PDFPN solver take turns, one iteration each
// (solve.Options.Lockstep), as if each had a core of its own. The results
// depend only on the inputs, but for the measured costs
// (SimResult.ExchangeSeconds and its kin). When ctx ends before the root
// is solved, Simulate returns ctx's error with what the run had reached
// (Time, TIt, MNodes, TGN, MasterBusy: lower bounds of the whole run's)
// and no Outcome.
func Simulate(ctx context.Context, root sprouts.Position, params swarm.Params, cfg SimConfig) (SimResult, error) {
	return simulate(ctx, root, params, cfg, newSharedChildren(simChildrenBytes), -1)
}

// simulation is the state of one run of simulate.
type simulation struct {
	ctx        context.Context
	params     swarm.Params
	cfg        SimConfig
	m          *swarm.Master
	history    *history
	workers    []*simWorker
	clock      uint64 // in ticks
	masterFree uint64 // when the master is done with what it has
	masterBusy uint64
	res        SimResult
	// woken are the parked workers the master handed jobs (or an empty
	// answer) during the last call into it.
	woken []wake
	// The measured CPU times, and the reports the exchanges carried.
	exchangeCPU, workCPU, lockCPU time.Duration
	reports                       int
	// While the master serves an exchange (inExchange), the exchange's
	// cost on the clock, and the CPU time when it took its lock.
	inExchange bool
	cost       uint64
	lockedAt   time.Duration
	// cycles feeds the goroutines that compute the groups' cycles, in the
	// order they start on the clock.
	cycles chan func()
	procs  int
}

type wake struct {
	w    *simWorker
	jobs []swarm.JobSpec
}

// Now is the master's time: the clock, in ticks as nanoseconds. Called as
// the master takes its lock for an exchange, it notes the CPU time.
func (s *simulation) Now() time.Time {
	if s.inExchange {
		s.lockedAt = cpuTime()
	}
	return time.Unix(0, int64(s.clock))
}

// Since is how long the master was busy since start: an exchange ends on
// the clock when it has cost what the model charges. Called as the
// exchange lets the master's lock go, it adds the CPU time under the lock.
func (s *simulation) Since(start time.Time) time.Duration {
	if s.inExchange {
		s.lockCPU += cpuTime() - s.lockedAt
	}
	return time.Unix(0, int64(s.clock+s.cost)).Sub(start)
}

// simulate is Simulate with the game the solvers play and the size of each
// solver's own children cache (0: the group's default, negative: none).
func simulate(ctx context.Context, root sprouts.Position, params swarm.Params, cfg SimConfig,
	game solve.Game[sprouts.Position], childrenCache int64) (SimResult, error) {
	// One thread, so that cpuTime measures this goroutine's work only.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := time.Now()
	s := &simulation{ctx: ctx, cfg: cfg, res: SimResult{Workers: cfg.Workers}}
	if cfg.Workers < 1 || cfg.Workers > MaxWorkers {
		return s.res, fmt.Errorf("simulate %d workers: want 1 to %d", cfg.Workers, MaxWorkers)
	}
	if err := memguard.CheckCapacity(params.Capacity, cfg.Workers*max(params.Grouping, 1)); err != nil {
		return s.res, fmt.Errorf("simulate %d workers: %w", cfg.Workers, err)
	}
	params.Lease = 1 << 40 // no group is ever silent on the simulated clock
	// Nor is any on probation: every simulated group works. (A real
	// master's probation costs some newcomers, at the start of a solve,
	// the wait for room for their first jobs, about a cycle: in the short
	// simulated solves it would weigh as it never does in real ones.)
	params.Probation = 0
	// The master grows the top of the DAG by its own expansions until it
	// has a few leaves for every solver, and the clock starts once it is
	// done: each expansion costs it one iteration.
	params.InitNodes = max(params.InitNodes, simInitNodes*cfg.Workers*params.Grouping)
	s.params = params
	s.history = newHistory(root)
	m, err := swarm.NewMaster(root, params, nil, swarm.WithClock(s), swarm.WithObserver(s.history))
	if err != nil {
		return s.res, err
	}
	s.m = m
	s.workers = make([]*simWorker, cfg.Workers)
	for i := range s.workers {
		// A solver's PDFPN threads take turns, an iteration each: as
		// threads on cores of their own would run, and the same on every
		// run, where threads sharing this machine's cores would not be.
		g, err := swarm.NewGroup(fmt.Sprintf("sim-%04d", i), params, swarm.WithSolver(game, func(o *solve.Options) {
			o.Lockstep = true
			if childrenCache != 0 {
				o.ChildrenCache = childrenCache
			}
		}))
		if err != nil {
			return s.res, err
		}
		s.workers[i] = &simWorker{g: g, req: swarm.ExchangeRequest{Group: g.Name, Slots: params.Grouping, Threads: params.Threads}}
	}
	s.clock = uint64(m.Stats().Expansions) * simTick
	s.masterFree, s.masterBusy = s.clock, s.clock
	stop := s.startCycles()
	err = s.run()
	if err == nil {
		err = s.settleAll()
	}
	stop()
	if err != nil {
		if ctx.Err() != nil {
			s.partial()
			s.res.Seconds = time.Since(start).Seconds()
		}
		return s.res, err
	}
	s.finish()
	s.res.Seconds = time.Since(start).Seconds()
	return s.res, nil
}

// partial fills in what a simulation stopped before the root was solved
// had reached: the clock, the iterations of the cycles put on it, the
// master's nodes and nimbers. Each is a lower bound of what the whole run
// would show; Outcome stays empty.
func (s *simulation) partial() {
	res, st := &s.res, s.m.Stats()
	res.Time = s.clock / simTick
	res.MasterBusy = s.masterBusy / simTick
	res.MNodes, res.TGN, res.Master = st.Nodes, s.m.DB().Len(), st
}

// run serves the workers' requests in order of time until the root is
// solved.
func (s *simulation) run() error {
	lastShow := time.Now()
	for s.m.Outcome() == solve.Unknown {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		w, err := s.next()
		if err != nil {
			return err
		}
		if w == nil || w.at == never {
			return fmt.Errorf("simulate: every worker waits for a job, and the root is unsolved")
		}
		s.clock = max(w.at, s.masterFree)
		done, err := s.exchange(w)
		if err != nil || done {
			return err
		}
		if err := s.wake(); err != nil {
			return err
		}
		if s.cfg.Progress != nil && time.Since(lastShow) >= progressEvery {
			lastShow = time.Now()
			s.cfg.Progress(s.clock/simTick, s.m.Stats())
		}
	}
	return nil
}

// exchange serves one request of w and starts the jobs it gets; it
// reports whether the master said the solve is over.
func (s *simulation) exchange(w *simWorker) (bool, error) {
	m := s.m
	s.collect(w)
	reports := len(w.req.Completed)
	cost := s.cfg.Costs.ticks(reports, s.cfg.Iteration)
	cpu0 := cpuTime()
	s.inExchange, s.cost = true, cost
	reply, err := m.Exchange(w.req)
	s.inExchange, s.cost = false, 0
	if err != nil {
		return false, err
	}
	var unpark bool
	if len(reply.Jobs) == 0 && !reply.Done && len(w.runs) == 0 {
		// Nothing to do: wait at the master for a job.
		_, unpark = m.Park(w.g.Name, func(jobs []swarm.JobSpec) { s.woken = append(s.woken, wake{w, jobs}) })
	}
	s.exchangeCPU += cpuTime() - cpu0
	s.reports += reports
	s.masterFree = s.clock + cost
	s.masterBusy += cost
	w.replied = s.masterFree
	w.gather = swarm.GatherOf(reply.Gather)
	for _, e := range reply.Delta {
		w.g.DB().Learn(e.Key, e.G)
	}
	w.req.Completed, w.req.Nimbers = nil, nil
	if reply.Done {
		return true, nil
	}
	switch {
	case len(reply.Jobs) > 0:
		return false, s.start(w, reply.Jobs)
	case len(w.runs) > 0:
		// Its other solvers are still at work: it asks again when the
		// next of them finishes.
		w.at = w.nextRequest()
	case unpark:
		w.parked, w.at, w.parkedAt = true, never, s.masterFree
	default:
		w.at = s.masterFree + max(s.cfg.Costs.ticks(0, s.cfg.Iteration), simIdleRetry)
	}
	return false, nil
}

// collect puts into w's request the cycles finished by the time it is
// sent, with the values they proved, and frees their solvers.
func (s *simulation) collect(w *simWorker) {
	rest := w.runs[:0]
	for _, r := range w.runs {
		if r.end > w.at {
			rest = append(rest, r)
			continue
		}
		w.req.Completed = append(w.req.Completed, r.report)
		w.req.Nimbers = append(w.req.Nimbers, r.nimbers...)
		w.g.Release(r.id)
	}
	clear(w.runs[len(rest):])
	w.runs = rest
}

// nextRequest returns when w next asks the master: when the first of its
// running cycles ends, but not before its last exchange was answered,
// and then up to the share of that cycle's length the master asked the
// group to gather for while others are still running (as swarm.Group.Run
// does).
func (w *simWorker) nextRequest() uint64 {
	first := w.firstEnd()
	if first == never {
		return never
	}
	var last, span uint64
	for _, r := range w.runs {
		last = max(last, r.end)
		if r.end == first {
			span = max(span, r.end-r.began)
		}
	}
	// The group sees the first end once it has its reply, and waits from
	// then.
	from := max(first, w.replied)
	return min(from+uint64(w.gather*float64(span)), max(last, w.replied))
}

// firstEnd returns when the first of w's running cycles ends (never if
// none runs).
func (w *simWorker) firstEnd() uint64 {
	at := never
	for _, r := range w.runs {
		at = min(at, r.end)
	}
	return at
}

// wake starts the jobs the master handed to waiting workers during the
// last exchange; those the master answered without a job ask again.
func (s *simulation) wake() error {
	woken := s.woken
	s.woken = nil
	for _, k := range woken {
		k.w.parked = false
		k.w.waited += s.masterFree - min(k.w.parkedAt, s.masterFree)
		k.w.replied = s.masterFree
		if len(k.jobs) == 0 {
			k.w.at = s.masterFree + simIdleRetry
			continue
		}
		if err := s.start(k.w, k.jobs); err != nil {
			return err
		}
	}
	return nil
}

// start runs the cycles of the jobs a group was handed from the time the
// master is done with the exchange that handed them out. They run on one
// of the cycle goroutines, one after another; settle puts what they did on
// the clock, each cycle at its own length. Only this batch of the group's
// cycles can be out: the group's next exchange waits for it (next), so
// the group's nimber database is never used by two goroutines at once.
// The cycles of a batch, computed one after another, see the values the
// earlier ones proved, and each cycle sees those its group's earlier
// batches proved, even where on the clock those are still running: the
// solvers of a real group share their values as they prove them, and the
// simulation gives them a little earlier.
func (s *simulation) start(w *simWorker, jobs []swarm.JobSpec) error {
	begin := s.masterFree
	if !w.started {
		w.started, w.first = true, begin
	}
	c := &simCycle{began: begin, jobs: jobs, slots: make([]*swarm.Solver, len(jobs)), done: make(chan struct{})}
	for i, spec := range jobs {
		if c.slots[i] = w.g.Place(spec); c.slots[i] == nil {
			return fmt.Errorf("simulate: the master sent %s more jobs than it has free solvers", w.g.Name)
		}
	}
	c.fewest.Store(never)
	c.left.Store(int32(len(jobs)))
	w.cycle = c
	s.cycles <- func() {
		defer close(c.done)
		cpu0 := cpuTime()
		for i, spec := range c.jobs {
			c.current.Store(&simJob{i: i, s: c.slots[i], from: c.slots[i].IterationsSoFar()})
			r := w.g.Cycle(s.ctx, c.slots[i], spec)
			c.reports = append(c.reports, r)
			c.nimbers = append(c.nimbers, w.g.DB().TakeNew())
			c.fewest.Store(min(c.fewest.Load(), r.Iterations))
			c.left.Add(-1)
		}
		c.cpu = cpuTime() - cpu0
	}
	if s.procs == 1 {
		// One at a time: settle it now, as the clock would if cycles took
		// no real time (what TestConcurrentCyclesChangeNothing compares
		// the concurrent order with).
		return s.settle(w)
	}
	return nil
}

// settle waits for w's batch of cycles and puts each on the clock.
func (s *simulation) settle(w *simWorker) error {
	c := w.cycle
	<-c.done
	w.cycle = nil
	s.workCPU += c.cpu
	th := uint64(max(s.params.Threads, 1))
	for i, r := range c.reports {
		// The threads of a PDFPN solver run at once: a cycle takes its
		// iterations over the threads (as if they never waited on each
		// other's locks).
		span := max(r.Iterations*simTick/th, simTick)
		w.runs = append(w.runs, &simRun{id: c.jobs[i].ID, began: c.began, end: c.began + span, report: r, nimbers: c.nimbers[i]})
		s.res.TIt += r.Iterations
		w.busy += span
	}
	w.at = w.nextRequest()
	return s.ctx.Err()
}

// settleAll settles every batch still being computed.
func (s *simulation) settleAll() error {
	for _, w := range s.workers {
		if w.cycle != nil {
			if err := s.settle(w); err != nil {
				return err
			}
		}
	}
	return nil
}

// next returns the worker whose request reaches the master first (ties go
// to the first by name). A batch still being computed might hold a cycle
// that ends before that request: next waits until the batch is done, or
// has surely run past the request's time (cycleWait at a time: the wait
// costs no CPU the cycles could use).
func (s *simulation) next() (*simWorker, error) {
	th := max(s.params.Threads, 1)
	for {
		var first, wait *simWorker
		for _, w := range s.workers {
			if w.cycle == nil && (first == nil || w.at < first.at || w.at == first.at && w.g.Name < first.g.Name) {
				first = w
			}
		}
		for _, w := range s.workers {
			if w.cycle == nil {
				continue
			}
			soonest := max(min(w.firstEnd(), w.cycle.began+w.cycle.floor(th)), w.replied)
			if first == nil || soonest <= first.at {
				wait = w
				break
			}
		}
		if wait == nil {
			return first, nil
		}
		select {
		case <-wait.cycle.done:
			if err := s.settle(wait); err != nil {
				return nil, err
			}
		case <-time.After(cycleWait):
		case <-s.ctx.Done():
			return nil, s.ctx.Err()
		}
	}
}

// cycleWait is how long next waits for a running cycle before it looks
// again how far the cycle has got.
const cycleWait = 100 * time.Microsecond

// startCycles starts the goroutines that compute the groups' cycles, and
// returns the function that stops them and waits for them.
func (s *simulation) startCycles() (stop func()) {
	procs := s.cfg.Procs
	if procs <= 0 {
		procs = runtime.GOMAXPROCS(0)
	}
	procs = min(procs, len(s.workers))
	s.procs = procs
	// Each group has at most one cycle out, so sending never blocks.
	s.cycles = make(chan func(), len(s.workers))
	var wg sync.WaitGroup
	for range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// cpuTime counts this thread's CPU: keep the goroutine on it.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for f := range s.cycles {
				f()
			}
		}()
	}
	return func() {
		close(s.cycles)
		wg.Wait()
	}
}

// cut takes off w's counts what its cycles still running would have run
// after the root was solved: they were computed whole, at their start, but
// on the clock they stop with the solve.
func (s *simulation) cut(w *simWorker) {
	th := uint64(max(s.params.Threads, 1))
	for _, r := range w.runs {
		if r.end <= s.clock {
			continue
		}
		ran := s.clock - min(r.began, s.clock) // ticks it ran
		if it := r.report.Iterations; it*simTick/th > ran {
			s.res.TIt -= it - ran*th/simTick
		}
		w.busy -= r.end - max(r.began, s.clock)
		r.end = s.clock
	}
}

// finish fills in the result.
func (s *simulation) finish() {
	m, res := s.m, &s.res
	st := m.Stats()
	res.Outcome = m.Outcome()
	res.Time = (s.clock + simTick - 1) / simTick
	res.MasterBusy = s.masterBusy / simTick
	if st.Exchanges > 0 {
		res.ExchangeSeconds = s.exchangeCPU.Seconds() / float64(st.Exchanges)
		res.ExchangeLockSeconds = s.lockCPU.Seconds() / float64(st.Exchanges)
		res.ReportsPerExchange = float64(s.reports) / float64(st.Exchanges)
	}
	res.TGN = m.DB().Len()
	res.MNodes = st.Nodes
	res.ProofWork, _ = s.history.proofWork(m)
	res.Master = st
	var util, waited float64
	var entries int64
	for _, w := range s.workers {
		s.cut(w)
		if w.parked {
			w.waited += s.clock - min(w.parkedAt, s.clock)
		}
		// From the group's first job to the end, each of its solvers is
		// in a job or idle.
		if span := s.clock - min(w.first, s.clock); w.started && span > 0 {
			util += float64(w.busy) / float64(span*uint64(len(w.g.Solvers())))
			waited += float64(w.waited) / float64(span)
		} else {
			util += 1
		}
		for _, sl := range w.g.Solvers() {
			entries += sl.Stats().TTEntries
		}
	}
	res.Util = util / float64(len(s.workers))
	cores := len(s.workers) * s.params.Grouping * max(s.params.Threads, 1)
	if res.Time > 0 && cores > 0 {
		res.Iterating = float64(res.TIt) / (float64(cores) * float64(res.Time))
	}
	res.Waited = waited / float64(len(s.workers))
	res.WNodes = float64(entries) / float64(len(s.workers)*s.params.Grouping)
	if res.TIt > 0 {
		res.IterationSeconds = s.workCPU.Seconds() / float64(res.TIt)
	}
}
