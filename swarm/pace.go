package swarm

import "time"

// The master's pace is configured by Params.Pace; Pace's comment says
// what it does and why.

// pace is the master's load meter and the cycle length it sets.
type pace struct {
	cfg       paceConfig
	busy, gap float64   // moving averages, in seconds: time under the work's lock, time between exchanges
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
// (Pace.Floor at least), not the whole load: stretching for load that
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
		p.busy += p.cfg.Weight * (busy.Seconds() - p.busy)
		p.paced += p.cfg.Weight * (busy.Seconds()*share - p.paced)
		p.gap += p.cfg.Weight * (now.Sub(p.last).Seconds() - p.gap)
	}
	p.last = now
	if p.reports += reports; p.reports < max(p.cfg.Every, shape.jobs) {
		return
	}
	p.reports = 0
	load := p.load()
	fit := p.fit()
	next := p.stretch
	switch {
	case load > p.cfg.High && shape.grouped && !p.gather:
		p.gather = true
		return
	case fit < p.stretch/2 || load < p.cfg.Low && p.stretch > 1:
		// Cycles more than twice as long as the paced load asks for (the
		// load that made them so has gone, or the moving averages still
		// held the load of shorter cycles when they were stretched), or
		// the master idle.
		next = fit
	case load > p.cfg.High:
		next = max(p.stretch, fit)
	case load < p.cfg.Low && p.gather:
		p.gather = false
		return
	}
	next = min(max(next, p.stretch/p.cfg.Step, 1), max(shape.maxStretch, 1))
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
	want := max(p.cfg.Target-(p.load()-paced), p.cfg.Floor)
	// Bounded before the conversion: a float beyond uint64 converts to
	// anything.
	return uint64(min(float64(p.stretch)*paced/want, 1<<40) + 0.999)
}

// load returns the share of time the master spends under the work's lock, as
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
		return p.cfg.Gather
	}
	return 0
}
