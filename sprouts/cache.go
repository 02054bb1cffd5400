package sprouts

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"sync"
	"sync/atomic"
)

// Cache remembers the canonical codes of lands met before, so that move
// generation through Rules canonicalises a land it has drawn before at the
// cost of one lookup, a small fraction of a canonicalisation: the same
// drawings come back again and again during a search (a search's children
// take about half the time with one, BenchmarkChildren). It is a value,
// not a part of the package: whoever sizes a search's memory makes one
// (NewCache) and gives it to the search's game (Rules.Cache); caches are
// independent of one another, and a nil *Cache caches nothing. What it
// holds never changes a result: entries are keyed by the exact drawing
// handed to the canonizer (its tokens with letters numbered in order of
// appearance, and its boundaries and regions), and keys are compared
// whole, never by hash alone, so a hit always returns the code the
// canonizer would compute. It is safe for concurrent use.
//
// Each shard is an open-addressing table over one byte arena that holds
// keys and codes side by side: a lookup touches a slot and then one run of
// bytes, where a map of strings would touch its control word, its slot,
// the key's text and the code's text. A shard starts small and is made
// anew at twice the size each time it fills, up to its share of the bound;
// a full shard at its bound is emptied: cheap, and what is used again
// comes back quickly. So a cache costs what its use asks for, up to the
// bound, however large the bound.
type Cache struct {
	seed     maphash.Seed
	shardMax int // bytes a shard may hold, slots and arena
	// tables are what lookups read, written only when a shard is made
	// anew; the locks and books of writers are kept apart from them.
	tables  [cacheShards]atomic.Pointer[cacheTable]
	_       [64]byte
	writers [cacheShards]cacheWriter
}

const (
	cacheShards = 64
	// DefaultCacheBytes is the bound of the cache of a search whose
	// memory nothing else sizes (a worker of the swarm, spots-corpus add).
	DefaultCacheBytes = 64 << 20
	// cacheFirstShard is the size a shard starts at: a cache used little
	// (a short search, one of many in a process) stays small.
	cacheFirstShard = 16 << 10
	// cacheSlotShare is the part of a shard's bytes given to slots; an
	// entry takes two slots (the table is kept at most half full) and
	// about 60 bytes of arena.
	cacheSlotShare = 4
	// cacheMaxKey bounds the key and code lengths a slot can describe;
	// longer lands are not cached.
	cacheMaxKey = 1<<16 - 1
)

// cacheTable is one shard's table. Every thread of a search looks lands up
// here, so a lookup writes nothing. The table is a sequence lock over an
// arena of 8-byte words, every word read and written atomically: a writer
// copies an entry into the arena past what is published and then publishes
// its slot (meta, then hash); a reader that sees the hash sees the entry.
// A full table is emptied in place: the writer makes gen odd, clears the
// slots, and makes gen even again, and a reader that finds gen changed
// after its lookup takes it for a miss. So emptying costs no allocation,
// and no reader ever returns bytes of an entry that was being overwritten.
type cacheTable struct {
	gen   atomic.Uint64 // odd while the writer empties the table
	slots []cacheSlot   // a power of two long
	words []uint64      // the arena; an entry is its key, then its code, each from a word's start
	limit int           // the shard's byte bound the table was sized for
}

type cacheSlot struct {
	hash atomic.Uint64 // 0: empty
	meta atomic.Uint64 // word offset << 32 | key length << 16 | code length
}

const cacheSlotBytes = 16

// cacheWriter serialises the writers of one shard and keeps its books.
type cacheWriter struct {
	mu   sync.Mutex
	used int // slots in use in the shard's table
	fill int // arena words in use
}

// NewCache returns an empty cache of canonical codes that takes at most
// about bytes bytes (DefaultCacheBytes, or a share of a memory budget:
// solve.MemoryPlan.GameCache). A bound too small for any entry returns
// nil, which caches nothing. Nothing is allocated until the cache is used.
func NewCache(bytes int64) *Cache {
	limit := bytes / cacheShards
	if limit > math.MaxInt32 {
		limit = math.MaxInt32 // the arena's word offsets are 32 bits (cacheSlot.meta)
	}
	if _, _, ok := cacheShape(int(limit)); !ok {
		return nil
	}
	return &Cache{seed: maphash.MakeSeed(), shardMax: int(limit)}
}

func (c *Cache) hash(key []byte) uint64 {
	return maphash.Bytes(c.seed, key) | 1 // never 0, the empty slot
}

func (c *Cache) shard(h uint64) int { return int(h >> 58) }

func words(n int) int { return (n + 7) / 8 }

func unpackMeta(m uint64) (off, klen, clen int) {
	return int(m >> 32), int(m>>16) & 0xFFFF, int(m) & 0xFFFF
}

// equal reports whether the n bytes of the arena from word off are b.
func (t *cacheTable) equal(off int, b []byte) bool {
	for len(b) >= 8 {
		if atomic.LoadUint64(&t.words[off]) != binary.LittleEndian.Uint64(b) {
			return false
		}
		off++
		b = b[8:]
	}
	if len(b) == 0 {
		return true
	}
	w := atomic.LoadUint64(&t.words[off])
	for i, c := range b {
		if byte(w>>(8*i)) != c {
			return false
		}
	}
	return true
}

// appendBytes appends the n bytes of the arena from word off to dst.
func (t *cacheTable) appendBytes(dst []byte, off, n int) []byte {
	for ; n >= 8; n -= 8 {
		dst = binary.LittleEndian.AppendUint64(dst, atomic.LoadUint64(&t.words[off]))
		off++
	}
	if n > 0 {
		w := atomic.LoadUint64(&t.words[off])
		for i := range n {
			dst = append(dst, byte(w>>(8*i)))
		}
	}
	return dst
}

// storeBytes writes b into the arena from word off.
func (t *cacheTable) storeBytes(off int, b []byte) {
	for len(b) >= 8 {
		atomic.StoreUint64(&t.words[off], binary.LittleEndian.Uint64(b))
		off++
		b = b[8:]
	}
	if len(b) > 0 {
		var w uint64
		for i, c := range b {
			w |= uint64(c) << (8 * i)
		}
		atomic.StoreUint64(&t.words[off], w)
	}
}

// appendGet appends the code cached for key to dst.
func (c *Cache) appendGet(dst, key []byte) ([]byte, bool) {
	h := c.hash(key)
	t := c.tables[c.shard(h)].Load()
	if t == nil {
		return dst, false
	}
	g := t.gen.Load()
	if g&1 != 0 {
		return dst, false
	}
	mask := len(t.slots) - 1
	for i := int(h>>6) & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		sh := sl.hash.Load()
		if sh == 0 {
			return dst, false
		}
		if sh != h {
			continue
		}
		off, klen, clen := unpackMeta(sl.meta.Load())
		if klen != len(key) || !t.equal(off, key) {
			continue
		}
		out := t.appendBytes(dst, off+words(klen), clen)
		if t.gen.Load() != g {
			return dst, false // emptied meanwhile: the bytes may be another entry's
		}
		return out, true
	}
}

func (c *Cache) put(key []byte, code []byte) {
	if len(key) > cacheMaxKey || len(code) > cacheMaxKey {
		return
	}
	h := c.hash(key)
	i := c.shard(h)
	w := &c.writers[i]
	w.mu.Lock()
	defer w.mu.Unlock()
	t := c.tables[i].Load()
	need := words(len(key)) + words(len(code))
	for t == nil || t.limit < c.shardMax && (w.fill+need > len(t.words) || 2*(w.used+1) > len(t.slots)) {
		// A first table, or one full below the bound: made anew at
		// twice the size, with what the old one held. Readers still on
		// the old one find it there; it is written no more.
		size := min(c.shardMax, cacheFirstShard)
		if t != nil {
			size = min(c.shardMax, 2*t.limit)
		}
		old := t
		t = newCacheTable(size)
		w.used, w.fill = 0, 0
		if old != nil {
			w.used, w.fill = t.copyFrom(old)
		}
		c.tables[i].Store(t)
	}
	if need > len(t.words) {
		return
	}
	if w.fill+need > len(t.words) || 2*(w.used+1) > len(t.slots) {
		t.gen.Add(1)
		for j := range t.slots {
			t.slots[j].hash.Store(0)
		}
		t.gen.Add(1)
		w.used, w.fill = 0, 0
	}
	mask := len(t.slots) - 1
	j := int(h>>6) & mask
	for ; t.slots[j].hash.Load() != 0; j = (j + 1) & mask {
		sl := &t.slots[j]
		if sl.hash.Load() != h {
			continue
		}
		if off, klen, _ := unpackMeta(sl.meta.Load()); klen == len(key) && t.equal(off, key) {
			return // cached meanwhile
		}
	}
	off := w.fill
	t.storeBytes(off, key)
	t.storeBytes(off+words(len(key)), code)
	w.fill += need
	w.used++
	t.slots[j].meta.Store(uint64(off)<<32 | uint64(len(key))<<16 | uint64(len(code)))
	t.slots[j].hash.Store(h)
}

// cacheShape returns the slots and arena words of a table sized for a
// shard bound of limit bytes; ok is false when the bound leaves room for
// nothing.
func cacheShape(limit int) (nSlots, nWords int, ok bool) {
	nSlots = 1
	for (nSlots*2)*cacheSlotBytes <= limit/cacheSlotShare {
		nSlots *= 2
	}
	area := limit - nSlots*cacheSlotBytes
	return nSlots, area / 8, nSlots >= 16 && area >= 256
}

// newCacheTable returns an empty table sized for a shard bound of limit
// bytes, or nil when the bound leaves room for nothing.
func newCacheTable(limit int) *cacheTable {
	nSlots, nWords, ok := cacheShape(limit)
	if !ok {
		return nil
	}
	return &cacheTable{slots: make([]cacheSlot, nSlots), words: make([]uint64, nWords), limit: limit}
}

// copyFrom fills the empty table t, not yet published, with the entries
// of old, a table no longer written, and returns the slots and arena
// words they take. t is larger than old, so they all fit.
func (t *cacheTable) copyFrom(old *cacheTable) (used, fill int) {
	mask := len(t.slots) - 1
	for k := range old.slots {
		h := old.slots[k].hash.Load()
		if h == 0 {
			continue
		}
		off, klen, clen := unpackMeta(old.slots[k].meta.Load())
		n := words(klen) + words(clen)
		if fill+n > len(t.words) || 2*(used+1) > len(t.slots) {
			break
		}
		copy(t.words[fill:fill+n], old.words[off:off+n])
		j := int(h>>6) & mask
		for t.slots[j].hash.Load() != 0 {
			j = (j + 1) & mask
		}
		t.slots[j].meta.Store(uint64(fill)<<32 | uint64(klen)<<16 | uint64(clen))
		t.slots[j].hash.Store(h)
		fill += n
		used++
	}
	return used, fill
}
