package swarm

import (
	"fmt"
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

// JobSpec is a job as a group receives it.
type JobSpec struct {
	ID            string `json:"id"`       // UUIDv7; a continued job keeps its id
	Position      string `json:"position"` // canonical text
	N             uint32 `json:"n"`
	MaxIterations uint64 `json:"max_iterations"`
	Cycle         int    `json:"cycle"`
	// After is the job of the same group whose leaf this one's lies
	// below (in a large swarm, Params.LargeSwarm): its solver's table
	// knows the part.
	After string `json:"after,omitempty"`
}

// Report is what a group sends back for a job after a cycle: a
// solve.Expansion with positions as canonical text.
type Report struct {
	ID         string        `json:"id"`
	Outcome    solve.Outcome `json:"outcome"` // in JSON "W", "L" or "unknown" while unsolved (earlier versions sent "")
	PN         uint64        `json:"pn"`
	DN         uint64        `json:"dn"`
	Folded     string        `json:"folded,omitempty"`
	FoldedN    uint32        `json:"folded_n,omitempty"`
	Sum        bool          `json:"sum,omitempty"`
	Merged     uint32        `json:"merged,omitempty"`
	Children   []ChildReport `json:"children,omitempty"`
	Iterations uint64        `json:"iterations"`
}

// ChildReport is one child couple of a Report.
type ChildReport struct {
	Position string `json:"position"`
	N        uint32 `json:"n"`
	PN       uint64 `json:"pn"`
	DN       uint64 `json:"dn"`
}

// ExchangeRequest is what a group sends each cycle: the reports of the jobs
// that completed a cycle and the Grundy values it found since its last
// exchange. Slots is the number of solvers of the group.
type ExchangeRequest struct {
	Group     string              `json:"group"`
	Slots     int                 `json:"slots"`
	Threads   int                 `json:"threads,omitempty"` // PDFPN threads per solver; 0 or 1: sequential DFPN
	Epoch     int                 `json:"epoch,omitempty"`   // the master's epoch the group last heard of
	Completed []Report            `json:"completed,omitempty"`
	Nimbers   []solve.NimberEntry `json:"-"` // sent as an Arrow IPC stream
	// Running lists the jobs whose cycles run in the group as it sends
	// the request (those of Completed aside), when Resync is set. The
	// master then takes back the jobs it handed the group that are in
	// neither list (a reply that never arrived), and answers in
	// ExchangeReply.Drop those of Running it no longer holds for the
	// group (its lease ran out while it was stopped or cut off), so that
	// both sides agree on the group's jobs after every exchange. Group.Run
	// always sends them; a caller that does not (a simulation) keeps the
	// jobs it was handed until it reports them or its lease runs out.
	Running []string `json:"running,omitempty"`
	Resync  bool     `json:"resync,omitempty"`
}

// ExchangeReply gives a group its jobs (continued ones under their old id,
// and new ones for its idle solvers) and the Grundy values it has not seen.
type ExchangeReply struct {
	Master string `json:"master"` // the master process: a new one means the old one's values may be lost
	// Epoch changes when the master dropped values it had found wrong (and
	// those that may rest on them): a group that sees a new epoch forgets
	// everything it learned, and its jobs, and starts afresh.
	Epoch int `json:"epoch,omitempty"`
	// Lease is the master's Params.Lease: the group exchanges at least
	// every third of it (or of its own, if shorter), so that the master
	// does not take its jobs back while it works.
	Lease time.Duration       `json:"lease_ns,omitempty"`
	Jobs  []JobSpec           `json:"jobs,omitempty"`
	Done  bool                `json:"done,omitempty"` // the solve is over (its result audited): stop
	Delta []solve.NimberEntry `json:"-"`              // sent as an Arrow IPC stream
	// Drop lists the jobs of the request's Running that the master no
	// longer holds for the group: it stops them and forgets their
	// results.
	Drop []string `json:"drop,omitempty"`
	// Gather is the share of a cycle the master asks the group to wait,
	// once one of its solvers has ended one, for its others before it
	// reports (Pace.Gather): a loaded master asks for it before it asks for
	// longer cycles.
	Gather float64 `json:"gather,omitempty"`
}

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
	// Events counts the master's events by kind (EventKinds: "join",
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
// that contradicts the master is not heard until the next Check.
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
	clock  Clock
	watch  Observer // nil: nobody watches
	stats  MasterStats
	done   chan struct{}
	id     string // this master process
	// The audit trail of the values (see Audit): each value's origin, the
	// exchange clock, what each group was sent, the groups caught lying,
	// and the epoch, which changes whenever values are dropped.
	origin     map[string]valueOrigin
	resent     map[string][]valueOrigin
	disputes   []dispute
	seq        uint64
	deliveries map[string][]delivery
	banned     map[string]bool
	epoch      int
	finished   bool // the root's outcome passed its audit: groups are told to stop
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
		clock: wallClock{}, done: make(chan struct{}), id: uuid.NewString(), pace: pace{cfg: params.Pace},
		origin: map[string]valueOrigin{}, resent: map[string][]valueOrigin{}, deliveries: map[string][]delivery{}, banned: map[string]bool{},
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

// Done is closed once the root is solved. The root's outcome is then to be
// checked by Audit, which may find it unproved and go on solving with a new
// Done channel: call Done again after each Audit.
func (m *Master) Done() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.done
}

// Finish tells the groups, at their next exchange, that the solve is over
// (call it once Audit has found the root's outcome proved).
func (m *Master) Finish() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.finished = true
	m.unparkAll()
}

// Run returns the master's run: a random UUID of this master process,
// new at every start (a master resumed from saved state too). Requests
// over HTTP are signed for it (Handler), and ExchangeReply.Master names
// it.
func (m *Master) Run() string { return m.id }

// Outcome returns the root's outcome (solve.Unknown until it is solved).
func (m *Master) Outcome() solve.Outcome {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.outcome()
}

// Unheard returns the number of groups not yet told, since Finish, that
// the solve is over.
func (m *Master) Unheard() int {
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

// DB returns the master's nimber database (a new one after an Audit that
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

// Exchange handles one cycle of a group: it merges the group's values,
// takes in its reports (continuing or finishing each job), hands out new
// jobs for its idle solvers and returns the values the group has not seen.
func (m *Master) Exchange(req ExchangeRequest) (ExchangeReply, error) {
	// What needs no state of the master (parsing the reported positions,
	// checking the values' keys, copying out the values to send) is done
	// outside the lock: exchanges of several groups do it at once, and
	// the lock is held only for what must be serial.
	parsed := make([]parsedReport, len(req.Completed))
	for i := range req.Completed {
		parsed[i] = parseReport(&req.Completed[i])
	}
	nimbers := validEntries(req.Nimbers)
	reply, out, err := m.exchange(req, parsed, nimbers)
	if err == nil {
		reply.Delta = out.entries(req.Group)
		m.forwarded.Add(int64(len(reply.Delta)))
	}
	return reply, err
}

// outbox is what a group is to be sent of the values: its pending values
// and a part of the shared log. The log is only ever appended to (a new
// epoch starts a new one), so the part can be read after the lock is let
// go.
type outbox struct {
	pending []solve.NimberEntry
	log     []sharedValue
}

// entries returns the values of the outbox, but those of the log that came
// from group itself.
func (o outbox) entries(group string) []solve.NimberEntry {
	out := make([]solve.NimberEntry, 0, len(o.pending)+len(o.log))
	out = append(out, o.pending...)
	for _, v := range o.log {
		if v.from != group {
			out = append(out, v.e)
		}
	}
	return out
}

// exchange is the part of Exchange under the master's lock.
func (m *Master) exchange(req ExchangeRequest, parsed []parsedReport, nimbers []solve.NimberEntry) (ExchangeReply, outbox, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	// paced counts the reports that came at the end of a full cycle, each
	// as its cycle's length over the length the pace asks for now: the
	// load it stands for once its job goes on at the present pace.
	var paced float64
	defer func() {
		busy := m.clock.Since(now)
		m.stats.BusySeconds += busy.Seconds()
		m.pace.observe(now, busy, len(req.Completed), paced, paceShape{jobs: len(m.jobs), maxStretch: m.maxStretch(), grouped: m.slotCount > len(m.groups)})
	}()
	if req.Group == "" || len(req.Group) > maxGroupName || req.Slots < 1 || req.Threads < 0 || req.Threads > solve.MaxThreads {
		return ExchangeReply{}, outbox{}, fmt.Errorf("exchange: group %.*q with %d slots of %d threads", maxGroupName, req.Group, req.Slots, req.Threads)
	}
	// A group is believed to have at most MaxGrouping solvers, however
	// many it claims.
	slots := min(req.Slots, MaxGrouping)
	if m.banned[req.Group] {
		return ExchangeReply{}, outbox{}, fmt.Errorf("%w: group %q sent wrong Grundy values or outcomes its values do not back", ErrBanned, req.Group)
	}
	m.stats.Exchanges++
	m.seq++
	// A group that has not heard of the latest epoch may still hold dropped
	// values: what it sends now is ignored, and it is sent everything.
	stale := req.Epoch != m.epoch
	m.account(now)
	g := m.groups[req.Group]
	if g == nil {
		g = &groupState{jobs: map[string]*job{}, cursor: len(m.shared)}
		m.groups[req.Group] = g
		m.record(EventJoin, req.Group, 0, "%s of %s", plural(slots, "solver"), plural(max(req.Threads, 1), "thread"))
		for id, j := range m.jobs {
			// Jobs of a group forgotten while it held them.
			if j.group == req.Group {
				g.jobs[id] = j
			}
		}
		// A group that joins late starts with everything known.
		m.db.Range(func(k string, v uint32) bool {
			g.pending = append(g.pending, solve.NimberEntry{Key: k, G: v})
			return true
		})
	}
	cores := slots * max(req.Threads, 1)
	m.slotCount += slots - g.slots
	m.coreCount += cores - g.cores
	g.slots, g.cores, g.lastSeen = slots, cores, now
	if !stale {
		m.stats.NimbersIn += len(req.Nimbers)
		fresh := m.dag.addNimbers(nimbers)
		for _, e := range fresh {
			m.origin[e.Key] = valueOrigin{group: req.Group, seq: m.seq}
		}
		m.noteKnown(req.Group, nimbers)
		m.share(req.Group, fresh)
	}
	reply := ExchangeReply{Master: m.id, Epoch: m.epoch, Lease: m.params.Lease, Gather: m.pace.gathering()}
	if stale {
		m.stats.Stale += len(req.Completed)
	} else {
		for i := range req.Completed {
			r := &req.Completed[i]
			if j := m.jobs[r.ID]; j != nil && j.group == req.Group && r.Outcome == solve.Unknown {
				paced += float64(j.asked) / float64(m.cycle())
			}
			spec, ended, ok := m.take(req.Group, r, &parsed[i])
			if ok {
				reply.Jobs = append(reply.Jobs, spec)
			} else if ended != nil && m.follow() {
				g.ended = append(g.ended, endedJob{req.Completed[i].ID, ended})
			}
		}
	}
	m.shareLearned()
	if req.Resync {
		reply.Drop = m.resync(req, g)
	}
	for _, j := range g.jobs {
		j.deadline = now.Add(m.params.Lease)
	}
	reply.Jobs = append(reply.Jobs, m.handOut(req.Group, slots-len(g.jobs), now)...)
	g.ended = g.ended[:0]
	m.feedParked(now)
	m.checkDone()
	reply.Done = m.finished
	g.toldDone = m.finished
	return reply, m.outbox(req.Group, g), nil
}

// maxRunning bounds the jobs a request may list as running: a group has at
// most MaxGrouping solvers.
const maxRunning = MaxGrouping

// resync brings the master's and the group's views of the group's jobs
// together (ExchangeRequest.Running): it takes back the jobs it handed the
// group that the group neither runs nor reported, and returns the jobs
// the group runs that it no longer holds for it, for the group to drop.
// With the lock held, after the request's reports were taken.
func (m *Master) resync(req ExchangeRequest, g *groupState) (drop []string) {
	running := make(map[string]bool, len(req.Running))
	for _, id := range req.Running[:min(len(req.Running), maxRunning)] {
		running[id] = true
		if j := m.jobs[id]; j == nil || j.group != req.Group {
			drop = append(drop, id)
		}
	}
	reported := make(map[string]bool, len(req.Completed))
	for _, r := range req.Completed {
		reported[r.ID] = true
	}
	lost := 0
	for id, j := range g.jobs {
		if !running[id] && !reported[id] {
			m.release(id, j)
			lost++
		}
	}
	switch {
	case len(drop) > 0 && lost > 0:
		m.record(EventResync, req.Group, len(drop)+lost, "it runs %s the master had taken back, which it drops, and lacks %s it was sent, taken back", plural(len(drop), "job"), plural(lost, "job"))
	case len(drop) > 0:
		m.record(EventResync, req.Group, len(drop), "it runs %s the master had taken back (its lease ran out), which it drops", plural(len(drop), "job"))
	case lost > 0:
		m.record(EventResync, req.Group, lost, "it lacks %s it was sent (a reply lost), taken back", plural(lost, "job"))
	}
	return drop
}

// plural writes n things, with an s for other than one.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// handOut assigns up to n unlocked leaves to group as new jobs, none once
// the root is solved (an audit that drops values unsolves it again).
func (m *Master) handOut(group string, n int, now time.Time) []JobSpec {
	if solved(m.dag.root) {
		return nil
	}
	var specs []JobSpec
	g := m.groups[group]
	for range n {
		var leaf *node
		var after string
		for g != nil && leaf == nil && len(g.ended) > 0 {
			// Below the leaf of a job of the group that ended: its
			// solver's table knows that part of the DAG.
			leaf, after = m.dag.selectBelow(g.ended[0].leaf), g.ended[0].id
			g.ended = g.ended[1:]
		}
		if leaf == nil {
			leaf, after = m.dag.selectLeaf(), ""
		}
		if leaf == nil {
			break
		}
		spec := m.assign(group, leaf, now)
		spec.After = after
		specs = append(specs, spec)
	}
	return specs
}

// outbox takes what group g is to be sent of the values and moves its
// cursor past it. The delivery is recorded for the audit as if the values
// were sent already: what the group proves from now on may rest on them.
func (m *Master) outbox(group string, g *groupState) outbox {
	out := outbox{pending: g.pending, log: m.shared[g.cursor:len(m.shared):len(m.shared)]}
	g.pending, g.cursor = nil, len(m.shared)
	var arrived uint64
	for _, e := range out.pending {
		arrived = max(arrived, m.origin[e.Key].seq)
	}
	// The log is in order of arrival: the last value not from the group
	// itself arrived last. The group's own fresh values, just appended,
	// are all it skips.
	others := len(out.pending) > 0
	for i := len(out.log) - 1; i >= 0; i-- {
		if v := out.log[i]; v.from != group {
			arrived, others = max(arrived, v.seq), true
			break
		}
	}
	if others {
		m.deliveries[group] = append(m.deliveries[group], delivery{seq: m.seq, arrived: arrived, log: out.log, pending: out.pending})
	}
	return out
}

// noteKnown looks at the entries group sent that the master had already.
// Sent with the master's value by another group, it records group as
// another sender: a value that a liar sent first may also be an honest
// group's own derivation, on which that group's later values rest, and
// the audit keeps it if any of its senders is trusted (see drop). Sent
// with another value, one of the two is wrong: it records a dispute, which
// the next Check or Audit settles by solving the position.
func (m *Master) noteKnown(group string, entries []solve.NimberEntry) {
	for _, e := range entries {
		o, ok := m.origin[e.Key]
		if !ok || o.group == group {
			continue
		}
		v, ok := m.db.Get(e.Key)
		if !ok {
			continue
		}
		if v != e.G {
			if len(m.disputes) < maxDisputes {
				m.disputes = append(m.disputes, dispute{key: e.Key, group: group, g: e.G, seq: m.seq})
			} else {
				m.overflow[group] = true
			}
			continue
		}
		also := m.resent[e.Key]
		if len(also) >= maxResent || slices.ContainsFunc(also, func(a valueOrigin) bool { return a.group == group }) {
			continue
		}
		m.resent[e.Key] = append(also, valueOrigin{group: group, seq: m.seq})
	}
}

// shareLearned gives the values the DAG derived an origin and puts them in
// every group's pending buffer.
func (m *Master) shareLearned() {
	for _, e := range m.dag.learned {
		if _, ok := m.origin[e.Key]; !ok {
			m.origin[e.Key] = valueOrigin{seq: m.seq}
		}
	}
	m.share("", m.dag.learned)
	m.dag.learned = nil
}

// parsedReport is a report's positions parsed, or the first error met.
type parsedReport struct {
	folded   sprouts.Position
	children []sprouts.Position
	err      error
}

// parseReport parses the positions of an unsolved report (a solved one
// carries none the master uses).
func parseReport(r *Report) parsedReport {
	var pr parsedReport
	if r.Outcome != solve.Unknown {
		return pr
	}
	if pr.folded, pr.err = sprouts.Parse(r.Folded); pr.err != nil {
		pr.err = fmt.Errorf("folded position %q: %w", r.Folded, pr.err)
		return pr
	}
	pr.children = make([]sprouts.Position, len(r.Children))
	for i, c := range r.Children {
		p, err := sprouts.Parse(c.Position)
		if err != nil {
			pr.err = fmt.Errorf("child %q: %w", c.Position, err)
			return pr
		}
		pr.children[i] = p
	}
	return pr
}

// validEntries drops entries whose keys are not canonical positions: a
// worker is not trusted to send well-formed data.
func validEntries(in []solve.NimberEntry) []solve.NimberEntry {
	out := in[:0:0]
	for _, e := range in {
		if p, err := sprouts.FromKey(e.Key); err == nil && p.NumLands() == 1 {
			out = append(out, e)
		}
	}
	return out
}

// share appends entries to the shared log, for every group but from.
func (m *Master) share(from string, entries []solve.NimberEntry) {
	if len(entries) == 0 {
		return
	}
	for _, e := range entries {
		m.shared = append(m.shared, sharedValue{e: e, from: from, seq: m.origin[e.Key].seq})
	}
}

func (m *Master) assign(group string, leaf *node, now time.Time) JobSpec {
	id, err := uuid.NewV7()
	if err != nil {
		id = uuid.New()
	}
	j := &job{id: id.String(), leaf: leaf, group: group, deadline: now.Add(m.params.Lease)}
	m.jobs[j.id] = j
	if g := m.groups[group]; g != nil {
		g.jobs[j.id] = j
	}
	leaf.locked, leaf.job = true, j
	m.dag.propagate(leaf)
	m.stats.Assigned++
	return m.spec(j)
}

// spec returns the job's next cycle: as many iterations as the master's
// pace asks for, but no more than the job has left.
func (m *Master) spec(j *job) JobSpec {
	cycle := m.cycle()
	if left := m.iterations() - min(j.worked, m.iterations()); left < cycle {
		cycle = max(left, m.updates())
	}
	j.asked = cycle
	return JobSpec{ID: j.id, Position: j.leaf.pos.String(), N: j.leaf.n, MaxIterations: cycle, Cycle: j.cycle}
}

// take processes the report of a job's cycle. It returns the job's next
// cycle if the job goes on.
func (m *Master) take(group string, r *Report, pr *parsedReport) (next JobSpec, ended *node, goesOn bool) {
	j := m.jobs[r.ID]
	if j == nil || j.group != group {
		m.stats.Stale++
		return JobSpec{}, nil, false
	}
	m.stats.Iterations += r.Iterations
	if m.watch != nil {
		m.watch.Worked(Couple{j.leaf.key, j.leaf.n}, r.Iterations)
	}
	j.cycle++
	j.worked += min(r.Iterations, j.asked)
	leaf := j.leaf
	// A job ends when it has worked its iterations, or (whatever a group
	// claims it did) after as many cycles as unstretched ones would take,
	// and every job ends once the root is solved: the cores are the
	// audit's then.
	final := j.settled || solved(leaf) || r.Outcome != solve.Unknown || m.dag.root.locked ||
		j.worked >= m.iterations() || j.cycle >= m.cycles() || solved(m.dag.root)
	if !final {
		leaf.pn, leaf.dn = r.PN, r.DN
		m.dag.propagate(leaf)
		m.stats.Continued++
		return m.spec(j), nil, true
	}
	delete(m.jobs, j.id)
	if g := m.groups[group]; g != nil {
		delete(g.jobs, j.id)
	}
	leaf.locked, leaf.job = false, nil
	if !solved(leaf) {
		if r.Outcome != solve.Unknown {
			m.noteClaim(group, leaf, r.Outcome)
		}
		if err := m.expandLeaf(leaf, r, pr); err != nil {
			m.stats.Malformed++
			if m.Log != nil {
				m.Log("group %s: job %s: %v; the leaf will be handed out again", group, r.ID, err)
			}
		}
	}
	m.dag.propagate(leaf)
	m.stats.Expanded++
	return JobSpec{}, leaf, false
}

// expandLeaf gives a leaf the children a worker reported. Children the DAG
// already has keep their own numbers; new ones take the reported numbers.
// A report it cannot use leaves the leaf a leaf and is described by the
// error.
func (m *Master) expandLeaf(leaf *node, r *Report, pr *parsedReport) error {
	d := m.dag
	switch r.Outcome {
	case solve.Win:
		leaf.pn, leaf.dn = 0, solve.Inf
		return nil
	case solve.Loss:
		leaf.pn, leaf.dn = solve.Inf, 0
		return nil
	}
	if pr.err != nil {
		return pr.err
	}
	folded := pr.folded
	target := leaf
	if folded.Key() != leaf.key || r.FoldedN != leaf.n {
		// The worker knew some lands' values: the leaf (a sum) stands for
		// the folded couple, its one child.
		leaf.expanded, leaf.merged = true, r.FoldedN
		target = d.node(folded, r.FoldedN, r.PN, r.DN)
		if target.anchor == nil { // the same couple, not a move
			target.anchor, target.odd = leaf.anchor, leaf.odd
		}
		leaf.kids = []*node{d.link(leaf, target)}
		if target.expanded || solved(target) {
			return nil
		}
	}
	var kids []*node
	for i, c := range r.Children {
		kids = append(kids, d.link(target, d.node(pr.children[i], c.N, max(c.PN, 1), max(c.DN, 1))))
	}
	if len(kids) == 0 {
		return fmt.Errorf("an unsolved couple reported without children")
	}
	target.expanded, target.kids = true, kids
	if target.sum {
		target.merged = r.Merged
		d.sortComponents(target)
	} else {
		d.sortChildren(target)
	}
	if target != leaf {
		d.propagate(target)
	}
	return nil
}

// Expire takes the jobs away from groups that have been silent longer than
// the lease: their leaves are unlocked and handed out again. Such groups,
// and those that hold no job and have been silent as long, are forgotten
// (their slots and pending values with them), each with an EventExpire.
// It returns the number of jobs taken away.
func (m *Master) Expire() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.account(now)
	n := 0
	taken := map[string]int{}
	for id, j := range m.jobs {
		if now.After(j.deadline) {
			m.release(id, j)
			taken[j.group]++
			n++
		}
	}
	holding := map[string]bool{}
	for _, j := range m.jobs {
		holding[j.group] = true
	}
	for name, g := range m.groups {
		if taken[name] > 0 || now.Sub(g.lastSeen) > m.params.Lease && !holding[name] {
			m.record(EventExpire, name, taken[name], "silent for %v, longer than its lease of %v; %s taken back", now.Sub(g.lastSeen).Round(time.Millisecond), m.params.Lease, plural(taken[name], "job"))
			delete(taken, name)
			m.forget(name)
		}
	}
	for name, k := range taken { // jobs of groups forgotten already
		m.record(EventExpire, name, k, "its lease of %v ran out; %s taken back", m.params.Lease, plural(k, "job"))
	}
	m.feedParked(now)
	return n
}

// DropGroup takes every job away from a group that left (its process died
// or the membership layer declared it dead), and forgets it: an EventLoss
// if the master knew it, while the solve goes on (not once Finish said it
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
		m.record(EventLoss, group, n, "the gossip says it left or died; %s taken back", plural(n, "job"))
	case g != nil:
		m.record(EventLoss, group, 0, "the gossip says it left or died")
	}
	m.forget(group)
	m.feedParked(m.now())
	return n
}

// now is the time on the master's clock.
func (m *Master) now() time.Time { return m.clock.Now() }

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
