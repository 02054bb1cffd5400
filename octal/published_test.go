package octal_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spots-dev/spots/octal"
	"github.com/spots-dev/spots/solve"
)

// published is a table of Grundy values that no one here wrote: a
// sequence of the OEIS, typed into octalgame/published with its source named, and the
// games it gives the values of.
type published struct {
	file   string
	games  []publishedGame
	values []uint32
}

// publishedGame says that the heap of first+i tokens of code has value
// values[i].
type publishedGame struct {
	code  string
	first int
}

// value returns the published value of heap n of g, if the table has it.
func (p published) value(g publishedGame, n int) (uint32, bool) {
	if i := n - g.first; i >= 0 && i < len(p.values) {
		return p.values[i], true
	}
	return 0, false
}

// readPublished reads octalgame/published/name: '#' comments, "game CODE HEAP"
// lines, and the values, separated by commas.
func readPublished(t *testing.T, name string) published {
	t.Helper()
	f, err := os.Open(filepath.Join("octalgame", "published", name))
	if err != nil {
		t.Fatalf("published table (part of the repository): %v", err)
	}
	defer f.Close()
	p := published{file: name}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "game "):
			var g publishedGame
			if _, err := fmt.Sscanf(line, "game %s %d", &g.code, &g.first); err != nil {
				t.Fatalf("%s: %q: %v", name, line, err)
			}
			p.games = append(p.games, g)
		default:
			for _, f := range strings.Split(strings.TrimSuffix(line, ","), ",") {
				v, err := strconv.ParseUint(strings.TrimSpace(f), 10, 32)
				if err != nil {
					t.Fatalf("%s: %q: %v", name, line, err)
				}
				p.values = append(p.values, uint32(v))
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(p.values) < 100 || len(p.games) == 0 {
		t.Fatalf("%s: %d values of %d games; the table has more than 100 values of at least one game", name, len(p.values), len(p.games))
	}
	return p
}

func publishedTables(t *testing.T) []published {
	return []published{readPublished(t, "a002186.txt"), readPublished(t, "a002187.txt")}
}

// TestPublishedByMex: every published value (105 of Kayles, 132 of
// Dawson's Kayles and Dawson's Chess) is the oracle's and the value that a
// mex over the package's moves gives.
func TestPublishedByMex(t *testing.T) {
	for _, p := range publishedTables(t) {
		for _, g := range p.games {
			o, c, m := newOracle(g.code), octal.MustParseCode(g.code), grundyByMex{}
			checked := 0
			for n := 0; ; n++ {
				want, ok := p.value(g, n)
				if !ok && n >= g.first {
					break
				}
				if !ok {
					continue
				}
				pos, err := c.Heaps(n)
				if err != nil {
					t.Fatal(err)
				}
				if got := o.grundy(n); got != want {
					t.Errorf("%s (%s): the oracle says gn(%d) = %d, the table %d", g.code, p.file, n, got, want)
				}
				if got := m.of(pos); got != want {
					t.Errorf("%s (%s): mex over Children says gn(%d) = %d, the table %d", g.code, p.file, n, got, want)
				}
				checked++
			}
			if checked < 100 {
				t.Errorf("%s (%s): %d values checked", g.code, p.file, checked)
			}
		}
	}
}

// search is what the tests ask of solve's searches.
type search interface {
	Grundy(context.Context, octal.Position) (uint32, bool)
	Solve(context.Context, octal.Position, uint32) solve.Outcome
}

// searches are solve's searches over the package's rules: sequential
// DFPN, PNS and parallel DFPN, each with a database of its own (and a
// small table: a fresh search per heap need not allocate the default one).
var searches = map[string]func() search{
	"dfpn":    func() search { return solve.NewDFPN(octal.Rules{}, nil, solve.Options{Capacity: 1 << 14}) },
	"pns":     func() search { return solve.NewPNS(octal.Rules{}, nil, solve.Options{}) },
	"pdfpn-2": func() search { return solve.NewDFPN(octal.Rules{}, nil, solve.Options{Threads: 2, Capacity: 1 << 14}) },
}

// TestPublishedBySolver asks the real search, through solve's exported
// API, for the Grundy value of every heap of each published table (from
// 1 to 105 in Kayles, 1 to 132 in Dawson's Kayles), and compares it with
// the table: each search with one database that grows with the heaps, as
// a table of a game's values would be built, and again from nothing for
// every seventh heap, which makes the search go all the way down.
func TestPublishedBySolver(t *testing.T) {
	ctx := context.Background()
	for _, p := range publishedTables(t) {
		g := p.games[0]
		c := octal.MustParseCode(g.code)
		for name, mk := range searches {
			grown := mk()
			for n := max(1, g.first); ; n++ {
				want, ok := p.value(g, n)
				if !ok {
					break
				}
				pos, err := c.Heaps(n)
				if err != nil {
					t.Fatal(err)
				}
				if got, ok := grown.Grundy(ctx, pos); !ok || got != want {
					t.Errorf("%s %s: gn(%s) = %d, %v; the table (%s) says %d", name, g.code, pos, got, ok, p.file, want)
				}
				if n%7 != 0 {
					continue
				}
				if got, ok := mk().Grundy(ctx, pos); !ok || got != want {
					t.Errorf("%s %s from nothing: gn(%s) = %d, %v; the table (%s) says %d", name, g.code, pos, got, ok, p.file, want)
				}
			}
		}
	}
}

// TestPublishedSumsBySolver: a sum of published heaps, of one game or of
// both, is lost for the player to move exactly when the xor of the
// published values is 0, and its Grundy value is that xor.
func TestPublishedSumsBySolver(t *testing.T) {
	ctx := context.Background()
	tables := publishedTables(t)
	rng := rand.New(rand.NewPCG(2, 187))
	for name, mk := range searches {
		s := mk()
		for range 20 {
			var parts []octal.Position
			var texts []string
			x := uint32(0)
			for range rng.IntN(3) + 2 {
				p := tables[rng.IntN(len(tables))]
				g := p.games[0]
				n := g.first + rng.IntN(40)
				v, _ := p.value(g, n)
				x ^= v
				h, err := octal.MustParseCode(g.code).Heaps(n)
				if err != nil {
					t.Fatal(err)
				}
				parts = append(parts, h)
				texts = append(texts, fmt.Sprintf("%s:%d=%d", g.code, n, v))
			}
			pos := octal.Sum(parts...)
			want := solve.Win
			if x == 0 {
				want = solve.Loss
			}
			if got := s.Solve(ctx, pos, 0); got != want {
				t.Errorf("%s: %s (%s) is %v, want %v", name, pos, strings.Join(texts, " "), got, want)
			}
			if got, ok := s.Grundy(ctx, pos); !ok || got != x {
				t.Errorf("%s: gn(%s) = %d, %v; want %d (%s)", name, pos, got, ok, x, strings.Join(texts, " "))
			}
		}
	}
}
