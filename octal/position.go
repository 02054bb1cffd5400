package octal

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Position is a position of octal games in canonical form: a sum of heaps,
// each of one game and with at least one move. The zero value is the empty
// position. Positions are immutable and may be shared between goroutines.
type Position struct {
	heaps  []heap // sorted by code text, then size
	key    string // canonical text, "" for the empty position
	tokens int    // tokens of all heaps together
}

// heap is one heap of a position: its game and its number of tokens.
type heap struct {
	code Code
	n    int
}

// compareHeaps orders heaps as the canonical form does: by code text,
// then by size.
func compareHeaps(a, b heap) int {
	if c := strings.Compare(a.code.text, b.code.text); c != 0 {
		return c
	}
	return cmp.Compare(a.n, b.n)
}

// Empty is the position without a move.
var Empty = Position{}

// EmptyText is how the empty position is written.
const EmptyText = "!"

// fromHeaps makes a position of live heaps in any order; it may reorder
// hs and keeps it.
func fromHeaps(hs []heap) Position {
	if len(hs) == 0 {
		return Empty
	}
	slices.SortFunc(hs, compareHeaps)
	p := Position{heaps: hs}
	var b strings.Builder
	for i, h := range hs {
		if i > 0 {
			b.WriteByte('+')
		}
		if i == 0 || h.code.text != hs[i-1].code.text {
			b.WriteString(h.code.text)
			b.WriteByte(':')
		}
		b.WriteString(strconv.Itoa(h.n))
		p.tokens += h.n
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
// same multiset of heaps (see the package documentation): the canonical
// text.
func (p Position) Key() string { return p.String() }

// Tokens returns the number of tokens of p, all heaps together: p's size
// for a search. Every move takes it down by at least 1.
func (p Position) Tokens() int { return p.tokens }

// NumHeaps returns the number of heaps of p.
func (p Position) NumHeaps() int { return len(p.heaps) }

// IsTerminal reports whether p has no move (it is the empty position).
func (p Position) IsTerminal() bool { return len(p.heaps) == 0 }

// Heaps returns the heaps of p, each as a position of its own, in the
// order of p's text. The sum of the games of p's heaps is p.
func (p Position) Heaps() []Position {
	return p.AppendHeaps(make([]Position, 0, len(p.heaps)))
}

// AppendHeaps appends the heaps of p to dst, as Heaps returns them, and
// returns the extended slice.
func (p Position) AppendHeaps(dst []Position) []Position {
	if len(p.heaps) == 1 {
		return append(dst, p)
	}
	for i := range p.heaps {
		dst = append(dst, single(p.heaps[i]))
	}
	return dst
}

// single returns the position of one heap.
func single(h heap) Position {
	return Position{heaps: []heap{h}, key: h.code.text + ":" + strconv.Itoa(h.n), tokens: h.n}
}

// Heap returns the code and size of p's heap when p is one heap; ok is
// false otherwise.
func (p Position) Heap() (c Code, n int, ok bool) {
	if len(p.heaps) != 1 {
		return Code{}, 0, false
	}
	return p.heaps[0].code, p.heaps[0].n, true
}

// Sum returns the position made of all the heaps of ps.
func Sum(ps ...Position) Position {
	n := 0
	for _, p := range ps {
		n += len(p.heaps)
	}
	hs := make([]heap, 0, n)
	for _, p := range ps {
		hs = append(hs, p.heaps...)
	}
	return fromHeaps(hs)
}

// EstimateChildren returns the number of moves of p, counting each
// distinct heap once (equal heaps have the same moves): Children returns
// at most this many positions, fewer when moves reach the same position.
func (p Position) EstimateChildren() int {
	m := 0
	for i, h := range p.heaps {
		if i > 0 && compareHeaps(h, p.heaps[i-1]) == 0 {
			continue
		}
		m += h.code.moves(h.n)
	}
	return m
}
