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
	var rs, cs [maxBits]int8
	n := 0
	minR, maxR, minC, maxC := maxBits, -1, maxBits, -1
	for m := c; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		r, col := i/w, i%w
		rs[n], cs[n] = int8(r), int8(col)
		n++
		minR, maxR = min(minR, r), max(maxR, r)
		minC, maxC = min(minC, col), max(maxC, col)
	}
	bh, bw := maxR-minR+1, maxC-minC+1
	if n == bh*bw {
		h, w := min(bh, bw), max(bh, bw)
		return region{text: strconv.Itoa(h) + "x" + strconv.Itoa(w), cells: n, h: int32(h), w: int32(w), mask: fullMask(n)}
	}
	bestH, bestW := 0, 0
	var best, bestKey uint64
	for t := range 8 {
		H, W := bh, bw
		if t >= 4 {
			H, W = bw, bh
		}
		if bestH != 0 && (H > bestH || H == bestH && W > bestW) {
			continue // a larger image: never the least
		}
		var img uint64
		for k := range n {
			r, col := int(rs[k])-minR, int(cs[k])-minC
			var ir, ic int
			switch t {
			case 0:
				ir, ic = r, col
			case 1:
				ir, ic = r, bw-1-col
			case 2:
				ir, ic = bh-1-r, col
			case 3:
				ir, ic = bh-1-r, bw-1-col
			case 4:
				ir, ic = col, r
			case 5:
				ir, ic = col, bh-1-r
			case 6:
				ir, ic = bw-1-col, r
			case 7:
				ir, ic = bw-1-col, bh-1-r
			}
			img |= 1 << (ir*W + ic)
		}
		key := bits.Reverse64(img)
		if bestH == 0 || H < bestH || H == bestH && W < bestW || key < bestKey {
			bestH, bestW, best, bestKey = H, W, img, key
		}
	}
	return region{text: maskText(best, bestH, bestW), cells: n, h: int32(bestH), w: int32(bestW), mask: best}
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
