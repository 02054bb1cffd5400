package sprouts

import (
	"slices"
	"strings"
	"unsafe"
)

// loadLand decodes the code of one land into s. Uppercase letter k becomes
// vertex k; every other symbol gets a vertex of its own (the two corners of a
// lowercase pair share one). It records each boundary's code in g.bCode.
func (g *generator) loadLand(s *sketch, code string) {
	s.reset()
	g.bCode = g.bCode[:0]
	nUp := 0
	for i := 0; i < len(code); {
		if code[i] <= cLand {
			i++
			continue
		}
		kind, k, next := readSymbol(code, i)
		if kind == kUpper && k >= nUp {
			nUp = k + 1
		}
		i = next
	}
	g.nUp = int32(nUp)
	for range nUp {
		s.newVertex(1)
	}
	g.lowMap = g.lowMap[:0]
	bStart := 0
	endBoundary := func(i int) {
		s.endBoundary()
		g.bCode = append(g.bCode, code[bStart:i])
		g.lowMap = g.lowMap[:0]
		bStart = i + 1
	}
	for i := 0; i < len(code); {
		switch code[i] {
		case cBoundary:
			endBoundary(i)
			i++
			continue
		case cRegion:
			endBoundary(i)
			s.endRegion()
			i++
			continue
		}
		kind, k, next := readSymbol(code, i)
		i = next
		var v int32
		switch kind {
		case kSpot0:
			v = s.newVertex(3)
		case kSpot1:
			v = s.newVertex(2)
		case kSpot2:
			v = s.newVertex(1)
		case kUpper:
			v = int32(k)
		case kLower:
			for len(g.lowMap) <= k {
				g.lowMap = append(g.lowMap, -1)
			}
			if g.lowMap[k] < 0 {
				g.lowMap[k] = s.newVertex(1)
			}
			v = g.lowMap[k]
		}
		s.occ = append(s.occ, v)
	}
	if len(code) > 0 {
		endBoundary(len(code))
		s.endRegion()
	}
}

// landChildren appends to g.arena (spans in g.spans) the code of every position reached by
// one move in the land with the given code, combined with the lands in
// others. A move and its image under an evident symmetry of the land are
// generated once; other duplicates remain, and the caller removes them.
func (g *generator) landChildren(code string, others []string) {
	g.loadLand(&g.land, code)
	g.findSwaps()
	for reg := range g.land.rEnd {
		if g.stopped {
			return
		}
		g.regionMoves(reg, others)
	}
}

// startChild copies the land into the child sketch without region skip and
// returns the id of the new spot drawn on the move's line.
func (g *generator) startChild(skip int) int32 {
	l, c := &g.land, &g.child
	c.reset()
	c.lives = append(c.lives, l.lives...)
	for reg := range l.rEnd {
		if reg == skip {
			continue
		}
		b0, b1 := l.regionBounds(reg)
		for b := b0; b < b1; b++ {
			c.occ = append(c.occ, l.boundary(b)...)
			c.endBoundary()
		}
		c.endRegion()
	}
	return c.newVertex(1)
}

// symmetries finds, for the boundaries of one region, two kinds of symmetry
// of the land that need no search: boundaries without uppercase letters that
// are written alike can be exchanged (g.class[b] is the first boundary like
// b), and such a boundary can be rotated by its period (g.period[b]).
func (g *generator) symmetries(b0, b1 int) {
	l := &g.land
	g.class = resize(g.class, b1-b0)
	g.period = resize(g.period, b1-b0)
	for b := b0; b < b1; b++ {
		bd := l.boundary(b)
		g.class[b-b0] = int32(b)
		g.period[b-b0] = int32(len(bd))
		if slices.ContainsFunc(bd, func(v int32) bool { return v < g.nUp }) {
			continue
		}
		for a := b0; a < b; a++ {
			if g.class[a-b0] == int32(a) && g.bCode[a] == g.bCode[b] {
				g.class[b-b0] = int32(a)
				break
			}
		}
		g.period[b-b0] = int32(codePeriod(g.bCode[b], len(bd)))
	}
}

// codePeriod returns the rotation period of a boundary without uppercase
// letters, given its code (n symbols): lowercase letters are compared by the
// distance to their partner.
func codePeriod(code string, n int) int {
	if n == 1 {
		return 1
	}
	var tok [64]int
	if n > len(tok) {
		return n
	}
	var last [lowerShort]int
	for i := range last {
		last[i] = -1
	}
	k := 0
	for i := 0; i < len(code); k++ {
		kind, idx, next := readSymbol(code, i)
		i = next
		if kind != kLower {
			tok[k] = -kind
			continue
		}
		if idx >= len(last) {
			return n
		}
		if p := last[idx]; p >= 0 {
			tok[p] = k - p
			tok[k] = n - (k - p)
		} else {
			last[idx] = k
		}
	}
outer:
	for q := 1; q < n; q++ {
		if n%q != 0 {
			continue
		}
		for i := q; i < n; i++ {
			if tok[i] != tok[i-q] {
				continue outer
			}
		}
		return q
	}
	return n
}

// regionMoves generates every move inside region reg of the land.
//
// A line between two corners of one boundary splits the region in two: the
// boundary is cut at both corners, each part closed by the new line (with its
// new spot), and every other boundary of the region goes to one side or the
// other. A line between corners of two boundaries joins them into one, and
// the region stays whole. A loop is a line from a corner back to itself.
func (g *generator) regionMoves(reg int, others []string) {
	l := &g.land
	b0, b1 := l.regionBounds(reg)
	g.symmetries(b0, b1)
	class := func(b int) int { return int(g.class[b-b0]) }
	g.achiral = resize(g.achiral, b1-b0)
	for b := b0; b < b1; b++ {
		g.achiral[b-b0] = achiral(l.boundary(b))
	}
	// Lines inside one boundary: one boundary of each class; the first
	// corner within the boundary's period.
	for b := b0; b < b1; b++ {
		if class(b) != b {
			continue
		}
		bd := l.boundary(b)
		g.splitSymmetries(b, b0, b1)
		for i := range int(g.period[b-b0]) {
			u := bd[i]
			if l.lives[u] == 0 {
				continue
			}
			for j := i; j < len(bd); j++ {
				v := bd[j]
				if j == i && l.lives[u] < 2 {
					continue
				}
				if j > i && (u == v || l.lives[v] == 0) {
					continue
				}
				g.splitMoves(reg, b, i, j, others)
				if g.stopped {
					return
				}
			}
		}
	}
	// Lines joining two boundaries: one pair of each pair of classes.
	for b := b0; b < b1; b++ {
		if class(b) != b {
			continue
		}
		second := -1
		for c := b + 1; c < b1; c++ {
			same := class(c) == b
			if same && second >= 0 || !same && class(c) != c {
				continue
			}
			if same {
				second = c
			}
			g.joinSymmetries(b, c, b0, b1)
			for i, u := range l.boundary(b)[:g.period[b-b0]] {
				if l.lives[u] == 0 {
					continue
				}
				for j, v := range l.boundary(c)[:g.period[c-b0]] {
					if l.lives[v] == 0 || same && j < i {
						continue
					}
					if g.hasLesserJoin(i, j, b, c, b0, same) {
						continue
					}
					g.joinMove(reg, b, i, c, j, others)
					if g.stopped {
						return
					}
				}
			}
		}
	}
}

// splitMoves draws a line from corner i to corner j (i ≤ j) of boundary b,
// once for every way of sharing the region's other boundaries between the
// two new regions. Boundaries of one class are interchangeable, so only how
// many of each class go to each side matters.
func (g *generator) splitMoves(reg, b, i, j int, others []string) {
	l := &g.land
	b0, b1 := l.regionBounds(reg)
	bd := l.boundary(b)
	u, v := bd[i], bd[j]
	// The other boundaries, grouped by class: g.members lists them class by
	// class, g.groupEnd ends each group.
	g.members = g.members[:0]
	g.groupEnd = g.groupEnd[:0]
	for a := b0; a < b1; a++ {
		if int(g.class[a-b0]) != a {
			continue
		}
		start := len(g.members)
		for o := a; o < b1; o++ {
			if o != b && int(g.class[o-b0]) == a {
				g.members = append(g.members, int32(o))
			}
		}
		if len(g.members) > start {
			g.groupEnd = append(g.groupEnd, int32(len(g.members)))
		}
	}
	ng := len(g.groupEnd)
	g.taken = resize(g.taken, ng)
	clear(g.taken)
	// A loop at a spot without lines makes two regions that read u w, so
	// sharing the other boundaries one way or the mirror way gives the same
	// position, and only the lesser of each such pair is drawn. A line
	// between two corners is drawn only if no symmetry of the boundary maps
	// it to a lesser one (see symmetry.go).
	mirrored := i == j && l.lives[u] == 3 && pruneSymmetric
	for {
		if mirrored && g.mirrorIsLess() || i < j && g.hasLesserSplit(i, j, len(bd), int(g.period[b-b0])) {
			if !g.nextShare() {
				return
			}
			continue
		}
		w := g.startChild(reg)
		c := &g.child
		// First region: from u to v along the boundary, back along the line.
		if i == j {
			c.occ = append(c.occ, u, w)
		} else {
			c.occ = append(c.occ, u)
			c.occ = append(c.occ, bd[i+1:j]...)
			c.occ = append(c.occ, v, w)
		}
		c.endBoundary()
		g.share(true)
		c.endRegion()
		// Second region: from v around to u, back along the line.
		if i == j && l.lives[u] == 3 {
			c.occ = append(c.occ, u, w) // a loop at a spot without lines
		} else {
			c.occ = append(c.occ, v)
			c.occ = append(c.occ, bd[j+1:]...)
			c.occ = append(c.occ, bd[:i]...)
			c.occ = append(c.occ, u, w)
		}
		c.endBoundary()
		g.share(false)
		c.endRegion()
		if i == j {
			c.lives[u] -= 2
		} else {
			c.lives[u]--
			c.lives[v]--
		}
		g.addChild(c, others)
		if g.stopped || !g.nextShare() {
			return
		}
	}
}

// groupSize returns the number of boundaries in group k of splitMoves.
func (g *generator) groupSize(k int) int32 {
	if k == 0 {
		return g.groupEnd[0]
	}
	return g.groupEnd[k] - g.groupEnd[k-1]
}

// nextShare steps g.taken to the next way of sharing the other boundaries
// (counting up in mixed radix) and reports false after the last one.
func (g *generator) nextShare() bool {
	for k := range g.groupEnd {
		if g.taken[k] < g.groupSize(k) {
			g.taken[k]++
			return true
		}
		g.taken[k] = 0
	}
	return false
}

// share copies the other boundaries of a split region into the child: the
// first g.taken[k] of each group to the first side, the rest to the second.
func (g *generator) share(first bool) {
	c := &g.child
	start := int32(0)
	for k, end := range g.groupEnd {
		cut := start + g.taken[k]
		from, to := cut, end
		if first {
			from, to = start, cut
		}
		for _, o := range g.members[from:to] {
			c.occ = append(c.occ, g.land.boundary(int(o))...)
			c.endBoundary()
		}
		start = end
	}
}

// joinMove draws a line from corner i of boundary b to corner j of boundary
// o. Walking the new boundary: around b from its corner back to it, along
// the line to the new spot and on to the corner of o, around o, and back.
// A spot without lines has one corner, which the walk passes only once.
func (g *generator) joinMove(reg, b, i, o, j int, others []string) {
	l := &g.land
	w := g.startChild(reg)
	c := &g.child
	b0, b1 := l.regionBounds(reg)
	for x := b0; x < b1; x++ {
		if x != b && x != o {
			c.occ = append(c.occ, l.boundary(x)...)
			c.endBoundary()
		}
	}
	walk := func(bd []int32, i int) {
		u := bd[i]
		c.occ = append(c.occ, u)
		if l.lives[u] == 3 {
			return
		}
		c.occ = append(c.occ, bd[i+1:]...)
		c.occ = append(c.occ, bd[:i]...)
		c.occ = append(c.occ, u)
	}
	bu, bv := l.boundary(b), l.boundary(o)
	walk(bu, i)
	c.occ = append(c.occ, w)
	walk(bv, j)
	c.occ = append(c.occ, w)
	c.endBoundary()
	c.endRegion()
	c.lives[bu[i]]--
	c.lives[bv[j]]--
	g.addChild(c, others)
}

// Children returns the distinct positions reachable from p in one move, in
// the order of their keys. It keeps no cache: a search makes children
// through Rules, whose Cache remembers the lands it canonicalised.
func (p Position) Children() []Position {
	return p.AppendChildren(nil)
}

// AppendChildren appends the children of p to dst and returns the result. It
// is Children without the allocation of a new slice.
func (p Position) AppendChildren(dst []Position) []Position {
	dst, _ = p.appendChildren(dst, nil, nil)
	return dst
}

// ChildrenUntil returns the children of p as Children does, unless stop
// returns true for one of them: it is called with each child as it is made
// (in no particular order, and possibly more than once for a child), and
// when it returns true the rest are not made and complete is false. A
// search that only needs to know whether some child is a lost position
// stops there.
func (p Position) ChildrenUntil(stop func(Position) bool) (kids []Position, complete bool) {
	return p.appendChildren(nil, stop, nil)
}

// appendChildren is AppendChildren and ChildrenUntil, canonicalising
// through lands (nil: no cache).
func (p Position) appendChildren(dst []Position, stop func(Position) bool, lands *Cache) ([]Position, bool) {
	if faulty {
		return faultChildren(p, dst, stop, lands) // planted faults: tests only (fault_on.go)
	}
	return p.generateChildren(dst, stop, lands)
}

func (p Position) generateChildren(dst []Position, stop func(Position) bool, lands *Cache) ([]Position, bool) {
	if p.code == "" {
		return dst, true
	}
	g := generators.Get().(*generator)
	defer generators.Put(g)
	// The children's codes go to a block of their own, which the positions
	// returned share: one allocation for all of them (two when the guess of
	// its size falls short), none per child.
	g.out = make([]byte, 0, max(g.outGuess, 256))
	g.kids = g.kids[:0]
	g.stop, g.stopped = stop, false
	g.can.lands = lands
	defer func() {
		clear(g.kids) // the pool must not keep the blocks alive, nor the cache
		g.out, g.kids, g.stop, g.can.lands = nil, g.kids[:0], nil, nil
	}()
	if strings.IndexByte(p.code, cLand) < 0 {
		g.landChildren(p.code, nil)
	} else {
		lands := strings.Split(p.code, string(rune(cLand)))
		for i, land := range lands {
			if i > 0 && lands[i-1] == land {
				continue // the same land again: the same children
			}
			g.others = append(append(g.others[:0], lands[:i]...), lands[i+1:]...)
			g.landChildren(land, g.others)
			if g.stopped {
				break
			}
		}
		clear(g.others)
	}
	if g.stopped {
		return dst, false
	}
	slices.SortFunc(g.kids, func(a, b Position) int { return strings.Compare(a.code, b.code) })
	kids := slices.Compact(g.kids)
	used := 0
	for _, k := range kids {
		used += len(k.code)
	}
	// Keep the guess near what a call needs, and give back the room a
	// generous guess (or duplicate children) left unused.
	g.outGuess = (g.outGuess + used + used/4) / 2
	if cap(g.out)-used > used/4+64 {
		block := make([]byte, 0, used)
		for i, k := range kids {
			if k.code != "" {
				start := len(block)
				block = append(block, k.code...)
				kids[i].code = unsafe.String(&block[start], len(k.code))
			}
		}
	}
	return append(dst, kids...), true
}
