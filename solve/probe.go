package solve

import "sync/atomic"

// probeTable is the open-addressing table (linear probing) under the
// nimber database and the children cache, whose lookups take no lock and
// write no memory: each slot holds a pointer to an immutable entry,
// published atomically once and never changed, so a reader sees either
// no entry or a whole one. (The nimber database's entries carry one
// atomic mark besides, cleared once by the first lookup: see TrackReads.) The number of slots is a power of two. Writers
// are serialised by the caller, who grows the table (a larger copy,
// published in its place) before it is half full, so that every probe
// meets an empty slot and ends.
type probeTable[V any] struct {
	slots []atomic.Pointer[probeEntry[V]]
}

// probeEntry is one entry of a probeTable: its key, the key's hash, and
// the value stored under it.
type probeEntry[V any] struct {
	hash uint64
	key  string
	val  V
}

// newProbeTable returns an empty table of the given number of slots, a
// power of two.
func newProbeTable[V any](slots int) *probeTable[V] {
	return &probeTable[V]{slots: make([]atomic.Pointer[probeEntry[V]], slots)}
}

// find returns the entry of key, whose hash is h, or nil.
func (t *probeTable[V]) find(key string, h uint64) *probeEntry[V] {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := t.slots[i].Load()
		if e == nil {
			return nil
		}
		if e.hash == h && e.key == key {
			return e
		}
	}
}

// insert puts e in the first free slot of its probe sequence; the caller
// serialises the writers and has made room.
func (t *probeTable[V]) insert(e *probeEntry[V]) {
	mask := uint64(len(t.slots) - 1)
	i := e.hash & mask
	for t.slots[i].Load() != nil {
		i = (i + 1) & mask
	}
	t.slots[i].Store(e)
}

// grown returns a copy of t with twice its slots, holding the same
// entries. t is left as it is, so that readers still holding it go on
// reading it safely; entries inserted after the copy go to the copy only.
func (t *probeTable[V]) grown() *probeTable[V] {
	g := newProbeTable[V](2 * len(t.slots))
	for i := range t.slots {
		if e := t.slots[i].Load(); e != nil {
			g.insert(e)
		}
	}
	return g
}
