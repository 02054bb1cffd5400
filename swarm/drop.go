package swarm

import (
	"fmt"
	"maps"
	"slices"

	"github.com/spots-dev/spots/solve"
)

// drop applies what blame decides of f: it bans the culprits (each with
// an eventBan saying why), drops the values it discards, rebuilds the DAG
// from the values left and starts a new epoch, in which every group
// forgets what it learned and is sent the values again, but those that
// read none of what went nor sent any (blameVerdict.kept): they keep what
// they hold. faults are the claims that named the liars of f. It returns
// the groups banned, the number of values dropped and the groups that
// keep what they hold. With the chained locks held (Master.lockAll).
func (m *Master) drop(f findings, faults map[string]claimFault) (banned []string, dropped int, kept []string) {
	r, w, t := m.members, m.work, m.trail
	l := &w.ledger
	keys := make([]string, 0, w.db.Len())
	w.db.Range(func(k string, _ uint32) bool {
		keys = append(keys, k)
		return true
	})
	f.liars = map[string]uint64{}
	for g, fault := range faults {
		first, ok := t.firstClaim[g]
		if !ok {
			first = fault.claim.seq
		}
		f.liars[g] = first
	}
	hash := func(k string) uint64 {
		g, _ := w.db.Get(k)
		return readHash(solve.NimberEntry{Key: k, G: g})
	}
	v := blame(f, provenance{keys: keys, origin: l.origin, resent: l.resent, deliveries: t.deliveries, reads: t.reads, hash: hash, lives: livesOf(), epochSeq: t.epochSeq})
	restart, quiet := m.quiet(v, faults)
	keep := w.db
	gone := map[uint64]bool{}
	if !v.keepAll {
		keep = solve.NewNimberDB()
		w.db.Range(func(k string, g uint32) bool {
			if v.discard[k] {
				delete(l.origin, k)
				delete(l.resent, k)
				gone[readHash(solve.NimberEntry{Key: k, G: g})] = true
				dropped++
				return true
			}
			keep.Put(k, g)
			senders := v.senders[k]
			l.origin[k] = senders[0]
			if len(senders) > 1 {
				l.resent[k] = senders[1:]
			} else {
				delete(l.resent, k)
			}
			return true
		})
	}
	banned = v.culprits
	for _, g := range banned {
		r.banned[g] = true
		m.forget(g)
		delete(t.deliveries, g)
		delete(t.reads, g)
		m.record(eventBan, g, 0, "%s", banReason(faults, g))
	}
	t.count.banned += len(banned)
	t.count.unbacked += len(faults)
	t.count.dropped += dropped
	now := m.now()
	m.tally.setSlots(now, m.slots())
	m.gone.add(gone)
	if quiet {
		m.dropQuietly(keep, gone, banned, restart)
	} else {
		t.claims, t.firstClaim = nil, map[string]uint64{}
		m.newEpoch(keep, v.kept, gone)
	}
	m.tally.setJobs(now, len(w.jobs))
	return banned, dropped, v.kept
}

// quiet reports whether the values v discards can go without a new epoch
// for all: no group that may rest on them (a culprit, or a group that
// does not keep what it holds) had a claim taken into the DAG this epoch,
// and the DAG used none of the values (nor derived any). Then the DAG and
// the jobs rest on none of them and go on: the groups that keep what they
// hold forget the values, and restart lists the others, each to start
// afresh alone. With the chained locks held, before the values go.
func (m *Master) quiet(v blameVerdict, faults map[string]claimFault) (restart []string, ok bool) {
	w, t := m.work, m.trail
	if v.keepAll || len(faults) > 0 {
		return nil, false
	}
	for _, g := range v.culprits {
		if _, claimed := t.firstClaim[g]; claimed {
			return nil, false
		}
	}
	for name := range m.members.members {
		if slices.Contains(v.kept, name) || slices.Contains(v.culprits, name) {
			continue
		}
		if _, claimed := t.firstClaim[name]; claimed {
			return nil, false
		}
		restart = append(restart, name)
	}
	for k := range v.discard {
		g, _ := w.db.Get(k)
		if o, ok := w.ledger.origin[k]; !ok || o.group == "" || w.dag.used[readHash(solve.NimberEntry{Key: k, G: g})] {
			return nil, false
		}
	}
	return restart, true
}

// dropQuietly makes keep the master's values without a new epoch for all
// (see quiet): the shared log and each group's pending values lose the
// values dropped, whose readHash gone holds, and each group is told at
// its next exchange to forget them (ExchangeReply.Forget), but those of
// restart, which start afresh alone; the jobs of culprits are taken back.
// With the chained locks held.
func (m *Master) dropQuietly(keep *solve.NimberDB, gone map[uint64]bool, culprits, restart []string) {
	w, s, t := m.work, m.share, m.trail
	held := func(e solve.NimberEntry) bool {
		_, ok := keep.Get(e.Key)
		return ok
	}
	w.db, w.dag.db = keep, keep
	// Each cursor moves to the same place in the log without the values
	// dropped. The old log stays as it is for the outboxes read outside
	// the lock.
	at := make([]int, len(s.log)+1)
	var shared []sharedValue
	for i, v := range s.log {
		at[i] = len(shared)
		if held(v.e) {
			shared = append(shared, v)
		}
	}
	at[len(s.log)] = len(shared)
	s.log = shared
	for _, b := range s.boxes {
		b.cursor = at[min(b.cursor, len(at)-1)]
		b.pending = slices.DeleteFunc(slices.Clone(b.pending), func(e solve.NimberEntry) bool { return !held(e) })
		b.arrived = w.arrival(b.pending)
	}
	for _, g := range m.members.members {
		if g.forget == nil {
			g.forget = map[uint64]bool{}
		}
		maps.Copy(g.forget, gone)
	}
	for id, j := range w.jobs {
		if slices.Contains(culprits, j.group) {
			m.release(id, j)
		}
	}
	for _, name := range restart {
		m.restartEpoch(name)
	}
	t.disputes = slices.DeleteFunc(t.disputes, func(d dispute) bool {
		_, ok := keep.Get(d.key)
		return !ok
	})
	m.forgetScans()
	t.proof = nil
}

// banReason says why group g is banned.
func banReason(faults map[string]claimFault, g string) string {
	f, ok := faults[g]
	switch {
	case ok && f.wrong:
		return fmt.Sprintf("it reported a wrong outcome, %s+*%d=%s", f.claim.pos, f.claim.n, f.claim.out)
	case ok:
		return fmt.Sprintf("it reported outcomes without the values that prove them (%s+*%d=%s)", f.claim.pos, f.claim.n, f.claim.out)
	}
	return "it sent wrong Grundy values"
}

// newEpoch makes keep the master's values, rebuilds the DAG from them and
// starts a new epoch: the jobs, the shared log and what was sent go, and
// every group is to be sent every value again, but the groups of kept:
// they keep what they hold, forgetting the values whose readHash gone
// holds, and are sent only what they had not been. With the chained locks
// held.
func (m *Master) newEpoch(keep *solve.NimberDB, kept []string, gone map[uint64]bool) {
	r, w, s, t := m.members, m.work, m.share, m.trail
	l := &w.ledger
	// What a kept group was yet to be sent of the old epoch's values: its
	// pending ones, the shared log past its cursor (but its own), and what
	// the DAG derived and has not shared.
	unsent := map[string][]solve.NimberEntry{}
	for _, name := range kept {
		if r.members[name] == nil {
			continue
		}
		var out []solve.NimberEntry
		if b := s.boxes[name]; b != nil {
			out = slices.Clone(b.pending)
			for _, v := range s.log[min(b.cursor, len(s.log)):] {
				if v.from != name {
					out = append(out, v.e)
				}
			}
		}
		out = append(out, w.dag.learned...)
		unsent[name] = slices.DeleteFunc(out, func(e solve.NimberEntry) bool {
			_, ok := keep.Get(e.Key)
			return !ok
		})
	}
	w.db = keep
	t.epochSeq = r.seq
	w.jobs = map[string]*job{}
	w.reopen()
	r.epoch++
	for _, g := range r.members {
		g.epoch = r.epoch
	}
	m.forgetScans()
	t.proof = nil
	// Disputes met since the snapshot are of the old epoch: the values
	// they dispute may be gone, and the disputers may have rested on
	// what was dropped.
	t.disputes = nil
	m.unparkAll()
	m.newDAG()
	w.dag.learned = nil // the values it derived are in the database, sent to all below
	s.log = nil
	// What was sent in the old epoch was judged by this audit; keeping it
	// would keep every old log alive.
	for _, ds := range t.deliveries {
		for i := range ds {
			ds[i].log, ds[i].pending = nil, nil
		}
	}
	for k := range l.origin {
		if _, ok := keep.Get(k); !ok {
			delete(l.origin, k)
			delete(l.resent, k)
		}
	}
	w.db.Range(func(k string, _ uint32) bool {
		if _, ok := l.origin[k]; !ok {
			l.origin[k] = valueOrigin{seq: r.seq}
		}
		return true
	})
	// A group that starts afresh forgets its values with the epoch, and
	// with them what it read; a kept group's reads stand.
	reads := t.reads
	t.reads = map[string]*readLog{}
	all, arrived := w.allValues()
	for name, g := range r.members {
		untold := g.forget
		g.forget = nil
		if c := w.crews[name]; c != nil {
			c.jobs = map[string]*job{}
		}
		b := s.boxOf(name)
		b.cursor = 0
		if pending, ok := unsent[name]; ok {
			// Not yet told of an earlier epoch it keeps what it holds
			// through, it forgets what that one dropped too.
			b.pending, b.arrived, g.forget = pending, w.arrival(pending), gone
			if untold != nil {
				g.forget = maps.Clone(gone)
				maps.Copy(g.forget, untold)
			}
			if rl := reads[name]; rl != nil {
				t.reads[name] = rl
			}
			continue
		}
		b.pending, b.arrived = all, arrived
	}
}
