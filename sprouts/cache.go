package sprouts

import (
	"hash/maphash"
	"sync"
)

// landCache remembers the canonical code of lands met before, keyed by the
// exact drawing handed to the canonizer (its tokens with letters numbered in
// order of appearance, and its boundaries and regions). The same drawings
// come back again and again during a search, and a lookup costs a small
// fraction of a canonicalisation. Keys are compared whole, never by hash
// alone, so a hit always returns the code the canonizer would compute.
type landCache struct {
	seed   maphash.Seed
	shards [cacheShards]cacheShard
}

const (
	cacheShards   = 64
	cacheShardCap = 1 << 13 // entries per shard before it is emptied
)

type cacheShard struct {
	mu sync.RWMutex
	m  map[string]string
}

var lands = landCache{seed: maphash.MakeSeed()}

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
	s := c.shard(key)
	s.mu.Lock()
	if s.m == nil || len(s.m) >= cacheShardCap {
		// Emptying a full shard keeps memory bounded without bookkeeping;
		// what is used again comes back quickly.
		s.m = make(map[string]string, cacheShardCap)
	}
	s.m[string(key)] = code
	s.mu.Unlock()
}
