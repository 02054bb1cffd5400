package swarm

import "time"

// minTrials is the least room for trial jobs (see probation): enough for
// a swarm to start, and for a few newcomers at a time to prove
// themselves, before any group has.
const minTrials = 4

// probation is how the master deals with groups that have not proved
// themselves. Any holder of the swarm's key can join under a new name
// every moment, take jobs and never report them, or send lies, and the
// leaves the proof needs next are those handed out first. So a group is
// on probation until the master takes in a report of one of the jobs it
// holds for it (groupState.proven), and till then:
//
//   - its jobs are trials: a trial's first cycle runs at an idle master's
//     pace, and its lease runs from when it was handed out, not renewed
//     by the group's other exchanges, and is short (Params.Probation,
//     twice as long after each trial the group let run out, up to
//     Params.Lease);
//   - trials are at most as many as the jobs of the groups that proved
//     themselves (minTrials when those hold fewer), and a newcomer that
//     finds no room waits for a trial to end;
//   - the master does not take in the values it sends, but with a report
//     of one of its jobs (which ends its probation): it tells the group
//     (ExchangeReply.Unheard), which sends them again with its next
//     report, and an honest group's first values come with the report
//     of the cycle that found them anyway.
//
// So a stream of newcomers that take jobs and say no more, or only that
// they still run them, holds a bounded share of the leaves, each for a
// few seconds, however fast they come, and one that joins only to lie is
// not heard. Once a group has reported a job, its jobs go on as
// anybody's: what it reports is believed no more than before (the checks
// and audits are for that), but it has shown it works.
type probation struct {
	// trials are the trial jobs handed out; those the master no longer
	// holds as trials (reported, taken back, dropped with an epoch) are
	// pruned when they are counted.
	trials map[*job]bool
}

// room returns how many more trial jobs the master may hand out. With
// work's lock held.
func (m *Master) room() int {
	w := m.work
	p := &w.probation
	for j := range p.trials {
		if !j.trial || w.jobs[j.id] != j {
			delete(p.trials, j)
		}
	}
	return max(0, max(minTrials, len(w.jobs)-len(p.trials))-len(p.trials))
}

// onTrial reports whether a group, of crew c, is on probation: it has not
// proved itself.
func onTrial(c *crew) bool { return c != nil && !c.proven }

// trial makes j, just handed to the group of crew c, a trial job. With
// work's lock held.
func (m *Master) trial(j *job, c *crew, now time.Time) {
	p := &m.work.probation
	if p.trials == nil {
		p.trials = map[*job]bool{}
	}
	j.trial = true
	j.deadline = now.Add(m.trialLease(c))
	p.trials[j] = true
}

// believes reports whether the master takes in the values the group of
// crew c sends with req: not while it is on probation, unless req reports
// one of the jobs the master holds for it, which ends its probation. With
// work's lock held.
func (m *Master) believes(c *crew, req ExchangeRequest) bool {
	for i := range req.Completed {
		if !onTrial(c) {
			break
		}
		if j := m.work.jobs[req.Completed[i].ID]; j != nil && j.group == req.Group {
			proved(c)
		}
	}
	return !onTrial(c)
}

// proved ends the probation of the group of crew c, if it was on it: a
// report of one of its jobs was taken in. Its jobs go on as anybody's.
// With work's lock held.
func proved(c *crew) {
	if !onTrial(c) {
		return
	}
	c.proven = true
	for _, j := range c.jobs {
		j.trial = false
	}
}

// trialLease is how long the group of crew c has to report a trial job.
func (m *Master) trialLease(c *crew) time.Duration {
	return min(m.params.Lease, max(m.params.Probation, c.trialLease))
}

// missedTrial records that group (forgotten, maybe) let k trial jobs run
// out, taken back: an eventExpire, and its next trials may take twice as
// long. With work's lock held.
func (m *Master) missedTrial(group string, k int) {
	c := m.work.crews[group]
	if c == nil {
		m.record(eventExpire, group, k, "on probation, it did not report its %s in time; taken back", plural(k, "trial job"))
		return
	}
	was := m.trialLease(c)
	c.trialLease = min(m.params.Lease, 2*was)
	m.record(eventExpire, group, k, "on probation, it did not report its %s within %v; taken back, its next may take %v",
		plural(k, "trial job"), was, m.trialLease(c))
}
