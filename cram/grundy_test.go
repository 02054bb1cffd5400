package cram_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/cram/cramtest"
	"github.com/spots-dev/spots/solve"
)

// The checks of this file need nobody's word: Grundy values computed three
// ways that share no code — a plain mex over raw boards (no regions, no
// canonical form), a mex over this package's Children and Regions
// (cramtest.Values), and the solver — must agree, and 1×n must be
// Dawson's Kayles.

// plain computes Grundy values of subsets of an h×w board by the plain
// mex recursion: a move clears two adjacent set bits. It knows nothing of
// regions, symmetries or isolated cells.
type plain struct {
	h, w int
	memo map[uint64]uint8
}

func newPlain(h, w int) *plain { return &plain{h: h, w: w, memo: map[uint64]uint8{}} }

func (p *plain) grundy(mask uint64) uint8 {
	if g, ok := p.memo[mask]; ok {
		return g
	}
	var seen [64]bool
	for i := range p.h * p.w {
		if mask&(1<<i) == 0 {
			continue
		}
		if i%p.w+1 < p.w && mask&(1<<(i+1)) != 0 {
			seen[p.grundy(mask&^(1<<i|1<<(i+1)))] = true
		}
		if i+p.w < p.h*p.w && mask&(1<<(i+p.w)) != 0 {
			seen[p.grundy(mask&^(1<<i|1<<(i+p.w)))] = true
		}
	}
	g := uint8(0)
	for seen[g] {
		g++
	}
	p.memo[mask] = g
	return g
}

// text writes mask as the rows of an h×w board.
func text(h, w int, mask uint64) string {
	var b strings.Builder
	for r := range h {
		if r > 0 {
			b.WriteByte('/')
		}
		for c := range w {
			if mask&(1<<(r*w+c)) != 0 {
				b.WriteByte('.')
			} else {
				b.WriteByte('#')
			}
		}
	}
	return b.String()
}

// solverGrundy returns the solver's Grundy value of text.
func solverGrundy(t *testing.T, s *solve.DFPN[cram.Position], text string) uint32 {
	t.Helper()
	g, ok := s.Grundy(context.Background(), cram.MustParse(text))
	if !ok {
		t.Fatalf("the solver did not finish %s", text)
	}
	return g
}

func newSolver() *solve.DFPN[cram.Position] {
	return solve.NewDFPN(cram.Rules{}, nil, solve.Options{})
}

// TestGrundyEveryBoardUpTo4x4 compares the plain mex with the rules' mex
// on every subset of the 4×4 board (every board with holes that fits in
// 4×4), and with the solver on a sample of them (all of them without
// -short).
func TestGrundyEveryBoardUpTo4x4(t *testing.T) {
	pl, rules, s := newPlain(4, 4), cramtest.Values{}, newSolver()
	step := uint64(97)
	if !testing.Short() {
		step = 1
	}
	for mask := uint64(0); mask < 1<<16; mask++ {
		want := uint32(pl.grundy(mask))
		tx := text(4, 4, mask)
		p, err := cram.Parse(tx)
		if err != nil {
			t.Fatal(err)
		}
		if got := rules.Grundy(p); got != want {
			t.Fatalf("%s (%s): rules' mex %d, plain mex %d", tx, p, got, want)
		}
		if mask%step == 0 {
			if got := solverGrundy(t, s, tx); got != want {
				t.Fatalf("%s (%s): solver %d, plain mex %d", tx, p, got, want)
			}
		}
	}
}

// TestGrundyStrips compares the three on the empty boards h×w for h, w
// ≤ 4 and on 1×n and 2×n for n ≤ 12 (2×n for n ≤ 9 under -short: the plain
// mex of 2×12 visits millions of subsets).
func TestGrundyStrips(t *testing.T) {
	type board struct{ h, w int }
	var boards []board
	for h := 1; h <= 4; h++ {
		for w := h; w <= 4; w++ {
			boards = append(boards, board{h, w})
		}
	}
	maxTwo := 12
	if testing.Short() {
		maxTwo = 9
	}
	for n := 5; n <= 12; n++ {
		boards = append(boards, board{1, n})
	}
	for n := 5; n <= maxTwo; n++ {
		boards = append(boards, board{2, n})
	}
	rules, s := cramtest.Values{}, newSolver()
	for _, b := range boards {
		name := fmt.Sprintf("%dx%d", b.h, b.w)
		want := uint32(newPlain(b.h, b.w).grundy(1<<(b.h*b.w) - 1))
		if got := rules.Grundy(cram.MustParse(name)); got != want {
			t.Errorf("%s: rules' mex %d, plain mex %d", name, got, want)
		}
		if got := solverGrundy(t, s, name); got != want {
			t.Errorf("%s: solver %d, plain mex %d", name, got, want)
		}
	}
}

// dawson returns the Grundy values of Dawson's Kayles (octal 0.07) for
// heaps 0…n by heap arithmetic: a move takes two adjacent pins of a row,
// leaving rows of a and b pins with a + b = n − 2.
func dawson(n int) []uint32 {
	g := make([]uint32, n+1)
	for k := 2; k <= n; k++ {
		seen := map[uint32]bool{}
		for a := 0; a <= k-2-a; a++ {
			seen[g[a]^g[k-2-a]] = true
		}
		for seen[g[k]] {
			g[k]++
		}
	}
	return g
}

// a002187 is the start of OEIS A002187 (Dawson's Chess), a(0) … a(101):
// the Grundy value of Dawson's Kayles with n+1 pins is a(n).
var a002187 = []uint32{
	0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3,
	0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3,
	1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2,
	1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2,
	2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 3,
	7, 4,
}

// TestDawsonsKayles checks that 1×n Cram is Dawson's Kayles for n ≤ 120:
// the rules' mex and the solver against heap arithmetic, and the heap
// arithmetic against the published sequence (OEIS A002187, offset by one)
// and its period of 34.
func TestDawsonsKayles(t *testing.T) {
	const maxN = 120
	want := dawson(maxN)
	for i, a := range a002187 {
		if want[i+1] != a {
			t.Fatalf("heap arithmetic gives %d for %d pins, OEIS A002187 a(%d) = %d", want[i+1], i+1, i, a)
		}
	}
	// The last exception is G(52) = 2 (G(86) = 9): from 53 on the values
	// repeat with period 34.
	for n := 53; n+34 <= maxN; n++ {
		if want[n] != want[n+34] {
			t.Errorf("Dawson's Kayles: G(%d) = %d but G(%d) = %d: not periodic", n, want[n], n+34, want[n+34])
		}
	}
	rules, s := cramtest.Values{}, newSolver()
	for n := 1; n <= maxN; n++ {
		name := fmt.Sprintf("1x%d", n)
		if got := rules.Grundy(cram.MustParse(name)); got != want[n] {
			t.Errorf("%s: rules' mex %d, Dawson's Kayles %d", name, got, want[n])
		}
		if got := solverGrundy(t, s, name); got != want[n] {
			t.Errorf("%s: solver %d, Dawson's Kayles %d", name, got, want[n])
		}
	}
}

// TestSymmetryStrategies checks what the symmetry strategies prove (see
// the package documentation): even×even boards are Losses, even×odd ones
// Wins, for every such board the solver finishes in a second or so (4×8
// and larger only without -short).
func TestSymmetryStrategies(t *testing.T) {
	boards := []string{"2x2", "2x4", "2x6", "2x8", "2x10", "2x12", "4x4", "4x6",
		"1x2", "2x3", "2x5", "2x7", "2x9", "2x11", "3x4", "3x6", "3x8", "4x5", "4x7", "5x6"}
	if !testing.Short() {
		boards = append(boards, "4x8")
	}
	for _, b := range boards {
		var h, w int
		fmt.Sscanf(b, "%dx%d", &h, &w)
		want := solve.Win
		if h%2 == 0 && w%2 == 0 {
			want = solve.Loss
		}
		s := newSolver()
		if got := s.Solve(context.Background(), cram.MustParse(b), 0); got != want {
			t.Errorf("%s: the solver says %s, the symmetry strategy %s", b, got, want)
		}
	}
}
