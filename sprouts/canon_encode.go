package sprouts

import "slices"

// rot returns boundary b at its least rotation in the given direction.
func (c *canonizer) rot(b int32, back bool) []uint64 {
	bd := &c.bnds[b]
	s, e := bd.s, bd.s+bd.n
	if back {
		return c.rr[s:e]
	}
	return c.rf[s:e]
}

// encode writes the code of the land under a coloring in which every
// uppercase letter has its own color: each region read in its least
// direction, its boundaries at their least rotations and sorted, regions
// sorted, then letters named in order of first appearance.
func (c *canonizer) encode(colors []uint64, dst []byte) []byte {
	c.update(colors)
	nb, nr := c.nBoundaries(), c.nRegions()
	for r := range nr {
		b0, b1 := int(c.rStart[r]), int(c.rStart[r+1])
		fo := c.regOrder[b0:b1]
		ro := c.regOrder[nb+b0 : nb+b1]
		for i := range fo {
			fo[i] = int32(b0 + i)
			ro[i] = int32(b0 + i)
		}
		back := false
		switch len(fo) {
		case 0:
		case 1:
			back = slices.Compare(c.rot(fo[0], false), c.rot(fo[0], true)) > 0
		default:
			c.sortBoundaries(fo, false)
			c.sortBoundaries(ro, true)
			back = c.compareOrders(fo, false, ro, true) > 0
		}
		c.regOrient[r] = back
		if back {
			copy(fo, ro)
		}
	}
	regs := c.regs[:nr]
	for r := range nr {
		regs[r] = int32(r)
	}
	for i := 1; i < nr; i++ {
		for j := i; j > 0 && c.compareRegions(regs[j-1], regs[j]) > 0; j-- {
			regs[j-1], regs[j] = regs[j], regs[j-1]
		}
	}
	names := c.names[:c.nUp]
	for i := range names {
		names[i] = -1
	}
	nextUp := int32(0)
	for ri, r := range regs {
		if ri > 0 {
			dst = append(dst, cRegion)
		}
		back := c.regOrient[r]
		b0, b1 := int(c.rStart[r]), int(c.rStart[r+1])
		for k := range c.single[r] {
			if k > 0 {
				dst = append(dst, cBoundary)
			}
			dst = append(dst, cSpot0)
		}
		for bi, b := range c.regOrder[b0:b1] {
			if bi > 0 || c.single[r] > 0 {
				dst = append(dst, cBoundary)
			}
			bd := &c.bnds[b]
			seq := c.rot(b, back)
			s, n := int(bd.s), len(seq)
			lname := c.lname[:n]
			for i := range lname {
				lname[i] = -1
			}
			nextLow := int32(0)
			for k, t := range seq {
				switch t & tClass {
				case tSpot0:
					dst = append(dst, cSpot0)
				case tSpot1:
					dst = append(dst, cSpot1)
				case tSpot2:
					dst = append(dst, cSpot2)
				case tLower:
					if lname[k] < 0 {
						lname[k] = nextLow
						lname[wrap(k+int(t&tValue), n)] = nextLow
						nextLow++
					}
					dst = appendLetter(dst, false, int(lname[k]))
				case tUpper:
					var corner int
					if back {
						corner = s + n - 1 - wrap(int(bd.sR)+k, n)
					} else {
						corner = s + wrap(int(bd.sF)+k, n)
					}
					l := c.base[corner] & tValue
					if names[l] < 0 {
						names[l] = nextUp
						nextUp++
					}
					dst = appendLetter(dst, true, int(names[l]))
				}
			}
		}
	}
	return dst
}

func (c *canonizer) sortBoundaries(order []int32, back bool) {
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && slices.Compare(c.rot(order[j-1], back), c.rot(order[j], back)) > 0; j-- {
			order[j-1], order[j] = order[j], order[j-1]
		}
	}
}

func (c *canonizer) compareOrders(x []int32, xb bool, y []int32, yb bool) int {
	for k := 0; k < len(x) && k < len(y); k++ {
		if d := slices.Compare(c.rot(x[k], xb), c.rot(y[k], yb)); d != 0 {
			return d
		}
	}
	return len(x) - len(y)
}

// compareRegions orders regions as their codes would sort, token by token
// with a boundary's end above every symbol: more spots without lines first.
func (c *canonizer) compareRegions(a, b int32) int {
	if c.single[a] != c.single[b] {
		return int(c.single[b] - c.single[a])
	}
	xa := c.regOrder[c.rStart[a]:c.rStart[a+1]]
	xb := c.regOrder[c.rStart[b]:c.rStart[b+1]]
	return c.compareOrders(xa, c.regOrient[a], xb, c.regOrient[b])
}
