package verify

import (
	"fmt"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/sprouts"
)

// values holds the Grundy values of the entries checked so far, by key.
type values map[string]uint32

// of returns the xor of the values of p's lands, and whether every land has
// a value.
func (v values) of(p sprouts.Position) (uint32, bool) {
	x := uint32(0)
	for _, land := range p.Lands() {
		g, ok := v[land.Key()]
		if !ok {
			return 0, false
		}
		x ^= g
	}
	return x, true
}

// claimRoot parses the root of a claim, which must be written in canonical
// form so that a claim has one text.
func claimRoot(c format.Claim) (sprouts.Position, error) {
	p, err := sprouts.Parse(c.Root)
	if err != nil {
		return p, &Failure{Position: c.Root, Rule: "claim", Detail: err.Error()}
	}
	if p.String() != c.Root {
		return p, &Failure{Position: c.Root, Rule: "claim", Detail: fmt.Sprintf("the root is not in canonical form (%s)", p)}
	}
	return p, nil
}

// checkClaim decides the claim from the values of valid entries. A Win may
// also be shown by one move of the root to a position of value N.
func checkClaim(c format.Claim, root sprouts.Position, known values) error {
	x, ok := known.of(root)
	fail := func(detail string, args ...any) error {
		return &Failure{Position: c.Root, Rule: "claim", Detail: fmt.Sprintf(detail, args...)}
	}
	switch c.Kind {
	case format.ClaimLoss, format.ClaimGrundy:
		if !ok {
			return fail("the root's lands are not all entries")
		}
		if x != c.N {
			return fail("the root's value is %d, not %d", x, c.N)
		}
		return nil
	case format.ClaimWin:
		if ok && x != c.N {
			return nil
		}
		for _, child := range root.Children() {
			if y, ok := known.of(child); ok && y == c.N {
				return nil
			}
		}
		if ok {
			return fail("the root's value is %d, so root + *%d is lost", x, c.N)
		}
		return fail("no move from the root reaches a position of value %d, and its own value is not known", c.N)
	}
	return fail("unknown kind of claim")
}

// landMoves remembers the children of lands: a checker needs those of every
// entry and, for winning replies, of the lands of its children, which are
// often entries themselves.
type landMoves struct {
	m map[string][]sprouts.Position
}

const landMovesMax = 1 << 16

func (lm *landMoves) of(land sprouts.Position) []sprouts.Position {
	if kids, ok := lm.m[land.Key()]; ok {
		return kids
	}
	kids := land.Children()
	if lm.m == nil || len(lm.m) >= landMovesMax {
		lm.m = make(map[string][]sprouts.Position)
	}
	lm.m[land.Key()] = kids
	return kids
}
