package swarmlab

import (
	"sync"
	"unsafe"

	"github.com/spots-dev/spots/sprouts"
)

// simChildrenBytes bounds the children cache all simulated solvers share.
const simChildrenBytes = 512 << 20

// sharedChildren is the game the solvers of a simulation play: the rules
// of Sprouts with one children cache for every simulated solver of the
// process. Children are a function of the position, so a solver that takes
// them from the cache searches exactly as one that makes them: the cache
// changes how long a simulation takes on this machine, never what it
// measures (iterations, nodes, values). In a real swarm every machine makes
// its own children; that cost is in the iterations a simulation counts.
//
// A full cache is emptied (what is used again comes back). It is safe for
// concurrent use.
type sharedChildren struct {
	sprouts.Rules
	mu    sync.Mutex
	m     map[string][]sprouts.Position
	bytes int64
	max   int64
}

func newSharedChildren(maxBytes int64) *sharedChildren {
	return &sharedChildren{Rules: sprouts.Rules{Cache: sprouts.NewCache(sprouts.DefaultCacheBytes)}, m: map[string][]sprouts.Position{}, max: maxBytes}
}

func (s *sharedChildren) get(p sprouts.Position) ([]sprouts.Position, bool) {
	s.mu.Lock()
	kids, ok := s.m[s.Key(p)]
	s.mu.Unlock()
	return kids, ok
}

func (s *sharedChildren) put(p sprouts.Position, kids []sprouts.Position) {
	key := s.Key(p)
	size := int64(len(key)) + 64
	for _, k := range kids {
		size += int64(unsafe.Sizeof(k)) + int64(len(s.Key(k)))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[key]; ok {
		return
	}
	if s.bytes+size > s.max {
		clear(s.m)
		s.bytes = 0
	}
	s.m[key] = kids
	s.bytes += size
}

// Children returns the children of p, from the cache when they are there.
func (s *sharedChildren) Children(p sprouts.Position) []sprouts.Position {
	if kids, ok := s.get(p); ok {
		return kids
	}
	kids := s.Rules.Children(p)
	s.put(p, kids)
	return kids
}

// ChildrenUntil returns the children of p whole when they are cached (as
// a solver's own children cache does), else as sprouts.Rules.ChildrenUntil
// makes them; only whole lists are cached. (Making every list whole, to
// cache it, was tried and cost more than it saved: 106 s of CPU against
// 92 s on 0*12 with 256 solvers.)
func (s *sharedChildren) ChildrenUntil(p sprouts.Position, stop func(sprouts.Position) bool) ([]sprouts.Position, bool) {
	if kids, ok := s.get(p); ok {
		return kids, true
	}
	kids, complete := s.Rules.ChildrenUntil(p, stop)
	if complete {
		s.put(p, kids)
	}
	return kids, complete
}
