package sprouts

import (
	"bytes"
	"cmp"
	"slices"
)

// Tokens are the symbols of a land as 64-bit numbers, ordered by their class
// first. A lowercase letter is written as the distance (along its boundary,
// in reading direction) to the other corner of its pair, which makes the
// token sequence of a boundary independent of letter names and of where the
// boundary is cut open. An uppercase letter is written as its current color.
const (
	tSpot0 = uint64(1) << 56
	tSpot1 = uint64(2) << 56
	tSpot2 = uint64(3) << 56
	tLower = uint64(4) << 56
	tUpper = uint64(5) << 56
	tClass = uint64(0xFF) << 56
	tValue = uint64(1)<<56 - 1
)

// mix scrambles the bits of x. The canonical form does not depend on its
// quality: a poor mix only makes refinement split fewer classes, which the
// search then splits by individualisation.
func mix(x uint64) uint64 {
	x ^= x >> 31
	x *= 0xd6e8feb86659fd93
	x ^= x >> 32
	return x
}

// leastRotation returns the start of the lexicographically least rotation of
// the cyclic sequence s (the two-pointer method, linear time).
func leastRotation(s []uint64) int {
	n := len(s)
	i, j, k := 0, 1, 0
	for i < n && j < n && k < n {
		a, b := s[wrap(i+k, n)], s[wrap(j+k, n)]
		if a == b {
			k++
			continue
		}
		if a > b {
			i += k + 1
		} else {
			j += k + 1
		}
		if i == j {
			j++
		}
		k = 0
	}
	return min(i, j)
}

// wrap reduces i < 2n modulo n without a division.
func wrap(i, n int) int {
	if i >= n {
		return i - n
	}
	return i
}

// period returns the smallest q dividing len(s) such that s is unchanged by
// a rotation of q.
func period(s []uint64) int {
	n := len(s)
outer:
	for q := 1; q < n; q++ {
		if n%q != 0 {
			continue
		}
		for i := q; i < n; i++ {
			if s[i] != s[i-q] {
				continue outer
			}
		}
		return q
	}
	return n
}

func hashSeq(s []uint64) uint64 { return hashRot(s, 0) }

// hashRot hashes the rotation of s that starts at k.
func hashRot(s []uint64, k int) uint64 {
	h := uint64(len(s))
	for _, t := range s[k:] {
		h = (h ^ t) * 0x100000001b3
		h ^= h >> 29
	}
	for _, t := range s[:k] {
		h = (h ^ t) * 0x100000001b3
		h ^= h >> 29
	}
	return mix(h)
}

// canonizer computes the canonical code of one land. See the package
// documentation for the algorithm and why its result does not depend on how
// the land was written.
type canonizer struct {
	// The land, built by load.
	base   []uint64 // token of each corner; an uppercase token holds its letter
	bStart []int32  // first corner of each boundary; boundary b ends at bStart[b+1]
	rStart []int32  // first boundary of each region; region r ends at rStart[r+1]
	bReg   []int32  // region of each boundary
	bUp    []bool   // whether a boundary holds uppercase letters
	single []int32  // spots without lines of each region: they are not boundaries here
	corner [][2]int32
	cBound []int32 // boundary of each corner
	nUp    int

	// Each boundary at its least rotation, reading forwards (rf) and
	// backwards (rr), at the same offsets as base; where that rotation
	// starts, the period of the rotated sequence, and its hash. Boundaries
	// without uppercase letters are filled once by load, the others by color.
	rf, rr, tmp  []uint64
	sF, sR       []int32
	qF, qR       []int32
	hF, hR       []uint64
	rHash, next  []uint64
	rDir         []int8 // the direction whose hash is less: -1 forwards, 1 backwards, 0 neither
	sorted       []uint64
	regOrient    []bool  // true when a region reads backwards
	regOrder     []int32 // boundaries of each region, sorted, at the offsets of bStart
	regs         []int32 // regions in order
	order        []int32
	lname, names []int32

	// Search.
	first, best leaf
	auts        [][]int32
	path        []int32
	uf          []int32
	vpos        []int32
	vletter     []int32
	colors      []uint64
	stack       [][]uint64 // colors of the node at each depth of the search
	code        []byte
	key         []byte // the land as loaded: the landCache key
	refinedKey  []byte // the land under refined colors, when the search ran
	keyBuf      []byte
}

type leaf struct {
	code  []byte
	names []int32 // letter → printed index
	path  []int32 // letters individualised on the way, in order
	set   bool
}

func (l *leaf) store(code []byte, names, path []int32) {
	l.code = append(l.code[:0], code...)
	l.names = append(l.names[:0], names...)
	l.path = append(l.path[:0], path...)
	l.set = true
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/2)
	}
	return s[:n]
}

// load copies the regions regs of a reduced sketch into the canonizer.
func (c *canonizer) load(s *sketch, kind []int8, regs []int32) {
	c.base = c.base[:0]
	c.bStart = c.bStart[:0]
	c.rStart = c.rStart[:0]
	c.bReg = c.bReg[:0]
	c.bUp = c.bUp[:0]
	c.single = c.single[:0]
	c.corner = c.corner[:0]
	c.cBound = c.cBound[:0]
	nv := len(s.lives)
	c.vpos = resize(c.vpos, nv)
	c.vletter = resize(c.vletter, nv)
	for i := range nv {
		c.vletter[i] = -1
	}
	for ri, reg := range regs {
		c.rStart = append(c.rStart, int32(len(c.bStart)))
		c.single = append(c.single, 0)
		b0, b1 := s.regionBounds(int(reg))
		for b := b0; b < b1; b++ {
			if bd := s.boundary(b); len(bd) == 1 && kind[bd[0]] == vSpot0 {
				c.single[ri]++
				continue
			}
			bi := int32(len(c.bStart))
			c.bStart = append(c.bStart, int32(len(c.base)))
			c.bReg = append(c.bReg, int32(ri))
			bd := s.boundary(b)
			off := len(c.base)
			up := false
			for p, v := range bd {
				c.cBound = append(c.cBound, bi)
				switch kind[v] {
				case vSpot0:
					c.base = append(c.base, tSpot0)
				case vSpot1:
					c.base = append(c.base, tSpot1)
				case vSpot2:
					c.base = append(c.base, tSpot2)
				case vLower:
					c.base = append(c.base, tLower)
					c.vpos[v] = int32(p)
				case vUpper:
					up = true
					l := c.vletter[v]
					if l < 0 {
						l = int32(len(c.corner))
						c.vletter[v] = l
						c.corner = append(c.corner, [2]int32{int32(off + p), -1})
					} else {
						c.corner[l][1] = int32(off + p)
					}
					c.base = append(c.base, tUpper|uint64(l))
				}
			}
			c.bUp = append(c.bUp, up)
			// Lowercase pairs: distance to the partner, read forwards.
			n := len(bd)
			for p, v := range bd {
				if kind[v] != vLower {
					continue
				}
				if q := int(c.vpos[v]); q > p {
					c.base[off+p] = tLower | uint64(q-p)
					c.base[off+q] = tLower | uint64(n-(q-p))
				}
			}
		}
	}
	c.bStart = append(c.bStart, int32(len(c.base)))
	c.rStart = append(c.rStart, int32(len(c.bStart)-1))
	c.nUp = len(c.corner)
	c.makeKey()

}

// prepare sizes the per-boundary arrays and rotates the boundaries that hold
// no uppercase letters, which no coloring changes.
func (c *canonizer) prepare() {
	nb := c.nBoundaries()
	c.rf = resize(c.rf, len(c.base))
	c.rr = resize(c.rr, len(c.base))
	c.sF, c.sR = resize(c.sF, nb), resize(c.sR, nb)
	c.qF, c.qR = resize(c.qF, nb), resize(c.qR, nb)
	c.hF, c.hR = resize(c.hF, nb), resize(c.hR, nb)
	for b := range nb {
		if !c.bUp[b] {
			c.rotate(b, nil, true)
			c.rotate(b, nil, false)
		}
	}
}

// makeKey writes the loaded land as bytes: per region the number of spots
// without lines, then each boundary's tokens (class, then for letters the
// value in little-endian base 128), boundaries and regions ended by marks.
// Each token's length follows from its class, so the bytes decode back to
// the land: equal keys mean equal lands. A 0 byte first keeps these keys
// apart from the refined keys of canonical, which no code begins with.
func (c *canonizer) makeKey() {
	k := append(c.key[:0], 0) // raw keys start with 0, refined ones with 0xFD
	for r := range c.nRegions() {
		k = appendVarint(k, uint64(c.single[r]))
		for b := c.rStart[r]; b < c.rStart[r+1]; b++ {
			s, e := c.span(int(b))
			for _, t := range c.base[s:e] {
				k = append(k, byte(t>>56))
				if c := t & tClass; c == tLower || c == tUpper {
					k = appendVarint(k, t&tValue)
				}
			}
			k = append(k, 0xFE)
		}
		k = append(k, 0xFF)
	}
	c.key = k
}

func appendVarint(dst []byte, v uint64) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

func (c *canonizer) nBoundaries() int { return len(c.bStart) - 1 }
func (c *canonizer) nRegions() int    { return len(c.rStart) - 1 }

func (c *canonizer) span(b int) (int, int) { return int(c.bStart[b]), int(c.bStart[b+1]) }

// rotate finds the least rotations of boundary b forwards and backwards,
// with uppercase letters written as their colors (sF, sR); with stats it
// also computes the rotation period (qF = qR: reversing keeps it) and the
// hash of each least rotation (hF, hR), which refinement uses. Encoding
// (stats false) also needs the rotated tokens themselves (rf, rr).
func (c *canonizer) rotate(b int, colors []uint64, stats bool) {
	s, e := c.span(b)
	n := e - s
	if n == 1 {
		t := c.base[s]
		if t&tClass == tUpper {
			t = tUpper | colors[t&tValue]
		}
		c.rf[s], c.rr[s] = t, t
		c.sF[b], c.sR[b], c.qF[b], c.qR[b] = 0, 0, 1, 1
		c.hF[b] = hashSeq(c.rf[s:e])
		c.hR[b] = c.hF[b]
		return
	}
	c.tmp = resize(c.tmp, 2*n)
	fwd, rev := c.tmp[:n], c.tmp[n:]
	for i, t := range c.base[s:e] {
		switch t & tClass {
		case tUpper:
			t = tUpper | colors[t&tValue]
		case tLower:
			rev[n-1-i] = tLower | uint64(n-int(t&tValue))
			fwd[i] = t
			continue
		}
		fwd[i] = t
		rev[n-1-i] = t
	}
	sf, sr := leastRotation(fwd), leastRotation(rev)
	c.sF[b], c.sR[b] = int32(sf), int32(sr)
	if stats {
		q := int32(period(fwd))
		c.qF[b], c.qR[b] = q, q
		c.hF[b] = hashRot(fwd, sf)
		c.hR[b] = hashRot(rev, sr)
		return
	}
	copy(c.rf[s:e], fwd[sf:])
	copy(c.rf[s+n-sf:e], fwd[:sf])
	copy(c.rr[s:e], rev[sr:])
	copy(c.rr[s+n-sr:e], rev[:sr])
}

// color rotates every boundary that holds uppercase letters under colors.
func (c *canonizer) color(colors []uint64, stats bool) {
	for b, up := range c.bUp {
		if up {
			c.rotate(b, colors, stats)
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
	c.color(colors, true)
	nr := c.nRegions()
	c.rHash = resize(c.rHash, 2*nr)
	clear(c.rHash)
	for b := range c.nBoundaries() {
		reg := c.bReg[b]
		c.rHash[2*reg] += mix(c.hF[b])
		c.rHash[2*reg+1] += mix(c.hR[b])
	}
	c.rDir = resize(c.rDir, nr)
	for r := range nr {
		f, b := c.rHash[2*r], c.rHash[2*r+1]
		c.rDir[r] = int8(cmp.Compare(f, b))
		c.rHash[r] = mix(min(f, b) + uint64(c.single[r]))
	}
	c.next = resize(c.next, c.nUp)
	for l, cs := range c.corner {
		var ctx [2]uint64
		for k, p := range cs {
			b := c.cBound[p]
			s, e := c.span(int(b))
			n := e - s
			i := int(p) - s
			offF := (i - int(c.sF[b]) + n) % int(c.qF[b])
			offR := (n - 1 - i - int(c.sR[b]) + n) % int(c.qR[b])
			f := c.hF[b] + uint64(offF)*0x9E3779B97F4A7C15
			r := c.hR[b] + uint64(offR)*0x9E3779B97F4A7C15
			// Where the region's two directions differ, the least one is
			// how the region reads, and a corner is seen in that direction.
			reg := c.bReg[b]
			switch c.rDir[reg] {
			case -1:
				ctx[k] = mix(c.rHash[reg] ^ f)
			case 1:
				ctx[k] = mix(c.rHash[reg] ^ r)
			default:
				ctx[k] = mix(c.rHash[reg] ^ (f + r) ^ (f * r))
			}
		}
		c.next[l] = mix(ctx[0]+ctx[1]) ^ (ctx[0] ^ ctx[1])
	}
	return c.split(colors, c.next)
}

// split refines the cells of colors by sig and returns the number of cells.
func (c *canonizer) split(colors, sig []uint64) int {
	c.order = resize(c.order, c.nUp)
	for l := range c.order {
		c.order[l] = int32(l)
	}
	slices.SortFunc(c.order, func(a, b int32) int {
		if d := cmp.Compare(colors[a], colors[b]); d != 0 {
			return d
		}
		return cmp.Compare(sig[a], sig[b])
	})
	c.sorted = resize(c.sorted, c.nUp)
	cells := 0
	for k, l := range c.order {
		if k == 0 || colors[l] != colors[c.order[k-1]] || sig[l] != sig[c.order[k-1]] {
			cells++
			c.sorted[k] = uint64(k)
		} else {
			c.sorted[k] = c.sorted[k-1]
		}
	}
	for k, l := range c.order {
		colors[l] = c.sorted[k]
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

// rot returns boundary b at its least rotation in the given direction.
func (c *canonizer) rot(b int32, back bool) []uint64 {
	s, e := c.bStart[b], c.bStart[b+1]
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
	c.color(colors, false)
	nb, nr := c.nBoundaries(), c.nRegions()
	c.regOrder = resize(c.regOrder, 2*nb)
	c.regOrient = resize(c.regOrient, nr)
	for r := range nr {
		b0, b1 := int(c.rStart[r]), int(c.rStart[r+1])
		fo := c.regOrder[b0:b1]
		ro := c.regOrder[nb+b0 : nb+b1]
		for i := range fo {
			fo[i] = int32(b0 + i)
			ro[i] = int32(b0 + i)
		}
		c.sortBoundaries(fo, false)
		c.sortBoundaries(ro, true)
		c.regOrient[r] = c.compareOrders(fo, false, ro, true) > 0
		if c.regOrient[r] {
			copy(fo, ro)
		}
	}
	c.regs = resize(c.regs, nr)
	for r := range nr {
		c.regs[r] = int32(r)
	}
	for i := 1; i < nr; i++ {
		for j := i; j > 0 && c.compareRegions(c.regs[j-1], c.regs[j]) > 0; j-- {
			c.regs[j-1], c.regs[j] = c.regs[j], c.regs[j-1]
		}
	}
	c.names = resize(c.names, c.nUp)
	for i := range c.names {
		c.names[i] = -1
	}
	nextUp := int32(0)
	for ri, r := range c.regs {
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
			seq := c.rot(b, back)
			s, n := int(c.bStart[b]), len(seq)
			c.lname = resize(c.lname, n)
			for i := range c.lname {
				c.lname[i] = -1
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
					if c.lname[k] < 0 {
						c.lname[k] = nextLow
						c.lname[wrap(k+int(t&tValue), n)] = nextLow
						nextLow++
					}
					dst = appendLetter(dst, false, int(c.lname[k]))
				case tUpper:
					var corner int
					if back {
						corner = s + n - 1 - wrap(int(c.sR[b])+k, n)
					} else {
						corner = s + wrap(int(c.sF[b])+k, n)
					}
					l := c.base[corner] & tValue
					if c.names[l] < 0 {
						c.names[l] = nextUp
						nextUp++
					}
					dst = appendLetter(dst, true, int(c.names[l]))
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

// canonical returns the code of the land loaded by load, appended to dst.
//
// The cache is tried twice: first with the land exactly as loaded, then,
// when refinement leaves classes of several letters (and the costly search
// would follow), with the land written under the refined colors. That
// second key is the same for many writings of one land (it no longer
// depends on region order, rotations or reading direction, only on how
// letters of one class were named), and like the first it is a faithful
// description of the land, so a hit is always right.
func (c *canonizer) canonical(dst []byte) []byte {
	if cacheLands {
		var ok bool
		if dst, ok = lands.appendGet(dst, c.key); ok {
			return dst
		}
	}
	start := len(dst)
	dst = c.compute(dst)
	if cacheLands {
		code := dst[start:]
		lands.put(c.key, code)
		if c.refinedKey != nil {
			lands.put(c.refinedKey, code)
		}
	}
	return dst
}

func (c *canonizer) compute(dst []byte) []byte {
	c.prepare()
	c.refinedKey = nil
	c.colors = resize(c.colors, c.nUp)
	clear(c.colors)
	if c.nUp <= 1 {
		return c.encode(c.colors, dst)
	}
	c.first.set, c.best.set = false, false
	c.auts = c.auts[:0]
	c.path = c.path[:0]
	cells := c.refine(c.colors, 1)
	if cells == c.nUp {
		return c.encode(c.colors, dst)
	}
	if cacheLands {
		c.keyBuf = c.encode(c.colors, append(c.keyBuf[:0], 0xFD))
		c.refinedKey = c.keyBuf
		if out, ok := lands.appendGet(dst, c.refinedKey); ok {
			c.refinedKey = nil
			return out
		}
	}
	c.findSwaps(c.colors)
	c.search(c.colors, cells, 0, true)
	return append(dst, c.best.code...)
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
				aut := make([]int32, c.nUp)
				for l := range aut {
					aut[l] = int32(l)
				}
				aut[x], aut[y] = int32(y), int32(x)
				c.auts = append(c.auts, aut)
				break // y's own swaps are found from y
			}
		}
	}
}

func (c *canonizer) swapIsAutomorphism(x, y int) bool {
	rx0, rx1 := c.bReg[c.cBound[c.corner[x][0]]], c.bReg[c.cBound[c.corner[x][1]]]
	ry0, ry1 := c.bReg[c.cBound[c.corner[y][0]]], c.bReg[c.cBound[c.corner[y][1]]]
	if !(rx0 == ry0 && rx1 == ry1 || rx0 == ry1 && rx1 == ry0) {
		return false
	}
	swap := func(t uint64) uint64 {
		switch t {
		case tUpper | uint64(x):
			return tUpper | uint64(y)
		case tUpper | uint64(y):
			return tUpper | uint64(x)
		}
		return t
	}
	for _, r := range [2]int32{rx0, rx1} {
		if !c.regionSwaps(r, swap, false) && !c.regionSwaps(r, swap, true) {
			return false
		}
	}
	return true
}

// regionSwaps reports whether every boundary of region r, with letters
// exchanged by swap, is a rotation of itself (back false) or of itself read
// backwards (back true, the whole region mirrored).
func (c *canonizer) regionSwaps(r int32, swap func(uint64) uint64, back bool) bool {
	for b := c.rStart[r]; b < c.rStart[r+1]; b++ {
		s, e := c.span(int(b))
		seq := c.base[s:e]
		n := len(seq)
		target := seq
		if back {
			c.tmp = resize(c.tmp, n)
			for i, t := range seq {
				if t&tClass == tLower {
					t = tLower | uint64(n-int(t&tValue))
				}
				c.tmp[n-1-i] = t
			}
			target = c.tmp
		} else if !c.bUp[b] {
			continue
		}
		found := false
		for rot := 0; rot < n && !found; rot++ {
			found = true
			for i, t := range seq {
				if swap(t) != target[wrap(i+rot, n)] {
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
	for len(c.stack) <= depth {
		c.stack = append(c.stack, nil)
	}
	child := resize(c.stack[depth], c.nUp)
	c.stack[depth] = child
	cells = c.distinct(colors) + 1
	var tried []int32
	for x := range c.nUp {
		if colors[x] != target || c.sameOrbit(int32(x), tried, depth) {
			continue
		}
		tried = append(tried, int32(x))
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
		aut := make([]int32, c.nUp)
		byName := make([]int32, c.nUp)
		for l, n := range c.names {
			byName[n] = int32(l)
		}
		for l, n := range other.names {
			aut[l] = byName[n]
		}
		c.auts = append(c.auts, aut)
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
	for _, g := range c.auts {
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
