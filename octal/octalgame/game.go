// Package octalgame presents the rules of package octal as a game.Game. It
// is apart from package octal, which imports nothing of this module, so
// that the rules stay free of the registry; package game/all registers
// Game.
package octalgame

import (
	"cmp"
	"math"
	"strconv"
	"strings"

	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/octal"
)

// Game is octal games (Kayles, Dawson's Kayles, …) as every layer of spots
// serves them.
var Game = game.New[octal.Position](Info, Rules{})

// Info describes octal games.
var Info = game.Info{
	Name:          octal.Game,
	Title:         "Octal games",
	Noun:          "position",
	Notation:      octal.Notation,
	Description:   "heaps of tokens taken and split as an octal code says: Kayles 0.77, Dawson's Kayles 0.07; the player who cannot move loses",
	Example:       "0.77:3+5+7",
	Doc:           "github.com/spots-dev/spots/octal",
	SizeName:      "tokens",
	ComponentName: "heaps",
	MaxInput:      octal.MaxInput,
	Table: game.Table{
		Rules:         "A position is a sum of heaps, `CODE:N` a heap of N tokens of the octal game CODE. *published*: the Grundy value the OEIS's sequences give (a sum's: the xor of its heaps'), which every claim must agree with.\n",
		Order:         order,
		Published:     Published,
		PublishedName: publishedName,
	},
}

// Rules are the rules of package octal under the names of game.Rules:
// heaps are the components and tokens the size.
type Rules struct{ octal.Rules }

// Parse returns octal.Parse(text).
func (Rules) Parse(text string) (octal.Position, error) { return octal.Parse(text) }

// FromKey returns octal.FromKey(key): a key is the canonical text, and a
// text that parses but is not canonical is refused.
func (Rules) FromKey(key string) (octal.Position, error) { return octal.FromKey(key) }

// String returns the canonical text of p.
func (Rules) String(p octal.Position) string { return p.String() }

// NumComponents returns the number of heaps of p.
func (Rules) NumComponents(p octal.Position) int { return p.NumHeaps() }

// childBytes bounds what a move adds to a position's text: it replaces a
// heap's size by two sizes, which adds a '+' and a size of at most
// MaxHeap's digits (a heap's code is written already, or the move leaves
// fewer heaps of it).
var childBytes = 1 + len(strconv.Itoa(octal.MaxHeap))

// Measure returns the cost of generating the children of a position: its
// moves (exactly, counting equal heaps once: each makes one child), a bound
// on the bytes of a child's text (the position's and childBytes) and their
// product. Tokens are not a measure of their own: a heap of MaxHeap tokens
// has one move per token for each digit, which Moves counts.
func (Rules) Measure(p octal.Position) game.Cost {
	c := game.Cost{Moves: int64(p.EstimateChildren()), Bytes: int64(len(p.String()) + childBytes)}
	work := float64(c.Moves) * float64(max(c.Bytes, 1))
	c.Work = math.MaxInt64
	if work < math.MaxInt64 {
		c.Work = int64(work)
	}
	return c
}

// order lists positions by the code of their first heap, then by tokens,
// then by text: a game's heaps in increasing size (0.77:2 before 0.77:10).
func order(a, b string) int {
	pa, erra := octal.Parse(a)
	pb, errb := octal.Parse(b)
	if erra != nil || errb != nil || pa.NumHeaps() == 0 || pb.NumHeaps() == 0 {
		return strings.Compare(a, b)
	}
	ca, _, _ := pa.Heaps()[0].Heap()
	cb, _, _ := pb.Heaps()[0].Heap()
	if c := strings.Compare(ca.String(), cb.String()); c != 0 {
		return c
	}
	if c := cmp.Compare(pa.Tokens(), pb.Tokens()); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}
