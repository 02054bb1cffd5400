package swarm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/internal/memguard"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// Link carries a group's exchanges to the master: a function call in one
// process, HTTP between processes.
type Link interface {
	Exchange(ctx context.Context, req ExchangeRequest) (ExchangeReply, error)
}

// Group is a worker group: Params.Grouping solvers on one machine sharing
// one nimber database, each running PDFPN with Params.Threads threads
// (sequential DFPN with 0) and its own transposition table.
type Group struct {
	Name    string
	params  Params
	db      *solve.NimberDB
	solvers []*Solver
	results chan finished
	pooled  map[string]uint32 // the values drawn on (WithGroupPool), not sent

	// Log, if set, is told about reconnections and the like.
	Log func(format string, args ...any)
}

// A Solver is one solver of a group: a DFPN search (PDFPN with
// Params.Threads) with its own table. Group.Run drives a group's solvers;
// a caller with a loop of its own (a simulation on a virtual clock) may
// drive them itself instead, one cycle at a time: Place a job on a
// solver, run its Cycle, Release it once its report is sent.
type Solver struct {
	dfpn    *solve.DFPN[sprouts.Position]
	lastKey string // couple of its previous job, for affinity
	lastJob string // id of its previous job, which a new one may follow
	jobID   string // its current job, "" when idle
	cancel  context.CancelFunc
	started bool // it ran a cycle: its table holds something
}

// A GroupOption changes a group from its defaults (NewGroup).
type GroupOption func(*groupConfig)

type groupConfig struct {
	game   solve.Game[sprouts.Position]
	adjust func(*solve.Options)
	pool   *certify.Pool
}

// WithSolver has the group's solvers play game instead of the rules of
// Sprouts with a land cache of the group's own (the same rules with a
// children cache shared by the groups of one process, say) and, if adjust
// is not nil, lets it change the options each solver is made with, once
// the group has set them from its Params.
func WithSolver(game solve.Game[sprouts.Position], adjust func(*solve.Options)) GroupOption {
	return func(c *groupConfig) { c.game, c.adjust = game, adjust }
}

// NewGroup returns a worker group named name (its identity at the
// master): Params.Grouping solvers of Params.Threads threads and
// Params.Capacity entries each, sharing a new nimber database (holding the
// values of the pool of WithGroupPool, if given).
func NewGroup(name string, params Params, opts ...GroupOption) (*Group, error) {
	if err := params.check(); err != nil {
		return nil, err
	}
	if err := memguard.CheckCapacity(params.Capacity, params.Grouping); err != nil {
		return nil, fmt.Errorf("group %s: %w", name, err)
	}
	cfg := groupConfig{game: sprouts.Rules{Cache: sprouts.NewCache(sprouts.DefaultCacheBytes)}}
	for _, o := range opts {
		o(&cfg)
	}
	g := &Group{Name: name, params: params, db: solve.NewNimberDB(), results: make(chan finished, params.Grouping)}
	g.db.Track()
	g.db.TrackReads()
	if cfg.pool != nil {
		all := solve.NewNimberDB()
		cfg.pool.Preload(all)
		g.pooled = make(map[string]uint32, all.Len())
		all.Range(func(k string, v uint32) bool {
			g.pooled[k] = v
			return true
		})
		g.preload()
	}
	for range params.Grouping {
		opt := solve.Options{Capacity: params.Capacity, Threads: max(params.Threads, 1), Seed: params.Seed,
			Spread: params.Spread, ChildrenCache: max(1, min(solve.DefaultChildrenCache, int64(params.Capacity)*256))}
		if cfg.adjust != nil {
			cfg.adjust(&opt)
		}
		g.solvers = append(g.solvers, &Solver{dfpn: solve.NewDFPN(cfg.game, g.db, opt)})
	}
	return g, nil
}

// DB returns the nimber database the group's solvers share. Its new
// values (TakeNew) are what the group sends the master next.
func (g *Group) DB() *solve.NimberDB { return g.db }

// Solvers returns the group's solvers.
func (g *Group) Solvers() []*Solver { return g.solvers }

// IterationsSoFar returns the solver's iterations as its search last
// published them (solve.DFPN.IterationsSoFar): safe to read while a cycle
// runs on it.
func (s *Solver) IterationsSoFar() uint64 { return s.dfpn.IterationsSoFar() }

// Stats returns the solver's search counters; not while a cycle runs on
// it.
func (s *Solver) Stats() solve.Stats { return s.dfpn.Stats() }

// Run exchanges with the master and solves the jobs it hands out until the
// master says the solve is over or ctx ends. A failed exchange is retried
// (the master may be restarting); the group's reports wait for it. When the
// master starts a new epoch (it dropped values it found wrong) the group
// stops its jobs and forgets its values and tables; when it took some of
// the group's jobs back (the group was stopped or cut off past its lease)
// the group drops them and goes on with the others and new ones.
func (g *Group) Run(ctx context.Context, link Link) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The jobs of the current epoch run under jobs.ctx.
	var jobs struct {
		ctx    context.Context
		cancel context.CancelFunc
	}
	jobs.ctx, jobs.cancel = context.WithCancel(ctx)
	defer func() { jobs.cancel() }()
	var completed []Report
	var master string // the master process last heard from
	epoch := 0        // the master's epoch last heard of
	heartbeat := g.params.Lease / 3
	var carried []uint64 // reads to report that a new epoch's start took
	afresh := false      // the group started afresh where the master let it keep what it held
	// unheard are values the master did not take in (ExchangeReply
	// .Unheard): they go again with the next request that reports a job.
	var unheard []solve.NimberEntry
	for {
		nimbers := g.db.TakeNew()
		if len(completed) > 0 && len(unheard) > 0 {
			nimbers, unheard = append(unheard, nimbers...), nil
		}
		read := append(carried, readHashes(g.db.TakeReads())...) // after TakeNew: every value taken rests only on values read by now
		req := ExchangeRequest{Group: g.Name, Slots: len(g.solvers), Threads: g.params.Threads, Completed: completed, Epoch: epoch,
			Nimbers: nimbers, Read: read, TracksReads: true, Afresh: afresh, Running: g.running(), Resync: true}
		carried, afresh = nil, false
		reply, err := g.exchange(ctx, link, req)
		if err != nil {
			return err
		}
		if reply.Unheard {
			unheard = append(unheard, req.Nimbers...)
		}
		completed = nil
		completed = g.drop(reply.Drop, completed)
		if master != "" && reply.Master != master {
			// A new master (it restarted from saved state): it may have
			// lost values this group sent the old one, so send them all.
			// (Not a resync: the jobs of the first reply are not placed
			// yet.)
			g.db.Range(func(k string, v uint32) bool {
				if p, ok := g.pooled[k]; !ok || p != v {
					req.Nimbers = append(req.Nimbers, solve.NimberEntry{Key: k, G: v})
				}
				return true
			})
			if g.Log != nil {
				g.Log("group %s: a new master; sending it all %d Grundy values", g.Name, len(req.Nimbers))
			}
			resend := ExchangeRequest{Group: g.Name, Slots: len(g.solvers), Threads: g.params.Threads, Nimbers: req.Nimbers, Epoch: reply.Epoch, TracksReads: true}
			more, err := g.exchange(ctx, link, resend)
			if err != nil {
				return err
			}
			reply.Jobs = append(reply.Jobs, more.Jobs...)
			reply.Delta = append(reply.Delta, more.Delta...)
			reply.Done = more.Done
			epoch = reply.Epoch
			if more.Unheard { // all its values, those of req among them
				unheard = resend.Nimbers
			}
		}
		master = reply.Master
		if reply.Lease > 0 {
			heartbeat = max(min(g.params.Lease, reply.Lease)/3, minHeartbeat)
		}
		gather := GatherOf(reply.Gather)
		if reply.Done {
			return nil
		}
		switch {
		case reply.Epoch != epoch:
			// The master dropped values and took every job back.
			jobs.cancel()
			wg.Wait()
			for more := true; more; {
				select {
				case <-g.results:
				default:
					more = false
				}
			}
			completed = nil
			carried, afresh = g.startEpoch(reply)
			jobs.ctx, jobs.cancel = context.WithCancel(ctx)
			epoch = reply.Epoch
			if !reply.Kept || afresh {
				unheard = nil // forgotten with the rest
			}
			unheard = forgotten(unheard, reply.Forget)
		case len(reply.Forget) > 0:
			// The master dropped values nothing rested on: whatever
			// read one since is reported with the next request.
			g.forget(reply.Forget)
			unheard = forgotten(unheard, reply.Forget)
		}
		for _, e := range reply.Delta {
			g.db.Learn(e.Key, e.G)
		}
		for _, spec := range reply.Jobs {
			s := g.Place(spec)
			if s == nil {
				// Not run, so not in the next request's Running: the
				// master takes it back then.
				if g.Log != nil {
					g.Log("group %s: no free solver for job %s; the master will take it back", g.Name, spec.ID)
				}
				continue
			}
			cycle, cancel := context.WithCancel(jobs.ctx)
			s.cancel = cancel
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer cancel()
				start := time.Now()
				r := g.Cycle(cycle, s, spec)
				g.results <- finished{r, time.Since(start)}
			}()
		}
		// Report when one job has finished its cycle (and the others that
		// finish within the share of it the master asks to gather);
		// exchange anyway
		// now and then so the master knows the group is alive, and soon
		// when the group is idle (the master may have jobs again, or be
		// done).
		wait := heartbeat
		if g.busy() == 0 {
			wait = min(wait, idlePoll)
		}
		timer := time.NewTimer(wait)
		select {
		case f := <-g.results:
			completed = append(completed, f.report)
			completed = g.gather(ctx, completed, time.Duration(gather*float64(f.took)))
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		}
		timer.Stop()
		for more := true; more; {
			select {
			case f := <-g.results:
				completed = append(completed, f.report)
			default:
				more = false
			}
		}
		for _, r := range completed {
			g.Release(r.ID)
		}
	}
}

// startEpoch brings the group, its jobs stopped, into the master's new
// epoch (reply.Epoch). Told it may keep what it holds (reply.Kept), it
// does, forgetting the values of reply.Forget, unless its solvers read
// one of them after its request was made: then, as when not told so,
// whatever it learned or proved may rest on what the master dropped, and
// it starts afresh. It returns the reads to report with the next request
// (those the check took), and whether it started afresh where it was
// told it may keep what it holds (ExchangeRequest.Afresh).
func (g *Group) startEpoch(reply ExchangeReply) (carried []uint64, afresh bool) {
	for _, s := range g.solvers {
		s.jobID = ""
	}
	if reply.Kept {
		forget := hashSet(reply.Forget)
		late := readHashes(g.db.TakeReads())
		if !readAny(late, forget) {
			g.forget(reply.Forget)
			return late, false
		}
	}
	for _, s := range g.solvers {
		if s.started {
			s.dfpn.ClearTable()
		}
		s.lastKey = ""
	}
	g.db.Clear()
	g.preload() // the master drops only values it was sent
	if g.Log != nil {
		g.Log("group %s: the master dropped wrong values (epoch %d); starting afresh", g.Name, reply.Epoch)
	}
	return nil, reply.Kept
}

// forgotten returns entries but those named by hashes (readHash).
func forgotten(entries []solve.NimberEntry, hashes []uint64) []solve.NimberEntry {
	if len(entries) == 0 || len(hashes) == 0 {
		return entries
	}
	set := hashSet(hashes)
	return slices.DeleteFunc(entries, func(e solve.NimberEntry) bool { return set[readHash(e)] })
}

// forget removes the values the master dropped, each named by readHash.
func (g *Group) forget(hashes []uint64) {
	set := hashSet(hashes)
	n := g.db.Forget(func(e solve.NimberEntry) bool { return set[readHash(e)] })
	if g.Log != nil && n > 0 {
		g.Log("group %s: the master dropped %s this group never read; it forgets them and keeps the rest", g.Name, plural(n, "value"))
	}
}

// running returns the jobs whose cycles run on the group's solvers (never
// nil: an empty list says that none does).
func (g *Group) running() []string {
	ids := []string{}
	for _, s := range g.solvers {
		if s.jobID != "" {
			ids = append(ids, s.jobID)
		}
	}
	return ids
}

// drop stops the cycles of the jobs the master no longer holds for the
// group (ExchangeReply.Drop), waits for them to end and frees their
// solvers; the reports of other cycles that end meanwhile are added to
// completed, for the next exchange.
func (g *Group) drop(ids []string, completed []Report) []Report {
	waiting := map[string]bool{}
	for _, id := range ids {
		for _, s := range g.solvers {
			if s.jobID == id && s.cancel != nil && !waiting[id] {
				s.cancel()
				waiting[id] = true
			}
		}
	}
	if len(waiting) == 0 {
		return completed
	}
	if g.Log != nil {
		g.Log("group %s: the master took back %d of its jobs (its lease ran out); dropping them and going on", g.Name, len(waiting))
	}
	for len(waiting) > 0 {
		f := <-g.results
		if waiting[f.report.ID] {
			delete(waiting, f.report.ID)
			g.Release(f.report.ID)
			continue
		}
		completed = append(completed, f.report)
	}
	return completed
}

// finished is a job's cycle that ended, and how long it took.
type finished struct {
	report Report
	took   time.Duration
}

// GatherOf returns the share of a cycle a group gathers for when the
// master asks it for asked (ExchangeReply.Gather): 0 to MaxGather,
// whatever the master says.
func GatherOf(asked float64) float64 {
	if !(asked > 0) { // NaN too
		return 0
	}
	return min(asked, MaxGather)
}

// gather waits, after one of the group's cycles ended, up to hold for the
// group's other running cycles to end too, so that their reports go in
// one exchange: the master's cost is mostly per exchange, and a group of
// many solvers reporting each cycle apart can keep it busy. It stops
// waiting as soon as every running cycle has ended, and returns completed
// with the reports that came.
func (g *Group) gather(ctx context.Context, completed []Report, hold time.Duration) []Report {
	if hold <= 0 {
		return completed
	}
	timer := time.NewTimer(hold)
	defer timer.Stop()
	// Solvers keep their job until it is released: those not among
	// completed are still running.
	for len(completed) < g.busy() {
		select {
		case f := <-g.results:
			completed = append(completed, f.report)
		case <-timer.C:
			return completed
		case <-ctx.Done():
			return completed
		}
	}
	return completed
}

// minHeartbeat bounds how often a busy group exchanges to say it is
// alive, however short a lease the master names.
const minHeartbeat = 50 * time.Millisecond

// idlePoll is how often a group without jobs asks the master for work.
const idlePoll = 250 * time.Millisecond

// busy returns the number of solvers with a job.
func (g *Group) busy() int {
	n := 0
	for _, s := range g.solvers {
		if s.jobID != "" {
			n++
		}
	}
	return n
}

// exchange sends a request until it goes through, backing off between
// attempts.
func (g *Group) exchange(ctx context.Context, link Link, req ExchangeRequest) (ExchangeReply, error) {
	wait := 100 * time.Millisecond
	for {
		reply, err := link.Exchange(ctx, req)
		if err == nil {
			return reply, nil
		}
		if errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrBanned) || errors.Is(err, ErrNoMaster) {
			return reply, err
		}
		if ctx.Err() != nil {
			return reply, ctx.Err()
		}
		if g.Log != nil {
			g.Log("group %s: exchange failed (%v); retrying in %v", g.Name, err, wait)
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return reply, ctx.Err()
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// Place chooses the solver for a job, and gives it the job: the one
// already running it, else an idle one whose last job was the one the job
// follows (JobSpec.After) or the same couple (its table is warm), else any
// idle one. It returns nil when every solver has another job.
func (g *Group) Place(spec JobSpec) *Solver {
	key := fmt.Sprintf("%s %d", spec.Position, spec.N)
	var idle, warm, follows *Solver
	for _, s := range g.solvers {
		switch {
		case s.jobID == spec.ID:
			return s
		case s.jobID == "" && spec.After != "" && s.lastJob == spec.After:
			follows = s
		case s.jobID == "" && s.lastKey == key && warm == nil:
			warm = s
		case s.jobID == "" && idle == nil:
			idle = s
		}
	}
	s := cmp.Or(follows, warm, idle)
	if s == nil {
		return nil
	}
	s.jobID, s.lastKey = spec.ID, key
	return s
}

// Release frees the solver of job id, whose report was sent, for the next
// job; it keeps its table, for a job that follows.
func (g *Group) Release(id string) {
	for _, s := range g.solvers {
		if s.jobID == id {
			s.jobID, s.lastJob = "", id
		}
	}
}

// Cycle runs one cycle of a job on the solver that Place gave it, and
// returns its report.
func (g *Group) Cycle(ctx context.Context, s *Solver, spec JobSpec) Report {
	s.started = true
	pos, err := sprouts.Parse(spec.Position)
	if err != nil {
		return Report{ID: spec.ID, PN: 1, DN: 1}
	}
	e := s.dfpn.Job(ctx, pos, spec.N, spec.MaxIterations)
	r := reportOf(e)
	r.ID = spec.ID
	return r
}

func reportOf(e solve.Expansion[sprouts.Position]) Report {
	r := Report{Outcome: e.Outcome, PN: e.PN, DN: e.DN, Iterations: e.Iterations, Sum: e.Sum, Merged: e.Merged}
	if e.Outcome == solve.Unknown {
		r.Folded, r.FoldedN = e.Folded.String(), e.FoldedN
		for _, c := range e.Children {
			r.Children = append(r.Children, childReport{Position: c.Pos.String(), N: c.N, PN: c.PN, DN: c.DN})
		}
	}
	return r
}

// ErrUnauthorized is returned when the master refuses the group's key.
var ErrUnauthorized = errors.New("swarm: unauthorized (wrong key?)")

// ErrNoMaster is returned by a Link that gave up finding a master (a
// worker's --wait ran out): the group stops instead of asking again. An
// error of StartMember wraps it when nothing answered at the addresses to
// join for all of MemberConfig.JoinWait.
var ErrNoMaster = errors.New("swarm: no master")
