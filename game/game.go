// Package game is what every layer of spots (the search, the
// certificates, the checker, the corpus and the commands) knows of a game:
// the interfaces a game implements and the registry that lists the games.
//
// A game is a package of rules (package sprouts, for one) plus an
// adapter that presents them as a Rules[P] over the game's own position
// type P; New erases P into a Game, which the layers use without naming
// the game, and package game/all registers every Game with one Register
// line each. Package game imports nothing of this module, so that the
// checker (package verify), which trusts only the rules of the games and
// the certificate format, can link it.
//
// docs/adding-a-game.md walks through adding a game.
package game

// Position is a position of some registered game: a value that only the
// Game that made it (Parse, FromKey, Children, Components, Combine) reads,
// and that writes itself in the game's canonical notation. Positions are
// immutable and may be shared between goroutines; they are never compared
// with ==: Key says whether two are the same game.
type Position interface {
	// String writes the position canonically: the game's Parse reads it
	// back, and Parse(s).String() == s says s is canonical.
	String() string
}

// Info describes a game to people and to the certificate format.
type Info struct {
	// Name is the value of --game and the game certificates name in
	// their header (format.Certificate.Game): lowercase, one word.
	Name string
	// Title is the game's name in prose ("Sprouts").
	Title string
	// Noun is what the game calls a position in messages ("position",
	// "board").
	Noun string
	// Notation names the canonical form and the order of Children: the
	// header value of the game's certificates, whose hints are indices
	// into that order.
	Notation string
	// Description is one line saying what the game is.
	Description string
	// Example is a position that solves in well under a second, written
	// as the game's notation writes it.
	Example string
	// Doc is where the notation is documented (a go doc path).
	Doc string
	// SizeName and ComponentName name what Size counts and what
	// Components returns, in the plural ("lives", "lands"; "cells",
	// "regions").
	SizeName      string
	ComponentName string
	// MaxInput is the longest text Parse reads, in bytes.
	MaxInput int
	// Table is what the game's table in a corpus shows (package
	// corpus: <Name>.csv, its certificates in <Name>/, a section of
	// OUTCOMES.md).
	Table Table
}

// Table is what a game's table in a corpus shows beyond its certificates.
type Table struct {
	// Rules is what the table's section of OUTCOMES.md says of the
	// game, in Markdown, after naming its files: its moves, and the words
	// of its columns.
	Rules string
	// Order compares two positions written canonically as the table
	// lists their rows; nil orders them by text.
	Order func(a, b string) int
	// Strategy returns what a known strategy proves of a position written
	// canonically: "W" (the player to move wins), "L", or "" when it
	// proves nothing. The corpus holds every claim to it. nil: no
	// strategy, and no column of it in the table.
	Strategy func(text string) string
	// StrategyName names the strategy in the table's column and in the
	// problems of a check ("symmetry").
	StrategyName string
	// Published returns the Grundy value a published table gives the
	// position written canonically, and false when it gives none: values
	// no one here computed, to which the corpus holds every claim (a
	// certificate that disagrees is a problem of the check). nil: no
	// published table.
	Published func(text string) (uint32, bool)
	// PublishedName names the published table ("OEIS A002186").
	PublishedName string
}

// Cost measures a position before its children are generated: the
// checker holds every measure to a limit (verify.Limits) before it
// generates anything from untrusted input. A game fills in the measures
// that mean something for it and leaves the others zero.
type Cost struct {
	Lives      int // Sprouts: lives of the position
	Boundaries int // Sprouts: boundaries, all regions and lands together
	Letters    int // Sprouts: letters written in the position
	Cells      int // board games: empty cells
	// Moves is an upper bound on the moves the generator tries for the
	// position (each builds and canonicalises one child), saturating at
	// math.MaxInt64.
	Moves int64
	// Bytes bounds the length of a child's key: what each child costs to
	// build and, roughly, to keep.
	Bytes int64
	// Work is Moves × Bytes, saturating: a bound on the time and memory of
	// generating the children.
	Work int64
}

// Rules is a game's rules over its own position type P, as its adapter
// package writes them. The search, the checker and the certificates rely
// on these contracts, which package game/gametest checks:
//   - Parse reads a position in any form the game accepts and P's String
//     method writes it canonically: Parse(p.String()) is p, and
//     Parse(s).String() == s says s is canonical. Bad text is an error naming what is wrong,
//     never a panic.
//   - Key is injective on canonical positions: equal keys mean the same
//     game. FromKey reads what Key wrote and refuses anything else.
//   - Components returns the atomic summands of a position (none for the
//     empty position, itself for an atomic one) and Combine is its
//     inverse.
//   - Children returns every position one move away from an atomic,
//     non-terminal position, each once, in the order certificates index
//     them; a child may be a sum.
//   - Size is positive for every non-empty atomic position, adds up over
//     components, and strictly decreases along every move.
//   - EstimateChildren is a cheap guess of the number of children, used
//     only to order them; Measure bounds the cost of Children without
//     making them.
type Rules[P Position] interface {
	Parse(text string) (P, error)
	FromKey(key string) (P, error)
	Key(P) string
	Components(P) []P
	Combine([]P) P
	Children(P) []P
	Size(P) int
	EstimateChildren(P) int
	Measure(P) Cost
}

// ChildrenUntil is what Rules may also offer: the children of an atomic
// position as Children gives them, unless stop returns true for one of
// them, in which case the rest need not be made and complete is false.
type ChildrenUntil[P any] interface {
	ChildrenUntil(pos P, stop func(P) bool) (kids []P, complete bool)
}

// ComponentCounter is what Rules may also offer: the number of components
// of a position, without making them.
type ComponentCounter[P any] interface {
	NumComponents(P) int
}

// WithCache is what Rules may also offer: the same rules, making children
// through a cache of their own that takes at most about bytes bytes. A
// cache never changes a result, only how fast children come; whoever runs
// a search or a check sizes it (Game.WithCache), so that the registered
// rules hold none and no two searches share one unless given the same.
type WithCache[P Position] interface {
	WithCache(bytes int64) Rules[P]
}

// Game is a registered game with its position type erased: what the
// layers above the rules use. Its methods are those of Rules over
// Position, plus the optional ones, always present; they take only
// positions this Game made and may panic on another game's. Game
// satisfies solve.Game[Position], solve.ChildrenUntil[Position] and
// solve.ComponentsAppender[Position]. The stop function of
// ChildrenUntil must not keep the position it is given past its call:
// the Game reuses it for the next child (the search only looks it up).
type Game interface {
	Info() Info
	Parse(text string) (Position, error)
	FromKey(key string) (Position, error)
	Key(Position) string
	Components(Position) []Position
	AppendComponents(dst []Position, p Position) []Position
	NumComponents(Position) int
	Combine([]Position) Position
	Children(Position) []Position
	ChildrenUntil(pos Position, stop func(Position) bool) (kids []Position, complete bool)
	Size(Position) int
	EstimateChildren(Position) int
	Measure(Position) Cost
	// PositionBytes is what a position holds in memory, its key
	// included: the interface, the typed position it points to and the
	// key (solve.PositionSizer), so that a cache bounded in bytes stays
	// within them.
	PositionBytes(Position) int
	// WithCache returns the game making children through a cache of its
	// own of at most about bytes bytes (its rules' WithCache), or the
	// game itself when its rules keep none. The two read, write and
	// move the same positions.
	WithCache(bytes int64) Game
	// rules returns the typed rules, for Typed.
	rules() any
}

// New returns the Game of rules r described by info.
func New[P Position](info Info, r Rules[P]) Game {
	e := &erased[P]{info: info, r: r}
	e.until, _ = r.(ChildrenUntil[P])
	e.count, _ = r.(ComponentCounter[P])
	return e
}

// Typed returns the rules g was made of, if their position type is P:
// what code that serves one game only (the Sprouts swarm, the GLOP text
// databases) uses to run on its positions without erasure.
func Typed[P Position](g Game) (Rules[P], bool) {
	r, ok := g.rules().(Rules[P])
	return r, ok
}

// Unwrap returns the position of type P that x holds, if it holds one (x
// made by a Game whose rules have position type P).
func Unwrap[P Position](x Position) (P, bool) {
	b, ok := x.(boxed[P])
	if !ok {
		var zero P
		return zero, false
	}
	return *b.p, true
}

// Wrap returns p as a Position of the Game made of rules over P, the
// inverse of Unwrap.
func Wrap[P Position](p P) Position { return boxed[P]{&p} }
