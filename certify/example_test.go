package certify_test

import (
	"context"
	"fmt"
	"os"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// Solve 0*6, then write a certificate of the result from the values the
// search proved; Write verifies the written file.
func ExampleWrite() {
	dir, _ := os.MkdirTemp("", "certs")
	defer os.RemoveAll(dir)
	root := sprouts.MustParse("0*6")
	s := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{})
	out := s.Solve(context.Background(), root, 0)
	claim, err := certify.Claim(root, 0, out, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, res, err := certify.Write(dir, s.DB(), claim, verify.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Claim, res.Entries, "entries")
	// Output: 0*6=L 62 entries
}
