// Package all registers every game of spots: one Register line each.
// Import it (for its side effect) in whatever serves games by name: the
// commands, the checker, the corpus.
package all

import (
	"github.com/spots-dev/spots/cram/cramgame"
	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/octal/octalgame"
	"github.com/spots-dev/spots/sprouts/sproutsgame"
)

// The default game, Sprouts, is registered first: game.List and --game
// list show the games in this order.
func init() {
	game.Register(sproutsgame.Game)
	game.Register(cramgame.Game)
	game.Register(octalgame.Game)
}
