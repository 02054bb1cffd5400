package solve

import "slices"

// The rules by which a couple's numbers follow from its children's are the
// same in every search; each search keeps its own kind of node. These
// helpers apply the rules to any node kind, through a view of its numbers
// and couple.

// settleAtomic applies the rules of an atomic couple: a lost child wins
// it; won children are no use and are dropped; with none left it is lost;
// otherwise pn is the least disproof number of the children and dn the sum
// of their proof numbers. It returns the children kept and the numbers.
func settleAtomic[N any](kids []N, nums func(N) (pn, dn uint64)) (kept []N, pn, dn uint64) {
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

// sumChild is what settleSum needs to know of a component couple (Q, j).
type sumChild struct {
	key    string
	n      uint32
	pn, dn uint64
}

// settleSum keeps the books of a sum: a component whose Grundy value is
// known leaves, its value folded into merged; a component couple (Q, j)
// that is won says gn(Q) > j, so the next candidate (Q, j+1) takes its
// place (made by next); when one component is left, the sum's value is
// that of (Q, merged); with none left it is won exactly when merged is not
// 0. Otherwise pn = dn = the sum over children of min(pn, dn).
func settleSum[N any](kids []N, merged *uint32, db *NimberDB, look func(N) sumChild, next func(N, uint32) N) (kept []N, pn, dn uint64) {
	for i := 0; i < len(kids); {
		c := look(kids[i])
		if g, ok := db.Get(c.key); ok {
			*merged ^= g
			kids = slices.Delete(kids, i, i+1)
			continue
		}
		switch {
		case c.dn == 0:
			*merged ^= c.n
			kids = slices.Delete(kids, i, i+1)
		case c.pn == 0:
			kids[i] = next(kids[i], c.n+1)
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
		if look(kids[0]).n != *merged {
			kids[0] = next(kids[0], *merged)
		}
		c := look(kids[0])
		if solved(c.pn, c.dn) {
			return nil, c.pn, c.dn
		}
		return kids, c.pn, c.dn
	}
	sum := uint64(0)
	for _, k := range kids {
		c := look(k)
		sum = add(sum, min(c.pn, c.dn))
	}
	return kids, sum, sum
}
