package solve_test

import (
	"context"
	"testing"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestRootChildren checks the iterations counted below the root's
// children: each is a child of the root, they come most first, and with
// the root's own entries they add up to the search's iterations (exactly
// so for one thread, which enters the root once per call). A
// lost root has every move among them; a root solved before has none.
func TestRootChildren(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		pos     string
		threads int
	}{
		{"0*5", 1}, {"0*7", 1}, {"0*8", 1}, {"0*8", 3},
	} {
		root := sprouts.MustParse(tc.pos)
		s := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Threads: tc.threads, Lockstep: tc.threads > 1})
		out := s.Solve(ctx, root, 0)
		if out == solve.Unknown {
			t.Fatalf("%s: unsolved", tc.pos)
		}
		below := s.RootChildren()
		kids := map[string]bool{}
		for _, k := range root.Children() {
			kids[k.Key()] = true
		}
		var sum uint64
		for i, c := range below {
			if !kids[c.Pos.Key()] || c.N != 0 {
				t.Errorf("%s: %v + *%d is not a child of the root", tc.pos, c.Pos, c.N)
			}
			if i > 0 && c.Iterations > below[i-1].Iterations {
				t.Errorf("%s: %v (%d) after %v (%d): not most first", tc.pos, c.Pos, c.Iterations, below[i-1].Pos, below[i-1].Iterations)
			}
			sum += c.Iterations
		}
		total := s.Stats().Iterations
		own := total - sum
		if sum > total || (tc.threads == 1 && own != 1) || own > uint64(tc.threads) {
			t.Errorf("%s, %d threads: %d iterations below the root's children of %d in all", tc.pos, tc.threads, sum, total)
		}
		if out == solve.Loss && len(below) != len(kids) {
			t.Errorf("%s is lost, but the search entered %d of its %d moves", tc.pos, len(below), len(kids))
		}
		if s.Solve(ctx, root, 0); len(s.RootChildren()) != 0 {
			t.Errorf("%s solved again from the database: %d children still counted", tc.pos, len(s.RootChildren()))
		}
	}
}
