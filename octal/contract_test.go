package octal_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/spots-dev/spots/octal"
	"github.com/spots-dev/spots/solve"
)

// Rules is what solve's searches take, with the two optional methods they
// use when a game has them.
var (
	_ solve.Game[octal.Position]               = octal.Rules{}
	_ solve.ChildrenUntil[octal.Position]      = octal.Rules{}
	_ solve.ComponentsAppender[octal.Position] = octal.Rules{}
)

// contractPositions returns every sum of heaps of the given codes with at
// most maxTokens tokens in all, each written in a non-canonical way (heaps
// in decreasing order, every code repeated), with the canonical text the
// oracle gives it.
func contractPositions(codes []string, maxTokens int) (texts, wants []string) {
	type h = oracleHeap
	oracles := make([]*oracle, len(codes))
	for i, c := range codes {
		oracles[i] = newOracle(c)
	}
	var walk func(hs []h, from, left int)
	walk = func(hs []h, from, left int) {
		if len(hs) > 0 {
			var parts []string
			for i := len(hs) - 1; i >= 0; i-- {
				parts = append(parts, fmt.Sprintf("%s:%d", hs[i].o.code, hs[i].n))
			}
			texts = append(texts, strings.Join(parts, "+"))
			wants = append(wants, text(hs))
		}
		// Heaps are added in a fixed order (by code index, then size) so
		// that each multiset is made once.
		for i := from; i < len(oracles)*(maxTokens+1); i++ {
			o, n := oracles[i/(maxTokens+1)], i%(maxTokens+1)
			if n == 0 || n > left {
				continue
			}
			walk(append(hs, h{o, n}), i, left-n)
		}
	}
	walk(nil, 0, maxTokens)
	return texts, wants
}

// TestGameContracts checks solve.Game's contracts on every sum of heaps of
// three games up to 9 tokens: Key is injective on canonical forms (equal
// keys exactly when the oracle's canonical texts are equal), Components
// and Combine are inverse, Size is positive on non-empty atomic
// positions, adds up over components and strictly decreases along every
// move, and ChildrenUntil and EstimateChildren agree with Children.
func TestGameContracts(t *testing.T) {
	var r octal.Rules
	texts, wants := contractPositions([]string{"0.07", "0.77", "0.137"}, 9)
	if len(texts) < 1000 {
		t.Fatalf("only %d positions", len(texts))
	}
	byKey := map[string]string{}  // key → oracle text
	byWant := map[string]string{} // oracle text → key
	for i, in := range texts {
		p, err := octal.Parse(in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", in, err)
		}
		k, want := r.Key(p), wants[i]
		if w, ok := byKey[k]; ok && w != want {
			t.Fatalf("Key %q is the key of %s and of %s", k, w, want)
		}
		if k2, ok := byWant[want]; ok && k2 != k {
			t.Fatalf("%s has two keys, %q and %q", want, k, k2)
		}
		byKey[k], byWant[want] = want, k
		if k != want {
			t.Errorf("Key(%q) = %q, the canonical text is %q", in, k, want)
		}
		checkComponents(t, r, p)
		checkChildren(t, r, p)
	}
	// The empty position has no component and no child, and size 0.
	if cs := r.Components(octal.Empty); len(cs) != 0 || r.Size(octal.Empty) != 0 || len(r.Children(octal.Empty)) != 0 {
		t.Errorf("the empty position: components %v, size %d", cs, r.Size(octal.Empty))
	}
	if got := r.Combine(nil); !got.IsTerminal() || got.String() != octal.EmptyText {
		t.Errorf("Combine(nil) = %s", got)
	}
}

// checkComponents checks Components, AppendComponents, Combine and Size on
// p.
func checkComponents(t *testing.T, r octal.Rules, p octal.Position) {
	t.Helper()
	cs := r.Components(p)
	if got := r.Key(r.Combine(cs)); got != r.Key(p) {
		t.Errorf("Combine(Components(%s)) = %s", p, got)
	}
	if app := r.AppendComponents([]octal.Position{octal.Empty}, p); len(app) != len(cs)+1 {
		t.Errorf("AppendComponents of %s: %d, Components %d", p, len(app)-1, len(cs))
	}
	sum := 0
	for _, c := range cs {
		if r.Size(c) <= 0 {
			t.Errorf("component %s of %s has size %d", c, p, r.Size(c))
		}
		if cc := r.Components(c); len(cc) != 1 || r.Key(cc[0]) != r.Key(c) {
			t.Errorf("component %s of %s is not atomic: %v", c, p, cc)
		}
		sum += r.Size(c)
	}
	if sum != r.Size(p) {
		t.Errorf("%s: size %d, its components' %d", p, r.Size(p), sum)
	}
	// Components in any grouping combine to the same position.
	if len(cs) > 1 {
		half := r.Combine(cs[1:])
		if got := r.Key(r.Combine([]octal.Position{half, cs[0]})); got != r.Key(p) {
			t.Errorf("%s: %s + %s = %s", p, cs[0], half, got)
		}
	}
}

// checkChildren checks the children of p's components: each once, in
// text order, smaller, and the same by ChildrenUntil; EstimateChildren
// bounds their number.
func checkChildren(t *testing.T, r octal.Rules, p octal.Position) {
	t.Helper()
	for _, c := range r.Components(p) {
		kids := r.Children(c)
		if len(kids) == 0 {
			t.Errorf("atomic %s has no child: a heap without a move was kept", c)
		}
		if r.EstimateChildren(c) < len(kids) {
			t.Errorf("%s: EstimateChildren %d < %d children", c, r.EstimateChildren(c), len(kids))
		}
		keys := make([]string, len(kids))
		for i, k := range kids {
			keys[i] = r.Key(k)
			if r.Size(k) >= r.Size(c) {
				t.Errorf("%s (size %d) has child %s of size %d", c, r.Size(c), k, r.Size(k))
			}
		}
		if !slices.IsSorted(keys) || len(slices.Compact(slices.Clone(keys))) != len(keys) {
			t.Errorf("children of %s are not sorted and distinct: %q", c, keys)
		}
		until, complete := r.ChildrenUntil(c, func(octal.Position) bool { return false })
		if !complete || len(until) != len(kids) {
			t.Errorf("ChildrenUntil(%s) never stopped: %d children, complete %v; Children %d", c, len(until), complete, len(kids))
		}
		for i := range until {
			if r.Key(until[i]) != keys[i] {
				t.Errorf("ChildrenUntil(%s)[%d] = %s, Children says %s", c, i, until[i], keys[i])
			}
		}
	}
}

// TestChildrenUntilStops: ChildrenUntil makes no child after the one stop
// said yes to.
func TestChildrenUntilStops(t *testing.T) {
	p := octal.MustParse("0.77:40")
	calls := 0
	kids, complete := p.ChildrenUntil(func(octal.Position) bool { calls++; return calls == 3 })
	if complete || kids != nil || calls != 3 {
		t.Errorf("stop at the third: %d calls, complete %v, %d children; want 3 calls and nothing", calls, complete, len(kids))
	}
}

// TestChildrenOfSums: a sum's children are those of each heap beside the
// others; equal heaps give the same children once.
func TestChildrenOfSums(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"!", nil},
		{"0.77:1", []string{"!"}},
		{"0.77:2", []string{"!", "0.77:1"}},
		{"0.77:3", []string{"0.77:1", "0.77:1+1", "0.77:2"}},
		{"0.07:2", []string{"!"}},
		{"0.07:4", []string{"!", "0.07:2"}},
		{"0.07:5", []string{"0.07:2", "0.07:3"}},
		{"0.77:1+1", []string{"0.77:1"}},
		{"0.07:2+0.77:1", []string{"0.07:2", "0.77:1"}},
		{"0.4:5", []string{"!", "0.4:3"}}, // 1+3 and 2+2, heaps of 1 and 2 dead
	} {
		var got []string
		for _, c := range octal.MustParse(tc.in).Children() {
			got = append(got, c.String())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("children of %s = %q, want %q", tc.in, got, tc.want)
		}
	}
}
