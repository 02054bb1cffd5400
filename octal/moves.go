package octal

import (
	"slices"
	"strings"
)

// Children returns every position one move away from p, each once, in
// canonical form and sorted by text (the order certificates refer to). A
// move takes tokens from one heap as its code allows; what is left of that
// heap becomes nothing, one heap or two, and heaps left without a move are
// dropped. The empty position has no children.
func (p Position) Children() []Position {
	kids, _ := p.ChildrenUntil(nil)
	return kids
}

// ChildrenUntil returns the children of p as Children does, unless stop
// (if not nil) returns true for one of them: it is called with each child
// as it is made, and when it returns true the rest are not made and
// complete is false. A search that must stop, or that has found a child
// lost for the player to move, need not make the others.
func (p Position) ChildrenUntil(stop func(Position) bool) (kids []Position, complete bool) {
	seen := map[string]bool{}
	for i, h := range p.heaps {
		if i > 0 && compareHeaps(h, p.heaps[i-1]) == 0 {
			continue // an equal heap has the same moves
		}
		others := slices.Delete(slices.Clone(p.heaps), i, i+1)
		emit := func(left ...int) bool {
			hs := append(make([]heap, 0, len(others)+2), others...)
			for _, n := range left {
				if h.code.alive(n) {
					hs = append(hs, heap{code: h.code, n: n})
				}
			}
			child := fromHeaps(hs)
			if !seen[child.key] {
				seen[child.key] = true
				kids = append(kids, child)
			}
			return stop != nil && stop(child)
		}
		if !h.moves(emit) {
			return nil, false
		}
	}
	slices.SortFunc(kids, func(x, y Position) int { return strings.Compare(x.key, y.key) })
	return kids, true
}

// moves calls emit with what each move on h leaves of it (no size, one or
// two; sizes may be of heaps without a move) until emit returns true, and
// reports whether it never did.
func (h heap) moves(emit func(left ...int) bool) bool {
	for k := 1; k <= len(h.code.digits) && k <= h.n; k++ {
		d, left := h.code.digits[k-1], h.n-k
		if d&leaveNothing != 0 && left == 0 && emit() {
			return false
		}
		if d&leaveOne != 0 && left > 0 && emit(left) {
			return false
		}
		if d&leaveTwo != 0 {
			for a := 1; 2*a <= left; a++ {
				if emit(a, left-a) {
					return false
				}
			}
		}
	}
	return true
}
