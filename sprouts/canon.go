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
	if n == 2 {
		if s[0] > s[1] {
			return 1
		}
		return 0
	}
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

// hash1 is hashRot of the sequence of one token.
func hash1(t uint64) uint64 {
	h := (1 ^ t) * 0x100000001b3
	return mix(h ^ h>>29)
}

// canonizer computes the canonical code of one land. See the package
// documentation for the algorithm and why its result does not depend on how
// the land was written.
//
// Lands are small (a few regions of a few short boundaries; the lands a
// search meets average six boundaries of two or three corners), so the
// work is laid out for them: every array is sized once per land, the facts
// of a boundary lie together, a boundary's rotations are computed again
// only when the colors of its letters changed, and nothing is allocated
// once the arrays have grown to the lands met.
type canonizer struct {
	// The land, built by load.
	base    []uint64 // token of each corner; an uppercase token holds its letter
	bnds    []bnd
	rStart  []int32 // first boundary of each region; region r ends at rStart[r+1]
	upB     []int32 // the boundaries that hold uppercase letters
	single  []int32 // spots without lines of each region: they are not boundaries here
	letters []letter
	nUp     int
	maxLen  int // corners of the longest boundary

	// Each boundary at its least rotation, reading forwards (rf) and
	// backwards (rr), at the same offsets as base. seen holds, for each
	// uppercase corner, the color its boundary's rotations were computed
	// with.
	rf, rr    []uint64
	seen      []uint64
	tmp       []uint64
	fixed     []uint64 // per region and direction: the hashes of its boundaries without uppercase letters
	rHash     []uint64
	next      []uint64
	rDir      []int8 // the direction whose hash is less: -1 forwards, 1 backwards, 0 neither
	sorted    []uint64
	regOrient []bool  // true when a region reads backwards
	regOrder  []int32 // boundaries of each region, sorted, at the offsets of bStart
	regs      []int32 // regions in order
	order     []int32
	lname     []int32
	names     []int32

	// Search.
	first, best leaf
	auts        []int32 // automorphisms found, nUp letters each
	path        []int32
	uf          []int32
	byName      []int32
	vmark       []uint32 // per vertex of the sketch: the pass that last met it
	vidx        []int32  // per vertex: its number in that pass
	gen         uint32
	colors      []uint64
	stack       []uint64 // colors of the node at each depth of the search, nUp each
	tried       []int32  // letters tried at each depth, nUp slots each
	code        []byte
	key         []byte // the land as loaded: the landCache key
	refinedKey  []byte // the land under refined colors, when the search ran
	keyBuf      []byte
}

// bnd is one boundary of the loaded land: where its tokens are, its region,
// and, under the current colors, where its least rotations start (sF, sR),
// its rotation period (q; reading backwards keeps it) and the hashes of its
// least rotations (hF, hR), which refinement uses.
type bnd struct {
	s, n   int32 // first token in base, number of tokens
	reg    int32
	up     bool // holds uppercase letters
	valid  bool // an uppercase boundary's rotations hold for the colors in seen
	sF, sR int32
	q      int32
	hF, hR uint64
}

// letter is an uppercase letter: where its two corners are in base, and on
// which boundaries.
type letter struct {
	p, b [2]int32
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
	c.bnds = c.bnds[:0]
	c.rStart = c.rStart[:0]
	c.upB = c.upB[:0]
	c.single = c.single[:0]
	c.letters = c.letters[:0]
	c.maxLen = 0
	gen := c.stamp(len(s.lives))
	for ri, reg := range regs {
		c.rStart = append(c.rStart, int32(len(c.bnds)))
		c.single = append(c.single, 0)
		b0, b1 := s.regionBounds(int(reg))
		for b := b0; b < b1; b++ {
			bd := s.boundary(b)
			if len(bd) == 1 && kind[bd[0]] == vSpot0 {
				c.single[ri]++
				continue
			}
			bi := int32(len(c.bnds))
			off := len(c.base)
			up := false
			for p, v := range bd {
				switch kind[v] {
				case vSpot0:
					c.base = append(c.base, tSpot0)
				case vSpot1:
					c.base = append(c.base, tSpot1)
				case vSpot2:
					c.base = append(c.base, tSpot2)
				case vLower:
					c.base = append(c.base, tLower)
					c.vidx[v] = int32(p)
				case vUpper:
					up = true
					if c.vmark[v] != gen {
						c.vmark[v] = gen
						c.vidx[v] = int32(len(c.letters))
						c.letters = append(c.letters, letter{p: [2]int32{int32(off + p), -1}, b: [2]int32{bi, -1}})
					} else {
						l := c.vidx[v]
						c.letters[l].p[1] = int32(off + p)
						c.letters[l].b[1] = bi
					}
					c.base = append(c.base, tUpper|uint64(c.vidx[v]))
				}
			}
			n := len(bd)
			c.bnds = append(c.bnds, bnd{s: int32(off), n: int32(n), reg: int32(ri), up: up})
			if up {
				c.upB = append(c.upB, bi)
			}
			// Lowercase pairs: distance to the partner, read forwards.
			c.maxLen = max(c.maxLen, n)
			for p, v := range bd {
				if kind[v] != vLower {
					continue
				}
				if q := int(c.vidx[v]); q > p {
					c.base[off+p] = tLower | uint64(q-p)
					c.base[off+q] = tLower | uint64(n-(q-p))
				}
			}
		}
	}
	c.rStart = append(c.rStart, int32(len(c.bnds)))
	c.nUp = len(c.letters)
}

// stamp starts a pass over the vertices of a sketch of nv vertices: a
// vertex is met for the first time in the pass when its vmark is not the
// generation returned.
func (c *canonizer) stamp(nv int) uint32 {
	if len(c.vmark) < nv {
		c.vmark = make([]uint32, nv+nv/2)
		c.vidx = make([]int32, nv+nv/2)
		c.gen = 0
	}
	c.gen++
	if c.gen == 0 {
		clear(c.vmark)
		c.gen = 1
	}
	return c.gen
}

// number returns the number of vertex v in the pass gen: the next one,
// counted in *next, when the pass meets v for the first time.
func (c *canonizer) number(v int32, gen uint32, next *int32) int32 {
	if c.vmark[v] != gen {
		c.vmark[v] = gen
		c.vidx[v] = *next
		*next++
	}
	return c.vidx[v]
}

// appendKeyLetter appends letter number x to a landCache key: one byte,
// base+x, when that stays below end, else long and x as a varint.
func appendKeyLetter(k []byte, x int32, base, end, long byte) []byte {
	if x < int32(end-base) {
		return append(k, base+byte(x))
	}
	return appendVarint(append(k, long), uint64(x))
}

// Bytes of the landCache key of a land as drawn (makeKey).
const (
	keySpot0     = 0x01
	keySpot1     = 0x02
	keySpot2     = 0x03
	keyLowerBase = 0x04 // 0x04+k: lowercase pair k of the boundary, k < 60
	keyUpperBase = 0x40 // 0x40+k: uppercase letter k of the land, k < 176
	keyLowerLong = 0xF0 // then k as a varint
	keyUpperLong = 0xF1 // then k as a varint
	keyBoundary  = 0xFE
	keyRegion    = 0xFF
)

// makeKey writes the regions regs of a reduced sketch, exactly as drawn, as
// the landCache key: a 0 byte, then per region the number of spots without
// lines (a varint) and its other boundaries, one byte a corner in the
// common case (lowercase pairs numbered in order of appearance on their
// boundary, uppercase letters in order of appearance in the land), each
// boundary and region closed by a mark. Every token's length follows from
// its first byte, so the key decodes back to the drawing: equal keys mean
// equal lands. The 0 byte first keeps these keys apart from the refined
// keys of canonical (0xFD first).
func (c *canonizer) makeKey(s *sketch, kind []int8, regs []int32) {
	k := append(c.key[:0], 0)
	gen := c.stamp(len(s.lives))
	nUp := int32(0)
	for _, reg := range regs {
		b0, b1 := s.regionBounds(int(reg))
		single := 0
		for b := b0; b < b1; b++ {
			if bd := s.boundary(b); len(bd) == 1 && kind[bd[0]] == vSpot0 {
				single++
			}
		}
		k = appendVarint(k, uint64(single))
		for b := b0; b < b1; b++ {
			bd := s.boundary(b)
			if len(bd) == 1 && kind[bd[0]] == vSpot0 {
				continue
			}
			nLow := int32(0)
			for _, v := range bd {
				switch kind[v] {
				case vSpot0:
					k = append(k, keySpot0)
				case vSpot1:
					k = append(k, keySpot1)
				case vSpot2:
					k = append(k, keySpot2)
				case vLower:
					k = appendKeyLetter(k, c.number(v, gen, &nLow), keyLowerBase, keyUpperBase, keyLowerLong)
				case vUpper:
					k = appendKeyLetter(k, c.number(v, gen, &nUp), keyUpperBase, keyLowerLong, keyUpperLong)
				}
			}
			k = append(k, keyBoundary)
		}
		k = append(k, keyRegion)
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

func (c *canonizer) nBoundaries() int { return len(c.bnds) }
func (c *canonizer) nRegions() int    { return len(c.single) }

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

// canonical returns the code of the land made of the regions regs of a
// reduced sketch, appended to dst.
//
// The cache is tried twice: first with the land exactly as loaded, then,
// when refinement leaves classes of several letters (and the costly search
// would follow), with the land written under the refined colors. That
// second key is the same for many writings of one land (it no longer
// depends on region order, rotations or reading direction, only on how
// letters of one class were named), and like the first it is a faithful
// description of the land, so a hit is always right.
func (c *canonizer) canonical(s *sketch, kind []int8, regs []int32, dst []byte) []byte {
	if cacheLands {
		c.makeKey(s, kind, regs)
		var ok bool
		if dst, ok = lands.appendGet(dst, c.key); ok {
			return dst
		}
	}
	c.load(s, kind, regs)
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
