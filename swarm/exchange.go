package swarm

import (
	"fmt"
	"maps"
	"slices"
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
		busy := m.since(now)
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
	m.account(now)
	g := m.groups[req.Group]
	if g == nil {
		g = &groupState{jobs: map[string]*job{}, cursor: len(m.shared), epoch: m.epoch, proven: m.params.Probation == 0}
		m.groups[req.Group] = g
		m.record(eventJoin, req.Group, 0, "%s of %s", plural(slots, "solver"), plural(max(req.Threads, 1), "thread"))
		for id, j := range m.jobs {
			// Jobs of a group forgotten while it held them.
			if j.group == req.Group {
				g.jobs[id] = j
			}
		}
		// A group that joins late starts with everything known.
		g.pending = m.allValues()
	}
	// A group that has not heard of its latest epoch may still hold
	// dropped values: what it sends now is ignored, and it is sent
	// everything.
	stale := req.Epoch != g.epoch
	kept := false
	switch {
	case stale && g.forget != nil:
		// An epoch began that the group keeps what it holds through:
		// its request stands, unless it read a value dropped since.
		if kept = req.TracksReads && !readAny(req.Read, m.gone); kept {
			stale = false
		} else {
			m.restart(req.Group, g)
		}
	case !stale && readAny(req.Read, m.gone):
		// It read a value dropped (before it forgot it): what it sends
		// now may rest on it, and so may its jobs. It starts afresh.
		m.restartEpoch(req.Group, g)
		stale = true
	case !stale && req.Afresh:
		m.restart(req.Group, g)
	}
	cores := slots * max(req.Threads, 1)
	m.slotCount += slots - g.slots
	m.coreCount += cores - g.cores
	g.slots, g.cores, g.lastSeen = slots, cores, now
	// A group on probation is not heard before it reports a job
	// (probation.go): it sends its values again.
	unheard := !stale && !m.believes(g, req)
	if !stale && !unheard {
		m.stats.NimbersIn += len(req.Nimbers)
		fresh := m.dag.addNimbers(nimbers)
		for _, e := range fresh {
			m.origin[e.Key] = valueOrigin{group: req.Group, seq: m.seq}
		}
		m.regained(fresh)
		m.noteKnown(req.Group, nimbers)
		m.share(req.Group, fresh)
	}
	if !stale {
		m.noteReads(req.Group, req, m.seq)
	}
	reply := ExchangeReply{Master: m.id, Epoch: g.epoch, Lease: m.params.Lease, Gather: m.pace.gathering(), Kept: kept, Unheard: unheard && len(req.Nimbers) > 0}
	if (kept || !stale) && g.forget != nil {
		reply.Forget = slices.Sorted(maps.Keys(g.forget))
		g.forget = nil
	}
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
		if !j.trial { // a trial's lease runs from when it was handed out
			j.deadline = now.Add(m.params.Lease)
		}
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
func (m *Master) handOut(group string, n int, now time.Time) []JobSpec {
	if solved(m.dag.root) {
		return nil
	}
	var specs []JobSpec
	g := m.groups[group]
	if onTrial(g) {
		n = min(n, m.room())
	}
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
		m.readLogOf(group).sent += len(out.log) + len(out.pending)
	}
	return out
}

// noteKnown looks at the entries group sent that the master had already.
// Sent with the master's value by another group, it records group as
// another sender: a value that a liar sent first may also be an honest
// group's own derivation, on which that group's later values rest, and
// the audit keeps it if any of its senders is trusted (see drop). Sent
// with another value, one of the two is wrong: it records a dispute, which
// the next check or audit settles by solving the position.
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
	m.regained(m.dag.learned)
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
		if onTrial(g) {
			m.trial(j, g, now)
		}
	}
	leaf.locked, leaf.job = true, j
	m.dag.propagate(leaf)
	m.stats.Assigned++
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

// take processes the report of a job's cycle. It returns the job's next
// cycle if the job goes on.
func (m *Master) take(group string, r *Report, pr *parsedReport) (next JobSpec, ended *node, goesOn bool) {
	j := m.jobs[r.ID]
	if j == nil || j.group != group {
		m.stats.Stale++
		return JobSpec{}, nil, false
	}
	m.proved(m.groups[group])
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
