package main

import (
	"fmt"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/verify"
	"github.com/spots-dev/spots/verify/sprouts2"
)

// expect holds a valid certificate's report to the claim the user
// expects (--claim; nil: none): a valid proof of another claim answers
// another question, and is rejected (exit 1). With independent the roots
// are compared by the second implementation of the rules, which has no
// canonical form (the expected root is left as typed).
func expect(r report, want *format.Claim, independent bool) report {
	if want == nil || !r.Valid {
		return r
	}
	got, err := format.ParseClaim(r.Claim)
	if err == nil && sameClaim(*want, got, independent) {
		return r
	}
	r.Valid, r.Rule = false, "claim"
	r.Error = fmt.Sprintf("%s: the certificate proves %s, not the claim expected, %s", verify.ErrInvalidCertificate, r.Claim, want)
	return r
}

// sameClaim reports whether a and b are one claim: the same kind and
// number, about the same position.
func sameClaim(a, b format.Claim, independent bool) bool {
	if a.Kind != b.Kind || a.N != b.N {
		return false
	}
	if !independent || a.Root == b.Root {
		return a.Root == b.Root
	}
	pa, errA := sprouts2.Parse(a.Root)
	pb, errB := sprouts2.Parse(b.Root)
	if errA != nil || errB != nil {
		return false
	}
	same, err := sprouts2.SamePosition(pa, pb, verify.DefaultLimits.Work)
	return err == nil && same
}
