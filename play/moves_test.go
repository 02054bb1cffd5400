package play

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spots-dev/spots/game"
	_ "github.com/spots-dev/spots/game/all" // the games other than Sprouts
	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// TestMovesAreChildren checks that Moves lists the children of the
// position, in their order, each with the land it is played in, then the
// heap moves.
func TestMovesAreChildren(t *testing.T) {
	for _, s := range []string{"0*3", "0*2+1a1a", "0.AB|AB+0.AB|AB+*3", "22+22", "!+*2", "!", "0*4.AB|0*4.AB"} {
		g, err := ParseGame(sp, s)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := Moves(g, verify.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		p := typed(t, g)
		kids := p.Children()
		if len(ms) != len(kids)+int(g.Heap) {
			t.Fatalf("%s: %d moves, want %d children and %d heap moves", s, len(ms), len(kids), g.Heap)
		}
		ls := p.Lands()
		for i, kid := range kids {
			m := ms[i]
			if typed(t, m.To) != kid || m.To.Heap != g.Heap {
				t.Errorf("%s: move %d reaches %s, want %s", s, i, m.To, kid)
			}
			// The land moved in, replaced by one of its children, gives the child.
			found := false
			for _, lc := range ls[m.Land].Children() {
				others := append(append([]sprouts.Position{}, ls[:m.Land]...), ls[m.Land+1:]...)
				if sprouts.Sum(append(others, lc)...) == kid {
					found = true
				}
			}
			if !found || m.From != ls[m.Land].String() {
				t.Errorf("%s: move %d to %s is not a move in land %d (%s)", s, i, kid, m.Land, m.From)
			}
		}
		for h := range int(g.Heap) {
			m := ms[len(kids)+h]
			if m.Land != -1 || typed(t, m.To) != p || m.To.Heap != g.Heap-1-uint32(h) {
				t.Errorf("%s: heap move %d is %+v", s, h, m)
			}
		}
	}
}

// TestMovesRefusesCostly checks that a position over the limits is
// refused before its children are made.
func TestMovesRefusesCostly(t *testing.T) {
	g, err := ParseGame(sp, "0*2000")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Moves(g, verify.Limits{}); !verify.IsLimit(err) {
		t.Fatalf("Moves(0*2000): %v, want a limit error", err)
	}
	if _, err := NewValues(sp).Analyze(g, verify.Limits{}); !verify.IsLimit(err) {
		t.Fatalf("Analyze(0*2000): %v, want a limit error", err)
	}
}

// TestLoadRefusesInvalid checks that a certificate that does not verify
// adds no value: a corrupted copy of a corpus certificate and a missing
// file.
func TestLoadRefusesInvalid(t *testing.T) {
	src := filepath.Join(corpusDir, "certs", "eacf849c669b63334200b95c830c05a5eb8cf06bad39c37c9cd5272d0f2a5386.arrow") // 0*3=W
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	v := NewValues(sp)
	if _, err := v.Load(context.Background(), filepath.Join(dir, "missing.arrow"), verify.Options{}); err == nil {
		t.Error("a missing file loaded")
	}
	// Flip each byte in turn (a sample): no copy may add values unless it
	// verifies, and those that do not must say so.
	for i := 0; i < len(data); i += 97 {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0x55
		path := filepath.Join(dir, "bad.arrow")
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		v := NewValues(sp)
		_, err := v.Load(context.Background(), path, verify.Options{})
		if err != nil && v.Len() != 0 {
			t.Fatalf("byte %d: %v, yet %d values were added", i, err, v.Len())
		}
	}
	v = NewValues(sp)
	if _, err := v.Load(context.Background(), src, verify.Options{}); err != nil || v.Len() != 6 {
		t.Fatalf("the intact certificate: %v, %d values", err, v.Len())
	}
}

// TestLibraryCorpus checks that a corpus library loads the certificates a
// position needs, and only those, and says Unknown when none covers it.
func TestLibraryCorpus(t *testing.T) {
	lib, err := OpenCorpus(sp, corpusDir, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tt := range []struct {
		pos  string
		want outcome.Outcome
	}{
		{"0*9", outcome.Win},
		{"0*4.AB|0*4.AB", outcome.Loss}, // the position 0*9's certificate moves to
		{"0*6", outcome.Loss},
		{"0*3+*1", outcome.Loss},
		{"0*3+0*3", outcome.Loss}, // a sum of a position with itself
		{"0*200", outcome.Unknown},
	} {
		g, err := ParseGame(sp, tt.pos)
		if err != nil {
			t.Fatal(err)
		}
		a, err := lib.Analyze(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if a.Outcome != tt.want {
			t.Errorf("%s: %v, want %v", tt.pos, a.Outcome, tt.want)
		}
	}
	certs := lib.Values.Certs()
	if len(certs) > 4 {
		t.Errorf("loaded %d certificates for four covered positions", len(certs))
	}
	if !strings.HasPrefix(certs[0].Claim.String(), "0*9") {
		t.Errorf("the first certificate loaded is %s, want one about 0*9", certs[0].Claim)
	}
	if _, err := OpenCorpus(sp, t.TempDir(), verify.Options{}); err == nil {
		t.Error("an empty directory opened as a corpus")
	}
}

// TestLoadCiting: a certificate that cites another brings the cited rows
// with its own (0*3=W citing gn(0*2)=0 holds 5 of the 8 rows its proof
// uses), and is refused without the cited file.
func TestLoadCiting(t *testing.T) {
	const citing, cited = "034e3c29", "286bd41c"
	src, _ := filepath.Glob(filepath.Join("..", "format", "testdata", "cites", "*.arrow"))
	dir := t.TempDir()
	var path string
	for _, f := range src {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(filepath.Base(f), citing) {
			path = to
		}
	}
	v := NewValues(sp)
	c, err := v.Load(context.Background(), path, verify.Options{})
	if err != nil || c.Entries != 5 || v.Len() != 8 {
		t.Fatalf("loaded %+v, %d values, %v; want 5 entries of its own, 8 values", c, v.Len(), err)
	}
	lost, _ := filepath.Glob(filepath.Join(dir, cited+"*.arrow"))
	if len(lost) != 1 || os.Remove(lost[0]) != nil {
		t.Fatal("no cited certificate to remove")
	}
	if _, err := NewValues(sp).Load(context.Background(), path, verify.Options{}); !errors.Is(err, verify.ErrIncomplete) || !strings.Contains(err.Error(), cited) {
		t.Fatalf("without the cited file: %v", err)
	}
}

// TestOtherGames plays positions of the other registered games as
// Sprouts is played: their moves are the children of their components,
// a corpus table covers a sum one certificate for each component when no
// one covers it, and values of one game are no values of another.
func TestOtherGames(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		game  string
		pos   string
		want  outcome.Outcome
		value int // -1: not known
		certs int // loaded for it, at most
	}{
		{"octal", "0.77:3+5+7", outcome.Win, 5, 1},
		{"octal", "0.07:13+0.77:12", outcome.Win, 6, 2}, // no certificate holds both
		{"octal", "0.07:10+*3", outcome.Loss, 0, 1},
		{"octal", "0.77:30", outcome.Unknown, -1, 0},
		{"cram", "3x3", outcome.Loss, 0, 1},
		{"cram", "2x3+*1", outcome.Loss, 0, 1},
	} {
		r := game.MustGet(tt.game)
		lib, err := OpenCorpus(r, corpusDir, verify.Options{})
		if err != nil {
			t.Fatal(err)
		}
		g, err := ParseGame(r, tt.pos)
		if err != nil {
			t.Fatal(err)
		}
		a, err := lib.Analyze(ctx, g)
		if err != nil {
			t.Fatalf("%s: %v", tt.pos, err)
		}
		if a.Outcome != tt.want || tt.value >= 0 && (!a.ValueKnown || a.Value != uint32(tt.value)) {
			t.Errorf("%s: %v, value %d (known %v); want %v, %d", tt.pos, a.Outcome, a.Value, a.ValueKnown, tt.want, tt.value)
		}
		if n := len(lib.Values.Certs()); n > tt.certs || tt.want.Known() && n == 0 {
			t.Errorf("%s: loaded %d certificates, want at most %d", tt.pos, n, tt.certs)
		}
		// Every move is a child of the position's component it names,
		// the others unchanged.
		comps := r.Components(g.Position)
		for _, m := range a.Moves {
			if m.Land < 0 {
				continue
			}
			found := false
			for _, kid := range r.Children(comps[m.Land]) {
				others := append(append([]Position{}, comps[:m.Land]...), comps[m.Land+1:]...)
				if r.Key(r.Combine(append(others, kid))) == r.Key(m.To.Position) {
					found = true
				}
			}
			if !found || m.From != comps[m.Land].String() {
				t.Errorf("%s: the move to %s is not a move in %s", tt.pos, m.To, m.From)
			}
		}
		// A position of Sprouts means nothing to these values.
		sg, _ := ParseGame(sp, "0*3")
		if _, err := lib.Values.Analyze(sg, verify.Limits{}); err == nil {
			t.Errorf("%s: the values of %s analysed a Sprouts position", tt.pos, tt.game)
		}
		if _, ok := lib.Values.Value(sg); ok {
			t.Errorf("%s: the values of %s gave a Sprouts position a value", tt.pos, tt.game)
		}
	}
	if _, err := OpenCorpus(game.MustGet("octal"), t.TempDir(), verify.Options{}); err == nil {
		t.Error("an empty directory opened as a corpus of octal games")
	}
}
