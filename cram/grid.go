package cram

import (
	"bytes"
	"strconv"
)

// grid is a rectangular board: h rows of w cells, each empty or not, in
// row-major order.
type grid struct {
	h, w  int
	empty []bool
}

func newGrid(h, w int) grid { return grid{h: h, w: w, empty: make([]bool, h*w)} }

// regionTexts returns the canonical texts of the regions of g with at
// least two cells, each with its number of cells, in no particular order.
// It reuses the scratch space of s.
func (g grid) regionTexts(s *scratch) []region {
	n := len(g.empty)
	s.seen = s.seen[:0]
	for range n {
		s.seen = append(s.seen, false)
	}
	var out []region
	for start := range n {
		if !g.empty[start] || s.seen[start] {
			continue
		}
		// Flood fill from start.
		cells := s.cells[:0]
		s.seen[start] = true
		cells = append(cells, start)
		for i := 0; i < len(cells); i++ {
			c := cells[i]
			r, col := c/g.w, c%g.w
			for dir := range 4 {
				var nb int
				switch {
				case dir == 0 && r > 0:
					nb = c - g.w
				case dir == 1 && r < g.h-1:
					nb = c + g.w
				case dir == 2 && col > 0:
					nb = c - 1
				case dir == 3 && col < g.w-1:
					nb = c + 1
				default:
					continue
				}
				if g.empty[nb] && !s.seen[nb] {
					s.seen[nb] = true
					cells = append(cells, nb)
				}
			}
		}
		s.cells = cells
		if len(cells) < 2 {
			continue // an isolated cell can never be covered
		}
		out = append(out, withMask(region{text: canonicalText(g.w, cells, s), cells: len(cells)}))
	}
	return out
}

// scratch is reusable memory for regionTexts and canonicalText.
type scratch struct {
	seen       []bool
	cells      []int
	best, cand []byte
}

// canonicalText returns the canonical text of the region made of cells
// (indices into a grid of width w): the least of its 8 images (see the
// package documentation), written "HxW" when it fills its bounding box.
func canonicalText(w int, cells []int, s *scratch) string {
	minR, maxR, minC, maxC := cells[0]/w, cells[0]/w, cells[0]%w, cells[0]%w
	for _, c := range cells[1:] {
		r, col := c/w, c%w
		minR, maxR = min(minR, r), max(maxR, r)
		minC, maxC = min(minC, col), max(maxC, col)
	}
	bh, bw := maxR-minR+1, maxC-minC+1
	if len(cells) == bh*bw {
		return strconv.Itoa(min(bh, bw)) + "x" + strconv.Itoa(max(bh, bw))
	}
	bestH, bestW := 0, 0
	for t := range 8 {
		H, W := bh, bw
		if t >= 4 {
			H, W = bw, bh
		}
		if bestH != 0 && (H > bestH || H == bestH && W > bestW) {
			continue // a larger image: never the least
		}
		// The image as rows of W cells separated by '/'.
		size := H*(W+1) - 1
		s.cand = s.cand[:0]
		for i := range size {
			if i%(W+1) == W {
				s.cand = append(s.cand, '/')
			} else {
				s.cand = append(s.cand, '#')
			}
		}
		for _, c := range cells {
			r, col := c/w-minR, c%w-minC
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
			s.cand[ir*(W+1)+ic] = '.'
		}
		if bestH == 0 || H < bestH || H == bestH && W < bestW || bytes.Compare(s.cand, s.best) < 0 {
			bestH, bestW = H, W
			s.best, s.cand = s.cand, s.best
		}
	}
	return string(s.best)
}
