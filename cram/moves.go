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
	var s scratch
	seen := map[string]bool{}
	for i, r := range p.regions {
		g, err := decodeRegion(r.text)
		if err != nil {
			continue // not reached: regions are written by this package
		}
		others := slices.Delete(slices.Clone(p.regions), i, i+1)
		for a, e := range g.empty {
			if !e {
				continue
			}
			for _, b := range [2]int{a + 1, a + g.w} {
				if b == a+1 && a%g.w+1 == g.w || b >= len(g.empty) || !g.empty[b] {
					continue
				}
				g.empty[a], g.empty[b] = false, false
				rs := append(g.regionTexts(&s), others...)
				g.empty[a], g.empty[b] = true, true
				child := fromRegions(rs)
				if !seen[child.key] {
					seen[child.key] = true
					kids = append(kids, child)
				}
				if stop != nil && stop(child) {
					return nil, false
				}
			}
		}
	}
	slices.SortFunc(kids, func(x, y Position) int { return strings.Compare(x.key, y.key) })
	return kids, true
}
