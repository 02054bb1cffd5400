package sprouts

import (
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
type landCache struct {
	seed     maphash.Seed
	shardMax atomic.Int64 // bytes a shard may hold before it is emptied
	shards   [cacheShards]cacheShard
}

const (
	cacheShards = 64
	// DefaultCacheBytes is the memory the land cache may take unless
	// SetCacheBytes says otherwise.
	DefaultCacheBytes = 64 << 20
	// cacheEntryOverhead is what an entry costs beyond the bytes of its key
	// and code: the map slot, two string headers and allocation rounding.
	cacheEntryOverhead = 64
)

type cacheShard struct {
	mu    sync.RWMutex
	m     map[string]string
	bytes int64
}

var lands = newLandCache(DefaultCacheBytes)

func newLandCache(bytes int64) *landCache {
	c := &landCache{seed: maphash.MakeSeed()}
	c.shardMax.Store(bytes / cacheShards)
	return c
}

// SetCacheBytes bounds the memory of the cache of canonical codes that
// move generation keeps (DefaultCacheBytes until it is called); 0 or less
// turns the cache off. It is safe to call at any time; a smaller bound
// takes effect as shards fill.
func SetCacheBytes(bytes int64) {
	lands.shardMax.Store(bytes / cacheShards)
}

// cacheLands turns the cache off in tests and benchmarks that measure or
// check the canonizer itself.
var cacheLands = true

func (c *landCache) shard(key []byte) *cacheShard {
	return &c.shards[maphash.Bytes(c.seed, key)%cacheShards]
}

func (c *landCache) get(key []byte) (string, bool) {
	s := c.shard(key)
	s.mu.RLock()
	code, ok := s.m[string(key)]
	s.mu.RUnlock()
	return code, ok
}

func (c *landCache) put(key []byte, code string) {
	limit := c.shardMax.Load()
	cost := int64(len(key) + len(code) + cacheEntryOverhead)
	if cost > limit {
		return
	}
	s := c.shard(key)
	s.mu.Lock()
	if s.m == nil || s.bytes+cost > limit {
		// Emptying a full shard keeps memory bounded without bookkeeping;
		// what is used again comes back quickly.
		s.m = make(map[string]string, min(limit/128, 1<<13))
		s.bytes = 0
	}
	if _, ok := s.m[string(key)]; !ok {
		s.m[string(key)] = code
		s.bytes += cost
	}
	s.mu.Unlock()
}
