package swarm

import "time"

// The master paces the groups' reports to what it can take. Every report
// costs it time under its one lock; a thousand solvers reporting every
// Params.Updates iterations can ask for more than all its time, and then
// each waits in line for its next cycle. So the master measures its load,
// the share of time it spends under the lock, and when that passes
// paceHigh it asks for reports less often (the next cycles of jobs run
// more iterations), and more often again, down to Params.Updates (a large
// swarm's LargeIterations when shorter), when it falls under paceLow. A job still runs Params.Iterations in all, but for
// the short jobs of a large swarm (Params.LargeSwarm), which lengthen with
// their cycles: a job of one cycle can report less often no other way.
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
)

// pace is the master's load meter and the cycle length it sets.
type pace struct {
	busy, gap float64   // moving averages, in seconds: time under the lock, time between exchanges
	last      time.Time // the previous exchange's start
	stretch   uint64    // cycles are stretch × Params.Updates iterations
	reports   int       // reports since the last change of pace
	gather    bool      // groups are asked to gather their reports
}

// observe adds an exchange that started at now, carried reports and kept
// the master busy for busy, and changes the pace if the load asks for it,
// jobs being out; maxStretch bounds the stretch, and grouped says whether
// some group holds several solvers (only those can gather).
func (p *pace) observe(now time.Time, busy time.Duration, reports, jobs int, maxStretch uint64, grouped bool) {
	if p.stretch == 0 {
		p.stretch = 1
	}
	if !p.last.IsZero() && now.After(p.last) {
		p.busy += paceWeight * (busy.Seconds() - p.busy)
		p.gap += paceWeight * (now.Sub(p.last).Seconds() - p.gap)
	}
	p.last = now
	if p.reports += reports; p.reports < max(paceEvery, jobs) {
		return
	}
	p.reports = 0
	load := p.load()
	var next uint64
	switch {
	case load > paceHigh && grouped && !p.gather:
		p.gather = true
		return
	case load > paceHigh:
		next = uint64(float64(p.stretch)*load/paceTarget + 0.999)
	case load < paceLow && p.stretch > 1:
		next = uint64(float64(p.stretch) * load / paceTarget)
	case load < paceLow && p.gather:
		p.gather = false
		return
	default:
		return
	}
	p.stretch = min(max(next, 1), max(maxStretch, 1))
}

// load returns the share of time the master spends under its lock, as
// the moving averages show it (0 before two exchanges).
func (p *pace) load() float64 {
	if p.gap <= 0 {
		return 0
	}
	return p.busy / p.gap
}

// gathering returns the share of a cycle groups are asked to gather for
// (ExchangeReply.Gather).
func (p *pace) gathering() float64 {
	if p.gather {
		return paceGather
	}
	return 0
}
