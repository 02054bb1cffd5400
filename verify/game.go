package verify

import (
	"fmt"

	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/sprouts"
)

// rules is what the checker needs of a game, and all it trusts of it: the
// parser and canonical form, the split of a position into independent
// components (the Sprague–Grundy sum), the children in the order
// certificates index them, a size that every move takes down (the order
// of rows), and a measure of what generating the children costs (checked
// against Limits before they are generated). A certificate's header names
// its game (format.Certificate.Game) and the checker uses that game's
// rules; there is one implementation per rules package (sproutsRules,
// cramRules).
//
// The implementations are safe for concurrent use; the only state they
// hold is a cache of canonical codes (sproutsRules.lands), which never
// changes a result.
type rules[P any] interface {
	// game and notation are the header values of the game's certificates.
	game() string
	notation() string
	// parse reads a position written in any form the game accepts; text
	// writes it canonically, so text(parse(s)) == s says s is canonical.
	parse(s string) (P, error)
	text(p P) string
	// fromKey reads what key wrote (a solver's database holds keys).
	fromKey(k string) (P, error)
	// key is injective on positions: equal keys, same game.
	key(p P) string
	// components returns the atomic summands of p (none for the empty
	// position); sum is its inverse. atomic says p has exactly one.
	components(p P) []P
	atomic(p P) bool
	sum(ps []P) P
	// children of an atomic position, each once, in the game's order.
	children(p P) []P
	// size orders rows: every child of p has a smaller size.
	size(p P) int
	// measure bounds the cost of children(p) without making them.
	measure(p P) Cost
}

// sproutsRules are the rules of package sprouts, making children through
// lands, a cache of canonical codes (nil: none). A check makes one
// (newSproutsRules) and hands it, through Options, to the checks of the
// certificates it cites: the same lands come back in all of them, and
// making children without a cache takes about twice as long.
type sproutsRules struct{ lands *sprouts.Cache }

// checkCacheBytes bounds the land cache of one check and the checks of
// what it cites. A cache takes only what its use asks for, up to this.
const checkCacheBytes = sprouts.DefaultCacheBytes

// newSproutsRules returns the rules of package sprouts with a cache of
// their own.
func newSproutsRules() sproutsRules {
	return sproutsRules{lands: sprouts.NewCache(checkCacheBytes)}
}

// sproutsRules returns the rules a check of a Sprouts certificate under o
// uses: with the cache o carries from the check that cites it, or a new
// one that o then carries to the checks of what it cites.
func (o *Options) sproutsRules() sproutsRules {
	if o.lands == nil {
		o.lands = sprouts.NewCache(checkCacheBytes)
	}
	return sproutsRules{lands: o.lands}
}

func (sproutsRules) game() string                             { return sprouts.Game }
func (sproutsRules) notation() string                         { return sprouts.Notation }
func (sproutsRules) parse(s string) (sprouts.Position, error) { return sprouts.Parse(s) }
func (sproutsRules) text(p sprouts.Position) string           { return p.String() }
func (sproutsRules) fromKey(k string) (sprouts.Position, error) {
	return sprouts.FromKey(k)
}
func (sproutsRules) key(p sprouts.Position) string                    { return p.Key() }
func (sproutsRules) components(p sprouts.Position) []sprouts.Position { return p.Lands() }
func (sproutsRules) atomic(p sprouts.Position) bool                   { return p.NumLands() == 1 }
func (sproutsRules) sum(ps []sprouts.Position) sprouts.Position       { return sprouts.Sum(ps...) }
func (r sproutsRules) children(p sprouts.Position) []sprouts.Position {
	return sprouts.Rules{Cache: r.lands}.Children(p)
}
func (sproutsRules) size(p sprouts.Position) int     { return p.Lives() }
func (sproutsRules) measure(p sprouts.Position) Cost { return Measure(p) }

// cramRules are the rules of package cram.
type cramRules struct{}

func (cramRules) game() string                          { return cram.Game }
func (cramRules) notation() string                      { return cram.Notation }
func (cramRules) parse(s string) (cram.Position, error) { return cram.Parse(s) }
func (cramRules) text(p cram.Position) string           { return p.String() }
func (cramRules) fromKey(k string) (cram.Position, error) {
	p, err := cram.Parse(k)
	if err == nil && p.Key() != k {
		return p, fmt.Errorf("cram: %q is not a key (the position's key is %q)", k, p.Key())
	}
	return p, err
}
func (cramRules) key(p cram.Position) string                 { return p.Key() }
func (cramRules) components(p cram.Position) []cram.Position { return p.Regions() }
func (cramRules) atomic(p cram.Position) bool                { return p.NumRegions() == 1 }
func (cramRules) sum(ps []cram.Position) cram.Position       { return cram.Sum(ps...) }
func (cramRules) children(p cram.Position) []cram.Position   { return p.Children() }
func (cramRules) size(p cram.Position) int                   { return p.Cells() }
func (cramRules) measure(p cram.Position) Cost               { return MeasureCram(p) }

// Games returns the games the checker knows, by the names certificates
// use: "sprouts" and "cram".
func Games() []string { return []string{sprouts.Game, cram.Game} }
