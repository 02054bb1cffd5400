package solve_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// endingContext ends after its Err has been asked limit times, so a test
// can tell how soon a search looks at it without measuring time.
type endingContext struct {
	context.Context
	calls atomic.Int64
	limit int64
}

func (c *endingContext) Err() error {
	if c.calls.Add(1) > c.limit {
		return context.Canceled
	}
	return nil
}

// countingRules counts the children a search sees being made.
type countingRules struct {
	sprouts.Rules
	seen *atomic.Int64
}

func (r countingRules) ChildrenUntil(p sprouts.Position, stop func(sprouts.Position) bool) ([]sprouts.Position, bool) {
	return r.Rules.ChildrenUntil(p, func(c sprouts.Position) bool { r.seen.Add(1); return stop(c) })
}

// TestSearchStopsInsideChildren: the children of 0*3000 take minutes to
// make; a search whose context ends must stop while making them, report
// Unknown and not take a half-made list for the position's children.
func TestSearchStopsInsideChildren(t *testing.T) {
	pos, err := sprouts.Parse("0*3000")
	if err != nil {
		t.Fatal(err)
	}
	seen := new(atomic.Int64)
	game := countingRules{seen: seen}
	for name, s := range map[string]interface {
		Solve(context.Context, sprouts.Position, uint32) solve.Outcome
	}{
		"dfpn":  solve.NewDFPN(game, nil, solve.Options{Capacity: 1024}),
		"pdfpn": solve.NewDFPN(game, nil, solve.Options{Capacity: 1024, Threads: 2}),
		"pns":   solve.NewPNS(game, nil, solve.Options{}),
	} {
		seen.Store(0)
		ctx := &endingContext{Context: context.Background(), limit: 4}
		if got := s.Solve(ctx, pos, 0); got != solve.Unknown {
			t.Errorf("%s: %v after the context ended, want unknown", name, got)
		}
		// The root alone has thousands of children to make.
		if n := seen.Load(); n > 500 {
			t.Errorf("%s: %d children made after the context ended", name, n)
		}
	}
}
