package solve_test

import (
	"context"
	"fmt"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// Who wins 0*5, the five-spot start of Sprouts, with sequential DFPN.
func ExampleDFPN_Solve() {
	s := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{})
	out := s.Solve(context.Background(), sprouts.MustParse("0*5"), 0)
	fmt.Println("0*5:", out)
	// Output: 0*5: W
}

// The Grundy value of 0*4: a position is lost for the player to move
// exactly when it is 0.
func ExampleDFPN_Grundy() {
	s := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{})
	g, ok := s.Grundy(context.Background(), sprouts.MustParse("0*4"))
	fmt.Println(g, ok)
	// Output: 1 true
}
