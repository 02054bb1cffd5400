package prove

import (
	"context"
	"fmt"
	"time"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/verify"
)

// Resumed is a search resumed from a checkpoint. A checkpoint is input,
// not truth: its sums have no key, so whoever can write its directory can
// put any value in it, and the search believes the values it loads. So an
// outcome or Grundy value found after a resume is returned only once the
// checker has derived it from the rules with the search's values (as
// Certify does, without writing a certificate). If it cannot, the
// checkpoint did not back the result: Restart gives the search again
// without it, which solves the position from nothing. A forged checkpoint
// costs time, never a wrong answer.
//
// The same holds of a search that drew on values it did not derive: a
// pool of certificates (Pool), or a database given by its user. With a
// Pool, the check cites the pool's certificates and checks each that the
// result relies on (Library, which a pipeline with the same library then
// does not check again): a forged certificate in the pool costs time,
// never a wrong answer.
type Resumed[P fmt.Stringer] struct {
	solve.Searcher[P]
	// Game is the game of the positions (a name of the registry, package
	// game).
	Game string
	// Pool is the certificates the search drew on, if any, and Library
	// the checker's library that finds them (nil: the pool's own).
	Pool    *certify.Pool
	Library *verify.Library
	// Verdicts, if set, answers for cited certificates this build of the
	// checker found valid before (verify.Options.Verdicts).
	Verdicts *verify.Verdicts
	// Restart returns a new search, without the checkpoint's values, to
	// replace the one whose result they did not back (why says how).
	Restart func(why error) solve.Searcher[P]
	// Progress, if set, hears how the check of a result goes, as
	// verify.Options.Progress does: of a large proof it takes minutes.
	// It is called for the derivation from the search's values (done of
	// at most total entries), then, with a Pool, for the check of the
	// certificate derived (done of its total).
	Progress func(done, total int)

	spent    solve.Stats         // of the searches given up
	cert     *format.Certificate // of the last result backed
	checking time.Duration       // spent in backed
}

// Solve implements solve.Searcher.
func (r *Resumed[P]) Solve(ctx context.Context, pos P, n uint32) solve.Outcome {
	r.cert = nil
	out := r.Searcher.Solve(ctx, pos, n)
	if !out.Known() {
		return out
	}
	if err := r.backed(pos, n, out, nil); err != nil {
		r.giveUp(err)
		return r.Searcher.Solve(ctx, pos, n)
	}
	return out
}

// Grundy implements solve.Searcher.
func (r *Resumed[P]) Grundy(ctx context.Context, pos P) (uint32, bool) {
	r.cert = nil
	g, ok := r.Searcher.Grundy(ctx, pos)
	if !ok {
		return g, ok
	}
	if err := r.backed(pos, 0, solve.Unknown, &g); err != nil {
		r.giveUp(err)
		return r.Searcher.Grundy(ctx, pos)
	}
	return g, ok
}

// Stats implements solve.Searcher: the work of the searches given up
// counts as the search's.
func (r *Resumed[P]) Stats() solve.Stats {
	st := r.Searcher.Stats()
	st.Iterations += r.spent.Iterations
	st.Expansions += r.spent.Expansions
	st.Seconds += r.spent.Seconds
	return st
}

// RootChildren is that of the search when it is a DFPN (nil otherwise).
func (r *Resumed[P]) RootChildren() []solve.RootChild[P] {
	if d, ok := r.Searcher.(*solve.DFPN[P]); ok {
		return d.RootChildren()
	}
	return nil
}

// CheckSeconds returns the seconds spent checking results against the
// rules: time of the run that is not search, which a caller timing the
// search by the clock (a checkpoint's totals) takes out.
func (r *Resumed[P]) CheckSeconds() float64 { return r.checking.Seconds() }

// Certificate implements Certified: the certificate the check of the
// last result derived (nil if it found none, or found it with a search
// given up), so that Pipeline.Certify writes it instead of deriving the
// same proof again.
func (r *Resumed[P]) Certificate() *format.Certificate { return r.cert }

// backed checks the claim of a result (an outcome of pos + *n, or with
// grundy its Grundy value) against the search's values, from the rules,
// and keeps the certificate it derives. The positions checked are those
// the search expanded, so no limit applies.
func (r *Resumed[P]) backed(pos P, n uint32, out solve.Outcome, grundy *uint32) error {
	defer func(start time.Time) { r.checking += time.Since(start) }(time.Now())
	claim, err := certify.Claim(pos, n, out, grundy)
	if err != nil {
		return err
	}
	all := verify.Limits{Lives: -1, Boundaries: -1, Letters: -1, Cells: -1, Moves: -1, Work: -1}
	if r.Pool == nil {
		d, err := verify.FromValuesOf(r.Game, r.DB().Range)
		if err != nil {
			return fmt.Errorf("%s: %w", claim, err)
		}
		proof, err := d.Check(claim, verify.Options{Limits: all, Progress: r.Progress})
		if err != nil {
			return fmt.Errorf("%s: %w", claim, err)
		}
		r.cert = proof.Certificate(certify.Producer, certify.DevVersion)
		r.cert.Created = time.Now().UTC()
		return nil
	}
	if r.Library == nil {
		r.Library = r.Pool.Library()
	}
	opt := verify.Options{Limits: all, Library: r.Library, Verdicts: r.Verdicts, Progress: r.Progress}
	cert, err := certify.BuildCiting(r.Game, r.DB(), r.Pool, claim, opt)
	if err != nil {
		return err
	}
	// Checked within the default limits, as spots-verify checks: the
	// certificates cited are strangers' files.
	opt = verify.Options{Library: r.Library, Verdicts: r.Verdicts, Progress: r.Progress}
	if _, err := verify.CertificateWith(cert, opt); err != nil {
		return fmt.Errorf("%s: %w", claim, err)
	}
	r.cert = cert
	return nil
}

// Drawn returns the pool the search draws on: its Pool until the pool
// failed to back a result, nil after.
func (r *Resumed[P]) Drawn() *certify.Pool { return r.Pool }

// giveUp replaces the search by one without the checkpoint and without the
// pool.
func (r *Resumed[P]) giveUp(why error) {
	r.Pool = nil
	st := r.Searcher.Stats()
	r.spent.Iterations += st.Iterations
	r.spent.Expansions += st.Expansions
	r.spent.Seconds += st.Seconds
	r.Searcher = r.Restart(why)
}
