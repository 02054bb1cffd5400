package verify

import (
	"slices"
	"testing"

	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/sprouts/sproutsgame"
)

// landCache returns the land cache the rules of the Sprouts game g make
// children through (nil: none).
func landCache(t *testing.T, g game.Game) *sprouts.Cache {
	t.Helper()
	r, ok := game.Typed[sprouts.Position](g)
	if !ok {
		t.Fatalf("%s: not the rules of package sprouts", g.Info().Name)
	}
	sr, ok := r.(sproutsgame.Rules)
	if !ok {
		t.Fatalf("%s: rules %T, not sproutsgame.Rules", g.Info().Name, r)
	}
	return sr.Cache
}

// TestSproutsRulesCache: a check makes its land cache once and carries it,
// through the copies of its Options that the checks of what it cites get,
// to those checks; each database has a cache of its own; children made
// through a cache are those made without one.
func TestSproutsRulesCache(t *testing.T) {
	var opt Options
	g, ok := opt.rulesFor(sprouts.Game)
	if !ok {
		t.Fatal("rulesFor: Sprouts is not registered")
	}
	lands := landCache(t, g.(registered).g)
	if lands == nil {
		t.Fatal("a check of a Sprouts certificate makes no land cache")
	}
	if landCache(t, game.MustGet(sprouts.Game)) != nil {
		t.Error("the registered Sprouts game keeps a land cache: every check and search would share it")
	}
	nested := opt // as Library.file copies the citing check's options
	nested.nested = true
	if h, _ := nested.rulesFor(sprouts.Game); landCache(t, h.(registered).g) != lands {
		t.Error("the check of a cited certificate makes a cache of its own, not the citing check's")
	}
	a, b := mustRules(sprouts.Game), mustRules(sprouts.Game)
	if ca, cb := landCache(t, a.(registered).g), landCache(t, b.(registered).g); ca == nil || ca == cb {
		t.Error("mustRules: databases share a cache, or have none")
	}
	for _, s := range []string{"0*5", "0*6.AB|0*5.AB", "0*3.1AB|2AB", "0*2.2.AB|1a1a.AB"} {
		p, err := g.parse(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range g.components(p) {
			land, _ := game.Unwrap[sprouts.Position](l)
			var got []sprouts.Position
			for _, k := range g.children(l) {
				kid, _ := game.Unwrap[sprouts.Position](k)
				got = append(got, kid)
			}
			if want := land.Children(); !slices.Equal(got, want) {
				t.Errorf("%s: children through the cache %v, without %v", l, got, want)
			}
		}
	}
}
