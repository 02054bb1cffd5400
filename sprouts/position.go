package sprouts

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// Position is a canonical Sprouts position: a sum of lands, each reduced and
// written in canonical form, the lands sorted. Two Positions are equal (==)
// exactly when they are the same game up to the symmetries listed in the
// package documentation. The zero Position is the empty position, in which
// the player to move loses. A Position is an immutable value, safe to share
// between goroutines.
type Position struct {
	code string
}

// Empty is the position without lands.
var Empty = Position{}

// Key returns a compact byte string that identifies the position: equal keys
// mean equal positions. It is not meant to be read by people; use String.
func (p Position) Key() string { return p.code }

// FromKey returns the position whose Key is key. It accepts only keys made
// by Key; anything else is an error.
func FromKey(key string) (Position, error) {
	if err := checkCode(key); err != nil {
		return Position{}, err
	}
	return Position{key}, nil
}

// IsTerminal reports whether no move is possible, which for a reduced
// position means it has no lands.
func (p Position) IsTerminal() bool { return p.code == "" }

// NumLands returns the number of lands.
func (p Position) NumLands() int {
	if p.code == "" {
		return 0
	}
	return strings.Count(p.code, string(rune(cLand))) + 1
}

// Lands returns the lands of p, each as a one-land Position, in canonical
// order. The game p is the sum of the games of its lands.
func (p Position) Lands() []Position {
	if p.code == "" {
		return nil
	}
	out := make([]Position, 0, p.NumLands())
	for land := range strings.SplitSeq(p.code, string(rune(cLand))) {
		out = append(out, Position{land})
	}
	return out
}

// AppendLands appends the lands of p to dst, as Lands returns them, and
// returns the result: Lands without an allocation when dst has room.
func (p Position) AppendLands(dst []Position) []Position {
	for code := p.code; code != ""; {
		i := strings.IndexByte(code, cLand)
		if i < 0 {
			return append(dst, Position{code})
		}
		dst = append(dst, Position{code[:i]})
		code = code[i+1:]
	}
	return dst
}

// Sum returns the position made of all lands of the given positions.
func Sum(ps ...Position) Position {
	var lands []string
	for _, p := range ps {
		if p.code != "" {
			lands = append(lands, strings.Split(p.code, string(rune(cLand)))...)
		}
	}
	slices.Sort(lands)
	return Position{strings.Join(lands, string(rune(cLand)))}
}

// Lives returns the number of lives of p: three for a spot without lines,
// two for a spot with one line, one for a spot with two lines (a letter
// counts half a life at each of its corners). Every move
// costs exactly one life, and reduction only drops lives that no move can
// use, so every child has fewer lives than its parent.
func (p Position) Lives() int {
	n := 0
	for i := 0; i < len(p.code); i++ {
		b := p.code[i]
		if b == cLowerLong || b == cUpperLong {
			return p.livesOfLongCode()
		}
		n += int(halfLives[b])
	}
	return n / 2
}

// halfLives is twice the lives of the symbol a byte of a code starts, for
// codes without long letters (one byte a symbol): 0 for separators.
var halfLives = func() (t [256]uint8) {
	t[cSpot0], t[cSpot1], t[cSpot2] = 6, 4, 2
	for b := cLowerBase; b < 256; b++ {
		t[b] = 1 // a corner of a one-life spot
	}
	return t
}()

// livesOfLongCode is Lives for a code with long letters.
func (p Position) livesOfLongCode() int {
	n := 0
	for i := 0; i < len(p.code); {
		switch p.code[i] {
		case cBoundary, cRegion, cLand:
			i++
			continue
		}
		kind, _, next := readSymbol(p.code, i)
		switch kind {
		case kSpot0:
			n += 6
		case kSpot1:
			n += 4
		case kSpot2:
			n += 2
		case kLower, kUpper:
			n++ // one of the two corners of a one-life spot
		}
		i = next
	}
	return n / 2
}

// EstimateChildren returns a quick estimate of the number of moves, the one
// the reference solver uses to order children: for each region, the sum
// over pairs of boundaries of the product of their lengths, plus for each
// boundary of length L in a region of b boundaries ⌊L²·2^(b−1)/2⌋.
func (p Position) EstimateChildren() int {
	var lens [64]int // boundary lengths of the current region
	total, nb, cur := 0, 0, 0
	endRegion := func() {
		if nb > len(lens) {
			nb = len(lens)
		}
		shift := min(nb-1, 40)
		for i, a := range lens[:nb] {
			for _, c := range lens[i+1 : nb] {
				total += a * c
			}
			total += a * a * (1 << shift) / 2
		}
		nb = 0
	}
	code := p.code
	for i := 0; i < len(code); {
		switch b := code[i]; b {
		case cBoundary, cRegion, cLand:
			if nb < len(lens) {
				lens[nb] = cur
			}
			nb++
			cur = 0
			if b != cBoundary {
				endRegion()
			}
		case cLowerLong, cUpperLong:
			i += 3 // the letter and its two continuation bytes
			cur++
			continue
		default:
			cur++
		}
		i++
	}
	if code != "" {
		if nb < len(lens) {
			lens[nb] = cur
		}
		nb++
		endRegion()
	}
	return total
}

// generator holds the scratch space of move generation and
// canonicalisation. Generators are pooled: one per goroutine at a time.
type generator struct {
	land, child sketch
	red         reducer
	can         canonizer
	buf         []byte
	ends        []int
	order       []int
	regs        []int32
	out         []byte     // the codes of the children made so far (see appendChildren)
	kids        []Position // the children made so far, codes in out
	outGuess    int        // bytes to set aside for the children of the next call
	stop        func(Position) bool
	stopped     bool // stop said so: make no more children
	others      []string
	lowMap      []int32
	bCode       []string // code of each boundary of g.land
	nUp         int32    // uppercase letters of g.land: vertices 0..nUp-1
	class       []int32
	period      []int32
	members     []int32
	groupEnd    []int32
	taken       []int32
	achiral     []bool         // boundaries of the region that read the same backwards
	swaps       []cornerMap    // letter exchanges that are symmetries, nb maps each
	nb          int            // boundaries of the land
	maps        []cornerMap    // symmetries of the boundary whose lines are drawn
	pairs       [][2]cornerMap // symmetries of the two boundaries a line joins
}

var generators = sync.Pool{New: func() any { return new(generator) }}

// finish reduces s, splits it into lands and returns their canonical codes,
// joined with the codes in others, as a position code.
func (g *generator) finish(s *sketch, others []string) string {
	g.out, g.kids, g.stop = nil, g.kids[:0], nil
	g.addChild(s, others)
	code := g.kids[0].code
	g.out, g.kids = nil, g.kids[:0]
	return code
}

// addChild reduces s, splits it into lands and appends their canonical
// codes, joined with the codes in others, as a position code to g.out, and
// the position to g.kids. g.out only ever grows: a child's code is never
// written over, so the position can be handed out at once (to stop).
func (g *generator) addChild(s *sketch, others []string) {
	s.reduce(&g.red)
	kind := g.red.kind
	nr := int32(len(s.rEnd))
	g.buf = g.buf[:0]
	g.ends = g.ends[:0]
	for reg := range nr {
		if g.red.landOf(reg) != reg {
			continue
		}
		g.regs = g.regs[:0]
		for r2 := range nr {
			if g.red.landOf(r2) == reg {
				g.regs = append(g.regs, r2)
			}
		}
		g.buf = g.can.canonical(s, kind, g.regs, g.buf)
		g.ends = append(g.ends, len(g.buf))
	}
	start := len(g.out)
	g.out = g.join(g.out, others)
	kid := Position{}
	if n := len(g.out) - start; n > 0 {
		kid.code = unsafe.String(&g.out[start], n)
	}
	g.kids = append(g.kids, kid)
	if g.stop != nil && g.stop(kid) {
		g.stopped = true
	}
}

// join merges the land codes in g.buf (ends in g.ends) with others, all
// sorted, into one position code appended to dst.
func (g *generator) join(dst []byte, others []string) []byte {
	n := len(g.ends)
	g.order = g.order[:0]
	for i := range n {
		g.order = append(g.order, i)
	}
	land := func(i int) []byte {
		start := 0
		if i > 0 {
			start = g.ends[i-1]
		}
		return g.buf[start:g.ends[i]]
	}
	slices.SortFunc(g.order, func(a, b int) int { return bytes.Compare(land(a), land(b)) })
	start := len(dst)
	k := 0
	sep := func() {
		if len(dst) > start {
			dst = append(dst, cLand)
		}
	}
	for _, o := range others {
		for k < n && bytes.Compare(land(g.order[k]), []byte(o)) < 0 {
			sep()
			dst = append(dst, land(g.order[k])...)
			k++
		}
		sep()
		dst = append(dst, o...)
	}
	for ; k < n; k++ {
		sep()
		dst = append(dst, land(g.order[k])...)
	}
	return dst
}
