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
// keep what they hold. With the lock held.
func (m *Master) drop(f findings, faults map[string]claimFault) (banned []string, dropped int, kept []string) {
	keys := make([]string, 0, m.db.Len())
	m.db.Range(func(k string, _ uint32) bool {
		keys = append(keys, k)
		return true
	})
	f.liars = map[string]uint64{}
	for g, fault := range faults {
		first, ok := m.firstClaim[g]
		if !ok {
			first = fault.claim.seq
		}
		f.liars[g] = first
	}
	hash := func(k string) uint64 {
		g, _ := m.db.Get(k)
		return readHash(solve.NimberEntry{Key: k, G: g})
	}
	v := blame(f, provenance{keys: keys, origin: m.origin, resent: m.resent, deliveries: m.deliveries, reads: m.reads, hash: hash, lives: livesOf(), epochSeq: m.epochSeq})
	restart, quiet := m.quiet(v, faults)
	keep := m.db
	gone := map[uint64]bool{}
	if !v.keepAll {
		keep = solve.NewNimberDB()
		m.db.Range(func(k string, g uint32) bool {
			if v.discard[k] {
				delete(m.origin, k)
				delete(m.resent, k)
				gone[readHash(solve.NimberEntry{Key: k, G: g})] = true
				dropped++
				return true
			}
			keep.Put(k, g)
			senders := v.senders[k]
			m.origin[k] = senders[0]
			if len(senders) > 1 {
				m.resent[k] = senders[1:]
			} else {
				delete(m.resent, k)
			}
			return true
		})
	}
	banned = v.culprits
	for _, g := range banned {
		m.banned[g] = true
		m.forget(g)
		delete(m.deliveries, g)
		delete(m.reads, g)
		m.record(eventBan, g, 0, "%s", banReason(faults, g))
	}
	m.stats.Banned += len(banned)
	m.stats.Unbacked += len(faults)
	m.stats.Dropped += dropped
	m.account(m.now())
	maps.Copy(m.gone, gone)
	if quiet {
		m.dropQuietly(keep, gone, banned, restart)
		return banned, dropped, v.kept
	}
	m.claims, m.firstClaim = nil, map[string]uint64{}
	m.newEpoch(keep, v.kept, gone)
	return banned, dropped, v.kept
}

// quiet reports whether the values v discards can go without a new epoch
// for all: no group that may rest on them (a culprit, or a group that
// does not keep what it holds) had a claim taken into the DAG this epoch,
// and the DAG used none of the values (nor derived any). Then the DAG and
// the jobs rest on none of them and go on: the groups that keep what they
// hold forget the values, and restart lists the others, each to start
// afresh alone. With the lock held, before the values go.
func (m *Master) quiet(v blameVerdict, faults map[string]claimFault) (restart []string, ok bool) {
	if v.keepAll || len(faults) > 0 {
		return nil, false
	}
	for _, g := range v.culprits {
		if _, claimed := m.firstClaim[g]; claimed {
			return nil, false
		}
	}
	for name := range m.groups {
		if slices.Contains(v.kept, name) || slices.Contains(v.culprits, name) {
			continue
		}
		if _, claimed := m.firstClaim[name]; claimed {
			return nil, false
		}
		restart = append(restart, name)
	}
	for k := range v.discard {
		g, _ := m.db.Get(k)
		if o, ok := m.origin[k]; !ok || o.group == "" || m.dag.used[readHash(solve.NimberEntry{Key: k, G: g})] {
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
// With the lock held.
func (m *Master) dropQuietly(keep *solve.NimberDB, gone map[uint64]bool, culprits, restart []string) {
	held := func(e solve.NimberEntry) bool {
		_, ok := keep.Get(e.Key)
		return ok
	}
	m.db, m.dag.db = keep, keep
	// Each cursor moves to the same place in the log without the values
	// dropped. The old log stays as it is for the outboxes read outside
	// the lock.
	at := make([]int, len(m.shared)+1)
	var shared []sharedValue
	for i, v := range m.shared {
		at[i] = len(shared)
		if held(v.e) {
			shared = append(shared, v)
		}
	}
	at[len(m.shared)] = len(shared)
	m.shared = shared
	for _, g := range m.groups {
		g.cursor = at[min(g.cursor, len(at)-1)]
		g.pending = slices.DeleteFunc(slices.Clone(g.pending), func(e solve.NimberEntry) bool { return !held(e) })
		if g.forget == nil {
			g.forget = map[uint64]bool{}
		}
		maps.Copy(g.forget, gone)
	}
	for id, j := range m.jobs {
		if slices.Contains(culprits, j.group) {
			m.release(id, j)
		}
	}
	for _, name := range restart {
		m.restartEpoch(name, m.groups[name])
	}
	m.disputes = slices.DeleteFunc(m.disputes, func(d dispute) bool {
		_, ok := keep.Get(d.key)
		return !ok
	})
	m.forgetScans()
	m.proof = nil
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
// holds, and are sent only what they had not been. With the lock held.
func (m *Master) newEpoch(keep *solve.NimberDB, kept []string, gone map[uint64]bool) {
	// What a kept group was yet to be sent of the old epoch's values: its
	// pending ones, the shared log past its cursor (but its own), and what
	// the DAG derived and has not shared.
	unsent := map[string][]solve.NimberEntry{}
	for _, name := range kept {
		g := m.groups[name]
		if g == nil {
			continue
		}
		out := slices.Clone(g.pending)
		for _, v := range m.shared[min(g.cursor, len(m.shared)):] {
			if v.from != name {
				out = append(out, v.e)
			}
		}
		out = append(out, m.dag.learned...)
		unsent[name] = slices.DeleteFunc(out, func(e solve.NimberEntry) bool {
			_, ok := keep.Get(e.Key)
			return !ok
		})
	}
	m.db = keep
	m.epochSeq = m.seq
	m.jobs = map[string]*job{}
	select {
	case <-m.done:
		m.done = make(chan struct{})
	default:
	}
	m.epoch++
	for _, g := range m.groups {
		g.epoch = m.epoch
	}
	m.forgetScans()
	m.proof = nil
	// Disputes met since the snapshot are of the old epoch: the values
	// they dispute may be gone, and the disputers may have rested on
	// what was dropped.
	m.disputes = nil
	m.unparkAll()
	m.newDAG()
	m.dag.learned = nil // the values it derived are in the database, sent to all below
	m.shared = nil
	// What was sent in the old epoch was judged by this audit; keeping it
	// would keep every old log alive.
	for _, ds := range m.deliveries {
		for i := range ds {
			ds[i].log, ds[i].pending = nil, nil
		}
	}
	// A group that starts afresh forgets its values with the epoch, and
	// with them what it read; a kept group's reads stand.
	reads := m.reads
	m.reads = map[string]*readLog{}
	for name, g := range m.groups {
		untold := g.forget
		g.cursor, g.jobs, g.forget = 0, map[string]*job{}, nil
		if pending, ok := unsent[name]; ok {
			// Not yet told of an earlier epoch it keeps what it holds
			// through, it forgets what that one dropped too.
			g.pending, g.forget = pending, gone
			if untold != nil {
				g.forget = maps.Clone(gone)
				maps.Copy(g.forget, untold)
			}
			if r := reads[name]; r != nil {
				m.reads[name] = r
			}
			continue
		}
		g.pending = m.allValues()
	}
	for k := range m.origin {
		if _, ok := keep.Get(k); !ok {
			delete(m.origin, k)
			delete(m.resent, k)
		}
	}
	m.db.Range(func(k string, _ uint32) bool {
		if _, ok := m.origin[k]; !ok {
			m.origin[k] = valueOrigin{seq: m.seq}
		}
		return true
	})
}
