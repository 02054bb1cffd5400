package solve_test

import "github.com/spots-dev/spots/solve"

// plain is a plain depth-first solver, the oracle of the searches: a
// couple is a Win if some move reaches a Loss; sums are solved component by
// component, Grundy values found by trying heaps 0, 1, 2, … in turn.
type plain[P any] struct {
	g  solve.Game[P]
	db map[string]uint32
}

func newPlain[P any](g solve.Game[P]) *plain[P] { return &plain[P]{g: g, db: map[string]uint32{}} }

func (p *plain[P]) grundy(pos P) uint32 {
	g := uint32(0)
	for _, c := range p.g.Components(pos) {
		g ^= p.atomic(c)
	}
	return g
}

func (p *plain[P]) atomic(q P) uint32 {
	k := p.g.Key(q)
	if g, ok := p.db[k]; ok {
		return g
	}
	for n := uint32(0); ; n++ {
		if !p.wins(q, n) {
			p.db[k] = n
			return n
		}
	}
}

// wins reports whether the atomic couple (q, n) is a Win: a heap move to
// (q, m) with gn(q) = m is impossible while gn(q) is being searched for
// (every m < n was shown a Win), so only position moves can win.
func (p *plain[P]) wins(q P, n uint32) bool {
	for _, c := range p.g.Children(q) {
		if p.grundy(c) == n {
			return true
		}
	}
	return false
}
