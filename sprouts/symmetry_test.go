package sprouts

import (
	"slices"
	"testing"
)

// reachableFrom returns the positions reachable from the roots in at most
// depth moves, at most limit of them.
func reachableFrom(t *testing.T, roots []string, depth, limit int) []Position {
	t.Helper()
	seen := map[Position]bool{}
	var out, frontier []Position
	for _, r := range roots {
		p, err := Parse(r)
		if err != nil {
			t.Fatalf("parse %q: %v", r, err)
		}
		frontier = append(frontier, p)
	}
	for d := 0; d <= depth && len(out) < limit; d++ {
		var next []Position
		for _, p := range frontier {
			if seen[p] || len(out) >= limit {
				continue
			}
			seen[p] = true
			out = append(out, p)
			next = append(next, p.Children()...)
		}
		frontier = next
	}
	return out
}

// TestSymmetricMovesArePruned checks that drawing one line of each kind
// (symmetry.go) gives exactly the children that drawing every line gives,
// on positions reached from n-spot starts and positions with many
// symmetric letters and boundaries.
func TestSymmetricMovesArePruned(t *testing.T) {
	roots := []string{"0*5", "0*7", "0*9", "0*4.AB|0*3.AB", "0.AB|0.AB", "1a1a.1a1a.0",
		"AB.CD|AB|CD", "0*2.1aAa|1aBa|BA", "0.A.BC|1a1a.BC|1aAa", "0*2.AB.C|1aCa|1AB", "ABCD|ABCD.0*3"}
	limit := 4000
	if testing.Short() {
		limit = 800
	}
	positions := reachableFrom(t, roots, 4, limit)
	for _, p := range positions {
		pruned := p.Children()
		pruneSymmetric = false
		all := p.Children()
		pruneSymmetric = true
		if !slices.Equal(pruned, all) {
			t.Fatalf("%s: %d children with symmetric lines drawn once, %d with every line", p, len(pruned), len(all))
		}
	}
	t.Logf("%d positions", len(positions))
}

func TestChildrenUntil(t *testing.T) {
	for _, s := range []string{"0*6", "0.AB|0.AB", "0*3.1a1a+AB|AB", "0*4.AB|0*3.AB"} {
		p, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		want := p.Children()
		seen := map[Position]bool{}
		kids, complete := p.ChildrenUntil(func(c Position) bool { seen[c] = true; return false })
		if !complete || !slices.Equal(kids, want) {
			t.Errorf("%s: ChildrenUntil never stopping gave %v (complete %v), want %v", s, kids, complete, want)
		}
		if len(seen) != len(want) {
			t.Errorf("%s: stop saw %d distinct children, want %d", s, len(seen), len(want))
		}
		calls := 0
		kids, complete = p.ChildrenUntil(func(c Position) bool { calls++; return calls == 2 })
		if complete || kids != nil || calls != 2 {
			t.Errorf("%s: stopping at the second child gave %d children, complete %v after %d calls", s, len(kids), complete, calls)
		}
		// A generator stopped early is clean for the next caller.
		if got := p.Children(); !slices.Equal(got, want) {
			t.Errorf("%s: Children after a stopped run gave %v, want %v", s, got, want)
		}
	}
}

// TestChildrenKeepTheirCodes checks that the children of a position, which
// share one block of bytes, and the positions stop is shown (kept by the
// caller here) stay what they were while other children are made.
func TestChildrenKeepTheirCodes(t *testing.T) {
	ps := []Position{MustParse("0*7"), MustParse("0*3.1a1a+AB|AB"), MustParse("0*4.AB|0*3.AB"), MustParse("0*2.ABCD|0.2.ABCD")}
	var kept [][]Position
	var texts [][]string
	var shown []Position
	var shownTexts []string
	for _, p := range ps {
		kids := p.AppendChildren(nil)
		kept = append(kept, kids)
		var ts []string
		for _, k := range kids {
			ts = append(ts, k.String())
		}
		texts = append(texts, ts)
		p.ChildrenUntil(func(c Position) bool {
			shown = append(shown, c)
			shownTexts = append(shownTexts, c.String())
			return len(shown)%5 == 0
		})
	}
	for _, p := range ps { // the pooled generator again, for every position
		p.Children()
	}
	for i, kids := range kept {
		for j, k := range kids {
			if k.String() != texts[i][j] {
				t.Fatalf("%s: child %d changed from %s to %s", ps[i], j, texts[i][j], k)
			}
		}
	}
	for i, c := range shown {
		if c.String() != shownTexts[i] {
			t.Fatalf("a child shown to stop changed from %s to %s", shownTexts[i], c)
		}
	}
}
