package swarm

import (
	"fmt"

	"github.com/spots-dev/spots/solve"
)

// drop applies what blame decides of f: it bans the culprits (each with
// an eventBan saying why), drops the values it discards, rebuilds the DAG
// from the values left and starts a new epoch, in which every group
// forgets what it learned and is sent the values again. faults are the
// claims that named the liars of f. It returns the groups banned and the
// number of values dropped. With the lock held.
func (m *Master) drop(f findings, faults map[string]claimFault) (banned []string, dropped int) {
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
	v := blame(f, provenance{keys: keys, origin: m.origin, resent: m.resent, deliveries: m.deliveries, lives: livesOf(), epochSeq: m.epochSeq})
	keep := m.db
	if !v.keepAll {
		keep = solve.NewNimberDB()
		m.db.Range(func(k string, g uint32) bool {
			if v.discard[k] {
				delete(m.origin, k)
				delete(m.resent, k)
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
		m.record(eventBan, g, 0, "%s", banReason(faults, g))
	}
	m.claims, m.firstClaim = nil, map[string]uint64{}
	m.stats.Banned += len(banned)
	m.stats.Unbacked += len(faults)
	m.stats.Dropped += dropped
	m.account(m.now())
	m.newEpoch(keep)
	return banned, dropped
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
// every group is to be sent every value again. With the lock held.
func (m *Master) newEpoch(keep *solve.NimberDB) {
	m.db = keep
	m.epochSeq = m.seq
	m.jobs = map[string]*job{}
	select {
	case <-m.done:
		m.done = make(chan struct{})
	default:
	}
	m.epoch++
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
	for _, g := range m.groups {
		g.pending, g.cursor, g.jobs = nil, 0, map[string]*job{}
		m.db.Range(func(k string, v uint32) bool {
			g.pending = append(g.pending, solve.NimberEntry{Key: k, G: v})
			return true
		})
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
