package sprouts

import (
	"encoding/binary"
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// landCache remembers the canonical code of lands met before, keyed by the
// exact drawing handed to the canonizer (its tokens with letters numbered in
// order of appearance, and its boundaries and regions). The same drawings
// come back again and again during a search, and a lookup costs a small
// fraction of a canonicalisation. Keys are compared whole, never by hash
// alone, so a hit always returns the code the canonizer would compute.
//
// Each shard is an open-addressing table over one byte arena that holds
// keys and codes side by side: a lookup touches a slot and then one run of
// bytes, where a map of strings would touch its control word, its slot,
// the key's text and the code's text. A full shard is emptied: cheap, and
// what is used again comes back quickly.
type landCache struct {
	seed     maphash.Seed
	shardMax atomic.Int64 // bytes a shard may hold, slots and arena
	// tables are what lookups read, written only when a shard is made
	// anew; the locks and books of writers are kept apart from them.
	tables  [cacheShards]atomic.Pointer[cacheTable]
	_       [64]byte
	writers [cacheShards]cacheWriter
}

const (
	cacheShards = 64
	// DefaultCacheBytes is the memory the land cache may take unless
	// SetCacheBytes says otherwise.
	DefaultCacheBytes = 64 << 20
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

var lands = newLandCache(DefaultCacheBytes)

func newLandCache(bytes int64) *landCache {
	c := &landCache{seed: maphash.MakeSeed()}
	c.shardMax.Store(bytes / cacheShards)
	return c
}

// SetCacheBytes bounds the memory of the cache of canonical codes that
// move generation keeps (DefaultCacheBytes until it is called); a bound
// too small for any entry turns the cache off. It is safe to call at any
// time; a new bound takes effect as shards fill.
func SetCacheBytes(bytes int64) {
	lands.shardMax.Store(bytes / cacheShards)
}

// cacheLands turns the cache off in tests and benchmarks that measure or
// check the canonizer itself.
var cacheLands = true

func (c *landCache) hash(key []byte) uint64 {
	return maphash.Bytes(c.seed, key) | 1 // never 0, the empty slot
}

func (c *landCache) shard(h uint64) int { return int(h >> 58) }

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
func (c *landCache) appendGet(dst, key []byte) ([]byte, bool) {
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

func (c *landCache) put(key []byte, code []byte) {
	if len(key) > cacheMaxKey || len(code) > cacheMaxKey {
		return
	}
	limit := int(c.shardMax.Load())
	h := c.hash(key)
	i := c.shard(h)
	w := &c.writers[i]
	w.mu.Lock()
	defer w.mu.Unlock()
	t := c.tables[i].Load()
	if t == nil || t.limit != limit {
		t = newCacheTable(limit)
		c.tables[i].Store(t)
		w.used, w.fill = 0, 0
		if t == nil {
			return
		}
	}
	need := words(len(key)) + words(len(code))
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

// newCacheTable returns an empty table sized for a shard bound of limit
// bytes, or nil when the bound leaves room for nothing.
func newCacheTable(limit int) *cacheTable {
	nSlots := 1
	for (nSlots*2)*cacheSlotBytes <= limit/cacheSlotShare {
		nSlots *= 2
	}
	area := limit - nSlots*cacheSlotBytes
	if nSlots < 16 || area < 256 {
		return nil
	}
	return &cacheTable{slots: make([]cacheSlot, nSlots), words: make([]uint64, area/8), limit: limit}
}
