package sproutsgame

import (
	"testing"

	"github.com/spots-dev/spots/game/gametest"
)

// TestConformance runs the conformance suite on Sprouts, from its example
// and from positions with letters, several regions and several lands.
func TestConformance(t *testing.T) {
	gametest.Run(t, Game, "0.1a1a|0", "2AB|AB", "0*3+0*2", "0*2.AB|AB")
}
