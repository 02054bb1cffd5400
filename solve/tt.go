package solve

import (
	"runtime"
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
// Entries live in buckets of ttWays. The versions and the thread sets exist
// only when the table is shared between threads, so a sequential table
// costs ttEntry's 40 bytes an entry and nothing more.
//
// A shared table guards each bucket with a sequence lock: a writer makes
// the bucket's version odd, changes the bucket and makes it even again; a
// reader reads the version, the bucket and the version again, and reads
// again if a writer came between. Lookups, most of what the threads of a
// PDFPN do with the table, so write no memory at all, and two threads
// reading one bucket do not take its cache line from each other. Every
// word of a shared bucket is read and written atomically.
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
	vers    []atomic.Uint32 // one per bucket, shared tables only: odd while written
	threads [][ttWays]uint64
	policy  Replacement

	entries   atomic.Int64
	evictions atomic.Int64
	waits     atomic.Int64 // shared: buckets found being written
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

// load returns a copy of a shared entry, word by word.
func (e *ttEntry) load() ttEntry {
	return ttEntry{
		fp:   [2]uint64{atomic.LoadUint64(&e.fp[0]), atomic.LoadUint64(&e.fp[1])},
		pn:   atomic.LoadUint64(&e.pn),
		dn:   atomic.LoadUint64(&e.dn),
		work: atomic.LoadUint32(&e.work),
	}
}

// store sets a shared entry, word by word; the caller holds its bucket.
func (e *ttEntry) store(v ttEntry) {
	atomic.StoreUint64(&e.fp[0], v.fp[0])
	atomic.StoreUint64(&e.fp[1], v.fp[1])
	atomic.StoreUint64(&e.pn, v.pn)
	atomic.StoreUint64(&e.dn, v.dn)
	atomic.StoreUint32(&e.work, v.work)
}

// TableBytes returns the memory a transposition table of capacity entries
// takes for a search with the given number of threads.
func TableBytes(capacity, threads int) uint64 {
	nb := uint64(max(1, capacity/ttWays))
	per := uint64(unsafe.Sizeof(ttBucket{}))
	if threads > 1 {
		per += uint64(unsafe.Sizeof(atomic.Uint32{})) + uint64(unsafe.Sizeof([ttWays]uint64{}))
	}
	return nb * per
}

func newTT(capacity int, policy Replacement, shared bool) *tt {
	nb := max(1, capacity/ttWays)
	t := &tt{policy: policy}
	t.buckets = newBuckets(t, nb)
	if shared {
		t.vers = make([]atomic.Uint32, nb)
		t.threads = make([][ttWays]uint64, nb)
	}
	return t
}

func (t *tt) capacity() int { return len(t.buckets) * ttWays }

func (t *tt) index(fp [2]uint64) int { return int(fp[0] % uint64(len(t.buckets))) }

// lock returns the index of the bucket of fingerprint fp, held for writing
// when the table is shared; release lets it go.
func (t *tt) lock(fp [2]uint64) int {
	i := t.index(fp)
	if t.vers != nil {
		t.acquire(i)
	}
	return i
}

// acquire makes bucket i's version odd, waiting while another writer has it.
func (t *tt) acquire(i int) {
	v := &t.vers[i]
	if x := v.Load(); x&1 == 0 && v.CompareAndSwap(x, x+1) {
		return
	}
	start := time.Now()
	for spins := 0; ; spins++ {
		if x := v.Load(); x&1 == 0 && v.CompareAndSwap(x, x+1) {
			break
		}
		if spins%64 == 63 {
			runtime.Gosched() // the writer may have lost its core
		}
	}
	t.waits.Add(1)
	t.waitNanos.Add(int64(time.Since(start)))
}

func (t *tt) release(i int) {
	if t.vers != nil {
		t.vers[i].Add(1)
	}
}

// snapshot returns a consistent copy of bucket i and its thread sets,
// without writing anything when the table is shared.
func (t *tt) snapshot(i int) (b ttBucket, threads [ttWays]uint64) {
	if t.vers == nil {
		return t.buckets[i], threads
	}
	v := &t.vers[i]
	for spins := 0; ; spins++ {
		x := v.Load()
		if x&1 == 0 {
			for j := range b {
				b[j] = t.buckets[i][j].load()
				threads[j] = atomic.LoadUint64(&t.threads[i][j])
			}
			if v.Load() == x {
				return b, threads
			}
		}
		if spins%64 == 63 {
			runtime.Gosched()
		}
	}
}

func solved(pn, dn uint64) bool { return pn == 0 || dn == 0 }

// find returns the way of bucket b that holds the couple, or -1; the
// caller holds the bucket when the table is shared.
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
	fp := fingerprint(key, n)
	i := t.index(fp)
	if t.vers == nil {
		w := t.find(i, fp)
		if w < 0 {
			return 0, 0, 0, 0, false
		}
		e := &t.buckets[i][w]
		return e.pn, e.dn, uint64(e.work), 0, true
	}
	b, ths := t.snapshot(i)
	for w := range b {
		if e := &b[w]; e.fp == fp && e.used() {
			return e.pn, e.dn, uint64(e.work), ths[w], true
		}
	}
	return 0, 0, 0, 0, false
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
		t.set(e, ttEntry{fp: fp, pn: pn, dn: dn, work: max(e.work, w32)})
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
	t.set(&t.buckets[b][victim], ttEntry{fp: fp, pn: pn, dn: dn, work: w32})
	if t.threads != nil {
		atomic.StoreUint64(&t.threads[b][victim], 0)
	}
	return 0, false
}

// set writes entry e of a held bucket.
func (t *tt) set(e *ttEntry, v ttEntry) {
	if t.vers == nil {
		*e = v
		return
	}
	e.store(v)
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
	fp := fingerprint(key, n)
	b := t.lock(fp)
	defer t.release(b)
	if i := t.find(b, fp); i >= 0 {
		set := t.threads[b][i]
		if inside {
			set |= 1 << id
		} else {
			set &^= 1 << id
		}
		atomic.StoreUint64(&t.threads[b][i], set)
	}
}

func (t *tt) clear() {
	clear(t.buckets)
	clear(t.threads)
	t.entries.Store(0)
	t.evictions.Store(0)
}
