package verify

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidCertificate marks every failure that means "this does not prove
// its claim": a rule broken by an entry or hint, a claim not proved, a
// corrupted file, a content address that does not match. Callers test for
// it with errors.Is; other errors (a missing file) are about the input, not
// the proof.
var ErrInvalidCertificate = errors.New("invalid certificate")

// Failure is the first entry (or the claim) that broke a rule.
type Failure struct {
	Row      int    // 1-based row of the certificate or line of the database; 0 for the claim or the file
	Position string // the entry's position as written, or the claim's root
	Rule     string // the rule broken, e.g. "reach", "win", "order", "claim"
	Detail   string
}

func (f *Failure) Error() string {
	where := "claim"
	if f.Row > 0 {
		where = fmt.Sprintf("row %d", f.Row)
	}
	if f.Position != "" {
		where += " (" + f.Position + ")"
	}
	return fmt.Sprintf("invalid certificate: %s: %s: %s", where, f.Rule, f.Detail)
}

// Unwrap makes errors.Is(f, ErrInvalidCertificate) true.
func (f *Failure) Unwrap() error { return ErrInvalidCertificate }

// IsInvalid reports whether err says the proof is invalid (as opposed to the
// input being unreadable).
func IsInvalid(err error) bool { return errors.Is(err, ErrInvalidCertificate) }

// ErrIncomplete marks a check that could not be finished because
// certificates the proof cites were not found: the proof is neither valid
// nor invalid until they are. Test with errors.Is.
var ErrIncomplete = errors.New("incomplete proof")

// IncompleteError lists the cited certificates a check needed and did not
// find. Missing holds every one the check met, sorted: those cited by a
// certificate that was found, directly or through others. What a missing
// certificate cites is unknown, so more may be needed once they are found.
type IncompleteError struct {
	Missing []string // content addresses, sorted
	Dirs    []string // the directories looked in
}

func (e *IncompleteError) Error() string {
	what := "1 cited certificate"
	if len(e.Missing) != 1 {
		what = fmt.Sprintf("%d cited certificates", len(e.Missing))
	}
	return fmt.Sprintf("incomplete: %s not found in %s: %s", what, strings.Join(e.Dirs, ", "), strings.Join(e.Missing, ", "))
}

// Unwrap makes errors.Is(e, ErrIncomplete) true.
func (e *IncompleteError) Unwrap() error { return ErrIncomplete }
