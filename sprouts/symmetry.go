package sprouts

// Move generation draws one line of each kind: two lines that a symmetry
// of the land maps onto each other give the same position, and
// canonicalising a child is most of what a move costs. The symmetries used
// here are those that can be seen cheaply in the parent land:
//
//   - rotating a boundary without uppercase letters by its period
//     (regionMoves draws first corners below the period only);
//   - exchanging boundaries that are written alike (one class);
//   - reflecting a boundary onto itself, corner k to corner r−k, where both
//     corners belong to one spot, when every other boundary of the region
//     reads the same backwards: the region read backwards is then the same;
//   - exchanging two uppercase letters where every boundary of their
//     regions, so exchanged, is a rotation of itself (or, for a whole
//     region at once, of itself read backwards).
//
// Each symmetry maps every boundary of the region onto itself, so it acts
// on a boundary's corners as a cornerMap, and on a split region's other
// boundaries not at all. A line is drawn only if no symmetry maps it to a
// line that comes first in the order in which regionMoves draws them; by
// induction on that order, the first line of every kind is drawn.

// pruneSymmetric turns the symmetries above on; tests turn them off to
// compare with every line drawn.
var pruneSymmetric = true

// cornerMap sends corner k of a boundary of n corners to corner k+s, or
// with flip (the region read backwards) to corner s−k, modulo n.
type cornerMap struct {
	s    int32
	flip bool
}

func (m cornerMap) at(k, n int) int {
	if m.flip {
		return ((int(m.s)-k)%n + n) % n
	}
	return (k + int(m.s)) % n
}

// achiral reports whether the cyclic sequence bd, read backwards, is a
// rotation of itself, spot for spot.
func achiral(bd []int32) bool {
	if len(bd) <= 2 {
		return true
	}
	return matchMap(bd, -1, -1, true) >= 0
}

// matchMap returns an s such that, with x and y exchanged (-1: none),
// corner k of bd is a corner of the same spot as corner cornerMap{s,
// flip}.at(k), for every k; or -1 if there is none.
func matchMap(bd []int32, x, y int32, flip bool) int32 {
	n := len(bd)
	swap := func(v int32) int32 {
		switch v {
		case x:
			return y
		case y:
			return x
		}
		return v
	}
outer:
	for s := range n {
		m := cornerMap{int32(s), flip}
		for k, v := range bd {
			if swap(v) != bd[m.at(k, n)] {
				continue outer
			}
		}
		return int32(s)
	}
	return -1
}

// findSwaps records in g.swaps every exchange of two uppercase letters of
// g.land that is a symmetry of it, as one cornerMap per boundary of the
// land (g.nb of them per symmetry).
func (g *generator) findSwaps() {
	l := &g.land
	g.swaps = g.swaps[:0]
	nb := len(l.bEnd)
	g.nb = nb
	if g.nUp < 2 || !pruneSymmetric {
		return
	}
	for x := range g.nUp {
		for y := x + 1; y < g.nUp; y++ {
			start := len(g.swaps)
			if !g.swapMaps(x, y) {
				g.swaps = g.swaps[:start]
			}
		}
	}
}

// swapMaps appends to g.swaps the corner maps of the exchange of letters x
// and y, region by region, and reports whether it is a symmetry.
func (g *generator) swapMaps(x, y int32) bool {
	l := &g.land
	for reg := range l.rEnd {
		b0, b1 := l.regionBounds(reg)
		touched := false
		for b := b0; b < b1 && !touched; b++ {
			for _, v := range l.boundary(b) {
				if v == x || v == y {
					touched = true
					break
				}
			}
		}
		if !touched {
			for range b1 - b0 {
				g.swaps = append(g.swaps, cornerMap{})
			}
			continue
		}
		if !g.regionMaps(b0, b1, x, y, false) && !g.regionMaps(b0, b1, x, y, true) {
			return false
		}
	}
	return true
}

// regionMaps appends the corner maps of boundaries [b0, b1) under the
// exchange of x and y, read forwards or backwards, and reports whether
// every boundary has one; it appends nothing if not.
func (g *generator) regionMaps(b0, b1 int, x, y int32, flip bool) bool {
	start := len(g.swaps)
	for b := b0; b < b1; b++ {
		s := matchMap(g.land.boundary(b), x, y, flip)
		if s < 0 {
			g.swaps = g.swaps[:start]
			return false
		}
		g.swaps = append(g.swaps, cornerMap{s, flip})
	}
	return true
}

// splitSymmetries records in g.maps the corner maps of boundary b, in
// region [b0, b1), under the symmetries that move nothing else of the
// region's boundaries but onto themselves: its reflections (when the other
// boundaries read the same backwards) and the letter exchanges of g.swaps.
// Rotations by the period are left to hasLesserSplit.
func (g *generator) splitSymmetries(b, b0, b1 int) {
	g.maps = g.maps[:0]
	bd := g.land.boundary(b)
	if pruneSymmetric && g.othersAchiral(b0, b1, b, -1) {
		g.maps = appendReflections(g.maps, bd)
	}
	for a := 0; a < len(g.swaps); a += g.nb {
		g.maps = append(g.maps, g.swaps[a+b])
	}
}

// joinSymmetries records in g.pairs the corner maps of boundaries b and c
// under one symmetry each: pairs of reflections (when the other boundaries
// of the region read the same backwards) and the letter exchanges.
func (g *generator) joinSymmetries(b, c, b0, b1 int) {
	g.pairs = g.pairs[:0]
	if pruneSymmetric && g.othersAchiral(b0, b1, b, c) {
		g.maps = appendReflections(g.maps[:0], g.land.boundary(b))
		nb := len(g.maps)
		g.maps = appendReflections(g.maps, g.land.boundary(c))
		for _, rb := range g.maps[:nb] {
			for _, rc := range g.maps[nb:] {
				g.pairs = append(g.pairs, [2]cornerMap{rb, rc})
			}
		}
	}
	for a := 0; a < len(g.swaps); a += g.nb {
		g.pairs = append(g.pairs, [2]cornerMap{g.swaps[a+b], g.swaps[a+c]})
	}
}

// othersAchiral reports whether every boundary of region [b0, b1) but b
// and c reads the same backwards.
func (g *generator) othersAchiral(b0, b1, b, c int) bool {
	for o := b0; o < b1; o++ {
		if o != b && o != c && !g.achiral[o-b0] {
			return false
		}
	}
	return true
}

// appendReflections appends to dst every reflection of bd that keeps each
// corner's spot.
func appendReflections(dst []cornerMap, bd []int32) []cornerMap {
	n := len(bd)
outer:
	for r := range n {
		m := cornerMap{int32(r), true}
		for k, v := range bd {
			if v != bd[m.at(k, n)] {
				continue outer
			}
		}
		dst = append(dst, m)
	}
	return dst
}

// hasLesserSplit reports whether a symmetry maps the line from corner i to
// corner j (i < j) of a boundary of n corners and period p, with the
// current sharing of the other boundaries, to a line that regionMoves
// draws and that comes first: by first corner, second corner, then
// sharing. The symmetries are those of g.maps, each followed by the
// rotations by the period, and the rotations alone.
func (g *generator) hasLesserSplit(i, j, n, p int) bool {
	if p == n && len(g.maps) == 0 || !pruneSymmetric {
		return false
	}
	for mi := -1; mi < len(g.maps); mi++ {
		x0, y0 := i, j
		if mi >= 0 {
			m := g.maps[mi]
			x0, y0 = m.at(i, n), m.at(j, n)
			if m.flip {
				// Read backwards, the side from x forwards to y is the side
				// from the image of y forwards to the image of x.
				x0, y0 = y0, x0
			}
		}
		for q := 0; q < n; q += p {
			if mi < 0 && q == 0 {
				continue // the line itself
			}
			x, y := (x0+q)%n, (y0+q)%n
			swap := x > y
			if swap {
				x, y = y, x
			}
			if x >= p {
				continue // not drawn by regionMoves
			}
			if d := cmpMove(x, y, i, j); d < 0 || d == 0 && swap && g.mirrorIsLess() {
				return true
			}
		}
	}
	return false
}

// hasLesserJoin reports whether a symmetry of g.pairs maps the line from
// corner i of boundary b to corner j of boundary c to a line that
// regionMoves draws and that comes first. Rotations by the periods need no
// check of their own: regionMoves draws each boundary's corners below its
// period only, one of each rotation.
func (g *generator) hasLesserJoin(i, j, b, c, b0 int, same bool) bool {
	if len(g.pairs) == 0 {
		return false
	}
	nb, nc := len(g.land.boundary(b)), len(g.land.boundary(c))
	pb, pc := int(g.period[b-b0]), int(g.period[c-b0])
	for _, m := range g.pairs {
		x, y := m[0].at(i, nb)%pb, m[1].at(j, nc)%pc
		if same && y < x {
			x, y = y, x // b and c are alike: the pair is drawn in order
		}
		if cmpMove(x, y, i, j) < 0 {
			return true
		}
	}
	return false
}

func cmpMove(x, y, i, j int) int {
	if x != i {
		return x - i
	}
	return y - j
}

// mirrorIsLess reports whether the mirror of the current sharing (every
// group's count replaced by what the other side gets) is lexicographically
// less than it, group by group from the first.
func (g *generator) mirrorIsLess() bool {
	for k := range g.groupEnd {
		t, m := g.taken[k], g.groupSize(k)-g.taken[k]
		if m != t {
			return m < t
		}
	}
	return false
}
