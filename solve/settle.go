package solve

import "slices"

// The rules by which a couple's numbers follow from its children's are the
// same in every search; each search keeps its own kind of node. These
// helpers apply the rules to any node kind, through a view of its numbers
// and couple. DFPN, PNS and the master DAG of package swarm all use them,
// so that a fix to a rule reaches every search.

// SettleAtomic applies the rules of an atomic couple to its children kids
// (nums gives a child's proof and disproof numbers): a lost child wins it;
// won children are no use and are dropped; with none left it is lost;
// otherwise pn is the least disproof number of the children and dn the sum
// of their proof numbers (saturating, see Inf). It returns the children
// kept, reusing kids' array (nil when the couple is solved), and the
// numbers.
func SettleAtomic[N any](kids []N, nums func(N) (pn, dn uint64)) (kept []N, pn, dn uint64) {
	pn, dn = Inf, 0
	k := 0
	for _, c := range kids {
		cpn, cdn := nums(c)
		if cdn == 0 {
			return nil, 0, Inf
		}
		if cpn == 0 {
			continue
		}
		kids[k] = c
		k++
		pn = min(pn, cdn)
		dn = add(dn, cpn)
	}
	if k == 0 {
		return nil, Inf, 0
	}
	return kids[:k], pn, dn
}

// SumChild is what SettleSum needs to know of a component couple (Q, j):
// the key of Q, the heap j and the couple's numbers.
type SumChild struct {
	Key    string
	N      uint32
	PN, DN uint64
}

// SettleSum keeps the books of a sum P + *n whose children kids are
// component couples (Q, j), one per component Q of P not yet resolved, and
// whose merged heap (n xor the values of the resolved components) is
// *merged: a component whose Grundy value db knows leaves, its value
// folded into *merged; a lost couple (Q, j) says gn(Q) = j and leaves the
// same way; a won couple (Q, j) says gn(Q) ≠ j, so the next candidate
// (Q, j+1) takes its place (made by next); when one component is left, the
// sum's value is that of (Q, *merged), made by next if need be; with none
// left the sum is won exactly when *merged is not 0. Otherwise pn = dn =
// the sum over children of min(pn, dn). look describes a child. It returns
// the children kept, reusing kids' array (nil when the sum is solved), and
// the numbers.
func SettleSum[N any](kids []N, merged *uint32, db *NimberDB, look func(N) SumChild, next func(N, uint32) N) (kept []N, pn, dn uint64) {
	for i := 0; i < len(kids); {
		c := look(kids[i])
		if g, ok := db.Get(c.Key); ok {
			*merged ^= g
			kids = slices.Delete(kids, i, i+1)
			continue
		}
		switch {
		case c.DN == 0:
			*merged ^= c.N
			kids = slices.Delete(kids, i, i+1)
		case c.PN == 0:
			kids[i] = next(kids[i], c.N+1)
		default:
			i++
		}
	}
	switch len(kids) {
	case 0:
		if *merged != 0 {
			return nil, 0, Inf
		}
		return nil, Inf, 0
	case 1:
		if look(kids[0]).N != *merged {
			kids[0] = next(kids[0], *merged)
		}
		c := look(kids[0])
		if solved(c.PN, c.DN) {
			return nil, c.PN, c.DN
		}
		return kids, c.PN, c.DN
	}
	sum := uint64(0)
	for _, k := range kids {
		c := look(k)
		sum = add(sum, min(c.PN, c.DN))
	}
	return kids, sum, sum
}

// RankQueue holds the nodes of a DAG search waiting to be recomputed,
// ordered by rank, least first: the size (lives) of the couple's
// position, then its heap. A child always has a smaller rank than its
// parents, so popping in this order recomputes every node after its
// changed children. Nodes of equal rank come out in the order of
// container/heap, whose algorithm it follows. The zero RankQueue is empty
// and ready. It does not notice a node pushed twice: callers mark queued
// nodes.
type RankQueue[N any] struct{ h []ranked[N] }

type ranked[N any] struct {
	v    N
	size int
	n    uint32
}

func (q *RankQueue[N]) less(i, j int) bool {
	a, b := &q.h[i], &q.h[j]
	if a.size != b.size {
		return a.size < b.size
	}
	return a.n < b.n
}

// Len returns the number of nodes queued.
func (q *RankQueue[N]) Len() int { return len(q.h) }

// Push queues v, whose couple has the given size and heap.
func (q *RankQueue[N]) Push(v N, size int, n uint32) {
	q.h = append(q.h, ranked[N]{v, size, n})
	for j := len(q.h) - 1; ; {
		i := (j - 1) / 2 // parent
		if i == j || !q.less(j, i) {
			break
		}
		q.h[i], q.h[j] = q.h[j], q.h[i]
		j = i
	}
}

// Pop removes and returns a node of least rank. The queue must not be
// empty.
func (q *RankQueue[N]) Pop() N {
	n := len(q.h) - 1
	q.h[0], q.h[n] = q.h[n], q.h[0]
	for i := 0; ; {
		j := 2*i + 1 // left child
		if j >= n || j < 0 {
			break
		}
		if j2 := j + 1; j2 < n && q.less(j2, j) {
			j = j2
		}
		if !q.less(j, i) {
			break
		}
		q.h[i], q.h[j] = q.h[j], q.h[i]
		i = j
	}
	v := q.h[n].v
	q.h[n] = ranked[N]{} // let the node go
	q.h = q.h[:n]
	return v
}
