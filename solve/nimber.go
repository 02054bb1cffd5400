package solve

import (
	"hash/maphash"
	"strings"
	"sync"
)

// NimberDB maps the keys of atomic positions to their Grundy values. It only
// grows: an entry is added when the solver proves a couple (P, g) with P
// atomic to be a Loss, which says gn(P) = g, and is never evicted. It is safe
// for concurrent use.
type NimberDB struct {
	seed   maphash.Seed
	shards [nimberShards]nimberShard

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

const nimberShards = 32

type nimberShard struct {
	mu sync.RWMutex
	m  map[string]uint32
}

// NewNimberDB returns an empty database.
func NewNimberDB() *NimberDB {
	db := &NimberDB{seed: maphash.MakeSeed()}
	for i := range db.shards {
		db.shards[i].m = make(map[string]uint32)
	}
	return db
}

func (db *NimberDB) shard(key string) *nimberShard {
	return &db.shards[maphash.String(db.seed, key)%nimberShards]
}

// Get returns the Grundy value of the atomic position with the given key.
func (db *NimberDB) Get(key string) (uint32, bool) {
	s := db.shard(key)
	s.mu.RLock()
	g, ok := s.m[key]
	s.mu.RUnlock()
	return g, ok
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
	s := db.shard(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[key]; ok {
		return false
	}
	// A key may share its bytes with the rest of a block (a game may make
	// the keys of all children of a position in one): a copy keeps only
	// itself alive for as long as the database lives.
	s.m[strings.Clone(key)] = g
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
	for i := range db.shards {
		s := &db.shards[i]
		s.mu.RLock()
		n += len(s.m)
		s.mu.RUnlock()
	}
	return n
}

// Range calls f for every entry, in no particular order, until f returns
// false. f must not modify the database.
func (db *NimberDB) Range(f func(key string, g uint32) bool) {
	for i := range db.shards {
		s := &db.shards[i]
		s.mu.RLock()
		for k, g := range s.m {
			if !f(k, g) {
				s.mu.RUnlock()
				return
			}
		}
		s.mu.RUnlock()
	}
}

// Clear removes every entry (a distributed search's "state level 2").
func (db *NimberDB) Clear() {
	for i := range db.shards {
		s := &db.shards[i]
		s.mu.Lock()
		s.m = make(map[string]uint32)
		s.mu.Unlock()
	}
	db.jmu.Lock()
	db.journal = nil
	db.jmu.Unlock()
}
