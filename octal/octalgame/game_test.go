package octalgame_test

import (
	"context"
	"testing"

	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/game/gametest"
	"github.com/spots-dev/spots/octal"
	"github.com/spots-dev/spots/octal/octalgame"
	"github.com/spots-dev/spots/solve"
)

// TestConformance runs the conformance suite on octal games, from the
// example and from positions of several games, mixed sums among them.
func TestConformance(t *testing.T) {
	gametest.Run(t, octalgame.Game, "0.07:20", "0.137:15", "0.4:12+0.6:9", "0.07:9+0.77:4+4", "0.156:11")
}

// TestMeasureBoundsChildText: every child's text is within Measure's Bytes,
// and its Moves bound the children.
func TestMeasureBoundsChildText(t *testing.T) {
	var r octalgame.Rules
	for _, s := range []string{"0.77:65536", "0.77:9999+10000", "0.7:2+0.77:99", "0.4:65536", "0.07:10+0.77:5"} {
		p := octal.MustParse(s)
		c := r.Measure(p)
		kids := p.Children()
		if c.Moves < int64(len(kids)) || c.Work < c.Moves {
			t.Errorf("%s: Measure %+v, %d children", s, c, len(kids))
		}
		for _, k := range kids {
			if int64(len(k.String())) > c.Bytes {
				t.Fatalf("%s: child %s is %d bytes, Measure says at most %d", s, k, len(k.String()), c.Bytes)
			}
		}
	}
}

// TestExampleSolves: the example position solves through the erased game,
// as every layer will run it, in every search.
func TestExampleSolves(t *testing.T) {
	g := octalgame.Game
	p, err := g.Parse(g.Info().Example)
	if err != nil {
		t.Fatal(err)
	}
	var _ solve.Game[game.Position] = g
	for name, s := range map[string]interface {
		Grundy(context.Context, game.Position) (uint32, bool)
	}{
		"dfpn":    solve.NewDFPN(g, nil, solve.Options{Capacity: 1 << 12}),
		"pns":     solve.NewPNS(g, nil, solve.Options{}),
		"pdfpn-2": solve.NewDFPN(g, nil, solve.Options{Threads: 2, Capacity: 1 << 12}),
	} {
		// Kayles (OEIS A002186): gn(3) = 3, gn(5) = 4, gn(7) = 2.
		if v, ok := s.Grundy(context.Background(), p); !ok || v != 3^4^2 {
			t.Errorf("%s: gn(%s) = %d, %v; want 5", name, p.String(), v, ok)
		}
	}
}
