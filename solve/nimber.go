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
type NimberDB struct {
	seed maphash.Seed
	// tables are what lookups read, written only when a shard grows; the
	// locks and counts that writers change are kept apart from them, so
	// that adding an entry does not take a line every lookup reads.
	tables  [nimberShards]atomic.Pointer[probeTable[uint32]]
	_       [64]byte
	writers [nimberShards]nimberWriter

	// The journal lists the entries Put added, for a distributed search to
	// pass on; Learn adds entries without journaling them.
	jmu     sync.Mutex
	journal []NimberEntry
	track   bool
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
		db.tables[i].Store(newProbeTable[uint32](nimberMinSlots))
	}
	return db
}

// locate returns the shard of key and its hash.
func (db *NimberDB) locate(key string) (int, uint64) {
	h := maphash.String(db.seed, key)
	return int(h >> (64 - nimberShardBits)), h
}

// Get returns the Grundy value of the atomic position with the given key.
func (db *NimberDB) Get(key string) (uint32, bool) {
	i, h := db.locate(key)
	if e := db.tables[i].Load().find(key, h); e != nil {
		return e.val, true
	}
	return 0, false
}

// Put records gn(key) = g and reports whether the entry is new. An existing
// entry is kept: a second proof of the same position gives the same value.
func (db *NimberDB) Put(key string, g uint32) bool {
	if !db.add(key, g) {
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
// for entries received from elsewhere.
func (db *NimberDB) Learn(key string, g uint32) bool { return db.add(key, g) }

func (db *NimberDB) add(key string, g uint32) bool {
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
	t.insert(&probeEntry[uint32]{hash: h, key: strings.Clone(key), val: g})
	s.n++
	return true
}

// Track starts journaling the entries Put adds. Call it before the
// database is shared.
func (db *NimberDB) Track() { db.track = true }

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
			if e := t.slots[j].Load(); e != nil && !f(e.key, e.val) {
				return
			}
		}
	}
}

// Clear removes every entry (a distributed search's "state level 2").
func (db *NimberDB) Clear() {
	for i := range db.writers {
		s := &db.writers[i]
		s.mu.Lock()
		db.tables[i].Store(newProbeTable[uint32](nimberMinSlots))
		s.n = 0
		s.mu.Unlock()
	}
	db.jmu.Lock()
	db.journal = nil
	db.jmu.Unlock()
}
