package solve

// The package is named shared here because this package has a function
// named outcome.
import shared "github.com/spots-dev/spots/outcome"

// Game is what the solver needs to know of a normal-play impartial game:
// the player who cannot move loses, both players have the same moves, and a
// position may be a sum of independent components. P is the game's position
// type; values are treated as immutable and may be shared between
// goroutines.
//
// The solver relies on these contracts:
//   - Key is injective on positions: equal keys mean the same game. Keys of
//     canonical forms make transpositions meet.
//   - Components returns the atomic summands of a position (none for the
//     empty position, itself for an atomic one), and Combine is its inverse.
//   - Children returns every position one move away from an atomic,
//     non-terminal position, each once; a child may be a sum.
//   - Size is positive for every non-empty atomic position, adds up over
//     components, and strictly decreases along every move. It orders the
//     search and bounds its depth.
//   - EstimateChildren is a cheap guess of the number of children, used only
//     to order them.
type Game[P any] interface {
	Key(P) string
	Components(P) []P
	Combine([]P) P
	Children(P) []P
	Size(P) int
	EstimateChildren(P) int
}

// ChildrenUntil is what a Game may also offer: the children of an atomic
// position as Children gives them, unless stop returns true for one of them
// (it sees each child as it is made, in any order, perhaps more than once),
// in which case the rest need not be made and complete is false. DFPN uses
// it to stop generating children once one of them is a lost position.
type ChildrenUntil[P any] interface {
	ChildrenUntil(pos P, stop func(P) bool) (kids []P, complete bool)
}

// PositionSizer is what a Game may also offer: the bytes a position
// holds in memory, its key included, which bound what the search's cache
// of children keeps. Without it a position counts as its own size
// (unsafe.Sizeof) plus its key's length, which undercounts a position
// held through a pointer (an erased one, package game): the cache would
// then keep more than its budget and the collector run at its limit.
type PositionSizer[P any] interface {
	PositionBytes(P) int
}

// ComponentsAppender is what a Game may also offer: Components, appended
// to dst instead of a new slice. The search asks for the components of
// every child it makes and keeps none of the slices, so it reuses one.
type ComponentsAppender[P any] interface {
	AppendComponents(dst []P, pos P) []P
}

// Outcome is the result of a couple for the player to move: the shared
// outcome.Outcome (String writes "W", "L" or "unknown").
type Outcome = shared.Outcome

// The outcomes. Unknown is what a search that stopped early reports.
const (
	Unknown = shared.Unknown
	Win     = shared.Win
	Loss    = shared.Loss
)

// A couple is a position plus one Nim heap of size N: the sum P + *N. It is
// a Loss for the player to move exactly when the Grundy value of P is N.
type couple[P any] struct {
	pos    P
	key    string // Key(pos)
	n      uint32
	decomp bool // pos has two or more components
	size   int  // Size(pos)
	est    int  // EstimateChildren(pos), -1 until needed
	comps  int  // number of components
}
