package solve

import "math/bits"

// newNode returns a node for couple c with the values the nimber database
// or the table knows, or the estimator's.
func (w *worker[P]) newNode(c couple[P]) *dnode[P] {
	switch w.known(&c) {
	case Win:
		v := w.alloc(c)
		v.pn, v.dn = 0, Inf
		return v
	case Loss:
		v := w.alloc(c)
		v.pn, v.dn = Inf, 0
		return v
	}
	return w.newUnknownNode(c)
}

// alloc returns a node for couple c with no numbers, reusing one that a
// search below has let go: nodes are made for every child of every couple
// entered, and recycling them keeps the collector's work from growing with
// the threads.
func (w *worker[P]) alloc(c couple[P]) *dnode[P] {
	if n := len(w.freeNodes); n > 0 {
		v := w.freeNodes[n-1]
		w.freeNodes = w.freeNodes[:n-1]
		*v = dnode[P]{c: c}
		return v
	}
	return &dnode[P]{c: c}
}

// kidsOf returns an empty slice of at least n children's room.
func (w *worker[P]) kidsOf(n int) []*dnode[P] {
	if k := len(w.freeKids); k > 0 && cap(w.freeKids[k-1]) >= n {
		kids := w.freeKids[k-1]
		w.freeKids = w.freeKids[:k-1]
		return kids
	}
	return make([]*dnode[P], 0, n)
}

// release lets go of v's children once the search has left v: nothing
// else points to them then (the path holds only v's ancestors).
func (w *worker[P]) release(v *dnode[P]) {
	if v.kids == nil {
		return
	}
	for i, c := range v.kids {
		if c.kids == nil {
			w.freeNodes = append(w.freeNodes, c)
		}
		v.kids[i] = nil
	}
	if len(w.freeKids) < maxFreeKids {
		w.freeKids = append(w.freeKids, v.kids[:0])
	}
	v.kids = nil
}

// maxFreeKids bounds the children slices a thread keeps for reuse.
const maxFreeKids = 256

// newUnknownNode is newNode for a couple that fold returned: the database
// holds none of its components, so only the table is asked.
func (w *worker[P]) newUnknownNode(c couple[P]) *dnode[P] {
	v := w.alloc(c)
	w.stats.TTLookups++
	if pn, dn, work, threads, ok := w.s.tt.get(c.key, c.n); ok {
		w.stats.TTHits++
		v.pn, v.dn, v.work, v.th = pn, dn, work, bits.OnesCount64(threads)
		return v
	}
	v.pn, v.dn = w.leaf(w.s.opt.Estimator, &v.c)
	return v
}
