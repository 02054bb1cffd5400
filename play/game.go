package play

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/game"
)

// MaxHeap is the largest Nim heap a Game may hold: a heap of size n has n
// moves, and a certificate's values are at most format.MaxReach, so a
// larger heap is never needed to make a value 0.
const MaxHeap = format.MaxReach

// heapMark separates a position from its heap in the text of a Game, as
// in a certificate's claim (POS+*N=W).
const heapMark = "+*"

// Game is a position of a registered game plus a Nim heap of size Heap
// (0: no heap), the sum of the two games. Its value is the xor of the
// values of the position's components and Heap.
type Game struct {
	Rules    game.Game // the registered game Position is of
	Position Position
	Heap     uint32
}

// ParseGame reads a position of the game r, optionally followed by a Nim
// heap: "0*9", "0*3+*1", "!+*2" (the empty position and a heap) in
// Sprouts, and so in every game. The heap is a decimal number
// without sign or leading zeros, at most MaxHeap. The position is in the
// game's notation and need not be canonical. Errors name the text and
// what is wrong.
func ParseGame(r game.Game, s string) (Game, error) {
	g := Game{Rules: r}
	text := s
	if i := strings.LastIndex(s, heapMark); i >= 0 {
		n, err := parseHeap(s[i+len(heapMark):])
		if err != nil {
			return Game{}, fmt.Errorf("parse %q: %w", cut(s), err)
		}
		text, g.Heap = s[:i], n
	}
	if text == "" {
		return Game{}, fmt.Errorf("parse %q: no position (write ! for the empty one, as in !+*2)", cut(s))
	}
	p, err := r.Parse(text)
	if err != nil {
		return Game{}, err // already names the text
	}
	g.Position = p
	return g, nil
}

func parseHeap(s string) (uint32, error) {
	switch {
	case s == "":
		return 0, fmt.Errorf("the heap size after %q is missing", heapMark)
	case strings.Trim(s, "0123456789") != "":
		return 0, fmt.Errorf("the heap size %q is not a decimal number", cut(s))
	case len(s) > 1 && s[0] == '0':
		return 0, fmt.Errorf("the heap size %q has a leading zero", cut(s))
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || n > MaxHeap {
		return 0, fmt.Errorf("the heap size %s is larger than %d", cut(s), MaxHeap)
	}
	return uint32(n), nil
}

// String writes g canonically: the position's canonical text, then
// "+*N" when the heap is not empty. ParseGame reads it back as g.
func (g Game) String() string {
	if g.Position == nil {
		return "" // the zero Game, of no game
	}
	if g.Heap == 0 {
		return g.Position.String()
	}
	return g.Position.String() + heapMark + strconv.FormatUint(uint64(g.Heap), 10)
}

// Terminal reports whether no move is left: the player to move loses.
func (g Game) Terminal() bool {
	if g.Heap > 0 {
		return false
	}
	for _, c := range g.Rules.Components(g.Position) {
		if len(g.Rules.Children(c)) > 0 {
			return false
		}
	}
	return true
}

// cut shortens a long text for an error message.
func cut(s string) string {
	if len(s) <= 80 {
		return s
	}
	i := 80
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
