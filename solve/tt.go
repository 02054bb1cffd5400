package solve

import (
	"sync"
	"sync/atomic"
	"time"
)

// Replacement chooses which entry a full bucket of the transposition table
// gives up for a new one.
type Replacement int8

const (
	// EvictSolvedFirst gives up a solved entry if the bucket holds one, else
	// the one with the least work. Losses live on in the nimber database and
	// a Win is proved again by one lookup there, so solved entries are the
	// cheapest to lose.
	EvictSolvedFirst Replacement = iota
	// KeepSolved gives up the unsolved entry with the least work and a solved
	// one only when the bucket holds nothing else.
	KeepSolved
)

const ttWays = 4

// tt is a transposition table of fixed capacity: couple → (pn, dn, work),
// plus in parallel search the set of threads inside the couple's subtree.
// Entries live in buckets of ttWays; a bucket is locked only when the table
// is shared between threads.
type tt struct {
	buckets []ttBucket
	policy  Replacement
	shared  bool

	entries   atomic.Int64
	evictions atomic.Int64
	waits     atomic.Int64 // shared: bucket locks found taken
	waitNanos atomic.Int64 // shared: time spent waiting for them
}

type ttBucket struct {
	mu sync.Mutex
	e  [ttWays]ttEntry
}

type ttEntry struct {
	key     string
	n       uint32
	used    bool
	threads uint64 // bit i: thread i is inside this couple's subtree
	pn, dn  uint64
	work    uint64
}

func newTT(capacity int, policy Replacement, shared bool) *tt {
	nb := max(1, capacity/ttWays)
	return &tt{buckets: make([]ttBucket, nb), policy: policy, shared: shared}
}

func (t *tt) bucket(key string, n uint32) *ttBucket {
	b := &t.buckets[hashKey(key, n)%uint64(len(t.buckets))]
	if t.shared && !b.mu.TryLock() {
		start := time.Now()
		b.mu.Lock()
		t.waits.Add(1)
		t.waitNanos.Add(int64(time.Since(start)))
	}
	return b
}

func (t *tt) release(b *ttBucket) {
	if t.shared {
		b.mu.Unlock()
	}
}

func solved(pn, dn uint64) bool { return pn == 0 || dn == 0 }

// get returns the stored values of a couple.
func (t *tt) get(key string, n uint32) (pn, dn, work, threads uint64, ok bool) {
	b := t.bucket(key, n)
	defer t.release(b)
	for i := range b.e {
		e := &b.e[i]
		if e.used && e.n == n && e.key == key {
			return e.pn, e.dn, e.work, e.threads, true
		}
	}
	return 0, 0, 0, 0, false
}

// put stores the values of a couple. A solved value is never overwritten;
// otherwise pn and dn are replaced and work becomes the larger of the two.
// It reports the value stored before (solvedBefore tells whether it was
// solved) for the parallel search's notifications.
func (t *tt) put(key string, n uint32, pn, dn, work uint64) (threads uint64, wasUnsolved bool) {
	b := t.bucket(key, n)
	defer t.release(b)
	for i := range b.e {
		e := &b.e[i]
		if e.used && e.n == n && e.key == key {
			if solved(e.pn, e.dn) {
				return e.threads, false
			}
			e.pn, e.dn = pn, dn
			e.work = max(e.work, work)
			return e.threads, true
		}
	}
	victim := -1
	for i := range b.e {
		if !b.e[i].used {
			victim = i
			break
		}
	}
	if victim < 0 {
		victim = t.victim(b)
		t.evictions.Add(1)
	} else {
		t.entries.Add(1)
	}
	b.e[victim] = ttEntry{key: key, n: n, used: true, pn: pn, dn: dn, work: work}
	return 0, false
}

// victim chooses the entry of a full bucket to give up.
func (t *tt) victim(b *ttBucket) int {
	best := 0
	better := func(i int) bool {
		a, c := &b.e[i], &b.e[best]
		as, cs := solved(a.pn, a.dn), solved(c.pn, c.dn)
		if as != cs {
			if t.policy == EvictSolvedFirst {
				return as
			}
			return cs
		}
		return a.work < c.work
	}
	for i := 1; i < ttWays; i++ {
		if better(i) {
			best = i
		}
	}
	return best
}

// register adds or removes thread id from a couple's entry, if it is stored.
func (t *tt) register(key string, n uint32, id int, inside bool) {
	b := t.bucket(key, n)
	defer t.release(b)
	for i := range b.e {
		e := &b.e[i]
		if e.used && e.n == n && e.key == key {
			if inside {
				e.threads |= 1 << id
			} else {
				e.threads &^= 1 << id
			}
			return
		}
	}
}

func (t *tt) clear() {
	for i := range t.buckets {
		t.buckets[i] = ttBucket{}
	}
	t.entries.Store(0)
	t.evictions.Store(0)
}
