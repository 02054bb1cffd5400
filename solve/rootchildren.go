package solve

import (
	"cmp"
	"slices"
)

// RootChild is a child of the root of a DFPN search, a move or (under a
// sum) a component, with the iterations the search spent below it, its
// own included.
type RootChild[P any] struct {
	Pos        P
	N          uint32 // the heap of the child couple Pos + *N
	Iterations uint64
	key        string
}

// RootChildren returns the children of the root of the last call of Solve
// (for Grundy, of its last couple) that the search entered, with the
// iterations spent below each, summed over threads, most first (ties in
// the order the search first entered them). The iterations of the root's
// own entries are not in any child's. Call it only between calls of Solve
// or Grundy.
func (s *DFPN[P]) RootChildren() []RootChild[P] {
	var all []RootChild[P]
	for _, w := range s.workers {
		for _, c := range w.below {
			all = addBelow(all, c)
		}
	}
	slices.SortStableFunc(all, func(a, b RootChild[P]) int { return cmp.Compare(b.Iterations, a.Iterations) })
	return all
}

// countBelow adds the iterations of a search below c, a child of the root.
func (w *worker[P]) countBelow(c *dnode[P], iterations uint64) {
	w.below = addBelow(w.below, RootChild[P]{Pos: c.c.pos, N: c.c.n, Iterations: iterations, key: c.c.key})
}

// addBelow adds c's iterations to the entry of the same couple in list, or
// appends c. A root has few children and most searches enter a few of
// them, so a list is searched.
func addBelow[P any](list []RootChild[P], c RootChild[P]) []RootChild[P] {
	for i := range list {
		if list[i].key == c.key && list[i].N == c.N {
			list[i].Iterations += c.Iterations
			return list
		}
	}
	return append(list, c)
}
