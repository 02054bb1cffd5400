package all_test

import (
	"testing"

	"github.com/spots-dev/spots/game"
	_ "github.com/spots-dev/spots/game/all"
	"github.com/spots-dev/spots/game/gametest"
)

// TestConformance runs the conformance suite on every registered game.
func TestConformance(t *testing.T) {
	games := game.List()
	if len(games) < 2 {
		t.Fatalf("registered games: %v, want sprouts, cram and more", game.Names())
	}
	for _, g := range games {
		t.Run(g.Info().Name, func(t *testing.T) { gametest.Run(t, g) })
	}
}

// TestRegistered: every game is found by its name, in any case, and the
// default game comes first.
func TestRegistered(t *testing.T) {
	if names := game.Names(); names[0] != "sprouts" {
		t.Errorf("the first game is %q, want the default, sprouts", names[0])
	}
	for _, g := range game.List() {
		name := g.Info().Name
		for _, asked := range []string{name, string(name[0]-'a'+'A') + name[1:]} {
			if h, ok := game.Lookup(asked); !ok || h != g {
				t.Errorf("Lookup(%q) = %v, %v", asked, h, ok)
			}
		}
	}
}
