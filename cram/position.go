package cram

import (
	"slices"
	"strings"
)

// Position is a Cram position in canonical form: a sum of regions, each a
// connected set of at least two empty cells. The zero value is the empty
// position. Positions are immutable and may be shared between goroutines.
type Position struct {
	regions []region // sorted by text
	key     string   // the texts joined by '+', "" for the empty position
	cells   int      // empty cells, all regions together
}

// region is one region in canonical form.
type region struct {
	text  string // canonical text (see the package documentation)
	cells int    // empty cells
	// The box of the canonical image and its empty cells as a bit mask
	// (see bits.go), when the box has at most maxBits cells; h is 0
	// otherwise.
	h, w int32
	mask uint64
}

// Empty is the position without a move.
var Empty = Position{}

// EmptyText is how the empty position is written.
const EmptyText = "!"

// fromRegions makes a position of regions in any order.
func fromRegions(rs []region) Position {
	if len(rs) == 0 {
		return Empty
	}
	slices.SortFunc(rs, func(a, b region) int { return strings.Compare(a.text, b.text) })
	p := Position{regions: rs}
	if len(rs) == 1 {
		// One region: its text is the key, and is not copied.
		p.key, p.cells = rs[0].text, rs[0].cells
		return p
	}
	n := len(rs) - 1
	for _, r := range rs {
		n += len(r.text)
	}
	var b strings.Builder
	b.Grow(n)
	for i, r := range rs {
		if i > 0 {
			b.WriteByte('+')
		}
		b.WriteString(r.text)
		p.cells += r.cells
	}
	p.key = b.String()
	return p
}

// String returns the canonical text of p ("!" for the empty position).
// Parse(p.String()) gives p back.
func (p Position) String() string {
	if p.key == "" {
		return EmptyText
	}
	return p.key
}

// Key returns a string that two positions share exactly when they are the
// same game up to the symmetries of the package documentation: the
// canonical text.
func (p Position) Key() string { return p.String() }

// Cells returns the number of empty cells of p that can still be covered
// (isolated cells are dropped): p's size for a search. Every move takes it
// down by at least 2.
func (p Position) Cells() int { return p.cells }

// NumRegions returns the number of regions of p.
func (p Position) NumRegions() int { return len(p.regions) }

// IsTerminal reports whether p has no move (it is the empty position).
func (p Position) IsTerminal() bool { return len(p.regions) == 0 }

// Regions returns the regions of p, each as a position of its own, in the
// order of p's text. The sum of the games of p's regions is p.
func (p Position) Regions() []Position {
	return p.AppendRegions(make([]Position, 0, len(p.regions)))
}

// AppendRegions appends the regions of p to dst, as Regions returns them,
// and returns the extended slice. A search asks for the regions of every
// position it meets and keeps none of the slices, so it reuses one.
func (p Position) AppendRegions(dst []Position) []Position {
	for i, r := range p.regions {
		dst = append(dst, Position{regions: p.regions[i : i+1 : i+1], key: r.text, cells: r.cells})
	}
	return dst
}

// Sum returns the position made of all the regions of ps.
func Sum(ps ...Position) Position {
	n := 0
	for _, p := range ps {
		n += len(p.regions)
	}
	rs := make([]region, 0, n)
	for _, p := range ps {
		rs = append(rs, p.regions...)
	}
	return fromRegions(rs)
}

// EstimateChildren returns the number of moves of p: the pairs of
// orthogonally adjacent empty cells. Children returns at most this many
// positions (fewer when moves reach the same position).
func (p Position) EstimateChildren() int {
	n := 0
	for _, r := range p.regions {
		if r.small() {
			_, notLast := boxMasks(int(r.h), int(r.w))
			n += bitMoves(r.mask, int(r.w), notLast)
			continue
		}
		g, err := decodeRegion(r.text)
		if err != nil {
			continue // not reached: regions are written by this package
		}
		n += g.moves()
	}
	return n
}

// Area returns the cells of the bounding boxes of p's regions, holes
// included. The text of any position one move away is at most 2·Area + 1
// bytes long: a region's text takes at most two bytes a cell of its box,
// and what is left of a region fits in its box.
func (p Position) Area() int {
	n := 0
	for _, r := range p.regions {
		h, w := regionBox(r.text)
		n += h * w
	}
	return n
}

// moves counts the pairs of orthogonally adjacent empty cells of g.
func (g grid) moves() int {
	n := 0
	for i, e := range g.empty {
		if !e {
			continue
		}
		if i%g.w+1 < g.w && g.empty[i+1] {
			n++
		}
		if i+g.w < len(g.empty) && g.empty[i+g.w] {
			n++
		}
	}
	return n
}
