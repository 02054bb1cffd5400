package verify

import (
	"github.com/spots-dev/spots/game"
	_ "github.com/spots-dev/spots/game/all" // the games certificates may name
)

// rules is what the checker needs of a game, and all it trusts of it: the
// parser and canonical form, the split of a position into independent
// components (the Sprague–Grundy sum), the children in the order
// certificates index them, a size that every move takes down (the order
// of rows), and a measure of what generating the children costs (checked
// against Limits before they are generated). A certificate's header names
// its game (format.Certificate.Game) and the checker uses the rules of
// the game of that name in the registry (package game); registered is
// the one implementation, over erased positions.
//
// The implementation is safe for concurrent use; the only state it holds
// is the game's cache of children (game.Game.WithCache), which never
// changes a result.
type rules[P any] interface {
	// game and notation are the header values of the game's certificates.
	game() string
	notation() string
	// sizeName names what size counts, for messages ("lives").
	sizeName() string
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

// registered is the rules of a registered game.
type registered struct {
	g    game.Game
	info game.Info
}

// checkCacheBytes bounds the cache of children of one check and the
// checks of what it cites, or of one database. A cache takes only what
// its use asks for, up to this.
const checkCacheBytes = 64 << 20

// cachedGame returns the registered game of the given name (exactly as
// certificates write it), making children through a cache of its own
// (game.Game.WithCache): the same lands come back again and again in a
// check, and making Sprouts children without a cache takes about twice as
// long.
func cachedGame(name string) (game.Game, bool) {
	g, ok := game.Lookup(name)
	if !ok || g.Info().Name != name {
		return nil, false
	}
	return g.WithCache(checkCacheBytes), true
}

// rulesOf returns the rules of the registered game of the given name
// (exactly as certificates write it), with a cache of their own (cachedGame).
func rulesOf(name string) (rules[game.Position], bool) {
	g, ok := cachedGame(name)
	if !ok {
		return nil, false
	}
	return registered{g: g, info: g.Info()}, true
}

// rulesFor returns the rules a check under o of a certificate of the
// named game uses: those o carries from the check that cites it, when
// they are that game's, else new ones (rulesOf) that o then carries to the
// checks of what it cites, so that they all share one cache.
func (o *Options) rulesFor(name string) (rules[game.Position], bool) {
	if o.cached == nil || o.cached.Info().Name != name {
		g, ok := cachedGame(name)
		if !ok {
			return nil, false
		}
		o.cached = g
	}
	return registered{g: o.cached, info: o.cached.Info()}, true
}

func (r registered) game() string                               { return r.info.Name }
func (r registered) notation() string                           { return r.info.Notation }
func (r registered) sizeName() string                           { return r.info.SizeName }
func (r registered) parse(s string) (game.Position, error)      { return r.g.Parse(s) }
func (r registered) text(p game.Position) string                { return p.String() }
func (r registered) fromKey(k string) (game.Position, error)    { return r.g.FromKey(k) }
func (r registered) key(p game.Position) string                 { return r.g.Key(p) }
func (r registered) components(p game.Position) []game.Position { return r.g.Components(p) }
func (r registered) atomic(p game.Position) bool                { return r.g.NumComponents(p) == 1 }
func (r registered) sum(ps []game.Position) game.Position       { return r.g.Combine(ps) }
func (r registered) children(p game.Position) []game.Position   { return r.g.Children(p) }
func (r registered) size(p game.Position) int                   { return r.g.Size(p) }
func (r registered) measure(p game.Position) Cost               { return r.g.Measure(p) }

// mustRules returns the rules of a game that is registered for sure (the
// default game, Sprouts, for the functions that serve it alone).
func mustRules(name string) rules[game.Position] {
	r, ok := rulesOf(name)
	if !ok {
		panic("verify: the game " + name + " is not registered")
	}
	return r
}

// Games returns the games the checker knows, by the names certificates
// use: the registered games (package game), Sprouts first.
func Games() []string { return game.Names() }
