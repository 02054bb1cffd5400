package solve

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
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
// Entries live in buckets of ttWays. The locks and the thread sets exist
// only when the table is shared between threads, so a sequential table
// costs ttEntry's 40 bytes an entry and nothing more.
//
// An entry holds a 128-bit fingerprint of the couple's key, not the key:
// the table then holds no pointers, which the garbage collector would
// otherwise scan on every cycle (a table of 10⁶ entries is most of the
// heap), and keeps no position alive. Two couples share a fingerprint with
// probability about 2⁻¹²⁸ per comparison, far below the rate of hardware
// faults; a search misled so would still be caught by its certificate,
// whose checker compares positions whole. The nimber database, which
// certificates are made from, keys positions exactly.
type tt struct {
	buckets []ttBucket
	locks   []sync.Mutex // one per bucket, shared tables only
	threads [][ttWays]uint64
	policy  Replacement

	entries   atomic.Int64
	evictions atomic.Int64
	waits     atomic.Int64 // shared: bucket locks found taken
	waitNanos atomic.Int64 // shared: time spent waiting for them
}

type ttBucket [ttWays]ttEntry

// ttEntry is one couple. An entry is in use when pn or dn is not 0: no
// couple has both (that would be proved and disproved at once).
type ttEntry struct {
	fp     [2]uint64 // fingerprint of key and heap
	pn, dn uint64
	work   uint32 // saturating: only compared, to choose a victim
	_      uint32
}

func (e *ttEntry) used() bool { return e.pn != 0 || e.dn != 0 }

// TableBytes returns the memory a transposition table of capacity entries
// takes for a search with the given number of threads.
func TableBytes(capacity, threads int) uint64 {
	nb := uint64(max(1, capacity/ttWays))
	per := uint64(unsafe.Sizeof(ttBucket{}))
	if threads > 1 {
		per += uint64(unsafe.Sizeof(sync.Mutex{})) + uint64(unsafe.Sizeof([ttWays]uint64{}))
	}
	return nb * per
}

func newTT(capacity int, policy Replacement, shared bool) *tt {
	nb := max(1, capacity/ttWays)
	t := &tt{policy: policy}
	t.buckets = newBuckets(t, nb)
	if shared {
		t.locks = make([]sync.Mutex, nb)
		t.threads = make([][ttWays]uint64, nb)
	}
	return t
}

func (t *tt) capacity() int { return len(t.buckets) * ttWays }

// bucket returns the index of the couple's bucket, locked when the table is
// shared, and its fingerprint; release unlocks it.
func (t *tt) bucket(key string, n uint32) (int, [2]uint64) {
	fp := fingerprint(key, n)
	return t.lock(fp), fp
}

// lock returns the index of the bucket of fingerprint fp, locked when the
// table is shared.
func (t *tt) lock(fp [2]uint64) int {
	i := int(fp[0] % uint64(len(t.buckets)))
	if t.locks != nil && !t.locks[i].TryLock() {
		start := time.Now()
		t.locks[i].Lock()
		t.waits.Add(1)
		t.waitNanos.Add(int64(time.Since(start)))
	}
	return i
}

func (t *tt) release(i int) {
	if t.locks != nil {
		t.locks[i].Unlock()
	}
}

func solved(pn, dn uint64) bool { return pn == 0 || dn == 0 }

// find returns the way of bucket b that holds the couple, or -1.
func (t *tt) find(b int, fp [2]uint64) int {
	for i := range t.buckets[b] {
		e := &t.buckets[b][i]
		if e.fp == fp && e.used() {
			return i
		}
	}
	return -1
}

// get returns the stored values of a couple.
func (t *tt) get(key string, n uint32) (pn, dn, work, threads uint64, ok bool) {
	b, fp := t.bucket(key, n)
	defer t.release(b)
	i := t.find(b, fp)
	if i < 0 {
		return 0, 0, 0, 0, false
	}
	e := &t.buckets[b][i]
	if t.threads != nil {
		threads = t.threads[b][i]
	}
	return e.pn, e.dn, uint64(e.work), threads, true
}

// put stores the values of a couple. A solved value is never overwritten;
// otherwise pn and dn are replaced and work becomes the larger of the two.
// It reports the threads inside the couple and whether it was stored
// unsolved before, for the parallel search's notifications.
func (t *tt) put(key string, n uint32, pn, dn, work uint64) (threads uint64, wasUnsolved bool) {
	return t.putFP(fingerprint(key, n), pn, dn, work)
}

// putFP is put for a couple known by its fingerprint.
func (t *tt) putFP(fp [2]uint64, pn, dn, work uint64) (threads uint64, wasUnsolved bool) {
	b := t.lock(fp)
	defer t.release(b)
	w32 := uint32(min(work, 1<<32-1))
	if i := t.find(b, fp); i >= 0 {
		e := &t.buckets[b][i]
		if t.threads != nil {
			threads = t.threads[b][i]
		}
		if solved(e.pn, e.dn) {
			return threads, false
		}
		e.pn, e.dn = pn, dn
		e.work = max(e.work, w32)
		return threads, true
	}
	victim := -1
	for i := range t.buckets[b] {
		if !t.buckets[b][i].used() {
			victim = i
			break
		}
	}
	if victim < 0 {
		victim = t.victim(&t.buckets[b])
		t.evictions.Add(1)
	} else {
		t.entries.Add(1)
	}
	t.buckets[b][victim] = ttEntry{fp: fp, pn: pn, dn: dn, work: w32}
	if t.threads != nil {
		t.threads[b][victim] = 0
	}
	return 0, false
}

// victim chooses the entry of a full bucket to give up.
func (t *tt) victim(b *ttBucket) int {
	best := 0
	better := func(i int) bool {
		a, c := &b[i], &b[best]
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
	if t.threads == nil {
		return
	}
	b, fp := t.bucket(key, n)
	defer t.release(b)
	if i := t.find(b, fp); i >= 0 {
		if inside {
			t.threads[b][i] |= 1 << id
		} else {
			t.threads[b][i] &^= 1 << id
		}
	}
}

func (t *tt) clear() {
	clear(t.buckets)
	clear(t.threads)
	t.entries.Store(0)
	t.evictions.Store(0)
}
