package cram

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// randomBoard writes an h×w board of random cells, about one in four a
// hole.
func randomBoard(rng *rand.Rand, h, w int) string {
	rows := make([]string, h)
	for r := range h {
		b := make([]byte, w)
		for c := range b {
			b[c] = "...#"[rng.IntN(4)]
		}
		rows[r] = string(b)
	}
	return strings.Join(rows, "/")
}

// made records the children a search is shown, in the order it sees them.
func made(p Position, useBits bool) (shown []string, kids []Position) {
	kids, _ = p.childrenUntil(func(q Position) bool {
		shown = append(shown, q.key)
		return false
	}, useBits)
	return shown, kids
}

// TestBitChildrenAsGrid checks that the children made with bit masks are
// those made from grids: the same canonical texts, in the same order of
// making (what stop sees, which picks the move a search tries first) and
// the same sorted list, and that every region's mask is its text's.
func TestBitChildrenAsGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(58, 6))
	boards := []string{"1x2", "2x2", "5x5", "6x7", "8x8", "4x16", "1x64", "2x32", "9x7", "7x9", "6x9", "4x15", "5x12", "8x7"}
	n := 400
	if testing.Short() {
		n = 100
	}
	for range n {
		h := 1 + rng.IntN(8)
		w := 1 + rng.IntN(64/h)
		boards = append(boards, randomBoard(rng, h, w))
	}
	// Sums, and regions too large for a mask beside small ones.
	boards = append(boards, "3x3+2x5", "9x9+2x3", "8x9", "1x65", randomBoard(rng, 9, 9)+"+"+randomBoard(rng, 3, 4))
	for _, b := range boards {
		p := MustParse(b)
		checkMasks(t, b, p)
		shownBits, bitKids := made(p, true)
		shownGrid, gridKids := made(p, false)
		if got, want := strings.Join(shownBits, " "), strings.Join(shownGrid, " "); got != want {
			t.Fatalf("%s: children made with masks\n%s\nfrom grids\n%s", b, got, want)
		}
		if len(bitKids) != len(gridKids) {
			t.Fatalf("%s: %d children with masks, %d from grids", b, len(bitKids), len(gridKids))
		}
		for i := range bitKids {
			if bitKids[i].key != gridKids[i].key || bitKids[i].cells != gridKids[i].cells {
				t.Fatalf("%s: child %d is %s (%d cells) with masks, %s (%d cells) from grids", b, i,
					bitKids[i], bitKids[i].cells, gridKids[i], gridKids[i].cells)
			}
			checkMasks(t, b, bitKids[i])
			checkMasks(t, b, gridKids[i])
		}
		if got, want := p.EstimateChildren(), len(shownGrid); got != want {
			t.Fatalf("%s: EstimateChildren %d, %d moves", b, got, want)
		}
	}
}

// checkMasks checks that each region of p carries the mask of its text,
// or none when its box is over maxBits cells.
func checkMasks(t *testing.T, board string, p Position) {
	t.Helper()
	for _, r := range p.regions {
		g, err := decodeRegion(r.text)
		if err != nil {
			t.Fatalf("%s: region %q: %v", board, r.text, err)
		}
		if g.h*g.w > maxBits {
			if r.small() {
				t.Fatalf("%s: region %s of %d cells has a mask", board, r.text, g.h*g.w)
			}
			continue
		}
		var m uint64
		for i, e := range g.empty {
			if e {
				m |= 1 << i
			}
		}
		if int(r.h) != g.h || int(r.w) != g.w || r.mask != m {
			t.Fatalf("%s: region %s: box %dx%d mask %#x, its text %dx%d %#x", board, r.text, r.h, r.w, r.mask, g.h, g.w, m)
		}
	}
}

// TestAppendRegions checks that AppendRegions appends what Regions
// returns.
func TestAppendRegions(t *testing.T) {
	for _, b := range []string{"!", "5x5", "2x2+1x3+.#./..."} {
		p := MustParse(b)
		want := p.Regions()
		got := p.AppendRegions([]Position{Empty})
		if len(got) != len(want)+1 {
			t.Fatalf("%s: %d regions appended, want %d", b, len(got)-1, len(want))
		}
		for i, q := range want {
			if got[i+1].String() != q.String() {
				t.Errorf("%s: region %d is %s, want %s", b, i, got[i+1], q)
			}
		}
	}
}
