package play

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

const corpusDir = "../corpus"

// corpusCert is a committed certificate of the corpus, loaded.
type corpusCert struct {
	rec     corpus.Record
	path    string
	values  *Values
	entries map[string]format.Entry // by key, read directly by package format
}

var (
	loadOnce sync.Once
	loaded   map[string]*corpusCert // by address
	loadErr  error
)

// loadCorpus loads, once for all tests, the committed certificates of the
// corpus: with -short those of 0*1 … 0*14 and the others that verified in
// under 0.2 s when they were added, else all.
func loadCorpus(t *testing.T) []*corpusCert {
	t.Helper()
	loadOnce.Do(func() {
		c, err := corpus.Open(corpusDir)
		if err != nil {
			loadErr = err
			return
		}
		loaded = map[string]*corpusCert{}
		for _, r := range c.Records {
			// A certificate that cites others holds a few rows of its
			// proof, the rest in what it cites: these tests analyse each
			// certificate's own values.
			if !r.Committed || len(r.Cites) > 0 || testing.Short() && r.N > 14 && r.VerifySeconds > 0.2 {
				continue
			}
			cc := &corpusCert{rec: r, path: filepath.Join(corpusDir, corpus.CertsDir, r.FileName()), values: NewValues(sp)}
			if _, err := cc.values.Load(context.Background(), cc.path, verify.Options{}); err != nil {
				loadErr = err
				return
			}
			cert, err := format.ReadCertificate(cc.path)
			if err != nil {
				loadErr = err
				return
			}
			cc.entries = map[string]format.Entry{}
			for _, e := range cert.Entries {
				cc.entries[sprouts.MustParse(e.Position).Key()] = e
			}
			loaded[r.Address] = cc
		}
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	var out []*corpusCert
	for _, cc := range loaded {
		out = append(out, cc)
	}
	slices.SortFunc(out, func(a, b *corpusCert) int { return a.rec.Line - b.rec.Line })
	if len(out) < 10 {
		t.Fatalf("only %d corpus certificates", len(out))
	}
	return out
}

// rootGame is the game a claim is about: its root, plus its heap for an
// outcome claim.
func rootGame(t *testing.T, c format.Claim) Game {
	g, err := ParseGame(sp, c.Root)
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != format.ClaimGrundy {
		g.Heap = c.N
	}
	return g
}

// checkedValue recomputes the value of g from the certificate's entries
// without package play: every land must be an entry, and each land's entry
// is checked again here by the rules (its reach hints reach every smaller
// value, each child either has a known value other than the entry's or a
// named reply restores it, and no child whose lands are all entries has
// the entry's value: the mex). It fails the test if a rule is broken.
func checkedValue(t *testing.T, entries map[string]format.Entry, g Game) (uint32, bool) {
	t.Helper()
	of := func(p sprouts.Position) (uint32, bool) {
		x := uint32(0)
		for _, land := range p.Lands() {
			e, ok := entries[land.Key()]
			if !ok {
				return 0, false
			}
			x ^= e.Grundy
		}
		return x, true
	}
	x := g.Heap
	for _, land := range typed(t, g).Lands() {
		e, ok := entries[land.Key()]
		if !ok {
			return 0, false
		}
		kids := land.Children()
		for m, i := range e.Reach {
			if v, ok := of(kids[i]); !ok || v != uint32(m) {
				t.Fatalf("%s: reach %d: child %s has value %d (known %v)", land, m, kids[i], v, ok)
			}
		}
		for i, kid := range kids {
			v, ok := of(kid)
			if ok && v == e.Grundy {
				t.Fatalf("%s: child %s has the entry's value %d", land, kid, v)
			}
			if w := e.Win[i]; w >= 0 {
				comp, move := format.SplitWin(w)
				ls := kid.Lands()
				reply := ls[comp].Children()[move]
				r, ok := of(sprouts.Sum(append(slices.Concat(ls[:comp], ls[comp+1:]), reply)...))
				if !ok || r != e.Grundy {
					t.Fatalf("%s: child %s: the reply %s reaches %d (known %v), not %d", land, kid, reply, r, ok, e.Grundy)
				}
			} else if !ok {
				t.Fatalf("%s: child %s has hint -1 but a land that is not an entry", land, kid)
			}
		}
		x ^= e.Grundy
	}
	return x, true
}

// TestBestOnCorpus checks, on every committed certificate of the corpus
// (a sample with -short), that Analyze of the claim's root agrees with the
// claim and that every winning move it lists reaches a position whose
// value, recomputed without this package, is 0.
func TestBestOnCorpus(t *testing.T) {
	for _, cc := range loadCorpus(t) {
		t.Run(cc.rec.Claim.String(), func(t *testing.T) {
			g := rootGame(t, cc.rec.Claim)
			a, err := cc.values.Analyze(g, verify.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			want := cc.rec.Claim.Kind.Outcome()
			if cc.rec.Claim.Kind == format.ClaimGrundy {
				want = outcome.OfGrundy(cc.rec.Claim.N)
				if !a.ValueKnown || a.Value != cc.rec.Claim.N {
					t.Errorf("value %d (known %v), want %d", a.Value, a.ValueKnown, cc.rec.Claim.N)
				}
			}
			if a.Outcome != want {
				t.Fatalf("outcome %v, want %v", a.Outcome, want)
			}
			if want == outcome.Win && len(a.Winning) == 0 {
				t.Fatal("a win without a winning move")
			}
			for _, i := range a.Winning {
				m := a.Moves[i]
				if v, ok := checkedValue(t, cc.entries, m.To); !ok || v != 0 {
					t.Errorf("winning move to %s: recomputed value %d (known %v)", m.To, v, ok)
				}
			}
			for _, m := range a.Moves {
				if v, ok := checkedValue(t, cc.entries, m.To); ok && v == 0 && !slices.ContainsFunc(a.Winning, func(i int) bool { return a.Moves[i].To.String() == m.To.String() }) {
					t.Errorf("the move to %s has the value 0 but is not listed as winning", m.To)
				}
			}
		})
	}
}

// TestGamesAgainstRandom plays, from 0*n for every n ≤ 14 with an
// outcome certificate (every n without -short), the side the certificate says wins with proven
// winning moves against random replies, with several seeds: the winner
// must always have a proven winning move, every position it leaves must
// have the proven value 0, and the other side must run out of moves.
func TestGamesAgainstRandom(t *testing.T) {
	played := 0
	for _, cc := range loadCorpus(t) {
		c := cc.rec.Claim
		if testing.Short() && cc.rec.N > 14 || c.Kind == format.ClaimGrundy {
			continue
		}
		for seed := uint64(1); seed <= 5; seed++ {
			rng := rand.New(rand.NewPCG(seed, uint64(cc.rec.N)))
			g := rootGame(t, c)
			winnerToMove := c.Kind == format.ClaimWin
			for ply := 0; ; ply++ {
				a, err := cc.values.Analyze(g, verify.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if len(a.Moves) == 0 {
					if winnerToMove {
						t.Fatalf("%s seed %d: the winner has no move at %s after %d plies", c, seed, g, ply)
					}
					break
				}
				if winnerToMove {
					if a.Outcome != outcome.Win || len(a.Winning) == 0 {
						t.Fatalf("%s seed %d: no proven winning move at %s (outcome %v)", c, seed, g, a.Outcome)
					}
					m := a.Moves[a.Winning[rng.IntN(len(a.Winning))]]
					if v, ok := checkedValue(t, cc.entries, m.To); !ok || v != 0 {
						t.Fatalf("%s seed %d: the winning move to %s reaches %d (known %v)", c, seed, m.To, v, ok)
					}
					g = m.To
				} else {
					if a.Outcome != outcome.Loss && ply > 0 {
						t.Fatalf("%s seed %d: the loser's position %s is %v", c, seed, g, a.Outcome)
					}
					g = a.Moves[rng.IntN(len(a.Moves))].To
				}
				winnerToMove = !winnerToMove
			}
			played++
		}
	}
	if played < 5*12 {
		t.Errorf("played %d games, want at least %d", played, 5*12)
	}
}

// TestToughest checks, on every loaded Loss claim, that the move Toughest
// picks leaves the opponent a proven winning reply and no more of them
// than any other move whose replies are known.
func TestToughest(t *testing.T) {
	checked := 0
	for _, cc := range loadCorpus(t) {
		if cc.rec.Claim.Kind != format.ClaimLoss {
			continue
		}
		a, err := cc.values.Analyze(rootGame(t, cc.rec.Claim), verify.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		m, replies, ok := cc.values.Toughest(a, verify.Limits{})
		if !ok || replies < 1 {
			t.Fatalf("%s: Toughest = %v, %d, %v; want a move with a proven reply", cc.rec.Claim, m.To, replies, ok)
		}
		if n := cc.values.provenWins(m.To, verify.Limits{}); n != replies {
			t.Errorf("%s: %s has %d proven replies, Toughest says %d", cc.rec.Claim, m.To, n, replies)
		}
		for _, other := range a.Moves {
			if n := cc.values.provenWins(other.To, verify.Limits{}); n > 0 && n < replies {
				t.Errorf("%s: %s leaves %d proven replies, fewer than Toughest's %s (%d)", cc.rec.Claim, other.To, n, m.To, replies)
			}
		}
		checked++
	}
	if checked < 5 {
		t.Fatalf("only %d loss claims checked", checked)
	}
}
