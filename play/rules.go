package play

import (
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// The game-specific part of the package: Sprouts, through package sprouts.
// Everything else speaks of positions through these functions (and
// describe.go, which names the moves of a written drawing).

// Position is a position of the game: a sum of lands, canonical.
type Position = sprouts.Position

// gameName and notation are what a certificate's header must say for its
// hints to index this package's children.
const (
	gameName = sprouts.Game
	notation = sprouts.Notation
)

// parsePosition reads a position in the game's notation; the result is
// canonical.
func parsePosition(s string) (Position, error) { return sprouts.Parse(s) }

// lands returns the lands of p in canonical order; an entry of a
// certificate is one land.
func lands(p Position) []Position { return p.Lands() }

// key identifies a position: equal keys, equal positions.
func key(p Position) string { return p.Key() }

// sum returns the position made of all the given lands.
func sum(ps ...Position) Position { return sprouts.Sum(ps...) }

// children returns the children of the atomic position land, in the
// game's child order.
func children(land Position) []Position { return land.Children() }

// checkCost refuses a position whose children would cost more to
// generate than l allows (zero fields: verify.DefaultLimits), before they
// are generated.
func checkCost(p Position, l verify.Limits) error { return l.Check(p) }

// fromKey returns the position whose key is k.
func fromKey(k string) (Position, error) { return sprouts.FromKey(k) }
