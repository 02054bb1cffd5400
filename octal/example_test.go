package octal_test

import (
	"context"
	"fmt"

	"github.com/spots-dev/spots/octal"
	"github.com/spots-dev/spots/solve"
)

// Positions are written in any order and read back canonically: heaps
// sorted, each code once, dead heaps (a single token of Dawson's Kayles)
// dropped.
func ExampleParse() {
	p, err := octal.Parse("0.77:7+3+0.07:1+0.07:4+0.77:5")
	fmt.Println(p, err)
	fmt.Println(p.NumHeaps(), "heaps,", p.Tokens(), "tokens")
	// Output:
	// 0.07:4+0.77:3+5+7 <nil>
	// 4 heaps, 19 tokens
}

// A row of four Kayles pins: knock down one pin or two adjacent ones.
func ExamplePosition_Children() {
	for _, c := range octal.MustParse("0.77:4").Children() {
		fmt.Println(c)
	}
	// Output:
	// 0.77:1+1
	// 0.77:1+2
	// 0.77:2
	// 0.77:3
}

// The Grundy value of a row of 27 Kayles pins (OEIS A002186: 8) by the
// solver's DFPN.
func ExampleRules() {
	s := solve.NewDFPN(octal.Rules{}, nil, solve.Options{Capacity: 1 << 12})
	g, ok := s.Grundy(context.Background(), octal.MustParse("0.77:27"))
	fmt.Println(g, ok)
	// Output: 8 true
}
