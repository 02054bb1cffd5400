package sprouts

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

// mix stirs the bits of x. The canonical form does not depend on its
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
	lands       *Cache // where codes are looked up and kept (nil: nowhere), for the current call
	key         []byte // the land as loaded: the Cache key
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

// appendKeyLetter appends letter number x to a Cache key: one byte,
// base+x, when that stays below end, else long and x as a varint.
func appendKeyLetter(k []byte, x int32, base, end, long byte) []byte {
	if x < int32(end-base) {
		return append(k, base+byte(x))
	}
	return appendVarint(append(k, long), uint64(x))
}

// Bytes of the Cache key of a land as drawn (makeKey).
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
// the Cache key: a 0 byte, then per region the number of spots without
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
	if c.lands != nil {
		c.makeKey(s, kind, regs)
		var ok bool
		if dst, ok = c.lands.appendGet(dst, c.key); ok {
			return dst
		}
	}
	c.load(s, kind, regs)
	start := len(dst)
	dst = c.compute(dst)
	if c.lands != nil {
		code := dst[start:]
		c.lands.put(c.key, code)
		if c.refinedKey != nil {
			c.lands.put(c.refinedKey, code)
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
	if c.lands != nil {
		c.keyBuf = c.encode(c.colors, append(c.keyBuf[:0], 0xFD))
		c.refinedKey = c.keyBuf
		if out, ok := c.lands.appendGet(dst, c.refinedKey); ok {
			c.refinedKey = nil
			return out
		}
	}
	c.findSwaps(c.colors)
	c.search(c.colors, cells, 0, true)
	return append(dst, c.best.code...)
}
