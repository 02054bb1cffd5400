package play

import (
	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/verify"
)

// What the package needs of a game, through the registry's game.Game:
// every registered game is played the same way. Everything else speaks
// of positions through these functions; describe.go alone knows a game
// (Sprouts: it names the lines of a drawing).

// Position is a position of a registered game, canonical.
type Position = game.Position

// components returns the components of p (a Sprouts position's lands;
// what the game's Info calls its ComponentName), atomic positions: an
// entry of a certificate is one.
func components(r game.Game, p Position) []Position { return r.Components(p) }

// key identifies a position: equal keys, equal positions.
func key(r game.Game, p Position) string { return r.Key(p) }

// checkCost refuses a position whose children would cost more to
// generate than l allows (zero fields: verify.DefaultLimits), before they
// are generated.
func checkCost(r game.Game, p Position, l verify.Limits) error { return l.CheckPosition(r, p) }
