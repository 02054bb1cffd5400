package swarm

import (
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// MasterStats are the master's counters.
type MasterStats struct {
	Nodes         int     `json:"nodes"` // M-Nodes
	Assigned      int     `json:"jobs_assigned"`
	Continued     int     `json:"jobs_continued"`
	Expanded      int     `json:"jobs_expanded"`
	Expired       int     `json:"jobs_expired"`
	Stale         int     `json:"reports_stale"` // reports for jobs the master no longer knows
	Exchanges     int     `json:"exchanges"`
	Iterations    uint64  `json:"iterations"` // T-It: iterations reported by all groups
	NimbersIn     int     `json:"grundy_numbers_received"`
	NimbersShared int     `json:"grundy_numbers_shared"` // one per value and receiving group
	Groups        int     `json:"groups"`
	RootPN        uint64  `json:"root_pn"`
	RootDN        uint64  `json:"root_dn"`
	BusySeconds   float64 `json:"master_busy_seconds"`
	// Open is the number of jobs held by groups now, and Slots the solvers
	// of the groups the master knows; Utilisation is the share of slot time
	// since the first exchange during which a slot held a job.
	Open        int     `json:"jobs_open"`
	Slots       int     `json:"slots"`
	Utilisation float64 `json:"utilisation"`
	// Audits counts the checks of a solved root; Banned the groups caught
	// sending wrong values, Dropped the values dropped with them.
	Audits  int `json:"audits"`
	Banned  int `json:"groups_banned"`
	Dropped int `json:"values_dropped"`
	// Malformed counts reports the master could not use; their leaves are
	// handed out again.
	Malformed int `json:"reports_malformed"`
	// Load is the share of time the master spends on exchanges under its
	// lock (a moving average), and ReportEvery the iterations between a
	// job's reports it asks for now: Params.Updates (a large swarm's
	// LargeIterations when shorter), or more when the load is high;
	// Gather the share of a cycle it asks groups to gather their reports
	// for (ExchangeReply.Gather). PacedLoad is the part of Load spent on
	// reports at the end of a full cycle, the part longer cycles reduce;
	// the rest comes from jobs that solved their leaf early.
	Load        float64 `json:"master_load"`
	PacedLoad   float64 `json:"master_load_paced"`
	ReportEvery uint64  `json:"report_every"`
	Gather      float64 `json:"gather"`
	// Cores are the groups' solvers times their threads; JobIterations
	// the most iterations a job runs now, and Follow whether a group's
	// next job is taken below its last (both change when the swarm
	// becomes large, Params.LargeSwarm).
	Cores         int    `json:"cores"`
	JobIterations uint64 `json:"job_iterations"`
	Follow        bool   `json:"follow"`
	// Expansions counts the master's own expansions of its DAG's top
	// (before the first job, and again after an audit dropped values).
	Expansions int `json:"m_expansions"`
	// Events counts the master's events by kind (eventKinds: "join",
	// "expire", "loss", "resync", "ban"), since it started.
	Events map[string]int `json:"events"`
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

type groupState struct {
	slots, cores int
	// pending holds values to send the group besides those of the shared
	// log: everything known when it joined, or when the epoch changed.
	pending  []solve.NimberEntry
	lastSeen time.Time
	toldDone bool // the group was told the solve is over
	// cursor is how much of the master's shared log the group was sent.
	cursor int
	// jobs are the jobs the group holds, so that an exchange costs the
	// master in proportion to the group, not to the swarm.
	jobs map[string]*job
	// ended are the leaves of the group's jobs that ended in this
	// exchange, where (in a large swarm) its new jobs are looked for.
	ended []endedJob
	// forget holds the readHash of each value dropped that the group is
	// yet to be told to forget, where it keeps what it holds
	// (blameVerdict.kept): through a new epoch, or with none.
	forget map[uint64]bool
	// epoch is the group's epoch: the master's at the last new epoch, or
	// later where the group alone was made to start afresh
	// (Master.restartEpoch).
	epoch int
	// proven is whether the master took in the report of one of its jobs
	// (or trusts every group: Params.Probation 0); till then the group is
	// on probation (probation.go), and trialLease is how long its next
	// trial may take, once it let one run out.
	proven     bool
	trialLease time.Duration
}

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
// Its methods are safe for concurrent use (one lock).
type Master struct {
	// Log, if set, is told of every event (Event: a group joined, expired,
	// was lost, re-synchronised or was banned) and of reports the master
	// could not use (a position that does not parse, an unsolved couple
	// without children). It is called with the master's lock held and must
	// not call the master.
	Log func(format string, args ...any)

	mu     sync.Mutex
	params Params
	root   sprouts.Position
	dag    *dag
	db     *solve.NimberDB
	jobs   map[string]*job
	groups map[string]*groupState
	clock  Clock    // nil: the wall clock
	watch  Observer // nil: nobody watches
	stats  MasterStats
	done   chan struct{}
	id     string // this master process
	// The audit trail of the values (see audit): each value's origin, the
	// exchange clock, what each group was sent, the groups caught lying,
	// and the epoch, which changes whenever values are dropped.
	origin     map[string]valueOrigin
	resent     map[string][]valueOrigin
	disputes   []dispute
	seq        uint64
	epochSeq   uint64 // the last exchange before the epoch began
	deliveries map[string][]delivery
	reads      map[string]*readLog // what each group read of what it was sent, this epoch
	// gone holds the readHash of every value dropped, until a group sends
	// it again: a group that reports reading one rests on what was dropped.
	gone     map[uint64]bool
	banned   map[string]bool
	epoch    int  // the latest epoch, of all groups or one (groupState.epoch)
	finished bool // the root's outcome passed its audit: groups are told to stop
	// shared is every value new to the master since the epoch began, in
	// the order it arrived; each group is sent the part past its cursor
	// (but its own values), so that sharing costs the master in proportion
	// to what it sends, not to the number of groups.
	shared []sharedValue
	// slotCount is the sum of the groups' slots, coreCount of their slots
	// times their threads.
	slotCount, coreCount int
	// forwarded counts the values sent to groups (MasterStats
	// .NimbersShared), counted outside the lock.
	forwarded atomic.Int64
	// parked are the groups without a job waiting for one, first come
	// first served (see Park).
	parked []*parkedGroup
	// pace measures the master's load and sets the cycles' length.
	pace pace
	// probation lends jobs to the groups that have not proved themselves.
	probation probation
	// The time integrals behind MasterStats.Utilisation, brought up to
	// date by account before anything changes jobs or groups.
	acctAt             time.Time
	slotTime, busyTime float64

	// The values the checks scanned without finding them contradicting
	// anything (findWrong), of the epoch scannedEpoch: later checks skip
	// them. Under scanMu, not mu: the checks run without mu.
	scanMu       sync.Mutex
	scanned      map[string]bool
	scannedEpoch uint64

	// proof is the certificate the last audit that proved the root's
	// outcome built (Certificate).
	proof *format.Certificate
	// events are the latest events and their counts.
	events eventLog
	// claims are the outcomes jobs reported that settled their leaves,
	// waiting to be checked against the values (claims.go); firstClaim
	// is the exchange of each group's first claim of the epoch; overflow
	// the groups with disputes not recorded (maxDisputes) since the last
	// check.
	claims     []claim
	firstClaim map[string]uint64
	overflow   map[string]bool

	// The certificates the master draws on (pool.go): the pool, its
	// values (read-only once NewMaster returns), and under poolMu the
	// database of the searches that draw on them (blamePool) and the
	// library that checks them.
	pool   *certify.Pool
	pooled map[string]uint32
	poolMu sync.Mutex
	poolDB *solve.NimberDB
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
	m := &Master{params: params, root: root, db: db, jobs: map[string]*job{}, groups: map[string]*groupState{},
		done: make(chan struct{}), id: uuid.NewString(), pace: pace{cfg: params.Pace},
		origin: map[string]valueOrigin{}, resent: map[string][]valueOrigin{}, deliveries: map[string][]delivery{}, reads: map[string]*readLog{}, gone: map[uint64]bool{}, banned: map[string]bool{},
		firstClaim: map[string]uint64{}, overflow: map[string]bool{}}
	for _, o := range opts {
		o(m)
	}
	m.drawOn()
	db.Range(func(k string, _ uint32) bool {
		m.origin[k] = valueOrigin{group: savedOrigin}
		return true
	})
	m.newDAG()
	return m, nil
}

// newDAG builds the top of the DAG afresh from the database.
func (m *Master) newDAG() {
	m.dag = newDAG(m.db, m.params.Seed)
	m.dag.watch = m.watch
	m.dag.setRoot(m.root, 0)
	m.grow(m.params.InitNodes)
	m.checkDone()
}

// grow expands the most-proving leaves by the rules until the DAG has n
// nodes or the root is solved.
func (m *Master) grow(n int) {
	for len(m.dag.nodes) < n {
		leaf := m.dag.selectLeaf()
		if leaf == nil {
			return
		}
		m.dag.expand(leaf)
		m.dag.propagate(leaf)
		m.stats.Expansions++
	}
}

func (m *Master) checkDone() {
	if solved(m.dag.root) {
		select {
		case <-m.done:
		default:
			close(m.done)
		}
	}
}

// solved is closed once the root is solved. The root's outcome is then
// to be checked by audit, which may find it unproved and go on solving
// with a new channel: call solved again after each audit.
func (m *Master) solved() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.done
}

// finish tells the groups, at their next exchange, that the solve is over
// (call it once audit has found the root's outcome proved).
func (m *Master) finish() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.finished = true
	m.unparkAll()
}

// Run returns the master's run: a random UUID of this master process,
// new at every start (a master resumed from saved state too). Requests
// over HTTP are signed for it (HandlerWithStatus), and ExchangeReply.Master names
// it.
func (m *Master) Run() string { return m.id }

// Outcome returns the root's outcome (solve.Unknown until it is solved).
func (m *Master) Outcome() solve.Outcome {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.outcome()
}

// unheard returns the number of groups not yet told, since finish, that
// the solve is over.
func (m *Master) unheard() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, g := range m.groups {
		if !g.toldDone {
			n++
		}
	}
	return n
}

// DB returns the master's nimber database (a new one after an audit that
// dropped values).
func (m *Master) DB() *solve.NimberDB {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.db
}

// Stats returns the master's counters.
func (m *Master) Stats() MasterStats {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.account(m.now())
	st := m.stats
	st.Nodes, st.Groups = len(m.dag.nodes), len(m.groups)
	st.Open, st.Slots = len(m.jobs), m.slots()
	st.Cores, st.JobIterations, st.Follow = m.coreCount, m.iterations(), m.follow()
	if m.slotTime > 0 {
		st.Utilisation = m.busyTime / m.slotTime
	}
	st.RootPN, st.RootDN = m.dag.root.pn, m.dag.root.dn
	st.NimbersShared = int(m.forwarded.Load())
	st.Load, st.PacedLoad, st.ReportEvery, st.Gather = m.pace.load(), m.pace.pacedLoad(), m.cycle(), m.pace.gathering()
	st.Events = m.eventCounts()
	return st
}

// expire takes the jobs away from groups that have been silent longer than
// the lease: their leaves are unlocked and handed out again. Such groups,
// and those that hold no job and have been silent as long, are forgotten
// (their slots and pending values with them), each with an eventExpire.
// It returns the number of jobs taken away.
func (m *Master) expire() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.account(now)
	n := 0
	taken, trials := map[string]int{}, map[string]int{}
	for id, j := range m.jobs {
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
	for _, j := range m.jobs {
		holding[j.group] = true
	}
	for name, g := range m.groups {
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
	return n
}

// DropGroup takes every job away from a group that left (its process died
// or the membership layer declared it dead), and forgets it: an eventLoss
// if the master knew it, while the solve goes on (not once finish said it
// is over).
func (m *Master) DropGroup(group string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.account(m.now())
	n := 0
	for id, j := range m.jobs {
		if j.group == group {
			m.release(id, j)
			n++
		}
	}
	switch g := m.groups[group]; {
	case m.finished:
		// The solve is over: groups leave.
	case n > 0:
		m.record(eventLoss, group, n, "the gossip says it left or died; %s taken back", plural(n, "job"))
	case g != nil:
		m.record(eventLoss, group, 0, "the gossip says it left or died")
	}
	m.forget(group)
	m.feedParked(m.now())
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

// account adds the time since its last call to the utilisation
// integrals, with the jobs and groups as they were during that time (no
// groups, no slot time: waiting for the first worker costs nothing).
func (m *Master) account(now time.Time) {
	if !m.acctAt.IsZero() && now.After(m.acctAt) {
		dt, slots := now.Sub(m.acctAt).Seconds(), m.slotCount
		m.slotTime += dt * float64(slots)
		m.busyTime += dt * float64(min(len(m.jobs), slots))
	}
	m.acctAt = now
}

// slots returns the number of solvers of the groups the master knows.
func (m *Master) slots() int { return m.slotCount }

// forget removes a group (its slots and pending values with it).
func (m *Master) forget(name string) {
	if g := m.groups[name]; g != nil {
		m.slotCount -= g.slots
		m.coreCount -= g.cores
		delete(m.groups, name)
	}
}

func (m *Master) release(id string, j *job) {
	delete(m.jobs, id)
	if g := m.groups[j.group]; g != nil {
		delete(g.jobs, id)
	}
	j.leaf.locked, j.leaf.job = false, nil
	m.dag.propagate(j.leaf)
	m.stats.Expired++
}

// allValues returns every value the master holds, for a group to be sent
// all of them. With the lock held.
func (m *Master) allValues() []solve.NimberEntry {
	out := make([]solve.NimberEntry, 0, m.db.Len())
	m.db.Range(func(k string, v uint32) bool {
		out = append(out, solve.NimberEntry{Key: k, G: v})
		return true
	})
	return out
}
