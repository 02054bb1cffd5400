package play

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// TestMovesAreChildren checks that Moves lists the children of the
// position, in their order, each with the land it is played in, then the
// heap moves.
func TestMovesAreChildren(t *testing.T) {
	for _, s := range []string{"0*3", "0*2+1a1a", "0.AB|AB+0.AB|AB+*3", "22+22", "!+*2", "!", "0*4.AB|0*4.AB"} {
		g, err := ParseGame(s)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := Moves(g, verify.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		kids := g.Position.Children()
		if len(ms) != len(kids)+int(g.Heap) {
			t.Fatalf("%s: %d moves, want %d children and %d heap moves", s, len(ms), len(kids), g.Heap)
		}
		ls := g.Position.Lands()
		for i, kid := range kids {
			m := ms[i]
			if m.To.Position != kid || m.To.Heap != g.Heap {
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
			if m.Land != -1 || m.To.Position != g.Position || m.To.Heap != g.Heap-1-uint32(h) {
				t.Errorf("%s: heap move %d is %+v", s, h, m)
			}
		}
	}
}

// TestMovesRefusesCostly checks that a position over the limits is
// refused before its children are made.
func TestMovesRefusesCostly(t *testing.T) {
	g, err := ParseGame("0*2000")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Moves(g, verify.Limits{}); !verify.IsLimit(err) {
		t.Fatalf("Moves(0*2000): %v, want a limit error", err)
	}
	if _, err := NewValues().Analyze(g, verify.Limits{}); !verify.IsLimit(err) {
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
	v := NewValues()
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
		v := NewValues()
		_, err := v.Load(context.Background(), path, verify.Options{})
		if err != nil && v.Len() != 0 {
			t.Fatalf("byte %d: %v, yet %d values were added", i, err, v.Len())
		}
	}
	v = NewValues()
	if _, err := v.Load(context.Background(), src, verify.Options{}); err != nil || v.Len() != 6 {
		t.Fatalf("the intact certificate: %v, %d values", err, v.Len())
	}
}

// TestLibraryCorpus checks that a corpus library loads the certificates a
// position needs, and only those, and says Unknown when none covers it.
func TestLibraryCorpus(t *testing.T) {
	lib, err := OpenCorpus(corpusDir, verify.Options{})
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
		g, err := ParseGame(tt.pos)
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
	if _, err := OpenCorpus(t.TempDir(), verify.Options{}); err == nil {
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
	v := NewValues()
	c, err := v.Load(context.Background(), path, verify.Options{})
	if err != nil || c.Entries != 5 || v.Len() != 8 {
		t.Fatalf("loaded %+v, %d values, %v; want 5 entries of its own, 8 values", c, v.Len(), err)
	}
	lost, _ := filepath.Glob(filepath.Join(dir, cited+"*.arrow"))
	if len(lost) != 1 || os.Remove(lost[0]) != nil {
		t.Fatal("no cited certificate to remove")
	}
	if _, err := NewValues().Load(context.Background(), path, verify.Options{}); !errors.Is(err, verify.ErrIncomplete) || !strings.Contains(err.Error(), cited) {
		t.Fatalf("without the cited file: %v", err)
	}
}
