package swarm

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// taint is when a group was first sent a value that may be wrong (a wrong
// value, a culprit's, or one that rests on such a value), and the fewest
// lives of such a value sent to it. What the group sent after seq may rest
// on it, but only a value of a position of more lives: every move takes a
// life, so a position's value rests only on values of positions of fewer
// lives. The zero taint covers nothing.
type taint struct {
	seq   uint64
	lives int
	set   bool
}

// covers reports whether a value of a position of the given lives, sent at
// exchange seq by the tainted group, may rest on what tainted it.
func (t taint) covers(seq uint64, lives int) bool {
	return t.set && seq > t.seq && lives > t.lives
}

// livesOf returns a function giving the lives of the position of a key,
// each worked out once; a key that is no position has the most lives, so
// that it is never taken to rest on nothing.
func livesOf() func(string) int {
	memo := map[string]int{}
	return func(k string) int {
		if n, ok := memo[k]; ok {
			return n
		}
		n := math.MaxInt
		if p, err := sprouts.FromKey(k); err == nil {
			n = p.Lives()
		}
		memo[k] = n
		return n
	}
}

// taints works out which groups were sent values that may be wrong, and
// when (see taint): values found wrong, values of culprits, the master's
// own derivations since t0 of positions of more lives than minBad (they
// may rest on a culprit's), and values a tainted group sent that may rest
// on what tainted it, until nothing changes. A group sent only values
// that cannot be wrong is not tainted, so what it proves is kept: the
// values are shared with every group, so counting every delivery after
// the first lie, as this did, threw away every honest value each time a
// liar was caught. With the lock held.
func (m *Master) taints(wrong, culprits map[string]bool, t0 uint64, minBad int, lives func(string) int) map[string]taint {
	tainted := map[string]taint{}
	suspicious := func(k string, o valueOrigin) bool {
		return wrong[k] || culprits[o.group] || o.group == "" && o.seq >= t0 && lives(k) > minBad ||
			tainted[o.group].covers(o.seq, lives(k))
	}
	for changed := true; changed; {
		changed = false
		for group, ds := range m.deliveries {
			t := tainted[group]
			for _, d := range ds {
				if d.arrived < t0 {
					continue // nothing sent had arrived since the first lie
				}
				if d.log == nil && d.pending == nil {
					// Of an earlier epoch, its content let go: anything
					// sent after it may rest on it.
					t = worse(t, d.seq, 0)
					continue
				}
				for _, v := range d.log {
					if v.from != group && suspicious(v.e.Key, valueOrigin{v.from, v.seq}) {
						t = worse(t, d.seq, lives(v.e.Key))
					}
				}
				for _, e := range d.pending {
					if suspicious(e.Key, m.origin[e.Key]) {
						t = worse(t, d.seq, lives(e.Key))
					}
				}
			}
			if t != tainted[group] {
				tainted[group], changed = t, true
			}
		}
	}
	return tainted
}

// worse is t with a suspicious value of the given lives sent at seq.
func worse(t taint, seq uint64, lives int) taint {
	if !t.set {
		return taint{seq: seq, lives: lives, set: true}
	}
	return taint{seq: min(t.seq, seq), lives: min(t.lives, lives), set: true}
}

// drop removes the wrong values, bans their senders and those of the
// refuted disputes (wrong values the master did not keep) that could not
// have taken them from others, and the liars (groups that reported
// outcomes their values do not back), drops everything that may rest on
// their values or claims, and the underived values, then rebuilds the DAG
// and starts a new epoch. With the lock held.
func (m *Master) drop(wrong, underived map[string]bool, refuted []dispute, liars map[string]claimFault) (banned []string, dropped int) {
	// The culprits: the liars, and the senders of wrong values they could
	// not have taken from others. A group's values may rest on those of a
	// culprit from the first exchange at which it was sent values that
	// arrived after the culprit's first value or claim (the master's own
	// derivations may rest on a claim); its wrong values sent after that
	// are explained, its wrong values sent before are its own.
	const never = uint64(1<<63 - 1)
	culprits := map[string]bool{}
	t0 := never // the first arrival of a value or claim of a culprit (or of a wrong value without a sender)
	for g := range liars {
		culprits[g] = true
		first, ok := m.firstClaim[g]
		if !ok {
			first = liars[g].claim.seq
		}
		t0 = min(t0, first)
	}
	lives := livesOf()
	var tainted map[string]taint
	minBad := math.MaxInt // the fewest lives of a wrong value or a culprit's
	for changed := true; changed; {
		changed = false
		for k := range m.origin {
			if o := m.origin[k]; culprits[o.group] {
				t0 = min(t0, o.seq)
				minBad = min(minBad, lives(k))
			}
		}
		for k := range wrong {
			minBad = min(minBad, lives(k))
			if o := m.origin[k]; o.group == "" || o.group == savedOrigin {
				t0 = min(t0, o.seq)
			}
		}
		tainted = m.taints(wrong, culprits, t0, minBad, lives)
		// The earliest wrong value not explained names a culprit.
		first, firstSeq := "", never
		for k := range wrong {
			o := m.origin[k]
			if o.group == "" || o.group == savedOrigin || culprits[o.group] {
				continue
			}
			if tainted[o.group].covers(o.seq, lives(k)) {
				continue // it may rest on a culprit's values
			}
			if o.seq < firstSeq || o.seq == firstSeq && o.group < first {
				first, firstSeq = o.group, o.seq
			}
		}
		for _, d := range refuted {
			if culprits[d.group] {
				continue
			}
			if tainted[d.group].covers(d.seq, lives(d.key)) {
				continue
			}
			if d.seq < firstSeq || d.seq == firstSeq && d.group < first {
				first, firstSeq = d.group, d.seq
			}
		}
		if first != "" {
			culprits[first] = true
			changed = true
		}
	}
	// A value stays if one of its senders is trusted with it: neither a
	// culprit nor, when it sent the value, possibly resting on one.
	trusted := func(o valueOrigin, k string) bool {
		return !culprits[o.group] && !(o.group == "" && o.seq >= t0 && lives(k) > minBad) && !tainted[o.group].covers(o.seq, lives(k))
	}
	keep := solve.NewNimberDB()
	m.db.Range(func(k string, g uint32) bool {
		o, known := m.origin[k]
		senders := append([]valueOrigin{o}, m.resent[k]...)
		senders = slices.DeleteFunc(senders, func(o valueOrigin) bool { return !trusted(o, k) })
		if wrong[k] || underived[k] || !known || len(senders) == 0 {
			delete(m.origin, k)
			delete(m.resent, k)
			dropped++
			return true
		}
		keep.Put(k, g)
		m.origin[k] = senders[0]
		if len(senders) > 1 {
			m.resent[k] = senders[1:]
		} else {
			delete(m.resent, k)
		}
		return true
	})
	if len(wrong) == 0 && len(underived) == 0 && len(culprits) == 0 {
		// Nothing found wrong: the values stay, the master's own
		// derivations too; the DAG is rebuilt from them.
		dropped = 0
		keep = m.db
	}
	for g := range culprits {
		m.banned[g] = true
		m.forget(g)
		delete(m.deliveries, g)
		banned = append(banned, g)
	}
	sort.Strings(banned)
	for _, g := range banned {
		why := "it sent wrong Grundy values"
		if f, ok := liars[g]; ok && f.wrong {
			why = fmt.Sprintf("it reported a wrong outcome, %s+*%d=%s", f.claim.pos, f.claim.n, f.claim.out)
		} else if ok {
			why = fmt.Sprintf("it reported outcomes without the values that prove them (%s+*%d=%s)", f.claim.pos, f.claim.n, f.claim.out)
		}
		m.record(EventBan, g, 0, "%s", why)
	}
	m.claims, m.firstClaim = nil, map[string]uint64{}
	m.stats.Banned += len(banned)
	m.stats.Unbacked += len(liars)
	m.stats.Dropped += dropped
	m.account(m.now())
	m.db = keep
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
	return banned, dropped
}
