// Package cramgame presents the rules of package cram as a game.Game. It
// is apart from package cram, which imports nothing of this module, so
// that the rules stay free of the registry; package game/all registers
// Game.
package cramgame

import (
	"fmt"
	"math"

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
