package sprouts2_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify/sprouts2"
)

// Differential tests: package sprouts and this package, written apart,
// agree on the children of positions up to the relabellings Same allows,
// and on when two lands are the same.

func parse(t testing.TB, s string) []*sprouts2.Land {
	t.Helper()
	lands, err := sprouts2.Parse(s)
	if err != nil {
		t.Fatalf("sprouts2.Parse(%q): %v", s, err)
	}
	return lands
}

// children returns the children of a position of this package, a sum of
// lands: the moves of each land beside the others.
func children(lands []*sprouts2.Land) [][]*sprouts2.Land {
	var out [][]*sprouts2.Land
	for i, l := range lands {
		for _, c := range l.Children() {
			out = append(out, append(append(append([]*sprouts2.Land{}, lands[:i]...), lands[i+1:]...), c...))
		}
	}
	return out
}

// sameChildren compares the children of the position written p by both
// packages: every child of each is the same position as a child of the
// other.
func sameChildren(t *testing.T, text string) {
	t.Helper()
	p, err := sprouts.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	lands := parse(t, text)
	if got, want := lives(lands), p.Lives(); got != want {
		t.Errorf("%s: %d lives, sprouts says %d", text, got, want)
	}
	if len(lands) != p.NumLands() {
		t.Errorf("%s: %d lands, sprouts says %d", text, len(lands), p.NumLands())
	}
	theirs := p.Children()
	ours := children(lands)
	found := make([]bool, len(theirs))
	parsed := make([][]*sprouts2.Land, len(theirs))
	for i, c := range theirs {
		parsed[i] = parse(t, c.String())
	}
	for _, c := range ours {
		match := false
		for i, q := range parsed {
			if same, err := sprouts2.SamePosition(c, q, 0); err != nil {
				t.Fatal(err)
			} else if same {
				found[i], match = true, true
				break
			}
		}
		if !match {
			t.Errorf("%s: our child %s is not among package sprouts' %v", text, sprouts2.Text(c), theirs)
			return
		}
	}
	for i, ok := range found {
		if !ok {
			t.Errorf("%s: package sprouts' child %s is not among ours", text, theirs[i])
		}
	}
	// Package sprouts' children are distinct positions: no two are the
	// same by Same either.
	for i := range parsed {
		for j := i + 1; j < len(parsed); j++ {
			if same, _ := sprouts2.SamePosition(parsed[i], parsed[j], 0); same {
				t.Errorf("%s: package sprouts' children %s and %s are the same position", text, theirs[i], theirs[j])
			}
		}
	}
}

func lives(lands []*sprouts2.Land) int {
	n := 0
	for _, l := range lands {
		n += l.Lives()
	}
	return n
}

// TestChildrenAgreeOnRandomGames: along random games from 0*2 … 0*14, each
// position's children agree.
func TestChildrenAgreeOnRandomGames(t *testing.T) {
	games, maxN := 40, 14
	if testing.Short() {
		games, maxN = 12, 10
	}
	rng := rand.New(rand.NewPCG(40, 1))
	positions := 0
	for g := range games {
		n := 2 + g%(maxN-1)
		p := sprouts.MustParse(fmt.Sprintf("0*%d", n))
		for !p.IsTerminal() {
			sameChildren(t, p.String())
			if t.Failed() {
				return
			}
			positions++
			kids := p.Children()
			p = kids[rng.IntN(len(kids))]
		}
	}
	t.Logf("%d positions of %d games", positions, games)
}

// corpusLands returns the positions of the entries of a corpus
// certificate.
func corpusLands(t *testing.T, name string) []string {
	t.Helper()
	c, err := format.ReadCertificate(filepath.Join("..", "..", "corpus", "certs", name+".arrow"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range c.Entries {
		out = append(out, e.Position)
	}
	return out
}

// TestChildrenAgreeOnCorpus: the children of entries of the corpus's
// certificates of 0*14=L, 0*21=W and 0*47=W (a fixed sample of each,
// smaller with -short) agree.
func TestChildrenAgreeOnCorpus(t *testing.T) {
	for _, c := range []struct {
		name  string
		every int
	}{
		{"5424fc9eedb30f0953f9af5c5774f6d4f81b93b79118046b656c239ae286fa8c", 5},   // 0*14=L, 6,260 entries
		{"fde1456251b113aae99dd7bd37d990134c4c633207d57abd480aa36f9b7714c1", 40},  // 0*21=W, 47,910
		{"9b29d82d9a002cc50e4276d2939282ef5fff741e230ccbc2761e86aa0a02d241", 400}, // 0*47=W, 203,400
	} {
		every := c.every
		if testing.Short() {
			every *= 10
		}
		entries := corpusLands(t, c.name)
		for i := 0; i < len(entries); i += every {
			sameChildren(t, entries[i])
			if t.Failed() {
				return
			}
		}
	}
}

// TestSameAgreesWithKeys: for lands met in the corpus certificate of
// 0*21=W and the children of some of them, two lands are the same by Same
// exactly when package sprouts gives them one key. Lands are compared
// with every land of equal Hash, and with random others.
func TestSameAgreesWithKeys(t *testing.T) {
	entries := corpusLands(t, "fde1456251b113aae99dd7bd37d990134c4c633207d57abd480aa36f9b7714c1")
	step := 40
	if testing.Short() {
		step = 400
	}
	type land struct {
		ours *sprouts2.Land
		key  string
	}
	var all []land
	for i := 0; i < len(entries); i += step {
		p := sprouts.MustParse(entries[i])
		for _, c := range append(p.Children(), p) {
			for _, l := range c.Lands() {
				// Written again with its letters renamed, its boundaries
				// turned and its parts reordered, so that Same has work.
				all = append(all, land{parse(t, scramble(l.String(), i))[0], l.Key()})
			}
		}
	}
	byHash := map[uint64][]int{}
	for i, l := range all {
		byHash[l.ours.Hash()] = append(byHash[l.ours.Hash()], i)
	}
	rng := rand.New(rand.NewPCG(21, 1))
	pairs, sameKeys := 0, 0
	for i, a := range all {
		others := append([]int{rng.IntN(len(all))}, byHash[a.ours.Hash()]...)
		for _, j := range others {
			b := all[j]
			same, err := sprouts2.Same(a.ours, b.ours, 0)
			if err != nil {
				t.Fatal(err)
			}
			if same != (a.key == b.key) {
				t.Fatalf("%s and %s: Same says %v, package sprouts' keys equal: %v", a.ours, b.ours, same, a.key == b.key)
			}
			pairs++
			if same && i != j {
				sameKeys++
			}
		}
	}
	t.Logf("%d lands, %d pairs compared, %d of them the same land written twice", len(all), pairs, sameKeys)
	if sameKeys == 0 {
		t.Error("no pair of the same land written differently was compared")
	}
}

// scramble writes the same land differently: letters renamed, each
// boundary turned, each region read in either direction, boundaries and
// regions reordered (deterministically from seed), with package sprouts'
// parser checking that the result is the same land.
func scramble(text string, seed int) string {
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	p := sprouts.MustParse(text)
	out := sprouts2Scramble(text, rng)
	if q, err := sprouts.Parse(out); err != nil || q != p {
		panic(fmt.Sprintf("scramble(%s) = %s is not the same land (%v)", text, out, err))
	}
	return out
}

// sprouts2Scramble is scramble's rewriting, on the text.
func sprouts2Scramble(text string, rng *rand.Rand) string {
	var regions [][][]string
	for _, r := range strings.Split(text, "|") {
		var region [][]string
		for _, b := range strings.Split(r, ".") {
			if k, ok := strings.CutPrefix(b, "0*"); ok {
				n, _ := strconv.Atoi(k)
				for range n {
					region = append(region, []string{"0"})
				}
				continue
			}
			var tokens []string
			for i := 0; i < len(b); i++ {
				j := i + 1
				if b[i] == 'm' || b[i] == 'n' {
					j = i + strings.IndexByte(b[i:], ')') + 1
				}
				tokens = append(tokens, b[i:j])
				i = j - 1
			}
			region = append(region, tokens)
		}
		regions = append(regions, region)
	}
	isUpper := func(t string) bool { return t[0] == 'n' || 'A' <= t[0] && t[0] <= 'Y' }
	isLower := func(t string) bool { return t[0] == 'm' || 'a' <= t[0] && t[0] <= 'l' }
	name := func(k, n int, short string, long byte) string {
		if n > len(short) {
			return fmt.Sprintf("%c(%d)", long, k+1)
		}
		return short[k : k+1]
	}
	// rename gives the letters of tokens that want picks new names, in a
	// random order, as Parse reads them.
	rename := func(tokens []string, want func(string) bool, short string, long byte) map[string]string {
		var seen []string
		for _, t := range tokens {
			if want(t) && !slices.Contains(seen, t) {
				seen = append(seen, t)
			}
		}
		names := map[string]string{}
		for k, p := range rng.Perm(len(seen)) {
			names[seen[k]] = name(p, len(seen), short, long)
		}
		return names
	}
	var all []string
	for _, r := range regions {
		for _, b := range r {
			all = append(all, b...)
		}
	}
	upper := rename(all, isUpper, "ABCDEFGHIJKLMNOPQRSTUVWXY", 'n')
	var out []string
	for _, r := range regions {
		back := rng.IntN(2) == 1
		var bs []string
		for _, b := range r {
			lower := rename(b, isLower, "abcdefghijkl", 'm')
			rot := rng.IntN(len(b))
			var sb strings.Builder
			for i := range b {
				j := (rot + i) % len(b)
				if back {
					j = (rot - i + len(b)) % len(b)
				}
				t := b[j]
				switch {
				case isUpper(t):
					t = upper[t]
				case isLower(t):
					t = lower[t]
				}
				sb.WriteString(t)
			}
			bs = append(bs, sb.String())
		}
		rng.Shuffle(len(bs), func(i, j int) { bs[i], bs[j] = bs[j], bs[i] })
		out = append(out, strings.Join(bs, "."))
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return strings.Join(out, "|")
}
