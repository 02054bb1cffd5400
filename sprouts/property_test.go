package sprouts

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// text is a position as written: lands of regions of boundaries of symbols
// ("0", "1", "2", "a", "m(13)", "A", "n(30)"), for rewriting a position in
// the many ways that must not change it.
type text [][][][]string

func readText(s string) text {
	var t text
	if s == "!" {
		return t
	}
	for _, land := range strings.Split(s, "+") {
		var l [][][]string
		for _, region := range strings.Split(land, "|") {
			var r [][]string
			for _, item := range strings.Split(region, ".") {
				if n, ok := strings.CutPrefix(item, "0*"); ok {
					k, _ := strconv.Atoi(n)
					for range k {
						r = append(r, []string{"0"})
					}
					continue
				}
				var b []string
				for i := 0; i < len(item); i++ {
					if item[i] == 'm' || item[i] == 'n' {
						j := strings.IndexByte(item[i:], ')')
						b = append(b, item[i:i+j+1])
						i += j
						continue
					}
					b = append(b, item[i:i+1])
				}
				r = append(r, b)
			}
			l = append(l, r)
		}
		t = append(t, l)
	}
	return t
}

func (t text) String() string {
	if len(t) == 0 {
		return "!"
	}
	var lands []string
	for _, l := range t {
		var regions []string
		for _, r := range l {
			var bs []string
			for _, b := range r {
				bs = append(bs, strings.Join(b, ""))
			}
			regions = append(regions, strings.Join(bs, "."))
		}
		lands = append(lands, strings.Join(regions, "|"))
	}
	return strings.Join(lands, "+")
}

func isUpper(sym string) bool { return sym[0] >= 'A' && sym[0] <= 'Y' || sym[0] == 'n' }
func isLower(sym string) bool { return sym[0] >= 'a' && sym[0] <= 'l' || sym[0] == 'm' }

// letterNames returns n distinct names for letters, short or long.
func letterNames(rng *rand.Rand, n int, upper bool) []string {
	short, first, long := 12, byte('a'), "m"
	if upper {
		short, first, long = 25, 'A', "n"
	}
	var names []string
	if n <= short && rng.IntN(4) != 0 {
		for _, k := range rng.Perm(short)[:n] {
			names = append(names, string(first+byte(k)))
		}
		return names
	}
	for _, k := range rng.Perm(MaxLetterNumber)[:n] {
		names = append(names, fmt.Sprintf("%s(%d)", long, k+1))
	}
	return names
}

// shuffle rewrites a position without changing it: new letter names, every
// boundary rotated, some regions read backwards, boundaries, regions and
// lands reordered, runs of spots written out or not.
func shuffle(rng *rand.Rand, s string) string {
	t := readText(s)
	for _, l := range t {
		rename := map[string]string{}
		var ups []string
		for _, r := range l {
			for _, b := range r {
				for _, sym := range b {
					if isUpper(sym) && !slices.Contains(ups, sym) {
						ups = append(ups, sym)
					}
				}
			}
		}
		for i, n := range letterNames(rng, len(ups), true) {
			rename[ups[i]] = n
		}
		back := rng.IntN(2) == 0
		for _, r := range l {
			if rng.IntN(2) == 0 {
				for _, b := range r {
					slices.Reverse(b)
				}
			}
			for bi, b := range r {
				var lows []string
				for _, sym := range b {
					if isLower(sym) && !slices.Contains(lows, sym) {
						lows = append(lows, sym)
					}
				}
				lrename := map[string]string{}
				for i, n := range letterNames(rng, len(lows), false) {
					lrename[lows[i]] = n
				}
				for i, sym := range b {
					if n, ok := rename[sym]; ok {
						b[i] = n
					} else if n, ok := lrename[sym]; ok {
						b[i] = n
					}
				}
				k := rng.IntN(len(b))
				r[bi] = append(slices.Clone(b[k:]), b[:k]...)
			}
			rng.Shuffle(len(r), func(i, j int) { r[i], r[j] = r[j], r[i] })
		}
		if back {
			slices.Reverse(l)
		}
		rng.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
	}
	rng.Shuffle(len(t), func(i, j int) { t[i], t[j] = t[j], t[i] })
	return t.String()
}

// randomPositions plays random games from 0*2 … 0*maxN and returns every
// position met, with repeats removed.
func randomPositions(seed uint64, games, maxN int) []Position {
	rng := rand.New(rand.NewPCG(seed, 99))
	seen := map[Position]bool{}
	var out []Position
	for range games {
		p := MustParse(fmt.Sprintf("0*%d", 2+rng.IntN(maxN-1)))
		for !p.IsTerminal() {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
			kids := p.Children()
			p = kids[rng.IntN(len(kids))]
		}
	}
	return out
}

func TestShuffledPositionsParseToTheSamePosition(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	ps := randomPositions(1, 300, 14)
	for _, p := range ps {
		for range 5 {
			s := shuffle(rng, p.String())
			q, err := Parse(s)
			if err != nil {
				t.Fatalf("%s rewritten as %s: %v", p, s, err)
			}
			if q != p {
				t.Errorf("%s rewritten as %s gives %s", p, s, q)
			}
		}
	}
	t.Logf("%d positions, 5 rewritings each", len(ps))
}

func TestCanonicalFormIsIdempotent(t *testing.T) {
	for _, p := range randomPositions(2, 300, 16) {
		if q := MustParse(p.String()); q != p {
			t.Errorf("%s reads back as %s", p, q)
		}
		if q, err := FromKey(p.Key()); err != nil || q != p {
			t.Errorf("FromKey(%s.Key()) = %s, %v", p, q, err)
		}
	}
}

func TestChildrenAreCanonicalWithFewerLives(t *testing.T) {
	for _, p := range randomPositions(3, 200, 14) {
		kids := p.Children()
		if !slices.IsSortedFunc(kids, func(a, b Position) int { return strings.Compare(a.Key(), b.Key()) }) {
			t.Errorf("%s: children not in key order", p)
		}
		for i, c := range kids {
			if i > 0 && kids[i-1] == c {
				t.Errorf("%s: child %s twice", p, c)
			}
			if q := MustParse(c.String()); q != c {
				t.Errorf("%s: child %s reads back as %s", p, c, q)
			}
			if c.Lives() >= p.Lives() {
				t.Errorf("%s (%d lives): child %s has %d lives", p, p.Lives(), c, c.Lives())
			}
		}
	}
}

// TestCanonicalFormAgreesWithBruteForce checks the canonizer against the
// brute-force form of brute_test.go: two positions are the same for one
// exactly when they are the same for the other.
func TestCanonicalFormAgreesWithBruteForce(t *testing.T) {
	ps := reachable(MustParse("0*4"))
	ps = append(ps, randomPositions(4, 100, 12)...)
	byBrute := map[string]Position{}
	checked := 0
	for _, p := range ps {
		if tooManyLetters(p) {
			continue
		}
		checked++
		b := bruteCanon(t, p.String())
		if q, ok := byBrute[b]; ok && q != p {
			t.Errorf("%s and %s are the same position (%s)", p, q, b)
		}
		byBrute[b] = p
	}
	t.Logf("%d positions compared with the brute-force form", checked)
}

func tooManyLetters(p Position) bool {
	for _, land := range p.Lands() {
		n := 0
		for _, c := range land.String() {
			if c >= 'A' && c <= 'Y' {
				n++
			}
		}
		if n > 10 || strings.ContainsAny(land.String(), "mn") {
			return true
		}
	}
	return false
}

// TestConcurrentChildren generates children from several goroutines at once
// (make test runs it under the race detector): positions, the generator pool
// and a land cache are shared, the cache small enough that its shards grow
// to their bound and are emptied while others read them.
func TestConcurrentChildren(t *testing.T) {
	ps := randomPositions(5, 40, 12)
	want := make([][]Position, len(ps))
	for i, p := range ps {
		want[i] = p.Children()
	}
	r := Rules{Cache: NewCache(cacheShards * 64 << 10)}
	done := make(chan error)
	for w := range 4 {
		go func() {
			var err error
			for k := range ps {
				i := (k + w*len(ps)/4) % len(ps)
				if got := r.Children(ps[i]); !slices.Equal(got, want[i]) && err == nil {
					err = fmt.Errorf("%s: children differ between goroutines", ps[i])
				}
			}
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
