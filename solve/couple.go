package solve

import (
	"cmp"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// base holds what every search needs: the game, the nimber database and
// the counters.
type base[P any] struct {
	game  Game[P]
	db    *NimberDB
	stats Stats
	comps []P // scratch for fold
	parts []P // scratch for components
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
//
// Every thread of a PDFPN looks here before it makes children, so a
// lookup writes nothing another thread reads: each shard is an
// open-addressing table of pointers to immutable entries. Writers,
// serialised by the shard's lock, fill free slots, and replace the table by
// a larger copy when it is half full or by an empty one when its entries
// pass the shard's bytes; a lookup still holding the old table reads it
// safely and at worst misses an entry, which only costs making the children
// again.
type childCache[P any] struct {
	tables  [childShards]atomic.Pointer[probeTable[[]P]]
	_       [64]byte
	writers [childShards]childWriter
	max     int64 // bytes per shard
	size    func(P) int
}

const (
	childShards     = 64
	childShardBits  = 6
	childMinSlots   = 64
	childEntryBytes = 64 // an entry beyond its children: the entry, the slice header, rounding
)

// childWriter serialises the writers of one shard and keeps its books.
type childWriter struct {
	mu    sync.Mutex
	n     int   // entries in the shard's table
	bytes int64 // what they cost
}

func newChildCache[P any](bytes int64, size func(P) int) *childCache[P] {
	if bytes <= 0 {
		return nil
	}
	c := &childCache[P]{max: max(1, bytes/childShards), size: size}
	for i := range c.tables {
		c.tables[i].Store(newProbeTable[[]P](childMinSlots))
	}
	return c
}

// positionBytes returns what the cache counts for a position of game: its
// PositionBytes when it has one, else its size and its key's length.
func positionBytes[P any](game Game[P]) func(P) int {
	if s, ok := game.(PositionSizer[P]); ok {
		return s.PositionBytes
	}
	return func(p P) int { return int(unsafe.Sizeof(p)) + len(game.Key(p)) }
}

func (c *childCache[P]) locate(key string) (int, uint64) {
	h := hashKey(key, 0)
	return int(h >> (64 - childShardBits)), h
}

func (c *childCache[P]) get(key string) ([]P, bool) {
	i, h := c.locate(key)
	if e := c.tables[i].Load().find(key, h); e != nil {
		return e.val, true
	}
	return nil, false
}

func (c *childCache[P]) put(key string, kids []P) {
	cost := int64(childEntryBytes + len(key))
	for _, k := range kids {
		cost += int64(c.size(k))
	}
	if cost > c.max {
		return
	}
	i, h := c.locate(key)
	w := &c.writers[i]
	w.mu.Lock()
	defer w.mu.Unlock()
	t := c.tables[i].Load()
	if t.find(key, h) != nil {
		return
	}
	// The shard's bytes are its entries' costs and 8 a slot.
	slots := int64(8 * len(t.slots))
	grow := 2*(w.n+1) > len(t.slots)
	if grow {
		slots *= 2
	}
	switch {
	case w.bytes+cost+slots > c.max:
		// Emptied in place: a lookup holding an entry keeps it, one
		// probing meanwhile misses.
		for j := range t.slots {
			t.slots[j].Store(nil)
		}
		w.n, w.bytes = 0, 0
	case grow:
		t = t.grown()
		c.tables[i].Store(t)
	}
	t.insert(&probeEntry[[]P]{hash: h, key: key, val: kids})
	w.n++
	w.bytes += cost
}

func (c *childCache[P]) clear() {
	if c == nil {
		return
	}
	for i := range c.writers {
		w := &c.writers[i]
		w.mu.Lock()
		c.tables[i].Store(newProbeTable[[]P](childMinSlots))
		w.n, w.bytes = 0, 0
		w.mu.Unlock()
	}
}

// makeCouple describes the couple (pos, n); comps is the number of
// components of pos.
func (b *base[P]) makeCouple(pos P, n uint32, comps int) couple[P] {
	return couple[P]{pos: pos, key: b.game.Key(pos), n: n, decomp: comps > 1, size: b.game.Size(pos), est: -1, comps: comps}
}

// components returns the components of pos in a slice that is valid
// until the next call.
func (b *base[P]) components(pos P) []P {
	if a, ok := b.game.(ComponentsAppender[P]); ok {
		b.parts = a.AppendComponents(b.parts[:0], pos)
		return b.parts
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
