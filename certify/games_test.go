package certify

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/verify"
)

// TestPoolOfEveryGame: a pool serves the claims of its game, whichever
// registered game it is: a certificate of a board drawing on another
// board's cites it; a pool of another game than the claim's is an error
// that says so, where it used to be dropped without a word.
func TestPoolOfEveryGame(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		game, small, large string // a certificate of small is drawn on to prove large
	}{
		{"sprouts", "0*6", "0*7"},
		{"cram", "3x3", "3x4"},
	} {
		t.Run(tt.game, func(t *testing.T) {
			g := game.MustGet(tt.game)
			solveIt := func(text string, db *solve.NimberDB) format.Claim {
				p, err := g.Parse(text)
				if err != nil {
					t.Fatal(err)
				}
				d := solve.NewDFPN[game.Position](g, db, solve.Options{})
				v, ok := d.Grundy(ctx, p)
				if !ok {
					t.Fatalf("%s not solved", text)
				}
				claim, err := Claim(p, 0, solve.Win, &v)
				if err != nil {
					t.Fatal(err)
				}
				return claim
			}
			poolDir := t.TempDir()
			db := solve.NewNimberDB()
			if _, _, err := WriteFor(tt.game, poolDir, db, solveIt(tt.small, db), verify.Options{}); err != nil {
				t.Fatal(err)
			}
			pool, err := LoadPoolOf(ctx, tt.game, []string{poolDir}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if pool.Len() == 0 || pool.Game != tt.game {
				t.Fatalf("pool of %s: %d values of %q", poolDir, pool.Len(), pool.Game)
			}
			db = solve.NewNimberDB()
			pool.Preload(db)
			claim := solveIt(tt.large, db)
			cert, err := BuildCiting(tt.game, db, pool, claim, verify.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(cert.Cites) != 1 {
				t.Errorf("the certificate of %s cites %v, want the one of %s", claim, cert.Cites, tt.small)
			}
			if _, _, err := WriteCertificate(t.TempDir(), cert, verify.Options{Library: pool.Library()}); err != nil {
				t.Errorf("the citing certificate of %s: %v", claim, err)
			}
			// The same pool for a claim of another game: refused, named.
			other := "cram"
			if tt.game == other {
				other = "sprouts"
			}
			_, err = BuildCiting(other, db, pool, claim, verify.Options{})
			if err == nil || !strings.Contains(err.Error(), "drawn on are of "+tt.game) {
				t.Errorf("BuildCiting(%s) with a pool of %s: %v, want an error naming both games", other, tt.game, err)
			}
			// A pool of the other game finds nothing here.
			if p, err := LoadPoolOf(ctx, other, []string{poolDir}, nil, nil); err != nil || p.Len() != 0 {
				t.Errorf("LoadPoolOf(%s) of %s certificates: %d values, %v", other, tt.game, p.Len(), err)
			}
			if _, err := LoadPoolOf(ctx, "nosuch", []string{filepath.Clean(poolDir)}, nil, nil); err == nil {
				t.Error("LoadPoolOf(nosuch) succeeds")
			}
		})
	}
}
