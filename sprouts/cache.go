package sprouts

import (
	"bytes"
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
	shards   [cacheShards]cacheShard
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

type cacheSlot struct {
	hash       uint64 // 0: empty
	off        uint32
	klen, clen uint16
}

const cacheSlotBytes = 16

type cacheShard struct {
	mu      sync.RWMutex
	slots   []cacheSlot // a power of two long, or nil until first used
	arena   []byte
	used    int // slots in use
	maxArea int // arena bytes allowed
	limit   int // the shard's byte bound that slots and maxArea were sized for
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

func (c *landCache) shard(h uint64) *cacheShard { return &c.shards[h>>58] }

// appendGet appends the code cached for key to dst.
func (c *landCache) appendGet(dst, key []byte) ([]byte, bool) {
	h := c.hash(key)
	s := c.shard(h)
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.slots == nil {
		return dst, false
	}
	mask := len(s.slots) - 1
	for i := int(h>>6) & mask; ; i = (i + 1) & mask {
		sl := &s.slots[i]
		switch {
		case sl.hash == 0:
			return dst, false
		case sl.hash == h && int(sl.klen) == len(key):
			k := s.arena[sl.off : sl.off+uint32(sl.klen)]
			if bytes.Equal(k, key) {
				end := sl.off + uint32(sl.klen) + uint32(sl.clen)
				return append(dst, s.arena[sl.off+uint32(sl.klen):end]...), true
			}
		}
	}
}

func (c *landCache) put(key []byte, code []byte) {
	if len(key) > cacheMaxKey || len(code) > cacheMaxKey {
		return
	}
	limit := int(c.shardMax.Load())
	h := c.hash(key)
	s := c.shard(h)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ready(limit) {
		return
	}
	need := len(key) + len(code)
	if len(s.arena)+need > s.maxArea || 2*(s.used+1) > len(s.slots) {
		s.empty()
		if need > s.maxArea {
			return
		}
	}
	mask := len(s.slots) - 1
	i := int(h>>6) & mask
	for ; s.slots[i].hash != 0; i = (i + 1) & mask {
		sl := &s.slots[i]
		if sl.hash == h && int(sl.klen) == len(key) && bytes.Equal(s.arena[sl.off:sl.off+uint32(sl.klen)], key) {
			return // cached meanwhile
		}
	}
	s.slots[i] = cacheSlot{hash: h, off: uint32(len(s.arena)), klen: uint16(len(key)), clen: uint16(len(code))}
	s.arena = append(append(s.arena, key...), code...)
	s.used++
}

// ready sizes an unused shard for limit bytes, or resizes one whose limit
// changed, and reports whether the shard can hold anything.
func (s *cacheShard) ready(limit int) bool {
	if limit == s.limit && s.slots != nil {
		return true
	}
	s.limit = limit
	nSlots := 1
	for (nSlots*2)*cacheSlotBytes <= limit/cacheSlotShare {
		nSlots *= 2
	}
	area := limit - nSlots*cacheSlotBytes
	if nSlots < 16 || area < 256 {
		s.slots, s.arena, s.used = nil, nil, 0
		return false
	}
	if len(s.slots) != nSlots || s.maxArea != area {
		s.slots = make([]cacheSlot, nSlots)
		s.arena = make([]byte, 0, area)
		s.maxArea, s.used = area, 0
	}
	return true
}

func (s *cacheShard) empty() {
	clear(s.slots)
	s.arena = s.arena[:0]
	s.used = 0
}
