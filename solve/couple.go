package solve

import (
	"cmp"
	"strings"
	"sync"
)

// base holds what every search needs: the game, the nimber database and
// the counters.
type base[P any] struct {
	game  Game[P]
	db    *NimberDB
	stats Stats
	comps []P // scratch for fold
	split []P // scratch for components
	// kids remembers the children of positions expanded before: DFPN
	// enters the same couples again and again (and the threads of PDFPN
	// each other's), and generating children is most of an iteration's cost.
	kids *childCache[P]
}

// children returns the children of the atomic position of c. With stop,
// when the game can stop early (ChildrenUntil) and stop returns true for
// a child, it returns complete false and no children; such partial lists
// are not cached.
func (b *base[P]) children(c *couple[P], stop func(P) bool) (kids []P, complete bool) {
	if b.kids != nil {
		if kids, ok := b.kids.get(c.key); ok {
			return kids, true
		}
	}
	if until, ok := b.game.(ChildrenUntil[P]); ok && stop != nil {
		kids, complete = until.ChildrenUntil(c.pos, stop)
		if !complete {
			return nil, false
		}
	} else {
		kids = b.game.Children(c.pos)
	}
	if b.kids != nil {
		b.kids.put(c.key, kids)
	}
	return kids, true
}

// childCache is a bounded map from position keys to children, safe for
// concurrent use. Its memory is bounded in bytes: a full shard is emptied,
// which is cheap, and what is used again comes back.
type childCache[P any] struct {
	shards [16]childShard[P]
	max    int64 // bytes per shard
	size   func(P) int
}

type childShard[P any] struct {
	mu    sync.RWMutex
	m     map[string][]P
	bytes int64
}

// childEntryOverhead is what a cached entry costs beyond its children: the
// map slot, the slice header and allocation rounding.
const childEntryOverhead = 64

func newChildCache[P any](bytes int64, size func(P) int) *childCache[P] {
	if bytes <= 0 {
		return nil
	}
	return &childCache[P]{max: max(1, bytes/16), size: size}
}

func (c *childCache[P]) shard(key string) *childShard[P] {
	return &c.shards[hashKey(key, 0)%uint64(len(c.shards))]
}

func (c *childCache[P]) get(key string) ([]P, bool) {
	s := c.shard(key)
	s.mu.RLock()
	kids, ok := s.m[key]
	s.mu.RUnlock()
	return kids, ok
}

func (c *childCache[P]) put(key string, kids []P) {
	cost := int64(childEntryOverhead + len(key))
	for _, k := range kids {
		cost += int64(c.size(k))
	}
	if cost > c.max {
		return
	}
	s := c.shard(key)
	s.mu.Lock()
	if s.m == nil || s.bytes+cost > c.max {
		s.m = make(map[string][]P, min(c.max/1024, 1<<12))
		s.bytes = 0
	}
	if _, ok := s.m[key]; !ok {
		s.m[key] = kids
		s.bytes += cost
	}
	s.mu.Unlock()
}

func (c *childCache[P]) clear() {
	if c == nil {
		return
	}
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		s.m = nil
		s.bytes = 0
		s.mu.Unlock()
	}
}

// makeCouple describes the couple (pos, n); comps is the number of
// components of pos.
func (b *base[P]) makeCouple(pos P, n uint32, comps int) couple[P] {
	return couple[P]{pos: pos, key: b.game.Key(pos), n: n, decomp: comps > 1, size: b.game.Size(pos), est: -1, comps: comps}
}

// components returns the components of pos, in b.split's array when the
// game can append them (the array is reused by the next call).
func (b *base[P]) components(pos P) []P {
	if g, ok := b.game.(AppendComponents[P]); ok {
		b.split = g.AppendComponents(b.split[:0], pos)
		return b.split
	}
	return b.game.Components(pos)
}

// fold removes from the couple (pos, n) every component whose Grundy value
// is known, adding the value to the heap. It reports empty when nothing is
// left: the couple is then the heap alone, a Loss exactly when n is 0.
func (b *base[P]) fold(pos P, n uint32) (c couple[P], empty bool) {
	comps := b.components(pos)
	b.comps = b.comps[:0]
	for _, q := range comps {
		if g, ok := b.db.Get(b.game.Key(q)); ok {
			n ^= g
		} else {
			b.comps = append(b.comps, q)
		}
	}
	switch len(b.comps) {
	case 0:
		return couple[P]{n: n}, true
	case 1:
		return b.makeCouple(b.comps[0], n, 1), false
	}
	if len(b.comps) < len(comps) {
		pos = b.game.Combine(b.comps)
	}
	return b.makeCouple(pos, n, len(b.comps)), false
}

// lost reports whether pos + *n is lost by what the nimber database knows:
// every component's value is known and they xor to n. It is fold's
// verdict on an empty couple without building the couple, for the
// children generation asks about one by one.
func (b *base[P]) lost(pos P, n uint32) bool {
	for _, q := range b.components(pos) {
		g, ok := b.db.Get(b.game.Key(q))
		if !ok {
			return false
		}
		n ^= g
	}
	return n == 0
}

// known returns the outcome of an atomic couple when the nimber database
// holds its position.
func (b *base[P]) known(c *couple[P]) Outcome {
	if c.decomp {
		return Unknown
	}
	g, ok := b.db.Get(c.key)
	switch {
	case !ok:
		return Unknown
	case g == c.n:
		return Loss
	}
	return Win
}

func (b *base[P]) estimate(c *couple[P]) int {
	if c.est < 0 {
		c.est = b.game.EstimateChildren(c.pos)
	}
	return c.est
}

// order is the Lemoine–Viennot order of the children of an atomic couple:
// fewer lives plus four per heap unit first, then more components, then
// fewer estimated children, then by key.
func (b *base[P]) order(x, y *couple[P]) int {
	if d := cmp.Compare(x.size+4*int(x.n), y.size+4*int(y.n)); d != 0 {
		return d
	}
	if d := cmp.Compare(y.comps, x.comps); d != 0 {
		return d
	}
	if d := cmp.Compare(b.estimate(x), b.estimate(y)); d != 0 {
		return d
	}
	if d := strings.Compare(x.key, y.key); d != 0 {
		return d
	}
	return cmp.Compare(x.n, y.n)
}

// componentOrder orders the components of a sum: fewer lives, fewer
// estimated children, then by key.
func (b *base[P]) componentOrder(x, y *couple[P]) int {
	if d := cmp.Compare(x.size, y.size); d != 0 {
		return d
	}
	if d := cmp.Compare(b.estimate(x), b.estimate(y)); d != 0 {
		return d
	}
	return strings.Compare(x.key, y.key)
}

// record notes that the atomic couple c is a Loss: gn(c.pos) = c.n.
func (b *base[P]) record(c *couple[P]) {
	if !c.decomp && b.db.Put(c.key, c.n) {
		b.stats.GrundyNumbers++
	}
}
