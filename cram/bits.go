package cram

import (
	"math/bits"
	"strconv"
)

// The boards a search meets are small: every board whose value is
// published has at most 64 cells. A region whose bounding box has at most
// 64 cells is kept as a bit mask of its canonical image (bit r·w+c for the
// cell at row r, column c), and its children are made with shifts and
// masks instead of a flood fill of a grid and eight rewritten texts. Both
// ways give the same canonical texts, the same children and the same
// order of making them (tests compare them), so certificates do not change.

// maxBits is the largest bounding box, in cells, kept as a bit mask.
const maxBits = 64

// small reports whether r is kept as a bit mask.
func (r region) small() bool { return r.h > 0 }

// withMask returns r with the bit mask of its canonical text, when its
// bounding box has at most maxBits cells.
func withMask(r region) region {
	h, w := regionBox(r.text)
	if h*w > maxBits || h <= 0 || w <= 0 {
		return r
	}
	var m uint64
	if isRectText(r.text) {
		m = fullMask(h * w)
	} else {
		i := 0
		for j := 0; j < len(r.text); j++ {
			switch r.text[j] {
			case '.':
				m |= 1 << i
				i++
			case '#':
				i++
			}
		}
	}
	r.h, r.w, r.mask = int32(h), int32(w), m
	return r
}

// isRectText reports whether a region's text is "HxW".
func isRectText(text string) bool { return text[0] >= '0' && text[0] <= '9' }

// fullMask has the low n bits set.
func fullMask(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<n - 1
}

// boxMasks returns, for a box of h rows of w cells, the cells not in the
// first column and those not in the last: a shift by one must not carry a
// cell from one row's end into the next row.
func boxMasks(h, w int) (notFirst, notLast uint64) {
	var first uint64
	for r := range h {
		first |= 1 << (r * w)
	}
	all := fullMask(h * w)
	return all &^ first, all &^ (first << (w - 1))
}

// bitMoves counts the pairs of adjacent empty cells of m in a box of
// width w.
func bitMoves(m uint64, w int, notLast uint64) int {
	return bits.OnesCount64(m&notLast&(m>>1)) + bits.OnesCount64(m&(m>>w))
}

// bitBoard is a small region being played on: its box and its masks.
type bitBoard struct {
	w                 int
	notFirst, notLast uint64
}

// component returns the cells of m orthogonally connected to seed.
func (b *bitBoard) component(m, seed uint64) uint64 {
	c := seed
	for {
		next := (c | c<<1&b.notFirst | c>>1&b.notLast | c<<b.w | c>>b.w) & m
		if next == c {
			return c
		}
		c = next
	}
}

// appendRegions appends the regions of m (cells of the box of b) of two
// cells or more, in canonical form, in the order of their lowest cell.
func (b *bitBoard) appendRegions(dst []region, m uint64) []region {
	for m != 0 {
		c := b.component(m, m&-m)
		m &^= c
		if c&(c-1) != 0 {
			dst = append(dst, canonicalBits(c, b.w))
		}
	}
	return dst
}

// canonicalBits returns the region made of the cells c of a box of width
// w in canonical form: the least of its 8 images by height, width and
// rows as text (see the package documentation). A text compares its cells
// in row-major order with a hole before an empty cell, so among images of
// one size the least text is the least mask read from its first cell:
// the least bits.Reverse64 of the mask.
func canonicalBits(c uint64, w int) region {
	n := bits.OnesCount64(c)
	minR, maxR := bits.TrailingZeros64(c)/w, (63-bits.LeadingZeros64(c))/w
	row := fullMask(w)
	var cols uint64
	for r := minR; r <= maxR; r++ {
		cols |= c >> (r * w) & row
	}
	minC, maxC := bits.TrailingZeros64(cols), 63-bits.LeadingZeros64(cols)
	bh, bw := maxR-minR+1, maxC-minC+1
	if n == bh*bw {
		h, w := min(bh, bw), max(bh, bw)
		return region{text: strconv.Itoa(h) + "x" + strconv.Itoa(w), cells: n, h: int32(h), w: int32(w), mask: fullMask(n)}
	}
	// The region in its own box, bh rows of bw cells.
	var m uint64
	for r := range bh {
		m |= c >> ((minR+r)*w + minC) & fullMask(bw) << (r * bw)
	}
	// Images of the least height: those of the box as it stands when it
	// is no taller than wide, its transposes when it is no wider than
	// tall (both when it is square). Each comes with its three flips.
	var best, bestKey uint64
	H, W, found := min(bh, bw), max(bh, bw), false
	consider := func(img uint64) {
		for _, im := range [4]uint64{img, flipRows(img, H, W), mirrorRows(img, H, W), mirrorRows(flipRows(img, H, W), H, W)} {
			if key := bits.Reverse64(im); !found || key < bestKey {
				best, bestKey, found = im, key, true
			}
		}
	}
	if bh <= bw {
		consider(m)
	}
	if bw <= bh {
		consider(transpose(m, bh, bw))
	}
	return region{text: maskText(best, H, W), cells: n, h: int32(H), w: int32(W), mask: best}
}

// flipRows returns the mask m of an h×w box upside down: row r becomes
// row h−1−r.
func flipRows(m uint64, h, w int) uint64 {
	row := fullMask(w)
	var out uint64
	for r := range h {
		out |= (m >> (r * w) & row) << ((h - 1 - r) * w)
	}
	return out
}

// mirrorRows returns the mask m of an h×w box mirrored left to right:
// column c becomes column w−1−c.
func mirrorRows(m uint64, h, w int) uint64 {
	row := fullMask(w)
	var out uint64
	for r := range h {
		out |= bits.Reverse64(m>>(r*w)&row) >> (64 - w) << (r * w)
	}
	return out
}

// transpose returns the mask m of an h×w box transposed: the cell at
// row r, column c goes to row c, column r of a w×h box.
func transpose(m uint64, h, w int) uint64 {
	var out uint64
	for ; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		out |= 1 << (i%w*h + i/w)
	}
	return out
}

// maskText writes a mask of an h×w box as rows of '.' and '#'.
func maskText(m uint64, h, w int) string {
	b := make([]byte, 0, h*(w+1)-1)
	for r := range h {
		if r > 0 {
			b = append(b, '/')
		}
		for c := range w {
			if m&(1<<(r*w+c)) != 0 {
				b = append(b, '.')
			} else {
				b = append(b, '#')
			}
		}
	}
	return string(b)
}
