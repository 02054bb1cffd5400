package solve

import (
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"
)

// NimberDB maps the keys of atomic positions to their Grundy values. It only
// grows: an entry is added when the solver proves a couple (P, g) with P
// atomic to be a Loss, which says gn(P) = g, and is never evicted. It is safe
// for concurrent use.
//
// Every thread of a search asks it about every child it makes, so a lookup
// writes no memory that another thread reads: each shard is an
// open-addressing table of pointers to immutable entries (a probeTable),
// which writers (serialised by the shard's lock) fill slot by slot and
// replace by a larger copy when it is half full. A lookup that runs while a value is
// being added may miss it, as it would had it come a moment earlier; once
// Put has returned, every lookup sees the value.
//
// With TrackReads, an entry added by Learn is marked until it is first
// looked up: that lookup writes the mark once and journals the key
// (TakeReads), and every later lookup of it only reads, as any other does.
type NimberDB struct {
	seed maphash.Seed
	// tables are what lookups read, written only when a shard grows; the
	// locks and counts that writers change are kept apart from them, so
	// that adding an entry does not take a line every lookup reads.
	tables  [nimberShards]atomic.Pointer[probeTable[nimberValue]]
	_       [64]byte
	writers [nimberShards]nimberWriter

	// The journal lists the entries Put added, for a distributed search to
	// pass on; Learn adds entries without journaling them.
	jmu     sync.Mutex
	journal []NimberEntry
	track   bool

	// reads lists the learned entries first looked up since the last
	// TakeReads, when trackReads is set.
	rmu        sync.Mutex
	reads      []NimberEntry
	trackReads bool
}

// nimberValue is a Grundy value as the database stores it, with the mark
// of a learned entry not yet looked up (TrackReads).
type nimberValue struct {
	g      uint32
	unread atomic.Bool
}

// NimberEntry is one entry of a nimber database: gn(Key) = G.
type NimberEntry struct {
	Key string
	G   uint32
}

const (
	nimberShards    = 64
	nimberShardBits = 6
	nimberMinSlots  = 16
)

// nimberWriter serialises the writers of one shard.
type nimberWriter struct {
	mu sync.Mutex
	n  int // entries, under mu
}

// NewNimberDB returns an empty database.
func NewNimberDB() *NimberDB {
	db := &NimberDB{seed: maphash.MakeSeed()}
	for i := range db.tables {
		db.tables[i].Store(newProbeTable[nimberValue](nimberMinSlots))
	}
	return db
}

// locate returns the shard of key and its hash.
func (db *NimberDB) locate(key string) (int, uint64) {
	h := maphash.String(db.seed, key)
	return int(h >> (64 - nimberShardBits)), h
}

// Get returns the Grundy value of the atomic position with the given key.
// The first lookup of a learned entry, with TrackReads, journals its key
// before it returns the value: whatever is derived from the value comes
// after the key is in the journal.
func (db *NimberDB) Get(key string) (uint32, bool) {
	i, h := db.locate(key)
	e := db.tables[i].Load().find(key, h)
	if e == nil {
		return 0, false
	}
	if e.val.unread.Load() {
		db.noteRead(e)
	}
	return e.val.g, true
}

// noteRead journals the key of a learned entry on its first lookup. The
// mark is cleared under the journal's lock, after the key is appended, so
// that a lookup that finds it cleared knows the key is journaled.
func (db *NimberDB) noteRead(e *probeEntry[nimberValue]) {
	db.rmu.Lock()
	defer db.rmu.Unlock()
	if e.val.unread.Load() {
		db.reads = append(db.reads, NimberEntry{e.key, e.val.g})
		e.val.unread.Store(false)
	}
}

// Put records gn(key) = g and reports whether the entry is new. An existing
// entry is kept: a second proof of the same position gives the same value.
func (db *NimberDB) Put(key string, g uint32) bool {
	if !db.add(key, g, false) {
		return false
	}
	if db.track {
		db.jmu.Lock()
		db.journal = append(db.journal, NimberEntry{key, g})
		db.jmu.Unlock()
	}
	return true
}

// Learn records gn(key) = g as Put does, but keeps it out of the journal:
// for entries received from elsewhere. With TrackReads, the entry's first
// lookup is journaled (TakeReads).
func (db *NimberDB) Learn(key string, g uint32) bool { return db.add(key, g, db.trackReads) }

// LearnProved records gn(key) = g as Learn does, but its lookups are never
// journaled: for values held as proved (a certificate's), on which it
// does not matter what rests.
func (db *NimberDB) LearnProved(key string, g uint32) bool { return db.add(key, g, false) }

func (db *NimberDB) add(key string, g uint32, unread bool) bool {
	i, h := db.locate(key)
	s := &db.writers[i]
	s.mu.Lock()
	defer s.mu.Unlock()
	t := db.tables[i].Load()
	if t.find(key, h) != nil {
		return false
	}
	if 2*(s.n+1) > len(t.slots) {
		// Readers go on with the old table, which stays valid; the
		// entry is added to the new one only.
		t = t.grown()
		db.tables[i].Store(t)
	}
	// A key may share its bytes with the rest of a block (a game may make
	// the keys of all children of a position in one): a copy keeps only
	// itself alive for as long as the database lives.
	e := &probeEntry[nimberValue]{hash: h, key: strings.Clone(key), val: nimberValue{g: g}}
	e.val.unread.Store(unread)
	t.insert(e)
	s.n++
	return true
}

// Track starts journaling the entries Put adds. Call it before the
// database is shared.
func (db *NimberDB) Track() { db.track = true }

// TrackReads starts journaling the first lookup of each entry Learn adds
// from now on (TakeReads). Call it before the database is shared.
func (db *NimberDB) TrackReads() { db.trackReads = true }

// TakeReads returns the entries added by Learn that were first looked up
// since the last call, and empties that journal. A value derived from a
// learned one was put after the learned one was journaled: taken after
// TakeNew, the reads cover every entry TakeNew returned.
func (db *NimberDB) TakeReads() []NimberEntry {
	db.rmu.Lock()
	defer db.rmu.Unlock()
	out := db.reads
	db.reads = nil
	return out
}

// TakeNew returns the entries added by Put since the last call and empties
// the journal.
func (db *NimberDB) TakeNew() []NimberEntry {
	db.jmu.Lock()
	defer db.jmu.Unlock()
	out := db.journal
	db.journal = nil
	return out
}

// Len returns the number of entries.
func (db *NimberDB) Len() int {
	n := 0
	for i := range db.writers {
		s := &db.writers[i]
		s.mu.Lock()
		n += s.n
		s.mu.Unlock()
	}
	return n
}

// Range calls f for every entry, in no particular order, until f returns
// false. f must not modify the database. Entries added while Range runs
// may or may not be seen.
func (db *NimberDB) Range(f func(key string, g uint32) bool) {
	for i := range db.tables {
		t := db.tables[i].Load()
		for j := range t.slots {
			if e := t.slots[j].Load(); e != nil && !f(e.key, e.val.g) {
				return
			}
		}
	}
}

// Forget removes the entries drop reports, and returns how many it
// removed. Each shard that loses one is replaced by a copy without
// them, so lookups that run meanwhile read the old table safely, and may
// still see what is being removed, as if they had come a moment earlier.
// The journals are left as they are.
func (db *NimberDB) Forget(drop func(NimberEntry) bool) int {
	removed := 0
	for i := range db.writers {
		s := &db.writers[i]
		s.mu.Lock()
		t := db.tables[i].Load()
		var keep []*probeEntry[nimberValue]
		gone := 0
		for j := range t.slots {
			if e := t.slots[j].Load(); e != nil {
				if drop(NimberEntry{e.key, e.val.g}) {
					gone++
				} else {
					keep = append(keep, e)
				}
			}
		}
		if gone > 0 {
			slots := nimberMinSlots
			for 2*len(keep) > slots {
				slots *= 2
			}
			nt := newProbeTable[nimberValue](slots)
			for _, e := range keep {
				nt.insert(e)
			}
			db.tables[i].Store(nt)
			s.n -= gone
			removed += gone
		}
		s.mu.Unlock()
	}
	return removed
}

// Clear removes every entry (a distributed search's "state level 2").
func (db *NimberDB) Clear() {
	for i := range db.writers {
		s := &db.writers[i]
		s.mu.Lock()
		db.tables[i].Store(newProbeTable[nimberValue](nimberMinSlots))
		s.n = 0
		s.mu.Unlock()
	}
	db.jmu.Lock()
	db.journal = nil
	db.jmu.Unlock()
	db.rmu.Lock()
	db.reads = nil
	db.rmu.Unlock()
}
