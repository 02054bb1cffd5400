package swarm

import "time"

// The master paces the groups' reports to what it can take. Every report
// costs it time under its one lock; a thousand solvers reporting every
// Params.Updates iterations can ask for more than all its time, and then
// each waits in line for its next cycle. So the master measures its load,
// the share of time it spends under the lock, and when that passes
// paceHigh it asks for reports less often (the next cycles of jobs run
// more iterations), and more often again, down to Params.Updates (a large
// swarm's LargeIterations when shorter), when it falls under paceLow. A
// job still runs Params.Iterations in all, but for the short jobs of a
// large swarm (Params.LargeSwarm), which lengthen with their cycles: a job
// of one cycle can report less often no other way.
//
// Longer cycles thin out only the reports that come at a cycle's end; a
// job that solves its leaf reports at once, whatever its cycle. So the
// master sets the stretch for the part of its load that stretching
// removes (observe), and shortens cycles that are more than twice as long
// as that part asks for, whatever the rest of the load.
//
// Before it stretches cycles, a master whose groups hold several solvers
// first asks them to gather (ExchangeReply.Gather): to wait paceGather of
// a cycle, once one of their solvers has ended one, for the others to end
// theirs, so that their reports come in fewer exchanges. It stops asking
// after the stretch is back to 1 and the load under paceLow. Gathering
// leaves solvers idle a little; reporting apart, a group of 32 sends up
// to 32 exchanges a cycle (BENCHMARKS.md, "Groups that cycle apart").
const (
	paceTarget = 0.5
	paceHigh   = 0.6
	paceLow    = 0.3
	// paceWeight is the weight of the newest exchange in the load's
	// moving averages; paceEvery is the fewest reports between two changes
	// of pace. A change waits for as many reports as there are jobs out,
	// too: every job's next cycle then ran at the new pace, and the load
	// shows it (a burst, such as every group asking for its first job at
	// once, is not taken for the load to come).
	paceWeight = 1.0 / 256
	paceEvery  = 256
	// paceGather is the share of a cycle a group is asked to gather for:
	// of 1/32 to 1/2, 1/8 did least work on 0*14 at 256 cores.
	paceGather = 1.0 / 8
	// paceFloor is the least load the paced reports are stretched down to
	// when the rest of the load leaves them less; paceStep the most a
	// change of pace shortens cycles by, so that a wrong reading costs one
	// step, not a swing back to Params.Updates.
	paceFloor = paceTarget / 4
	paceStep  = 4
)

// pace is the master's load meter and the cycle length it sets.
type pace struct {
	busy, gap float64   // moving averages, in seconds: time under the lock, time between exchanges
	paced     float64   // the part of busy spent on reports that came at a cycle's end
	last      time.Time // the previous exchange's start
	stretch   uint64    // cycles are stretch × Params.Updates iterations
	reports   int       // reports since the last change of pace
	gather    bool      // groups are asked to gather their reports
}

// paceShape is what the pace needs to know of the swarm: the jobs out, the
// bound of the stretch, and whether some group holds several solvers (only
// those can gather).
type paceShape struct {
	jobs       int
	maxStretch uint64
	grouped    bool
}

// observe adds an exchange that started at now, carried reports, of which
// paced came at the end of a full cycle (the others ended their job early,
// by solving its leaf), and kept the master busy for busy; it changes the
// pace if the load asks for it. Each paced report counts as its cycle's
// length over the present one's: a report of a cycle asked for before a
// change of pace stands for the load its job makes at the new pace.
//
// Only the paced reports come less often when cycles are longer: a job
// that solves its leaf reports then, whatever its cycle. So the stretch is
// set to bring the paced part of the load to what the target leaves of it
// (paceFloor at least), not the whole load: stretching for load that
// stretching cannot remove only makes cycles longer and work larger.
func (p *pace) observe(now time.Time, busy time.Duration, reports int, paced float64, shape paceShape) {
	if p.stretch == 0 {
		p.stretch = 1
	}
	if !p.last.IsZero() && now.After(p.last) {
		share := 0.0
		if reports > 0 {
			share = paced / float64(reports)
		}
		p.busy += paceWeight * (busy.Seconds() - p.busy)
		p.paced += paceWeight * (busy.Seconds()*share - p.paced)
		p.gap += paceWeight * (now.Sub(p.last).Seconds() - p.gap)
	}
	p.last = now
	if p.reports += reports; p.reports < max(paceEvery, shape.jobs) {
		return
	}
	p.reports = 0
	load := p.load()
	fit := p.fit()
	next := p.stretch
	switch {
	case load > paceHigh && shape.grouped && !p.gather:
		p.gather = true
		return
	case fit < p.stretch/2 || load < paceLow && p.stretch > 1:
		// Cycles more than twice as long as the paced load asks for (the
		// load that made them so has gone, or the moving averages still
		// held the load of shorter cycles when they were stretched), or
		// the master idle.
		next = fit
	case load > paceHigh:
		next = max(p.stretch, fit)
	case load < paceLow && p.gather:
		p.gather = false
		return
	}
	next = min(max(next, p.stretch/paceStep, 1), max(shape.maxStretch, 1))
	// The moving averages hold the paced load of the old cycles: scaled to
	// the new ones, the next change does not count it again. (Reports of
	// cycles longer than the present ones count for more than they cost,
	// so the paced part may exceed the whole; the whole stays at least
	// the part.)
	scaled := p.paced * float64(p.stretch) / float64(next)
	p.busy = max(p.busy+scaled-p.paced, scaled)
	p.paced, p.stretch = scaled, next
}

// fit returns the stretch that brings the paced part of the load to what
// the target leaves of it after the rest, and to paceFloor at least.
func (p *pace) fit() uint64 {
	if p.gap <= 0 {
		return p.stretch
	}
	paced := p.pacedLoad()
	want := max(paceTarget-(p.load()-paced), paceFloor)
	// Bounded before the conversion: a float beyond uint64 converts to
	// anything.
	return uint64(min(float64(p.stretch)*paced/want, 1<<40) + 0.999)
}

// load returns the share of time the master spends under its lock, as
// the moving averages show it (0 before two exchanges).
func (p *pace) load() float64 {
	if p.gap <= 0 {
		return 0
	}
	return p.busy / p.gap
}

// pacedLoad returns the part of load spent on reports at a cycle's end.
func (p *pace) pacedLoad() float64 {
	if p.gap <= 0 {
		return 0
	}
	return p.paced / p.gap
}

// gathering returns the share of a cycle groups are asked to gather for
// (ExchangeReply.Gather).
func (p *pace) gathering() float64 {
	if p.gather {
		return paceGather
	}
	return 0
}
