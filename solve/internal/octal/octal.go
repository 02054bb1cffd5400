// Package octal implements octal games (Kayles, Dawson's Kayles, …) as a
// second game for testing the solver: heaps split into independent heaps,
// which exercises sums, folding and Grundy values, and their values are easy
// to compute by plain mex.
//
// A game is given by its octal code, "0.d1d2d3…": digit dk says what a move
// that takes k tokens from one heap may leave: bit 1 nothing, bit 2 one
// heap, bit 4 two heaps. Kayles is 0.77, Dawson's Kayles 0.07.
package octal

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Game is an octal game. Positions are sums of heaps written as their sizes
// in increasing order, joined by '+' ("" is the empty position).
type Game struct {
	digits []uint8 // digits[k-1] for moves taking k tokens
}

// New parses an octal code such as "0.77".
func New(code string) (Game, error) {
	rest, ok := strings.CutPrefix(code, "0.")
	if !ok || rest == "" {
		return Game{}, fmt.Errorf("octal code %q: want 0.d1d2…", code)
	}
	var g Game
	for _, c := range rest {
		if c < '0' || c > '7' {
			return Game{}, fmt.Errorf("octal code %q: %q is not an octal digit", code, c)
		}
		g.digits = append(g.digits, uint8(c-'0'))
	}
	return g, nil
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

// Children returns the positions one move away from the single heap p.
func (g Game) Children(p string) []string {
	n := sizes(p)[0]
	seen := map[string]bool{}
	var out []string
	add := func(hs ...int) {
		q := Heaps(hs...)
		if !seen[q] {
			seen[q] = true
			out = append(out, q)
		}
	}
	for k := 1; k <= len(g.digits) && k <= n; k++ {
		d, left := g.digits[k-1], n-k
		if d&1 != 0 && left == 0 {
			add()
		}
		if d&2 != 0 && left > 0 {
			add(left)
		}
		if d&4 != 0 {
			for a := 1; 2*a <= left; a++ {
				add(a, left-a)
			}
		}
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
