package swarm

import (
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// Exchange handles one cycle of a group: it merges the group's values,
// takes in its reports (continuing or finishing each job), hands out new
// jobs for its idle solvers and returns the values the group has not seen.
func (m *Master) Exchange(req ExchangeRequest) (ExchangeReply, error) {
	// What needs no state of the master (parsing the reported positions,
	// checking the values' keys, copying out the values to send) is done
	// outside the locks: exchanges of several groups do it at once.
	if req.Group == "" || len(req.Group) > maxGroupName || req.Slots < 1 || req.Threads < 0 || req.Threads > solve.MaxThreads {
		return ExchangeReply{}, fmt.Errorf("exchange: group %.*q with %d slots of %d threads", maxGroupName, req.Group, req.Slots, req.Threads)
	}
	x := &exchangeRun{req: req, parsed: make([]parsedReport, len(req.Completed)), nimbers: validEntries(req.Nimbers),
		// A group is believed to have at most MaxGrouping solvers,
		// however many it claims.
		slots: min(req.Slots, MaxGrouping)}
	for i := range req.Completed {
		x.parsed[i] = parseReport(&req.Completed[i])
	}
	out, err := m.exchange(x)
	if err != nil {
		return ExchangeReply{}, err
	}
	x.reply.Delta = out.entries(req.Group)
	m.share.forwarded.Add(int64(len(x.reply.Delta)))
	return x.reply, nil
}

// exchangeRun is one exchange on its way through the master's concerns: the
// request, what each concern decided that the next ones need, and the
// reply.
type exchangeRun struct {
	req     ExchangeRequest
	parsed  []parsedReport
	nimbers []solve.NimberEntry
	slots   int
	now     time.Time
	seq     uint64
	reply   ExchangeReply
	admission
	found
	shape paceShape
}

// admission is what the roster decided of an exchange: the group is new
// to it (joined), its request is of an epoch it has left (stale), it
// starts afresh within its epoch (afresh) or in an epoch of its own
// (alone, its jobs taken back).
type admission struct {
	joined, stale, afresh, alone bool
}

// found is what the work found in an exchange for the sharing and the
// trail: the values to send a group that starts with everything (all, the
// latest of them arrived with exchange arrived), the values new to the
// master (fresh) and those the DAG derived (learned), disputes, claims,
// and the reports at a cycle's end (paced, see pace).
type found struct {
	all      []solve.NimberEntry
	arrived  uint64
	fresh    []solve.NimberEntry
	learned  []sharedValue
	disputes []dispute
	claims   []claim
	paced    float64
}

// exchange runs x through the master's concerns, each under its lock,
// taking the next lock before it lets the previous go (see Master): the
// roster admits the group, the work takes its values and reports and hands
// out jobs, the sharing fills its outbox and the trail records what it
// sent and was sent. It returns the group's outbox.
func (m *Master) exchange(x *exchangeRun) (outbox, error) {
	r, w, s, t := m.members, m.work, m.share, m.trail
	r.mu.Lock()
	x.now = m.now()
	if err := m.admit(x); err != nil {
		r.mu.Unlock()
		return outbox{}, err
	}
	w.mu.Lock()
	r.mu.Unlock()
	served := time.Now()
	m.serve(x)
	// The load the pace meters is the work's: exchanges take it in turn,
	// while the other concerns serve several at once. On a virtual clock
	// the exchange costs what the clock says (Clock).
	busy := time.Since(served)
	s.mu.Lock()
	w.mu.Unlock()
	out, d, sent := m.post(x)
	t.mu.Lock()
	s.mu.Unlock()
	m.note(x, d, sent)
	t.mu.Unlock()
	if m.clock != nil {
		busy = m.since(x.now)
	}
	m.pacer.observe(x.now, busy, len(x.req.Completed), x.paced, x.shape)
	return out, nil
}

// admit is the roster's part of exchange x: it refuses a banned group,
// counts the exchange, makes a member of a group it does not know, and
// decides from the request's epoch and reads whether the group's request
// stands or it starts afresh. With the roster's lock held.
func (m *Master) admit(x *exchangeRun) error {
	r, req := m.members, &x.req
	if r.banned[req.Group] {
		return fmt.Errorf("%w: group %q sent wrong Grundy values or outcomes its values do not back", ErrBanned, req.Group)
	}
	r.seq++
	x.seq = r.seq
	g := r.members[req.Group]
	if g == nil {
		g = r.add(req.Group)
		x.joined = true
		m.record(eventJoin, req.Group, 0, "%s of %s", plural(x.slots, "solver"), plural(max(req.Threads, 1), "thread"))
	}
	// A group that has not heard of its latest epoch may still hold
	// dropped values: what it sends now is ignored, and it is sent
	// everything.
	x.stale = req.Epoch != g.epoch
	kept := false
	switch {
	case x.stale && g.forget != nil:
		// An epoch began that the group keeps what it holds through:
		// its request stands, unless it read a value dropped since.
		if kept = req.TracksReads && !m.gone.readAny(req.Read); kept {
			x.stale = false
		} else {
			x.afresh, g.forget = true, nil
		}
	case !x.stale && m.gone.readAny(req.Read):
		// It read a value dropped (before it forgot it): what it sends
		// now may rest on it, and so may its jobs. It starts afresh.
		x.afresh, x.alone, x.stale = true, true, true
		r.restartEpoch(g)
	case !x.stale && req.Afresh:
		x.afresh, g.forget = true, nil
	}
	if r.setSolvers(g, x.slots, x.slots*max(req.Threads, 1)) {
		m.tally.setSlots(x.now, m.slots())
	}
	g.lastSeen = x.now
	x.shape.grouped = r.slots.Load() > r.size.Load()
	x.reply = ExchangeReply{Master: m.id, Epoch: g.epoch, Lease: m.params.Lease, Gather: m.pacer.gathering(), Kept: kept,
		Done: r.finished}
	if kept || !x.stale {
		x.reply.Forget = g.takeForget()
	}
	g.toldDone = r.finished
	return nil
}

// serve is the work's part of exchange x: it takes in the group's values
// and reports (unless its request is stale, or the group is on probation
// and reports no job), takes back the jobs it no longer runs, and hands
// out jobs for its idle solvers and to the groups parked for one. With
// work's lock held.
func (m *Master) serve(x *exchangeRun) {
	w, req := m.work, &x.req
	open := len(w.jobs)
	c := w.crewOf(req.Group, m.params.Probation == 0)
	c.slots = x.slots
	if x.alone {
		for id, j := range c.jobs {
			m.release(id, j)
		}
	}
	if x.joined || x.afresh {
		// A group that joins late, or starts afresh, starts with
		// everything known.
		x.all, x.arrived = w.allValues()
	}
	// A group on probation is not heard before it reports a job
	// (probation.go): it sends its values again.
	unheard := !x.stale && !m.believes(c, x.req)
	x.reply.Unheard = unheard && len(req.Nimbers) > 0
	if !x.stale && !unheard {
		w.count.nimbersIn += len(req.Nimbers)
		x.fresh = w.dag.addNimbers(x.nimbers)
		for _, e := range x.fresh {
			w.ledger.origin[e.Key] = valueOrigin{group: req.Group, seq: x.seq}
		}
		m.gone.regained(x.fresh)
		x.disputes = w.noteKnown(req.Group, x.seq, x.nimbers)
	}
	if x.stale {
		w.count.stale += len(req.Completed)
	} else {
		for i := range req.Completed {
			m.take(x, c, i)
		}
	}
	x.learned = w.takeLearned(x.seq)
	m.gone.regainedShared(x.learned)
	if req.Resync {
		x.reply.Drop = m.resync(x.req, c)
	}
	for _, j := range c.jobs {
		if !j.trial { // a trial's lease runs from when it was handed out
			j.deadline = x.now.Add(m.params.Lease)
		}
	}
	x.reply.Jobs = append(x.reply.Jobs, m.handOut(req.Group, x.slots-len(c.jobs), x.now)...)
	c.ended = c.ended[:0]
	m.feedParked(x.now)
	w.checkDone()
	if len(w.jobs) != open {
		m.tally.setJobs(x.now, len(w.jobs))
	}
	x.shape.jobs, x.shape.maxStretch = len(w.jobs), m.maxStretch()
}

// take takes in the i-th report of exchange x, from the group of crew c,
// and hands on the job if it goes on. With work's lock held.
func (m *Master) take(x *exchangeRun, c *crew, i int) {
	r := &x.req.Completed[i]
	if j := m.work.jobs[r.ID]; j != nil && j.group == x.req.Group && r.Outcome == solve.Unknown {
		x.paced += float64(j.asked) / float64(m.cycle())
	}
	spec, ended, ok := m.takeReport(x, r, &x.parsed[i])
	if ok {
		x.reply.Jobs = append(x.reply.Jobs, spec)
	} else if ended != nil && m.follow() {
		c.ended = append(c.ended, endedJob{r.ID, ended})
	}
}

// post is the sharing's part of exchange x: it puts the values new to the
// master in the log and takes the group's outbox, and the delivery to
// record (see sharing.take). With the sharing's lock held.
func (m *Master) post(x *exchangeRun) (outbox, delivery, bool) {
	s := m.share
	b := s.boxOf(x.req.Group)
	if x.joined || x.afresh {
		s.resend(b, x.all, x.arrived)
	}
	if len(x.fresh) > 0 {
		fresh := make([]sharedValue, len(x.fresh))
		for i, e := range x.fresh {
			fresh[i] = sharedValue{e: e, from: x.req.Group, seq: x.seq}
		}
		s.post(fresh)
	}
	s.post(x.learned)
	return s.take(x.req.Group, b, x.seq)
}

// note is the trail's part of exchange x: it records what the group read,
// the disputes and claims it made, and the delivery d of what it is sent,
// if sent. With the trail's lock held.
func (m *Master) note(x *exchangeRun, d delivery, sent bool) {
	t := m.trail
	if x.afresh {
		// What it read is forgotten with what it held.
		delete(t.reads, x.req.Group)
	}
	t.dispute(x.disputes)
	if !x.stale {
		t.noteReads(x.req.Group, x.req, x.seq)
	}
	for _, c := range x.claims {
		t.noteClaim(c)
	}
	if sent {
		t.deliver(x.req.Group, d)
	}
}

// maxRunning bounds the jobs a request may list as running: a group has at
// most MaxGrouping solvers.
const maxRunning = MaxGrouping

// resync brings the master's and the group's views of the group's jobs
// together (ExchangeRequest.Running): it takes back the jobs it handed the
// group that the group neither runs nor reported, and returns the jobs
// the group runs that it no longer holds for it, for the group to drop.
// With work's lock held, after the request's reports were taken.
func (m *Master) resync(req ExchangeRequest, c *crew) (drop []string) {
	running := make(map[string]bool, len(req.Running))
	for _, id := range req.Running[:min(len(req.Running), maxRunning)] {
		running[id] = true
		if j := m.work.jobs[id]; j == nil || j.group != req.Group {
			drop = append(drop, id)
		}
	}
	reported := make(map[string]bool, len(req.Completed))
	for _, r := range req.Completed {
		reported[r.ID] = true
	}
	lost := 0
	for id, j := range c.jobs {
		if !running[id] && !reported[id] {
			m.release(id, j)
			lost++
		}
	}
	switch {
	case len(drop) > 0 && lost > 0:
		m.record(eventResync, req.Group, len(drop)+lost, "it runs %s the master had taken back, which it drops, and lacks %s it was sent, taken back", plural(len(drop), "job"), plural(lost, "job"))
	case len(drop) > 0:
		m.record(eventResync, req.Group, len(drop), "it runs %s the master had taken back (its lease ran out), which it drops", plural(len(drop), "job"))
	case lost > 0:
		m.record(eventResync, req.Group, lost, "it lacks %s it was sent (a reply lost), taken back", plural(lost, "job"))
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
// the root is solved (an audit that drops values unsolves it again), and
// to a group on probation no more than there is room for (probation.go).
// With work's lock held.
func (m *Master) handOut(group string, n int, now time.Time) []JobSpec {
	d := m.work.dag
	if solved(d.root) {
		return nil
	}
	var specs []JobSpec
	g := m.work.crews[group]
	if onTrial(g) {
		n = min(n, m.room())
	}
	for range n {
		var leaf *node
		var after string
		for g != nil && leaf == nil && len(g.ended) > 0 {
			// Below the leaf of a job of the group that ended: its
			// solver's table knows that part of the DAG.
			leaf, after = d.selectBelow(g.ended[0].leaf), g.ended[0].id
			g.ended = g.ended[1:]
		}
		if leaf == nil {
			leaf, after = d.selectLeaf(), ""
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

func (m *Master) assign(group string, leaf *node, now time.Time) JobSpec {
	id, err := uuid.NewV7()
	if err != nil {
		id = uuid.New()
	}
	w := m.work
	j := &job{id: id.String(), leaf: leaf, group: group, deadline: now.Add(m.params.Lease)}
	w.jobs[j.id] = j
	if c := w.crews[group]; c != nil {
		c.jobs[j.id] = j
		if onTrial(c) {
			m.trial(j, c, now)
		}
	}
	leaf.locked, leaf.job = true, j
	w.dag.propagate(leaf)
	w.count.assigned++
	return m.spec(j)
}

// spec returns the job's next cycle: as many iterations as the master's
// pace asks for, but no more than the job has left; a trial's at an idle
// master's pace, to be reported within its lease (probation.go).
func (m *Master) spec(j *job) JobSpec {
	cycle := m.cycle()
	if j.trial {
		cycle = m.updates()
	}
	if left := m.iterations() - min(j.worked, m.iterations()); left < cycle {
		cycle = max(left, m.updates())
	}
	j.asked = cycle
	return JobSpec{ID: j.id, Position: j.leaf.pos.String(), N: j.leaf.n, MaxIterations: cycle, Cycle: j.cycle}
}

// takeReport processes the report r of a job's cycle, of exchange x. It
// returns the job's next cycle if the job goes on. With work's lock held.
func (m *Master) takeReport(x *exchangeRun, r *Report, pr *parsedReport) (next JobSpec, ended *node, goesOn bool) {
	w, group := m.work, x.req.Group
	j := w.jobs[r.ID]
	if j == nil || j.group != group {
		w.count.stale++
		return JobSpec{}, nil, false
	}
	c := w.crews[group]
	proved(c)
	w.count.iterations += r.Iterations
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
	final := j.settled || solved(leaf) || r.Outcome != solve.Unknown || w.dag.root.locked ||
		j.worked >= m.iterations() || j.cycle >= m.cycles() || solved(w.dag.root)
	if !final {
		leaf.pn, leaf.dn = r.PN, r.DN
		w.dag.propagate(leaf)
		w.count.continued++
		return m.spec(j), nil, true
	}
	delete(w.jobs, j.id)
	if c != nil {
		delete(c.jobs, j.id)
	}
	leaf.locked, leaf.job = false, nil
	if !solved(leaf) {
		if r.Outcome != solve.Unknown {
			x.claims = append(x.claims, claim{pos: leaf.pos, n: leaf.n, out: r.Outcome, group: group, seq: x.seq})
		}
		if err := m.expandLeaf(leaf, r, pr); err != nil {
			w.count.malformed++
			if m.Log != nil {
				m.Log("group %s: job %s: %v; the leaf will be handed out again", group, r.ID, err)
			}
		}
	}
	w.dag.propagate(leaf)
	w.count.expanded++
	return JobSpec{}, leaf, false
}

// expandLeaf gives a leaf the children a worker reported. Children the DAG
// already has keep their own numbers; new ones take the reported numbers.
// A report it cannot use leaves the leaf a leaf and is described by the
// error.
func (m *Master) expandLeaf(leaf *node, r *Report, pr *parsedReport) error {
	d := m.work.dag
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
