package sprouts

import (
	"bytes"
	"slices"
)

// nAuts returns the number of automorphisms found so far.
func (c *canonizer) nAuts() int { return len(c.auts) / c.nUp }

// aut returns automorphism i, letter to letter.
func (c *canonizer) aut(i int) []int32 { return c.auts[i*c.nUp : (i+1)*c.nUp] }

// newAut appends an automorphism, the identity until the caller sets it.
func (c *canonizer) newAut() []int32 {
	n := len(c.auts)
	c.auts = slices.Grow(c.auts, c.nUp)[:n+c.nUp]
	a := c.auts[n:]
	for l := range a {
		a[l] = int32(l)
	}
	return a
}

// findSwaps looks for letters that can be exchanged without changing the
// land: x and y lie in the same regions, and each such region reads the
// same once they are exchanged, its boundaries rotated or the whole region
// read backwards (as A and B in AB|AB, or C and D in 0.A|2AB|CD|CDB). Each
// such exchange is an automorphism, recorded before the search so that it
// never explores both letters' branches.
func (c *canonizer) findSwaps(colors []uint64) {
	for x := range c.nUp {
		for y := x + 1; y < c.nUp; y++ {
			if colors[x] == colors[y] && c.swapIsAutomorphism(x, y) {
				aut := c.newAut()
				aut[x], aut[y] = int32(y), int32(x)
				break // y's own swaps are found from y
			}
		}
	}
}

func (c *canonizer) swapIsAutomorphism(x, y int) bool {
	reg := func(l, k int) int32 { return c.bnds[c.letters[l].b[k]].reg }
	rx0, rx1 := reg(x, 0), reg(x, 1)
	ry0, ry1 := reg(y, 0), reg(y, 1)
	if !(rx0 == ry0 && rx1 == ry1 || rx0 == ry1 && rx1 == ry0) {
		return false
	}
	tx, ty := tUpper|uint64(x), tUpper|uint64(y)
	for _, r := range [2]int32{rx0, rx1} {
		if !c.regionSwaps(r, tx, ty, false) && !c.regionSwaps(r, tx, ty, true) {
			return false
		}
	}
	return true
}

// regionSwaps reports whether every boundary of region r, with the letter
// tokens tx and ty exchanged, is a rotation of itself (back false) or of
// itself read backwards (back true, the whole region mirrored).
func (c *canonizer) regionSwaps(r int32, tx, ty uint64, back bool) bool {
	for b := c.rStart[r]; b < c.rStart[r+1]; b++ {
		bd := &c.bnds[b]
		seq := c.base[bd.s : bd.s+bd.n]
		n := len(seq)
		target := seq
		if back {
			rev := c.tmp[:n]
			for i, t := range seq {
				if t&tClass == tLower {
					t = tLower | uint64(n-int(t&tValue))
				}
				rev[n-1-i] = t
			}
			target = rev
		} else if !bd.up {
			continue
		}
		found := false
		for rot := 0; rot < n && !found; rot++ {
			found = true
			for i, t := range seq {
				switch t {
				case tx:
					t = ty
				case ty:
					t = tx
				}
				if t != target[wrap(i+rot, n)] {
					found = false
					break
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// search explores the individualisation tree below a node at the given
// depth, whose coloring has the given number of cells (already refined if
// refined is set). It returns the depth to which the search should jump
// back, or depth itself to go on normally.
func (c *canonizer) search(colors []uint64, cells, depth int, refined bool) int {
	if !refined {
		cells = c.refine(colors, cells)
	}
	if cells == c.nUp {
		return c.atLeaf(colors, depth)
	}
	// The cell to split: the first one of more than one letter.
	target, size := uint64(0), 0
	for {
		size = 0
		for _, x := range colors {
			if x == target {
				size++
			}
		}
		if size > 1 {
			break
		}
		target++
	}
	nUp := c.nUp
	if need := (depth + 1) * nUp; len(c.stack) < need {
		c.stack = append(c.stack, make([]uint64, need-len(c.stack))...)
		c.tried = append(c.tried, make([]int32, need-len(c.tried))...)
	}
	child := c.stack[depth*nUp : (depth+1)*nUp]
	triedAt := c.tried[depth*nUp : (depth+1)*nUp]
	cells = c.distinct(colors) + 1
	nTried := 0
	for x := range nUp {
		if colors[x] != target || c.sameOrbit(int32(x), triedAt[:nTried], depth) {
			continue
		}
		triedAt[nTried] = int32(x)
		nTried++
		// x keeps the cell's place; the rest of the cell follows it.
		for l, col := range colors {
			child[l] = col
			if col == target && l != x {
				child[l] = target + 1
			}
		}
		c.path = append(c.path[:depth], int32(x))
		if j := c.search(child, cells, depth+1, false); j < depth {
			return j
		}
		// The deeper search may have grown the stacks.
		child = c.stack[depth*nUp : (depth+1)*nUp]
		triedAt = c.tried[depth*nUp : (depth+1)*nUp]
	}
	return depth
}

func (c *canonizer) distinct(colors []uint64) int {
	n := 0
	for l, x := range colors {
		// A cell is counted at its first letter in index order.
		if !slices.Contains(colors[:l], x) {
			n++
		}
	}
	return n
}

// atLeaf handles a discrete coloring: keep the least code, and when a code
// repeats, record the automorphism between the two labelings.
func (c *canonizer) atLeaf(colors []uint64, depth int) int {
	c.code = c.encode(colors, c.code[:0])
	path := c.path[:depth]
	if !c.first.set {
		c.first.store(c.code, c.names, path)
		c.best.store(c.code, c.names, path)
		return depth
	}
	for _, other := range [2]*leaf{&c.first, &c.best} {
		if !bytes.Equal(c.code, other.code) {
			continue
		}
		aut := c.newAut()
		c.byName = resize(c.byName, c.nUp)
		for l, n := range c.names {
			c.byName[n] = int32(l)
		}
		for l, n := range other.names {
			aut[l] = c.byName[n]
		}
		// Jump back to where the two paths part if the automorphism fixes
		// their common part: the rest of this subtree mirrors one already seen.
		d := 0
		for d < len(path) && d < len(other.path) && path[d] == other.path[d] {
			d++
		}
		fixes := true
		for _, x := range path[:d] {
			if aut[x] != x {
				fixes = false
				break
			}
		}
		if fixes && d < len(path) && d < len(other.path) && aut[other.path[d]] == path[d] {
			return d
		}
		return depth
	}
	if bytes.Compare(c.code, c.best.code) < 0 {
		c.best.store(c.code, c.names, path)
	}
	return depth
}

// sameOrbit reports whether x lies in the orbit of a letter in tried under
// the automorphisms found so far that fix the first depth letters of the
// current path.
func (c *canonizer) sameOrbit(x int32, tried []int32, depth int) bool {
	if len(tried) == 0 || len(c.auts) == 0 {
		return false
	}
	c.uf = resize(c.uf, c.nUp)
	for i := range c.uf {
		c.uf[i] = int32(i)
	}
	find := func(a int32) int32 {
		for c.uf[a] != a {
			c.uf[a] = c.uf[c.uf[a]]
			a = c.uf[a]
		}
		return a
	}
	for i := range c.nAuts() {
		g := c.aut(i)
		fixes := true
		for _, p := range c.path[:depth] {
			if g[p] != p {
				fixes = false
				break
			}
		}
		if !fixes {
			continue
		}
		for a, b := range g {
			ra, rb := find(int32(a)), find(b)
			if ra != rb {
				c.uf[ra] = rb
			}
		}
	}
	rx := find(x)
	for _, y := range tried {
		if find(y) == rx {
			return true
		}
	}
	return false
}
