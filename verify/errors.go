package verify

import (
	"errors"
	"fmt"
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
