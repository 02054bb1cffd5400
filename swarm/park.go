package swarm

import (
	"context"
	"slices"
	"time"
)

// parkFor is how long the master holds the exchange of a group it has no
// job for before it answers without one. The group asks again soon after,
// so this bounds only how long a finished or restarted master keeps a
// request open, never how long work waits for a group.
const parkFor = 2 * time.Second

// parkedGroup is a group without a job waiting at the master for one.
type parkedGroup struct {
	group   string
	deliver func([]JobSpec)
}

// Park registers group, which holds no job, to be handed jobs as soon as
// leaves free up, before any group that asks later: deliver is called
// once, with the master's lock held, with the jobs, or with none when the
// solve is over or the master starts a new epoch. It must not call the
// master. Park returns false, and registers nothing, when the group is
// unknown, holds a job or the solve is over; else it returns unpark, which
// withdraws the group if it was not delivered yet and says whether it was.
// exchangeWait parks a group and blocks until it is delivered; Park is for
// a caller that cannot block (a simulation's event loop).
//
// Parking replaces polling: a master with a thousand idle groups polling
// it spends its time answering "nothing yet", while a parked group costs
// it nothing until there is work, and then gets it at once.
func (m *Master) Park(group string, deliver func([]JobSpec)) (unpark func() bool, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g := m.groups[group]
	if g == nil || len(g.jobs) > 0 || m.finished || m.banned[group] {
		return nil, false
	}
	p := &parkedGroup{group: group, deliver: deliver}
	m.parked = append(m.parked, p)
	// Leaves may have freed up since the group's exchange let the lock go.
	m.feedParked(m.now())
	return func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		for i, q := range m.parked {
			if q == p {
				m.parked = append(m.parked[:i], m.parked[i+1:]...)
				return true
			}
		}
		return false
	}, true
}

// feedParked hands unlocked leaves to the parked groups, in the order they
// parked, as long as there are both. A group on probation waits, without
// holding up those behind it, while there is no room for a trial job
// (probation.go).
func (m *Master) feedParked(now time.Time) {
	for i := 0; i < len(m.parked); {
		p := m.parked[i]
		g := m.groups[p.group]
		if g == nil {
			m.parked = slices.Delete(m.parked, i, i+1)
			p.deliver(nil)
			continue
		}
		if onTrial(g) && m.room() == 0 {
			i++
			continue
		}
		jobs := m.handOut(p.group, g.slots-len(g.jobs), now)
		if len(jobs) == 0 && g.slots > len(g.jobs) {
			return // no leaf free: everyone waits
		}
		m.parked = slices.Delete(m.parked, i, i+1)
		p.deliver(jobs)
	}
}

// unparkAll answers every parked group without a job.
func (m *Master) unparkAll() {
	for _, p := range m.parked {
		p.deliver(nil)
	}
	m.parked = nil
}

// exchangeWait is Exchange for a group that would rather wait than poll:
// when the exchange leaves the group without a job and the solve is not
// over, the master holds the reply until it has jobs for the group (handed
// out in the order groups came to wait, before those of later requests),
// until wait has passed, or until ctx ends. A reply held until the solve
// is over says so (ExchangeReply.Done).
func (m *Master) exchangeWait(ctx context.Context, req ExchangeRequest, wait time.Duration) (ExchangeReply, error) {
	reply, err := m.Exchange(req)
	if err != nil || wait <= 0 || len(reply.Jobs) > 0 || reply.Done {
		return reply, err
	}
	ch := make(chan []JobSpec, 1)
	unpark, ok := m.Park(req.Group, func(jobs []JobSpec) { ch <- jobs })
	if !ok {
		return reply, nil
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	delivered := false
	select {
	case reply.Jobs = <-ch:
		delivered = true
	case <-timer.C:
	case <-ctx.Done():
	}
	if !delivered && !unpark() {
		// Delivered meanwhile: the jobs are the group's (if the reply is
		// lost, the master takes them back at the group's next exchange,
		// which does not list them as running).
		reply.Jobs = <-ch
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.finished {
		reply.Done = true
		if g := m.groups[req.Group]; g != nil {
			g.toldDone = true
		}
	}
	return reply, nil
}
