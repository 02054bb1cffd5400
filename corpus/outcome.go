package corpus

import (
	"fmt"
	"strconv"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/sprouts"
)

// Outcome is who wins 0*n with perfect play: Win when the first player
// (the player to move) wins, Loss when the second player wins, Unknown for
// an open case. It is the project's one outcome type; the corpus's tables
// write it with Mark ("W", "L", "?").
type Outcome = outcome.Outcome

// The outcomes. Unknown is an open case.
const (
	Unknown = outcome.Unknown
	Win     = outcome.Win
	Loss    = outcome.Loss
)

// ParseOutcome reads "W", "L" or "?" (Unknown), and "unknown" as
// outcome.Parse does; anything else is an error naming the text.
func ParseOutcome(s string) (Outcome, error) {
	return outcome.Parse(s)
}

// Conjecture returns what the Sprouts conjecture predicts for 0*n (n ≥ 1):
// the outcome, Win exactly when n mod 6 is 3, 4 or 5, and the Grundy value of
// the extended conjecture, 0 when n mod 6 is 0, 1 or 2 and 1 otherwise.
func Conjecture(n int) (Outcome, uint32) {
	if n%6 >= 3 {
		return Win, 1
	}
	return Loss, 0
}

// StartText returns the canonical text of the n-spot start 0*n ("0" for
// n = 1, "0*n" otherwise), the root every claim of the corpus is about.
func StartText(n int) string {
	if n == 1 {
		return "0"
	}
	return "0*" + strconv.Itoa(n)
}

// maxSpots bounds the n the corpus accepts, far beyond any solved case, so
// that a hostile claim cannot make the parser build a huge position.
const maxSpots = 10000

// ClaimSpots returns n when claim is about the n-spot start 0*n written in
// canonical form, and an error naming the claim otherwise.
func ClaimSpots(claim format.Claim) (int, error) {
	root := claim.Root
	n := 0
	switch {
	case root == "0":
		n = 1
	case len(root) > 2 && root[:2] == "0*":
		v, err := strconv.Atoi(root[2:])
		if err != nil || v < 1 || v > maxSpots {
			return 0, fmt.Errorf("claim %s: the root %q is not an n-spot start 0*n", claim, root)
		}
		n = v
	default:
		return 0, fmt.Errorf("claim %s: the root %q is not an n-spot start 0*n", claim, root)
	}
	p, err := sprouts.Parse(root)
	if err != nil {
		return 0, fmt.Errorf("claim %s: %w", claim, err)
	}
	if p.String() != root || root != StartText(n) {
		return 0, fmt.Errorf("claim %s: the root %q is not in canonical form (%s)", claim, root, p)
	}
	return n, nil
}

// ClaimOutcome returns what a claim about 0*n says of its outcome, and the
// Grundy value when it states one (an outcome L states the value 0). Claims
// with a heap (0*n+*k) say nothing of 0*n alone and are an error.
func ClaimOutcome(claim format.Claim) (Outcome, *uint32, error) {
	if claim.Kind != format.ClaimGrundy && claim.N != 0 {
		return Unknown, nil, fmt.Errorf("claim %s: a claim with a heap says nothing of %s alone", claim, claim.Root)
	}
	out, g := claim.RootOutcome()
	if out == outcome.Unknown {
		return Unknown, nil, fmt.Errorf("claim %s: unknown kind of claim", claim)
	}
	return out, g, nil
}
