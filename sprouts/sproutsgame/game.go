// Package sproutsgame presents the rules of package sprouts as a
// game.Game. It is apart from package sprouts, which imports nothing of
// this module, so that the rules stay free of the registry; package
// game/all registers Game.
package sproutsgame

import (
	"math"
	"strconv"
	"strings"

	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/sprouts"
)

// Game is Sprouts as every layer of spots serves it.
var Game = game.New[sprouts.Position](Info, Rules{})

// Info describes Sprouts.
var Info = game.Info{
	Name:          sprouts.Game,
	Title:         "Sprouts",
	Noun:          "position",
	Notation:      sprouts.Notation,
	Description:   "spots joined by lines, each spot at most 3 lines, a new spot on every line; the player who cannot draw loses",
	Example:       "0*6",
	Doc:           "github.com/spots-dev/spots/sprouts",
	SizeName:      "lives",
	ComponentName: "lands",
	MaxInput:      sprouts.MaxInput,
}

// Rules are the rules of package sprouts under the names of game.Rules:
// lands are the components and lives the size.
type Rules struct{ sprouts.Rules }

// WithCache returns the rules making children through a land cache of
// their own (sprouts.NewCache(bytes)): Game.WithCache, for whoever runs a
// search or a check of Sprouts through the registry.
func (Rules) WithCache(bytes int64) game.Rules[sprouts.Position] {
	return Rules{sprouts.Rules{Cache: sprouts.NewCache(bytes)}}
}

// Parse returns sprouts.Parse(text).
func (Rules) Parse(text string) (sprouts.Position, error) { return sprouts.Parse(text) }

// FromKey returns sprouts.FromKey(key).
func (Rules) FromKey(key string) (sprouts.Position, error) { return sprouts.FromKey(key) }

// NumComponents returns the number of lands of p.
func (Rules) NumComponents(p sprouts.Position) int { return p.NumLands() }

// Measure returns the cost of generating the children of p.
func (Rules) Measure(p sprouts.Position) game.Cost { return Measure(p) }

// Measure returns the cost of generating the children of p. It reads p's
// text once and allocates in proportion to it. Moves is an upper bound on
// the moves the generator of package sprouts tries for the position (each
// builds and canonicalises one child): for every region, lines inside a
// boundary of L corners (L(L+1)/2 pairs) times the ways of sharing the
// region's other boundaries between the two sides, plus lines joining two
// boundaries. Boundaries that are lone spots (0) are interchangeable, so k
// of them share in k+1 ways; every other boundary counts as distinct (2
// ways), which can only overestimate. (sprouts.Position.EstimateChildren
// counts every boundary as distinct, so it grows as 2^k for 0*k and would
// refuse positions such as 0*40 that are cheap to expand.) Bytes is the
// length of the position's key.
func Measure(p sprouts.Position) game.Cost {
	c := game.Cost{Lives: p.Lives(), Bytes: int64(len(p.Key()))}
	moves := 0.0
	for _, land := range strings.Split(p.String(), "+") {
		for _, region := range strings.Split(land, "|") {
			zeros := 0.0
			var lens []float64
			for _, b := range strings.Split(region, ".") {
				if k, ok := strings.CutPrefix(b, "0*"); ok {
					n, err := strconv.Atoi(k)
					if err != nil {
						n = len(b) // not written by String; count generously
					}
					zeros += float64(n)
					c.Boundaries += n
					continue
				}
				c.Boundaries++
				if b == "0" {
					zeros++
					continue
				}
				n, letters := symbols(b)
				c.Letters += letters
				lens = append(lens, float64(n))
			}
			moves += regionMoves(zeros, lens)
		}
	}
	c.Moves = saturate(moves)
	c.Work = saturate(moves * float64(max(c.Bytes, 1)))
	return c
}

// regionMoves bounds the moves of a region with the given number of lone
// spots and the lengths of its other boundaries.
func regionMoves(zeros float64, lens []float64) float64 {
	nz := float64(len(lens))
	m := 0.0
	if zeros > 0 {
		m += zeros * math.Pow(2, nz) // a loop at one lone spot; the others share in zeros ways
		if zeros > 1 {
			m++ // two lone spots joined
		}
	}
	sum := 0.0
	for _, l := range lens {
		m += l * (l + 1) / 2 * (zeros + 1) * math.Pow(2, nz-1)
		m += l * min(zeros, 1) // joined to a lone spot
		m += l * sum           // joined to an earlier boundary
		sum += l
	}
	return m
}

// symbols counts the corners written in a boundary's text and how many of
// them are letters (a…z, A…Z, m(k), n(k)).
func symbols(b string) (n, letters int) {
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case (c == 'm' || c == 'n') && i+1 < len(b) && b[i+1] == '(':
			if j := strings.IndexByte(b[i:], ')'); j >= 0 {
				i += j
			}
			n++
			letters++
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			n++
			letters++
		default:
			n++
		}
	}
	return n, letters
}

// saturate converts x to an int64, math.MaxInt64 when it is larger or NaN.
func saturate(x float64) int64 {
	if x >= math.MaxInt64 || math.IsNaN(x) {
		return math.MaxInt64
	}
	return int64(x)
}
