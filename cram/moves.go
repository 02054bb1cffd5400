package cram

import (
	"slices"
	"strings"
)

// Children returns every position one move away from p, each once, in
// canonical form and sorted by text (the order certificates refer to). A
// move covers two orthogonally adjacent empty cells of one region; what is
// left of that region may fall into several regions, and cells left
// isolated are dropped. The empty position has no children.
func (p Position) Children() []Position {
	kids, _ := p.ChildrenUntil(nil)
	return kids
}

// ChildrenUntil returns the children of p as Children does, unless stop
// (if not nil) returns true for one of them: it is called with each child
// as it is made, and when it returns true the rest are not made and
// complete is false. A child of a large board takes a flood fill of the
// whole board to make, so a search that must stop (a signal, a timeout)
// looks between children, not after thousands of them.
func (p Position) ChildrenUntil(stop func(Position) bool) (kids []Position, complete bool) {
	return p.childrenUntil(stop, true)
}

// childrenUntil is ChildrenUntil; with useBits false it makes the children
// of every region from its grid, as it does for regions too large for a
// bit mask, so that tests can compare the two ways. Both make the children
// in the same order: by the move's first cell in row-major order of the
// region's canonical image, the move to the right before the move down.
func (p Position) childrenUntil(stop func(Position) bool, useBits bool) (kids []Position, complete bool) {
	kids = make([]Position, 0, p.EstimateChildren())
	// emit makes the child of the regions rs (the rest of the region
	// played in) and the regions of p other than the i-th; it reports
	// whether to stop.
	emit := func(rs []region, i int) bool {
		rs = append(rs, p.regions[:i]...)
		rs = append(rs, p.regions[i+1:]...)
		child := fromRegions(rs)
		kids = append(kids, child)
		return stop != nil && stop(child)
	}
	var s scratch
	for i, r := range p.regions {
		var stopped bool
		if useBits && r.small() {
			stopped = bitChildren(r, len(p.regions)-1, i, emit)
		} else {
			stopped = gridChildren(r, len(p.regions)-1, i, &s, emit)
		}
		if stopped {
			return nil, false
		}
	}
	slices.SortFunc(kids, func(x, y Position) int { return strings.Compare(x.key, y.key) })
	kids = slices.CompactFunc(kids, func(x, y Position) bool { return x.key == y.key })
	return slices.Clip(kids), true
}

// bitChildren makes the children of the small region r, the i-th of a
// position with others other regions, by emit.
func bitChildren(r region, others, i int, emit func([]region, int) bool) bool {
	w := int(r.w)
	notFirst, notLast := boxMasks(int(r.h), w)
	b := bitBoard{w: w, notFirst: notFirst, notLast: notLast}
	m := r.mask
	right, down := m&notLast&(m>>1), m&(m>>w)
	for rest := right | down; rest != 0; rest &= rest - 1 {
		a := rest & -rest
		if right&a != 0 {
			rs := b.appendRegions(make([]region, 0, others+2), m&^(a|a<<1))
			if emit(rs, i) {
				return true
			}
		}
		if down&a != 0 {
			rs := b.appendRegions(make([]region, 0, others+2), m&^(a|a<<w))
			if emit(rs, i) {
				return true
			}
		}
	}
	return false
}

// gridChildren makes the children of the region r, the i-th of a
// position with others other regions, by emit, from its grid.
func gridChildren(r region, others, i int, s *scratch, emit func([]region, int) bool) bool {
	g, err := decodeRegion(r.text)
	if err != nil {
		return false // not reached: regions are written by this package
	}
	for a, e := range g.empty {
		if !e {
			continue
		}
		for _, b := range [2]int{a + 1, a + g.w} {
			if b == a+1 && a%g.w+1 == g.w || b >= len(g.empty) || !g.empty[b] {
				continue
			}
			g.empty[a], g.empty[b] = false, false
			rs := append(make([]region, 0, others+2), g.regionTexts(s)...)
			g.empty[a], g.empty[b] = true, true
			if emit(rs, i) {
				return true
			}
		}
	}
	return false
}
