package sproutsgame

import (
	"slices"
	"testing"

	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/game/gametest"
	"github.com/spots-dev/spots/sprouts"
)

// TestConformance runs the conformance suite on Sprouts, from its example
// and from positions with letters, several regions and several lands.
func TestConformance(t *testing.T) {
	gametest.Run(t, Game, "0.1a1a|0", "2AB|AB", "0*3+0*2", "0*2.AB|AB")
}

// TestWithCache: Game keeps no land cache (every search and check through
// the registry would share it); WithCache makes one of its own each time,
// whose children are those made without one.
func TestWithCache(t *testing.T) {
	cache := func(g game.Game) *sprouts.Cache {
		r, ok := game.Typed[sprouts.Position](g)
		if !ok {
			t.Fatal("the game's rules are not over sprouts.Position")
		}
		return r.(Rules).Cache
	}
	if cache(Game) != nil {
		t.Error("the registered game keeps a land cache")
	}
	a, b := Game.WithCache(1<<20), Game.WithCache(1<<20)
	if cache(a) == nil || cache(a) == cache(b) {
		t.Error("WithCache: no cache, or one shared between two calls")
	}
	for _, s := range []string{"0*5", "0*2.AB|AB", "0.1a1a|0"} {
		p, err := a.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // the second time from the cache
			var got, want []string
			for _, k := range a.Children(p) {
				got = append(got, k.String())
			}
			for _, k := range Game.Children(p) {
				want = append(want, k.String())
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: children through the cache %v, without %v", s, got, want)
			}
		}
	}
}
