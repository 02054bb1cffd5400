// Package cramgame presents the rules of package cram as a game.Game. It
// is apart from package cram, which imports nothing of this module, so
// that the rules stay free of the registry; package game/all registers
// Game.
package cramgame

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/game"
)

// Game is Cram as every layer of spots serves it.
var Game = game.New[cram.Position](Info, Rules{})

// Info describes Cram.
var Info = game.Info{
	Name:          cram.Game,
	Title:         "Cram",
	Noun:          "board",
	Notation:      cram.Notation,
	Description:   "dominoes placed on a board of squares, across or down; the player who cannot place one loses",
	Example:       "5x5",
	Doc:           "github.com/spots-dev/spots/cram",
	SizeName:      "cells",
	ComponentName: "regions",
	MaxInput:      cram.MaxInput,
	Table: game.Table{
		Rules: "A move covers two orthogonally adjacent empty cells; the player who cannot move loses. " +
			"*board*: rows x columns of empty cells, or the rows of a board with holes. " +
			"*symmetry*: what the symmetry strategies prove of an empty board (L when both sides are even, W when one is, blank when both are odd); every claim here must agree. " +
			"*published*: the Grundy value beling/impartial-games publishes for an empty board (its README), which every claim must agree with. ",
		Order:         order,
		Strategy:      symmetry,
		StrategyName:  "symmetry",
		Published:     published,
		PublishedName: publishedName,
	},
}

// order lists empty rectangles first, by rows then columns, and the other
// boards after them by text.
func order(a, b string) int {
	ra, ca := rectangle(a)
	rb, cb := rectangle(b)
	if (ra == 0) != (rb == 0) {
		if ra == 0 {
			return 1
		}
		return -1
	}
	return cmp.Or(cmp.Compare(ra, rb), cmp.Compare(ca, cb), strings.Compare(a, b))
}

// symmetry returns what the symmetry strategies prove of an empty
// rows×cols board: L when both are even (the second player answers each
// move with its image under the half-turn), W when one is even and the
// other odd (the first player covers the two centre cells, then does the
// same), "" when both are odd or the board is no empty rectangle.
func symmetry(text string) string {
	rows, cols := rectangle(text)
	switch {
	case rows == 0:
		return ""
	case rows%2 == 0 && cols%2 == 0:
		return "L"
	case rows%2 == 0 || cols%2 == 0:
		return "W"
	}
	return ""
}

// rectangle returns the size of a board written "HxW", and 0, 0 for any
// other text.
func rectangle(board string) (rows, cols int) {
	hs, ws, ok := strings.Cut(board, "x")
	if !ok {
		return 0, 0
	}
	h, err1 := strconv.Atoi(hs)
	w, err2 := strconv.Atoi(ws)
	if err1 != nil || err2 != nil {
		return 0, 0
	}
	return h, w
}

// Rules are the rules of package cram under the names of game.Rules:
// regions are the components and empty cells the size.
type Rules struct{ cram.Rules }

// Parse returns cram.Parse(text).
func (Rules) Parse(text string) (cram.Position, error) { return cram.Parse(text) }

// FromKey reads a key, which is the canonical text: a text that parses
// but is not canonical is refused.
func (Rules) FromKey(key string) (cram.Position, error) {
	p, err := cram.Parse(key)
	if err == nil && p.Key() != key {
		return p, fmt.Errorf("cram: %q is not a key (the position's key is %q)", key, p.Key())
	}
	return p, err
}

// NumComponents returns the number of regions of p.
func (Rules) NumComponents(p cram.Position) int { return p.NumRegions() }

// Measure returns the cost of generating the children of a Cram
// position: its empty cells, its moves (exactly: the pairs of adjacent
// empty cells, each of which makes one child), a bound on the bytes of a
// child's text (2·Area + 1: a 64x64 board is written in 5 bytes, but its
// children in about 4,000) and their product. It decodes each region once
// and allocates in proportion to its text.
func (Rules) Measure(p cram.Position) game.Cost {
	c := game.Cost{Cells: p.Cells(), Moves: int64(p.EstimateChildren()), Bytes: int64(2*p.Area() + 1)}
	work := float64(c.Moves) * float64(max(c.Bytes, 1))
	c.Work = math.MaxInt64
	if work < math.MaxInt64 {
		c.Work = int64(work)
	}
	return c
}
