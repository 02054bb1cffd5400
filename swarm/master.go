package swarm

import (
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// MasterStats are the master's counters, by the concern that keeps them
// (see Master). The embedded structs' fields are MasterStats's own, in
// Go and in JSON alike.
type MasterStats struct {
	WorkStats
	SwarmStats
	LoadStats
	AuditStats
}

// WorkStats are the counters of the master's work: its DAG and its jobs.
type WorkStats struct {
	Nodes      int    `json:"nodes"` // M-Nodes
	Assigned   int    `json:"jobs_assigned"`
	Continued  int    `json:"jobs_continued"`
	Expanded   int    `json:"jobs_expanded"`
	Expired    int    `json:"jobs_expired"`
	Stale      int    `json:"reports_stale"` // reports for jobs the master no longer knows
	Iterations uint64 `json:"iterations"`    // T-It: iterations reported by all groups
	NimbersIn  int    `json:"grundy_numbers_received"`
	RootPN     uint64 `json:"root_pn"`
	RootDN     uint64 `json:"root_dn"`
	// Open is the number of jobs held by groups now.
	Open int `json:"jobs_open"`
	// Malformed counts reports the master could not use; their leaves are
	// handed out again.
	Malformed int `json:"reports_malformed"`
	// Expansions counts the master's own expansions of its DAG's top
	// (before the first job, and again after an audit dropped values).
	Expansions int `json:"m_expansions"`
}

// SwarmStats are the master's counters of its groups: the exchanges, the
// groups and their solvers, the values shared, the events.
type SwarmStats struct {
	Exchanges     int `json:"exchanges"`
	NimbersShared int `json:"grundy_numbers_shared"` // one per value and receiving group
	Groups        int `json:"groups"`
	// Slots are the solvers of the groups the master knows; Utilisation
	// is the share of slot time since the first exchange during which a
	// slot held a job.
	Slots       int     `json:"slots"`
	Utilisation float64 `json:"utilisation"`
	// Cores are the groups' solvers times their threads; JobIterations
	// the most iterations a job runs now, and Follow whether a group's
	// next job is taken below its last (both change when the swarm
	// becomes large, Params.LargeSwarm).
	Cores         int    `json:"cores"`
	JobIterations uint64 `json:"job_iterations"`
	Follow        bool   `json:"follow"`
	// Events counts the master's events by kind (eventKinds: "join",
	// "expire", "loss", "resync", "ban"), since it started.
	Events map[string]int `json:"events"`
}

// LoadStats are the master's pace: its load and the cycles it asks for.
type LoadStats struct {
	BusySeconds float64 `json:"master_busy_seconds"`
	// Load is the share of time the master spends on exchanges under the
	// lock they take in turn (the work's; a moving average), and
	// ReportEvery the iterations between a job's reports it asks for now:
	// Params.Updates (a large swarm's LargeIterations when shorter), or
	// more when the load is high; Gather the share of a cycle it asks
	// groups to gather their reports for (ExchangeReply.Gather). PacedLoad
	// is the part of Load spent on reports at the end of a full cycle,
	// the part longer cycles reduce; the rest comes from jobs that solved
	// their leaf early.
	Load        float64 `json:"master_load"`
	PacedLoad   float64 `json:"master_load_paced"`
	ReportEvery uint64  `json:"report_every"`
	Gather      float64 `json:"gather"`
}

// AuditStats are the counters of the master's audit trail.
type AuditStats struct {
	// Audits counts the checks of a solved root; Banned the groups caught
	// sending wrong values, Dropped the values dropped with them.
	Audits  int `json:"audits"`
	Banned  int `json:"groups_banned"`
	Dropped int `json:"values_dropped"`
	// Claims counts the outcomes reported by jobs that settled their
	// leaf; Unbacked the groups banned for a claim the master's values
	// did not back or that it found wrong.
	Claims   int `json:"claims"`
	Unbacked int `json:"claims_unbacked"`
}

type job struct {
	id       string
	leaf     *node
	group    string
	cycle    int
	worked   uint64 // iterations reported, each cycle's counted up to what it was asked
	asked    uint64 // iterations its current cycle was asked for
	deadline time.Time
	settled  bool // the leaf was solved by values from elsewhere
	trial    bool // handed to a group on probation (probation.go)
}

// maxGroupName bounds the length of a group's name.
const maxGroupName = 256

// endedJob is a job that ended in the current exchange, and its leaf.
type endedJob struct {
	id   string
	leaf *node
}

// sharedValue is an entry of the master's shared log: a Grundy value new
// to the master and the group that sent it ("" for the master's own).
type sharedValue struct {
	e    solve.NimberEntry
	from string
	seq  uint64 // the exchange it arrived with (its origin's seq)
}

// valueOrigin is where a Grundy value of the master's database came from:
// the group that sent it ("" for the master's own derivations, savedOrigin
// for a database loaded at the start) and the exchange it arrived with.
type valueOrigin struct {
	group string
	seq   uint64
}

// maxResent bounds the other senders recorded for one value (see
// Master.noteKnown): enough that a liar who sent a value first does not
// take it down with it, few enough that a value costs the master little.
const maxResent = 8

// dispute is a value a group sent, at exchange seq, that differs from the
// master's.
type dispute struct {
	key, group string
	g          uint32
	seq        uint64
}

// maxDisputes bounds the disputes waiting to be settled: past it, a group
// that contradicts the master is not heard until the next check.
const maxDisputes = 64

// savedOrigin marks values the master started with (--resume, --db-in).
const savedOrigin = "\x00saved"

// delivery records that a group was sent, at exchange seq, values that had
// arrived up to exchange arrived: from then on what the group proves may
// rest on them. It keeps what was sent (the slices are never written
// again), so that an audit can tell a group sent a lie from one that was
// not.
type delivery struct {
	seq, arrived uint64
	log          []sharedValue
	pending      []solve.NimberEntry
}

// Master is the master of a swarm solve: the DAG, the jobs and the values.
// Its methods are safe for concurrent use.
//
// Each of its concerns is a type that owns its state and its lock:
//
//  1. members (roster): the groups it knows, the groups it banned, the
//     epochs, whether the solve is over, the exchange clock;
//  2. work: the DAG, the database and each value's origin, the jobs,
//     probation and the groups parked for a job;
//  3. share (sharing): the log of values to share and each group's
//     mailbox;
//  4. trail: the audit trail (deliveries, reads, disputes, claims) and the
//     audits' findings;
//
// and the leaves: gone (the values dropped), events, pacer, tally (the
// utilisation), scans and the pool's lock.
//
// Lock order: the chained locks are taken in the order 1 to 4, never one
// of a lower number while one of a higher number is held; a leaf lock is
// taken with any of them held or none, and nothing is locked while a leaf
// lock is held. So no cycle of waits can form. An exchange takes the
// chained locks hand over hand (each before it lets the previous go), so
// that exchanges run through the concerns in one order, as on a pipeline,
// and one that takes all four (an audit's drop, a new epoch) sees each
// exchange whole or not at all: exchanges of several groups run side by
// side, one in each concern. What every exchange reads without a lock
// (the roster's solvers and cores, the pace's stretch) is published in
// words that only their concern writes.
type Master struct {
	// Log, if set, is told of every event (Event: a group joined, expired,
	// was lost, re-synchronised or was banned) and of reports the master
	// could not use (a position that does not parse, an unsolved couple
	// without children). It is called with some of the master's locks
	// held and must not call the master.
	Log func(format string, args ...any)

	masterConfig

	members *roster
	work    *work
	share   *sharing
	trail   *trail

	gone   dropped
	events eventLog
	pacer  pacer
	tally  tally
	// scans are the values the checks found consistent (findWrong).
	scans scans
	// pool is what the master draws on (pool.go).
	pool drawing
}

// masterConfig is what a master is given and never changes.
type masterConfig struct {
	params Params
	root   sprouts.Position
	clock  Clock    // nil: the wall clock
	watch  Observer // nil: nobody watches
	id     string   // this master process
}

// scans are the values the checks scanned without finding them
// contradicting anything (findWrong), of the epoch scannedEpoch: later
// checks skip them. A leaf lock: the checks run without the master's
// others.
type scans struct {
	mu      sync.Mutex
	scanned map[string]bool
	epoch   uint64
}

// drawing is the certificates the master draws on (pool.go): the pool, its
// values (read-only once NewMaster returns), and under mu the database of
// the searches that draw on them (blamePool) and the library that checks
// them. mu is a leaf lock.
type drawing struct {
	pool   *certify.Pool
	pooled map[string]uint32
	mu     sync.Mutex
	db     *solve.NimberDB
	lib    *verify.Library
}

// NewMaster prepares the master of a solve of root + *0 with the nimber
// database db (a new one if nil, or one loaded from an earlier run), and
// grows the top of the DAG by its own expansions. By default it keeps
// time by the wall clock, nobody watches it and it draws on no
// certificates (WithClock, WithObserver, WithPool).
func NewMaster(root sprouts.Position, params Params, db *solve.NimberDB, opts ...MasterOption) (*Master, error) {
	if err := params.check(); err != nil {
		return nil, err
	}
	if db == nil {
		db = solve.NewNimberDB()
	}
	m := &Master{masterConfig: masterConfig{params: params, root: root, id: uuid.NewString()},
		members: newRoster(), work: newWork(db), share: newSharing(), trail: newTrail()}
	m.pacer.pace = pace{cfg: params.Pace}
	m.pacer.stretch.Store(1)
	for _, o := range opts {
		o(m)
	}
	m.drawOn()
	db.Range(func(k string, _ uint32) bool {
		m.work.ledger.origin[k] = valueOrigin{group: savedOrigin}
		return true
	})
	m.newDAG()
	return m, nil
}

// newDAG builds the top of the DAG afresh from the database. With work's
// lock held (or before the master is shared).
func (m *Master) newDAG() {
	w := m.work
	w.dag = newDAG(w.db, m.params.Seed)
	w.dag.watch = m.watch
	w.dag.setRoot(m.root, 0)
	m.grow(m.params.InitNodes)
	w.checkDone()
}

// grow expands the most-proving leaves by the rules until the DAG has n
// nodes or the root is solved. With work's lock held.
func (m *Master) grow(n int) {
	w := m.work
	for len(w.dag.nodes) < n {
		leaf := w.dag.selectLeaf()
		if leaf == nil {
			return
		}
		w.dag.expand(leaf)
		w.dag.propagate(leaf)
		w.count.expansions++
	}
}

// solved is closed once the root is solved. The root's outcome is then
// to be checked by audit, which may find it unproved and go on solving
// with a new channel: call solved again after each audit.
func (m *Master) solved() <-chan struct{} {
	m.work.mu.Lock()
	defer m.work.mu.Unlock()
	return m.work.done
}

// finish tells the groups, at their next exchange, that the solve is over
// (call it once audit has found the root's outcome proved).
func (m *Master) finish() {
	m.members.mu.Lock()
	defer m.members.mu.Unlock()
	m.members.finished = true
	m.work.mu.Lock()
	defer m.work.mu.Unlock()
	m.unparkAll()
}

// Run returns the master's run: a random UUID of this master process,
// new at every start (a master resumed from saved state too). Requests
// over HTTP are signed for it (HandlerWithStatus), and ExchangeReply.Master names
// it.
func (m *Master) Run() string { return m.id }

// Outcome returns the root's outcome (solve.Unknown until it is solved).
func (m *Master) Outcome() solve.Outcome {
	m.work.mu.Lock()
	defer m.work.mu.Unlock()
	return m.outcome()
}

// unheard returns the number of groups not yet told, since finish, that
// the solve is over.
func (m *Master) unheard() int { return m.members.unheard() }

// DB returns the master's nimber database (a new one after an audit that
// dropped values).
func (m *Master) DB() *solve.NimberDB {
	m.work.mu.Lock()
	defer m.work.mu.Unlock()
	return m.work.db
}

// Stats returns the master's counters. It takes each concern's lock in
// turn: the counters of one concern agree with each other, not always to
// the exchange with another's.
func (m *Master) Stats() MasterStats {
	var st MasterStats
	r := m.members
	r.mu.Lock()
	st.Exchanges, st.Groups = int(r.seq), len(r.members)
	r.mu.Unlock()
	w := m.work
	w.mu.Lock()
	c := w.count
	st.Nodes, st.Open = len(w.dag.nodes), len(w.jobs)
	st.Assigned, st.Continued, st.Expanded, st.Expired, st.Stale = c.assigned, c.continued, c.expanded, c.expired, c.stale
	st.Iterations, st.NimbersIn, st.Malformed, st.Expansions = c.iterations, c.nimbersIn, c.malformed, c.expansions
	st.RootPN, st.RootDN = w.dag.root.pn, w.dag.root.dn
	w.mu.Unlock()
	t := m.trail
	t.mu.Lock()
	tc := t.count
	t.mu.Unlock()
	st.Audits, st.Banned, st.Dropped, st.Claims, st.Unbacked = tc.audits, tc.banned, tc.dropped, tc.claims, tc.unbacked
	st.Slots, st.Cores = m.slots(), int(r.cores.Load())
	st.JobIterations, st.Follow = m.iterations(), m.follow()
	slotTime, busyTime := m.tally.read(m.now())
	if slotTime > 0 {
		st.Utilisation = busyTime / slotTime
	}
	st.NimbersShared = int(m.share.forwarded.Load())
	var stretch uint64
	st.Load, st.PacedLoad, stretch, st.Gather, st.BusySeconds = m.pacer.read()
	st.ReportEvery = m.updates() * stretch
	st.Events = m.eventCounts()
	return st
}

// expire takes the jobs away from groups that have been silent longer than
// the lease: their leaves are unlocked and handed out again. Such groups,
// and those that hold no job and have been silent as long, are forgotten
// (their slots and pending values with them), each with an eventExpire.
// It returns the number of jobs taken away.
func (m *Master) expire() int {
	m.members.mu.Lock()
	defer m.members.mu.Unlock()
	m.work.mu.Lock()
	defer m.work.mu.Unlock()
	m.share.mu.Lock()
	defer m.share.mu.Unlock()
	now := m.now()
	n := 0
	taken, trials := map[string]int{}, map[string]int{}
	for id, j := range m.work.jobs {
		switch {
		case !now.After(j.deadline):
			continue
		case j.trial:
			// A trial's lease runs out whether or not its group is silent.
			trials[j.group]++
		default:
			taken[j.group]++
		}
		m.release(id, j)
		n++
	}
	holding := map[string]bool{}
	for _, j := range m.work.jobs {
		holding[j.group] = true
	}
	for name, g := range m.members.members {
		if taken[name] > 0 || now.Sub(g.lastSeen) > m.params.Lease && !holding[name] {
			m.record(eventExpire, name, taken[name], "silent for %v, longer than its lease of %v; %s taken back", now.Sub(g.lastSeen).Round(time.Millisecond), m.params.Lease, plural(taken[name], "job"))
			delete(taken, name)
			m.forget(name)
		}
	}
	for name, k := range taken { // jobs of groups forgotten already
		m.record(eventExpire, name, k, "its lease of %v ran out; %s taken back", m.params.Lease, plural(k, "job"))
	}
	for _, name := range slices.Sorted(maps.Keys(trials)) {
		m.missedTrial(name, trials[name])
	}
	m.feedParked(now)
	m.tally.setSlots(now, m.slots())
	m.tally.setJobs(now, len(m.work.jobs))
	return n
}

// DropGroup takes every job away from a group that left (its process died
// or the membership layer declared it dead), and forgets it: an eventLoss
// if the master knew it, while the solve goes on (not once finish said it
// is over).
func (m *Master) DropGroup(group string) int {
	m.members.mu.Lock()
	defer m.members.mu.Unlock()
	m.work.mu.Lock()
	defer m.work.mu.Unlock()
	m.share.mu.Lock()
	defer m.share.mu.Unlock()
	now := m.now()
	n := 0
	for id, j := range m.work.jobs {
		if j.group == group {
			m.release(id, j)
			n++
		}
	}
	switch g := m.members.members[group]; {
	case m.members.finished:
		// The solve is over: groups leave.
	case n > 0:
		m.record(eventLoss, group, n, "the gossip says it left or died; %s taken back", plural(n, "job"))
	case g != nil:
		m.record(eventLoss, group, 0, "the gossip says it left or died")
	}
	m.forget(group)
	m.feedParked(now)
	m.tally.setSlots(now, m.slots())
	m.tally.setJobs(now, len(m.work.jobs))
	return n
}

// now is the time on the master's clock.
func (m *Master) now() time.Time {
	if m.clock == nil {
		return time.Now()
	}
	return m.clock.Now()
}

// since is the time since start on the master's clock.
func (m *Master) since(start time.Time) time.Duration {
	if m.clock == nil {
		return time.Since(start)
	}
	return m.clock.Since(start)
}

// slots returns the number of solvers of the groups the master knows.
func (m *Master) slots() int { return int(m.members.slots.Load()) }

// forget removes a group: its membership, its crew (its slots and
// probation; the jobs it holds stay the master's, for it to take back or
// the group to find again) and its mailbox. With the locks of the roster,
// the work and the sharing held.
func (m *Master) forget(name string) {
	m.members.remove(name)
	delete(m.work.crews, name)
	delete(m.share.boxes, name)
}

// release takes job j back: its leaf is unlocked, to be handed out again.
// With work's lock held.
func (m *Master) release(id string, j *job) {
	w := m.work
	delete(w.jobs, id)
	if c := w.crews[j.group]; c != nil {
		delete(c.jobs, id)
	}
	j.leaf.locked, j.leaf.job = false, nil
	w.dag.propagate(j.leaf)
	w.count.expired++
}
