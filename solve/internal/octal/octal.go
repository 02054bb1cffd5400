// Package octal presents octal games (Kayles, Dawson's Kayles, …) to the
// solver's tests as a second game with positions of another type: heaps
// split into independent heaps, which exercises sums, folding and Grundy
// values, and their values are easy to compute by plain mex.
//
// The rules are those of the rules package octal at the root of the
// module; this package writes a position of one game as its heap sizes
// alone, a plain string, so that the solver is also tested with a
// position type that is not a struct.
package octal

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	rules "github.com/spots-dev/spots/octal"
)

// Game is an octal game. Positions are sums of heaps written as their sizes
// in increasing order, joined by '+' ("" is the empty position).
type Game struct {
	code rules.Code
}

// New parses an octal code such as "0.77".
func New(code string) (Game, error) {
	c, err := rules.ParseCode(code)
	if err != nil {
		return Game{}, fmt.Errorf("octal game: %w", err)
	}
	return Game{code: c}, nil
}

// Heaps returns the position made of the given heaps.
func Heaps(sizes ...int) string {
	var s []int
	for _, n := range sizes {
		if n > 0 {
			s = append(s, n)
		}
	}
	slices.Sort(s)
	parts := make([]string, len(s))
	for i, n := range s {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, "+")
}

func sizes(p string) []int {
	if p == "" {
		return nil
	}
	var out []int
	for _, f := range strings.Split(p, "+") {
		n, _ := strconv.Atoi(f)
		out = append(out, n)
	}
	return out
}

// Key returns p: positions are canonical.
func (Game) Key(p string) string { return p }

// Components returns the heaps of p.
func (Game) Components(p string) []string {
	var out []string
	for _, n := range sizes(p) {
		out = append(out, strconv.Itoa(n))
	}
	return out
}

// Combine returns the sum of positions.
func (Game) Combine(ps []string) string {
	var all []int
	for _, p := range ps {
		all = append(all, sizes(p)...)
	}
	return Heaps(all...)
}

// Size returns the number of tokens.
func (Game) Size(p string) int {
	t := 0
	for _, n := range sizes(p) {
		t += n
	}
	return t
}

// EstimateChildren returns the number of tokens.
func (g Game) EstimateChildren(p string) int { return g.Size(p) }

// Children returns the positions one move away from the single heap p,
// as the rules package makes them (heaps without a move dropped).
func (g Game) Children(p string) []string {
	pos, err := g.code.Heaps(sizes(p)...)
	if err != nil {
		return nil // not reached: the tests' heaps are small
	}
	var out []string
	for _, c := range pos.Children() {
		var ns []int
		for _, h := range c.Heaps() {
			_, n, _ := h.Heap()
			ns = append(ns, n)
		}
		out = append(out, Heaps(ns...))
	}
	return out
}

// Grundy returns the Grundy values of heaps 0…max by plain mex over moves.
func (g Game) Grundy(max int) []uint32 {
	gn := make([]uint32, max+1)
	for n := 1; n <= max; n++ {
		seen := map[uint32]bool{}
		for _, c := range g.Children(strconv.Itoa(n)) {
			v := uint32(0)
			for _, h := range sizes(c) {
				v ^= gn[h]
			}
			seen[v] = true
		}
		for seen[gn[n]] {
			gn[n]++
		}
	}
	return gn
}
