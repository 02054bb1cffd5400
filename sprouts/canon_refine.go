package sprouts

import (
	"cmp"
	"slices"
)

// prepare sizes the per-land arrays and rotates the boundaries that hold no
// uppercase letters, which no coloring changes; their hashes are summed per
// region once (fixed), for every round to start from.
func (c *canonizer) prepare() {
	nb, nr, nt := c.nBoundaries(), c.nRegions(), len(c.base)
	c.rf = resize(c.rf, nt)
	c.rr = resize(c.rr, nt)
	c.seen = resize(c.seen, nt)
	c.fixed = resize(c.fixed, 2*nr)
	c.rHash = resize(c.rHash, 2*nr)
	c.rDir = resize(c.rDir, nr)
	c.regOrient = resize(c.regOrient, nr)
	c.regs = resize(c.regs, nr)
	c.regOrder = resize(c.regOrder, 2*nb)
	c.next = resize(c.next, c.nUp)
	c.order = resize(c.order, c.nUp)
	c.sorted = resize(c.sorted, c.nUp)
	c.names = resize(c.names, c.nUp)
	c.lname = resize(c.lname, c.maxLen)
	c.tmp = resize(c.tmp, 2*c.maxLen)
	clear(c.fixed)
	for b := range c.bnds {
		bd := &c.bnds[b]
		bd.valid = false
		if bd.up {
			continue
		}
		c.rotate(bd, nil)
		c.fixed[2*bd.reg] += mix(bd.hF)
		c.fixed[2*bd.reg+1] += mix(bd.hR)
	}
}

// colored returns the token at p with an uppercase letter written as its
// color, which it records in seen.
func (c *canonizer) colored(p int, colors []uint64) uint64 {
	t := c.base[p]
	if t&tClass == tUpper {
		col := colors[t&tValue]
		c.seen[p] = col
		t = tUpper | col
	}
	return t
}

// mirror returns the token t of a boundary of n corners as it reads
// backwards: a lowercase distance becomes the distance the other way.
func mirror(t uint64, n int) uint64 {
	if t&tClass == tLower {
		return tLower | uint64(n-int(t&tValue))
	}
	return t
}

const hashPrime = 0x100000001b3

// rotate finds the least rotations of boundary bd forwards and backwards,
// with uppercase letters written as their colors: where they start (sF,
// sR), the rotation period (q), the hash of each least rotation (hF, hR),
// and the rotated tokens themselves (rf, rr).
func (c *canonizer) rotate(bd *bnd, colors []uint64) {
	s, n := int(bd.s), int(bd.n)
	bd.valid = true
	switch n {
	case 1:
		t := c.colored(s, colors)
		bd.sF, bd.sR, bd.q = 0, 0, 1
		h := hash1(t)
		bd.hF, bd.hR = h, h
		c.rf[s], c.rr[s] = t, t
		return
	case 2:
		a, b := c.colored(s, colors), c.colored(s+1, colors)
		ra, rb := mirror(b, 2), mirror(a, 2)
		bd.q = 2
		if a == b {
			bd.q = 1
		}
		bd.sF, bd.sR = 0, 0
		if a > b {
			a, b = b, a
			bd.sF = 1
		}
		if ra > rb {
			ra, rb = rb, ra
			bd.sR = 1
		}
		bd.hF, bd.hR = hash2(a, b), hash2(ra, rb)
		c.rf[s], c.rf[s+1] = a, b
		c.rr[s], c.rr[s+1] = ra, rb
		return
	}
	fwd, rev := c.tmp[:n:n], c.tmp[n:2*n:2*n]
	for i := range n {
		t := c.colored(s+i, colors)
		fwd[i] = t
		rev[n-1-i] = mirror(t, n)
	}
	sf, sr := leastRotation(fwd), leastRotation(rev)
	bd.sF, bd.sR = int32(sf), int32(sr)
	bd.q = int32(period(fwd))
	// The rotated tokens and their hashes (hashRot's, in one pass).
	rf, rr := c.rf[s:s+n:s+n], c.rr[s:s+n:s+n]
	hf, hr := uint64(n), uint64(n)
	for k := range n {
		f, r := fwd[wrap(sf+k, n)], rev[wrap(sr+k, n)]
		rf[k], rr[k] = f, r
		hf = (hf ^ f) * hashPrime
		hf ^= hf >> 29
		hr = (hr ^ r) * hashPrime
		hr ^= hr >> 29
	}
	bd.hF, bd.hR = mix(hf), mix(hr)
}

// hash2 is hashRot of the sequence a, b.
func hash2(a, b uint64) uint64 {
	h := (2 ^ a) * hashPrime
	h ^= h >> 29
	h = (h ^ b) * hashPrime
	return mix(h ^ h>>29)
}

// update rotates the uppercase boundaries whose letters changed color.
func (c *canonizer) update(colors []uint64) {
	base, seen := c.base, c.seen
	for _, b := range c.upB {
		bd := &c.bnds[b]
		fresh := bd.valid
		for p := bd.s; fresh && p < bd.s+bd.n; p++ {
			if t := base[p]; t&tClass == tUpper && colors[t&tValue] != seen[p] {
				fresh = false
			}
		}
		if !fresh {
			c.rotate(bd, colors)
		}
	}
}

// round computes one refinement of colors. Colors are cells of an ordered
// partition of the letters: a letter's color is the index of the first
// letter of its cell in that order. A round splits each cell by what its
// letters' two corners see: the hash of their region and of their
// boundary, and their place on the boundary relative to where its least
// rotation starts. Cells only ever split, in an order that depends on
// nothing but the land, so the colors are the same for any writing of it.
// It returns the number of cells.
func (c *canonizer) round(colors []uint64) int {
	c.update(colors)
	nr := c.nRegions()
	rh := c.rHash[:2*nr]
	copy(rh, c.fixed)
	for _, b := range c.upB {
		bd := &c.bnds[b]
		rh[2*bd.reg] += mix(bd.hF)
		rh[2*bd.reg+1] += mix(bd.hR)
	}
	rDir := c.rDir[:nr]
	for r := range nr {
		f, b := rh[2*r], rh[2*r+1]
		rDir[r] = int8(cmp.Compare(f, b))
		rh[r] = mix(min(f, b) + uint64(c.single[r]))
	}
	next := c.next[:c.nUp]
	for l := range c.letters {
		lt := &c.letters[l]
		var ctx [2]uint64
		for k := range 2 {
			bd := &c.bnds[lt.b[k]]
			n := int(bd.n)
			i := int(lt.p[k] - bd.s)
			offF := i - int(bd.sF)
			if offF < 0 {
				offF += n
			}
			offR := n - 1 - i - int(bd.sR)
			if offR < 0 {
				offR += n
			}
			if q := int(bd.q); q != n {
				offF %= q
				offR %= q
			}
			f := bd.hF + uint64(offF)*0x9E3779B97F4A7C15
			r := bd.hR + uint64(offR)*0x9E3779B97F4A7C15
			// Where the region's two directions differ, the least one is
			// how the region reads, and a corner is seen in that direction.
			switch h := rh[bd.reg]; rDir[bd.reg] {
			case -1:
				ctx[k] = mix(h ^ f)
			case 1:
				ctx[k] = mix(h ^ r)
			default:
				ctx[k] = mix(h ^ (f + r) ^ (f * r))
			}
		}
		next[l] = mix(ctx[0]+ctx[1]) ^ (ctx[0] ^ ctx[1])
	}
	return c.split(colors, next)
}

// split refines the cells of colors by sig and returns the number of cells.
// A letter's new color is the number of letters whose (color, sig) is less
// than its own, so the order in which equal letters are sorted is of no
// consequence.
func (c *canonizer) split(colors, sig []uint64) int {
	n := c.nUp
	order := c.order[:n]
	for l := range order {
		order[l] = int32(l)
	}
	less := func(a, b int32) bool {
		if colors[a] != colors[b] {
			return colors[a] < colors[b]
		}
		return sig[a] < sig[b]
	}
	if n <= 32 {
		for i := 1; i < n; i++ {
			x := order[i]
			j := i
			for ; j > 0 && less(x, order[j-1]); j-- {
				order[j] = order[j-1]
			}
			order[j] = x
		}
	} else {
		slices.SortFunc(order, func(a, b int32) int {
			if d := cmp.Compare(colors[a], colors[b]); d != 0 {
				return d
			}
			return cmp.Compare(sig[a], sig[b])
		})
	}
	sorted := c.sorted[:n]
	cells := 0
	for k, l := range order {
		if k == 0 || colors[l] != colors[order[k-1]] || sig[l] != sig[order[k-1]] {
			cells++
			sorted[k] = uint64(k)
		} else {
			sorted[k] = sorted[k-1]
		}
	}
	for k, l := range order {
		colors[l] = sorted[k]
	}
	return cells
}

// refine repeats rounds until they stop splitting cells, and returns the
// number of cells.
func (c *canonizer) refine(colors []uint64, cells int) int {
	for cells < c.nUp {
		n := c.round(colors)
		if n == cells {
			break
		}
		cells = n
	}
	return cells
}
