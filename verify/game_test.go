package verify

import (
	"slices"
	"testing"

	"github.com/spots-dev/spots/sprouts"
)

// TestSproutsRulesCache: a check makes its land cache once and carries it,
// through the copies of its Options that the checks of what it cites get,
// to those checks; each database has a cache of its own; children made
// through a cache are those made without one.
func TestSproutsRulesCache(t *testing.T) {
	var opt Options
	g := opt.sproutsRules()
	if g.lands == nil {
		t.Fatal("a check of a Sprouts certificate makes no land cache")
	}
	nested := opt // as Library.file copies the citing check's options
	nested.nested = true
	if h := nested.sproutsRules(); h.lands != g.lands {
		t.Error("the check of a cited certificate makes a cache of its own, not the citing check's")
	}
	if a, b := newSproutsRules(), newSproutsRules(); a.lands == nil || a.lands == b.lands {
		t.Error("newSproutsRules: databases share a cache, or have none")
	}
	for _, s := range []string{"0*5", "0*6.AB|0*5.AB", "0*3.1AB|2AB", "0*2.2.AB|1a1a.AB"} {
		p, err := sprouts.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range p.Lands() {
			if got, want := g.children(l), l.Children(); !slices.Equal(got, want) {
				t.Errorf("%s: children through the cache %v, without %v", l, got, want)
			}
		}
	}
}
