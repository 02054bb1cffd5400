package play

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/verify"
)

// Move is one move of a Game and what the certificates prove of the
// position it reaches.
type Move struct {
	To    Game   // the position reached, canonical
	Land  int    // the number of the component (land, region, heap: in the order of the game's Components) the move is played in; -1 for a move in the Nim heap
	From  string // the canonical text of that component, or "*N" for the Nim heap
	Value uint32 // the proven value of To, when Known
	Known bool   // whether the value of To is proven
}

// Winning reports whether the move is proven to win: its result has the
// proven value 0, a loss for the opponent.
func (m Move) Winning() bool { return m.Known && m.Value == 0 }

// Analysis is what the certificates prove about a Game.
type Analysis struct {
	Game Game
	// Outcome is Win, Loss, or Unknown when the certificates do not cover
	// the game.
	Outcome outcome.Outcome
	// Value is the game's Grundy value, when ValueKnown. A Win may be
	// proven without its value (a certificate of POS=W proves only a
	// winning move).
	Value      uint32
	ValueKnown bool
	// Moves are all the moves of the game: those in its components, in
	// the order of the keys of the positions they reach, then those in the
	// Nim heap, the largest heap left first.
	Moves []Move
	// Winning are the indices, in Moves, of the proven winning moves.
	// Every move in it is proven to win; for a Win it is not empty, but a
	// winning move whose result no certificate covers is not in it.
	Winning []int
}

// Moves returns every move of g, with the component it is played in but
// no values. Before generating any children it measures the game's
// position against l (zero fields: verify.DefaultLimits) and refuses it,
// with an error wrapping verify.ErrLimit, if it would cost more.
func Moves(g Game, l verify.Limits) ([]Move, error) {
	r := g.Rules
	if err := checkCost(r, g.Position, l); err != nil {
		return nil, fmt.Errorf("moves of %s: %w", cut(g.String()), err)
	}
	cs := components(r, g.Position)
	var out []Move
	seen, done := map[string]bool{}, map[string]bool{}
	for i, c := range cs {
		if k := key(r, c); done[k] {
			continue // the same component again: the same moves
		} else {
			done[k] = true
		}
		others := slices.Concat(cs[:i], cs[i+1:])
		for _, kid := range r.Children(c) {
			to := Game{Rules: r, Position: r.Combine(append([]Position{kid}, others...)), Heap: g.Heap}
			if k := key(r, to.Position); !seen[k] {
				seen[k] = true
				out = append(out, Move{To: to, Land: i, From: c.String()})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Move) int { return strings.Compare(key(r, a.To.Position), key(r, b.To.Position)) })
	for h := int64(g.Heap) - 1; h >= 0; h-- {
		out = append(out, Move{To: Game{Rules: r, Position: g.Position, Heap: uint32(h)}, Land: -1, From: fmt.Sprintf("*%d", g.Heap)})
	}
	return out, nil
}

// Analyze says who wins g by the values held, lists its moves with the
// proven values of their results, and which of them are proven to win. It
// never searches: it generates the moves of g once (refused, as by Moves,
// if over l) and looks their results up. An error is returned only for a
// position over the limits, or if the values held contradict each other
// (which a sound checker makes impossible).
func (v *Values) Analyze(g Game, l verify.Limits) (Analysis, error) {
	if err := v.other(g); err != nil {
		return Analysis{Game: g}, err
	}
	moves, err := Moves(g, l)
	if err != nil {
		return Analysis{Game: g}, err
	}
	return analyze(v.known, g, moves)
}

// analyze is Analyze with the moves already made, on the values known.
func analyze(known map[string]uint32, g Game, moves []Move) (Analysis, error) {
	a := Analysis{Game: g, Moves: moves}
	a.Value, a.ValueKnown = valueOf(known, g)
	for i := range a.Moves {
		m := &a.Moves[i]
		m.Value, m.Known = valueOf(known, m.To)
		if m.Winning() {
			a.Winning = append(a.Winning, i)
		}
	}
	switch {
	case a.ValueKnown && a.Value == 0:
		if len(a.Winning) > 0 {
			return a, fmt.Errorf("%s: %w: its value is 0 but its move to %s has the value 0 too", cut(g.String()), errContradiction, a.Moves[a.Winning[0]].To)
		}
		a.Outcome = outcome.Loss
	case a.ValueKnown && len(a.Winning) == 0:
		return a, fmt.Errorf("%s: %w: its value is %d but no move is proven to reach 0", cut(g.String()), errContradiction, a.Value)
	case len(a.Winning) > 0:
		a.Outcome = outcome.Win
	}
	return a, nil
}

// Toughest returns, for a game without a proven winning move, the move
// that leaves the opponent the fewest proven winning replies, and that
// number. What the loser can do is make the winner's reply hard to find
// (in Sprouts, where every move removes one life, no move makes a lost
// game last longer than another). A move whose result is over l, or
// whose replies the values held do not cover, counts as having none known
// and is chosen only when no other move has a known reply. Among equals
// it returns the first. It returns false when the game has no move.
func (v *Values) Toughest(a Analysis, l verify.Limits) (m Move, replies int, ok bool) {
	best, fewest := -1, 0
	for i, mv := range a.Moves {
		n := v.provenWins(mv.To, l)
		if best < 0 || (n > 0 && (fewest == 0 || n < fewest)) {
			best, fewest = i, n
		}
	}
	if best < 0 {
		return Move{}, 0, false
	}
	return a.Moves[best], fewest, true
}

// provenWins counts the moves of g whose result has the proven value 0,
// or returns 0 when g is over l.
func (v *Values) provenWins(g Game, l verify.Limits) int {
	moves, err := Moves(g, l)
	if err != nil {
		return 0
	}
	n := 0
	for _, m := range moves {
		if x, ok := valueOf(v.known, m.To); ok && x == 0 {
			n++
		}
	}
	return n
}
