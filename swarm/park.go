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
// once, with some of the master's locks held, with the jobs, or with none when the
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
	r, w := m.members, m.work
	r.mu.Lock()
	defer r.mu.Unlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	c := w.crews[group]
	if r.members[group] == nil || c == nil || len(c.jobs) > 0 || r.finished || r.banned[group] {
		return nil, false
	}
	p := &parkedGroup{group: group, deliver: deliver}
	w.parked = append(w.parked, p)
	// Leaves may have freed up since the group's exchange let the lock go.
	now := m.now()
	m.feedParked(now)
	m.tally.setJobs(now, len(w.jobs))
	return func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		for i, q := range w.parked {
			if q == p {
				w.parked = append(w.parked[:i], w.parked[i+1:]...)
				return true
			}
		}
		return false
	}, true
}

// feedParked hands unlocked leaves to the parked groups, in the order they
// parked, as long as there are both. A group on probation waits, without
// holding up those behind it, while there is no room for a trial job
// (probation.go). With work's lock held.
func (m *Master) feedParked(now time.Time) {
	w := m.work
	for i := 0; i < len(w.parked); {
		p := w.parked[i]
		c := w.crews[p.group]
		if c == nil {
			w.parked = slices.Delete(w.parked, i, i+1)
			p.deliver(nil)
			continue
		}
		if onTrial(c) && m.room() == 0 {
			i++
			continue
		}
		jobs := m.handOut(p.group, c.slots-len(c.jobs), now)
		if len(jobs) == 0 && c.slots > len(c.jobs) {
			return // no leaf free: everyone waits
		}
		w.parked = slices.Delete(w.parked, i, i+1)
		p.deliver(jobs)
	}
}

// unparkAll answers every parked group without a job. With work's lock
// held.
func (m *Master) unparkAll() {
	for _, p := range m.work.parked {
		p.deliver(nil)
	}
	m.work.parked = nil
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
	r := m.members
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		reply.Done = true
		if g := r.members[req.Group]; g != nil {
			g.toldDone = true
		}
	}
	return reply, nil
}
