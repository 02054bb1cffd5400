package octal_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spots-dev/spots/octal"
)

// The checks of this file compare the package with an oracle written from
// the textbook definition and sharing no code with it: a move takes k
// tokens from a heap of n and leaves two parts a and b ≥ 0 with a+b = n−k
// (ordered pairs, zeros included); it is allowed when bit 2^j of digit dk
// is set, j the number of non-empty parts. Grundy values are then a plain
// mex over these moves, on sizes alone: no positions, no canonical form,
// no dropped heaps.

// oracle is one octal game as the textbook defines it.
type oracle struct {
	code   string // as written, without trailing zeros
	digits []int
	memo   []uint32 // Grundy values of heaps 0, 1, …, as far as computed
}

func newOracle(code string) *oracle {
	o := &oracle{code: code}
	for _, c := range strings.TrimPrefix(code, "0.") {
		o.digits = append(o.digits, int(c-'0'))
	}
	return o
}

// moves returns what each move from a heap of n leaves: the non-empty
// parts, smaller first, once per distinct result.
func (o *oracle) moves(n int) [][]int {
	var out [][]int
	for k := 1; k <= n && k <= len(o.digits); k++ {
		for a := 0; a <= n-k; a++ {
			b := n - k - a
			var parts []int
			for _, x := range []int{a, b} {
				if x > 0 {
					parts = append(parts, x)
				}
			}
			if o.digits[k-1]&(1<<len(parts)) == 0 {
				continue
			}
			slices.Sort(parts)
			if !slices.ContainsFunc(out, func(q []int) bool { return slices.Equal(q, parts) }) {
				out = append(out, parts)
			}
		}
	}
	return out
}

// grundy returns the Grundy value of a heap of n by mex over moves.
func (o *oracle) grundy(n int) uint32 {
	for len(o.memo) <= n {
		m := len(o.memo)
		seen := map[uint32]bool{}
		for _, parts := range o.moves(m) {
			x := uint32(0)
			for _, p := range parts {
				x ^= o.memo[p]
			}
			seen[x] = true
		}
		g := uint32(0)
		for seen[g] {
			g++
		}
		o.memo = append(o.memo, g)
	}
	return o.memo[n]
}

// oracleHeap is a heap as the oracle writes positions.
type oracleHeap struct {
	o *oracle
	n int
}

// text writes a sum of heaps as the package documentation defines the
// canonical form: heaps without a move dropped, sorted by code text and
// then size, each code once.
func text(hs []oracleHeap) string {
	var live []oracleHeap
	for _, h := range hs {
		if len(h.o.moves(h.n)) > 0 {
			live = append(live, h)
		}
	}
	if len(live) == 0 {
		return "!"
	}
	slices.SortFunc(live, func(a, b oracleHeap) int {
		if c := strings.Compare(a.o.code, b.o.code); c != 0 {
			return c
		}
		return a.n - b.n
	})
	var b strings.Builder
	for i, h := range live {
		if i > 0 {
			b.WriteByte('+')
		}
		if i == 0 || h.o.code != live[i-1].o.code {
			b.WriteString(h.o.code + ":")
		}
		b.WriteString(strconv.Itoa(h.n))
	}
	return b.String()
}

// oracleChildren returns the texts of the positions one move away from the
// sum hs, sorted and each once.
func oracleChildren(hs []oracleHeap) []string {
	seen := map[string]bool{}
	for i, h := range hs {
		for _, parts := range h.o.moves(h.n) {
			rest := slices.Delete(slices.Clone(hs), i, i+1)
			for _, p := range parts {
				rest = append(rest, oracleHeap{h.o, p})
			}
			seen[text(rest)] = true
		}
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// testCodes are the games the oracle checks: classical ones and random
// codes of one to four digits (a fixed seed, so a failure repeats).
func testCodes() []string {
	codes := []string{"0.77", "0.07", "0.137", "0.771", "0.6", "0.51", "0.4", "0.7", "0.1", "0.3", "0.007", "0.156", "0.4007", "0.0"}
	rng := rand.New(rand.NewPCG(58, 3))
	for len(codes) < 40 {
		var b strings.Builder
		b.WriteString("0.")
		for range rng.IntN(4) + 1 {
			b.WriteByte(byte('0' + rng.IntN(8)))
		}
		c := strings.TrimRight(b.String(), "0")
		if strings.HasSuffix(c, ".") {
			c += "0"
		}
		if !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	return codes
}

func childTexts(p octal.Position) []string {
	var out []string
	for _, c := range p.Children() {
		out = append(out, c.String())
	}
	return out
}

// TestChildrenAgainstOracle: for every heap up to 40 of every test code,
// Children gives exactly the oracle's positions, in text order.
func TestChildrenAgainstOracle(t *testing.T) {
	for _, code := range testCodes() {
		o, c := newOracle(code), octal.MustParseCode(code)
		for n := 0; n <= 40; n++ {
			p, err := c.Heaps(n)
			if err != nil {
				t.Fatal(err)
			}
			if want := text([]oracleHeap{{o, n}}); p.String() != want {
				t.Fatalf("%s heap %d is %s, the oracle writes %s", code, n, p, want)
			}
			got, want := childTexts(p), oracleChildren([]oracleHeap{{o, n}})
			if len(want) == 0 || p.IsTerminal() {
				// A heap without a move is no heap: the empty position.
				if !p.IsTerminal() || len(got) != 0 || len(want) != 0 {
					t.Errorf("%s heap %d: %s has children %q, the oracle %q", code, n, p, got, want)
				}
				continue
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s heap %d: children\n%q\nthe oracle:\n%q", code, n, got, want)
			}
			if est := p.EstimateChildren(); est < len(got) {
				t.Errorf("%s heap %d: EstimateChildren %d < %d children", code, n, est, len(got))
			}
		}
	}
}

// TestSumsAgainstOracle: the children of sums of two or three heaps,
// mixed games included, are the oracle's, and so are their Grundy values
// (the xor of the heaps', by a mex over the package's moves).
func TestSumsAgainstOracle(t *testing.T) {
	codes := testCodes()[:10]
	rng := rand.New(rand.NewPCG(5, 8))
	values := grundyByMex{}
	for range 400 {
		var hs []oracleHeap
		var parts []string
		x := uint32(0)
		for range rng.IntN(2) + 2 {
			code := codes[rng.IntN(len(codes))]
			h := oracleHeap{newOracle(code), rng.IntN(13)}
			hs = append(hs, h)
			parts = append(parts, fmt.Sprintf("%s:%d", code, h.n))
			x ^= h.o.grundy(h.n)
		}
		in := strings.Join(parts, "+")
		p, err := octal.Parse(in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", in, err)
		}
		if want := text(hs); p.String() != want {
			t.Fatalf("Parse(%q) = %s, the oracle writes %s", in, p, want)
		}
		if got, want := childTexts(p), oracleChildren(hs); !slices.Equal(got, want) {
			t.Errorf("children of %s:\n%q\nthe oracle:\n%q", p, got, want)
		}
		if g := values.of(p); g != x {
			t.Errorf("gn(%s) = %d by mex over Children, %d by the oracle", p, g, x)
		}
	}
}

// grundyByMex values positions by a memoised mex over the package's
// Children and Heaps: what the package's rules say, without a search.
type grundyByMex map[string]uint32

func (m grundyByMex) of(p octal.Position) uint32 {
	x := uint32(0)
	for _, h := range p.Heaps() {
		g, ok := m[h.Key()]
		if !ok {
			seen := map[uint32]bool{}
			for _, c := range h.Children() {
				seen[m.of(c)] = true
			}
			for seen[g] {
				g++
			}
			m[h.Key()] = g
		}
		x ^= g
	}
	return x
}

// TestGrundyAgainstOracle: the Grundy values of heaps up to 40 by a mex
// over the package's moves are the oracle's, for every test code.
func TestGrundyAgainstOracle(t *testing.T) {
	for _, code := range testCodes() {
		o, c, m := newOracle(code), octal.MustParseCode(code), grundyByMex{}
		for n := 0; n <= 40; n++ {
			p, _ := c.Heaps(n)
			if got, want := m.of(p), o.grundy(n); got != want {
				t.Errorf("%s: gn(%d) = %d by the package's moves, %d by the oracle", code, n, got, want)
			}
		}
	}
}
